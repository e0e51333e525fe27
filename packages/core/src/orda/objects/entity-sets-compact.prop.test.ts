/**
 * Issue 47: a kept entity set costs 4 bytes a member. Whatever made the selection (a list of row
 * ids, a lazy ordering, a query, the table's own list of every row, a set algebra, a set adopted
 * from another process with members it names by negative row ids), what the store keeps is an
 * Int32Array alone in its buffer holding the members in the set's order; the store counts its
 * members, so the member bounds are bytes ÷ 4. Sets of every row share one array as they did, and
 * set algebra on kept sets answers as on the selections they were made from. Without a clock:
 * the property is what the store holds, not a measure of the heap (bench/entity-set-memory.ts
 * measures that).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import type { EntitySelection } from './entity-selection.js'
import type { StoredSet } from './entity-sets.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'n', type: 'long', indexed: true },
        { name: 'm', type: 'long' },
        { name: 'label', type: 'string' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

const ROWS = 300

/** A datastore of `ids` (row-id order: ascending ids keep the key order the row-id order). */
const fresh = (ids: readonly number[] = Array.from({ length: ROWS }, (_, i) => i + 1)) => {
  let uuid = 0
  const ds = createDatastore(MODEL, {
    data: {
      Item: ids.map((ID, i) => ({ ID, n: (i * 37) % 50, m: (i * 11) % 7, label: `L${i % 13}` })),
    },
    clock: new ManualClock(Date.UTC(2026, 0, 1)),
    newUuid: () => `${(++uuid).toString(16).padStart(8, '0')}-0000-0000-0000-000000000000`,
  })
  const Item = ds.dataClass('Item')
  const rowOf = new Map(
    Item.all()
      .toArray()
      .map((e) => [e.key as number, e.rowId]),
  )
  const kept: StoredSet[] = []
  ds.entitySets.observe({ kept: (set) => kept.push(set) })
  /** Keeps `selection`; the set as the store holds it. */
  const keep = (selection: EntitySelection, sorted = false): StoredSet => {
    const set = selection.keep({ sorted })
    const stored = kept.at(-1)!
    expect(stored.id).toBe(set.id)
    return stored
  }
  return { ds, Item, rowOf, keep }
}

/** Whether `rows` is an Int32Array holding `expected` and nothing else: 4 bytes a member. */
function expectCompact(rows: unknown, expected: ArrayLike<number>): void {
  expect(rows).toBeInstanceOf(Int32Array)
  const typed = rows as Int32Array
  expect(typed.byteOffset).toBe(0)
  expect(typed.byteLength).toBe(4 * expected.length)
  expect(typed.buffer.byteLength).toBe(4 * expected.length)
  expect(Array.from(typed)).toEqual(Array.from(expected))
}

const keysOf = (s: EntitySelection): (number | null)[] =>
  s.members().map((e) => (e ? (e.key as number) : null))

const ORDERS = ['n', 'n desc', 'm, n desc', 'label desc, ID', 'ID desc'] as const

describe('entity sets kept as Int32Arrays', () => {
  it('keeps sorted and unsorted selections as their members in order, 4 bytes each, and set algebra on them answers as on the selections', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: ROWS }), { maxLength: 200 }),
        fc.uniqueArray(fc.integer({ min: 1, max: ROWS }), { maxLength: 200 }),
        fc.constantFrom(...ORDERS),
        fc.integer({ min: 0, max: 50 }),
        fc.uniqueArray(fc.integer({ min: 1, max: ROWS }), { maxLength: 20 }),
        (aKeys, bKeys, order, below, dropped) => {
          const { ds, Item, rowOf, keep } = fresh()
          const a = Item.select(aKeys.map((k) => rowOf.get(k)!))
          const b = Item.select(bKeys.map((k) => rowOf.get(k)!))
          // Every way a selection is made: given row ids, a lazy ordering of them, a query with
          // and without an order, the whole table in key order and in another order, algebra.
          const made: [EntitySelection, boolean][] = [
            [a, false],
            [a.orderBy(order), true],
            [Item.query(`n < ${below}`), false],
            [Item.query(`n < ${below} order by ${order}`), true],
            [Item.all(), false],
            [Item.all().orderBy(order), true],
            [a.and(b), false],
            [a.orderBy(order).or(b), true],
            [a.minus(b.orderBy(order)), false],
          ]
          let members = 0
          const stored = made.map(([selection, sorted]) => {
            const set = keep(selection, sorted)
            expectCompact(set.rowIds, selection.rowIds)
            expect(set.sorted).toBe(sorted)
            members += Math.max(1, selection.length)
            return set
          })
          // What the bounds count is what the store holds: its members, 4 bytes each.
          expect(ds.entitySets.members).toBe(members)
          expect(ds.entitySets.members).toBe(
            stored.reduce((sum, s) => sum + Math.max(1, s.rowIds.byteLength / 4), 0),
          )
          // Members deleted since read as null, in place, in the kept order.
          for (const key of dropped) Item.get(key)?.dropOrFail()
          for (const [i, [selection]] of made.entries()) {
            const set = ds.entitySets.get(stored[i]!.id)!
            expect(keysOf(set.selection)).toEqual(keysOf(selection))
          }
          // Algebra on kept sets (typed arrays) against the same on the selections (arrays).
          const sets = stored.map((s) => ds.entitySets.get(s.id)!.selection)
          for (let i = 0; i < made.length; i += 2) {
            const j = (i + 1) % made.length
            const [x, y] = [made[i]![0], made[j]![0]]
            const [kx, ky] = [sets[i]!, sets[j]!]
            expect(keysOf(kx.and(ky))).toEqual(keysOf(x.and(y)))
            expect(keysOf(kx.or(ky))).toEqual(keysOf(x.or(y)))
            expect(keysOf(kx.minus(ky))).toEqual(keysOf(x.minus(y)))
            expect(kx.intersects(ky)).toBe(x.intersects(y))
            expect(keysOf(kx.clean())).toEqual(keysOf(x.clean()))
            expect(keysOf(kx.orderBy(order))).toEqual(keysOf(x.orderBy(order)))
            expect(kx.sum('m')).toBe(x.sum('m'))
            // A kept set kept again (a read with $method=entityset) holds the same members.
            expectCompact(keep(kx).rowIds, x.rowIds)
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it('shares one array among the sets of every row, as long as no row comes or goes', () => {
    // Ascending keys: the key order is the row-id order; then keys out of order: an array.
    for (const ids of [
      Array.from({ length: ROWS }, (_, i) => i + 1),
      Array.from({ length: ROWS }, (_, i) => ((i * 7) % ROWS) + 1),
    ]) {
      const { ds, Item, keep } = fresh(ids)
      const first = keep(Item.all())
      const second = keep(Item.all())
      expectCompact(first.rowIds, Item.all().rowIds)
      expect(second.rowIds).toBe(first.rowIds)
      // A set of every row is still known as one (aggregates read the table's own list).
      expect(Item.table.isOrderedRowIds(first.rowIds)).toBe(true)
      expect(ds.entitySets.get(first.id)!.selection.length).toBe(ROWS)
      Item.create({ ID: 10_000, n: 1 })
      const third = keep(Item.all())
      expect(third.rowIds).not.toBe(first.rowIds)
      expect(Item.table.isOrderedRowIds(first.rowIds)).toBe(false)
      expect(third.rowIds.length).toBe(ROWS + 1)
      expect(first.rowIds.length).toBe(ROWS)
      expect(keysOf(ds.entitySets.get(first.id)!.selection)).not.toContain(10_000)
    }
  })

  it('holds an ordered read of many rows in the array its ordering made: no copy of the members', () => {
    // Issue 61: 100 sorted sets of 100,000 members grew the resident set by 77-99 MB, not 40:
    // what the store kept was 4 bytes a member, but each ordering made its rows as an array of
    // numbers (8 bytes a member, outside the young generation, kept until a full collection) that
    // the set copied. Past a few thousand rows an ordering now answers an Int32Array, which the
    // set keeps as it is. Keys out of row-id order, so that the key order is no list of the table's.
    const many = 5000
    const { Item, keep } = fresh(Array.from({ length: many }, (_, i) => ((i * 7919) % many) + 1))
    for (const order of [...ORDERS, 'n desc', 'label', 'ID']) {
      const selection = Item.query(`ID > 0 order by ${order}`)
      const rows = selection.rowIds
      expect(rows, order).toBeInstanceOf(Int32Array)
      const stored = keep(selection, true)
      expect(stored.rowIds, order).toBe(rows)
      expectCompact(stored.rowIds, rows)
    }
  })

  it('keeps members named by negative row ids (a set adopted from another process)', () => {
    const { ds, Item, rowOf, keep } = fresh()
    const rows = [rowOf.get(5)!, -1, rowOf.get(2)!, -2]
    const stored = keep(Item.select(rows), true)
    expectCompact(stored.rowIds, rows)
    const set = ds.entitySets.get(stored.id)!
    expect(keysOf(set.selection)).toEqual([5, null, 2, null])
    expect(keysOf(set.selection.and(Item.select([-2, rowOf.get(5)!])))).toEqual([5, null])
    expect(keysOf(set.selection.clean())).toEqual([5, 2])
  })
})
