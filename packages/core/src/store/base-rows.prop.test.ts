/**
 * Property test of rows kept in a load's columns (base-rows.ts): a store loaded from a data file
 * (its rows in columns until read or written) and the same store built by creates alone (every
 * row a record) answer the same after any sequence of reads, updates, drops, creates, snapshots and
 * restores: every entity's values, stamp and timestamp, queries that scan, use an index, order and
 * aggregate, and the dumped data file. Reads also keep identity (`get(k) === get(k)`), and a
 * version held before a write or a restore still reads as it did.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { createDatastore, type Datastore } from '../orda/objects/datastore.js'
import type { Entity } from '../orda/objects/entity.js'
import { loadedColumnsOf, rowIdOf } from '../orda/objects/loaded-rows.js'
import type { ModelJson } from '../schema/model-json.js'
import type { DataSnapshot } from './data-snapshot.js'
import { decodeLatin1, type Latin1Slice } from './text-column.js'
import { dumpData } from './dump-data.js'

// One attribute of each column kind: numbers (integer, double, duration), a boolean, texts, a
// date, an object; indexed and not.
const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'code', type: 'string', unique: true },
        { name: 'price', type: 'number', indexed: true },
        { name: 'qty', type: 'long' },
        { name: 'span', type: 'duration' },
        { name: 'ok', type: 'bool' },
        { name: 'day', type: 'date' },
        { name: 'meta', type: 'object' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}
const T0 = Date.UTC(2026, 0, 1)

const value = {
  // Latin-1, another code unit, a C1 control: the three ways a text column keeps a text.
  name: fc.constantFrom('alpha', 'Beta', 'beta', 'Élan', 'Ωmega', '\u0085x', null),
  price: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
  // The ends of a long's range: the lowest is also what an integer column writes for null.
  qty: fc.oneof(
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom(-2147483648, 2147483647),
    fc.constant(null),
  ),
  span: fc.oneof(fc.constantFrom(0, -0, 1500, 3.5), fc.constant(null)),
  ok: fc.oneof(fc.boolean(), fc.constant(null)),
  day: fc.constantFrom('2026-01-02', '1999-12-31', null),
  meta: fc.constantFrom({ a: 1 }, [1, 'x'], null),
}
type Row = { [K in keyof typeof value]?: unknown }
const row: fc.Arbitrary<Row> = fc.record(value, { requiredKeys: [] })

type Op =
  | { op: 'read'; key: number }
  | { op: 'update'; key: number; values: Row }
  | { op: 'drop'; key: number }
  | { op: 'create'; values: Row }
  | { op: 'snapshot' }
  | { op: 'restore'; which: number }
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('read' as const), key: fc.integer({ min: 1, max: 14 }) }),
  fc.record({
    op: fc.constant('update' as const),
    key: fc.integer({ min: 1, max: 14 }),
    values: row,
  }),
  fc.record({ op: fc.constant('drop' as const), key: fc.integer({ min: 1, max: 14 }) }),
  fc.record({ op: fc.constant('create' as const), values: row }),
  fc.record({ op: fc.constant('snapshot' as const) }),
  fc.record({ op: fc.constant('restore' as const), which: fc.nat() }),
)

/** What a user can observe of the store, comparable between two stores. */
function observe(ds: Datastore): unknown {
  const Item = ds.dataClass('Item')
  const entities = Item.all()
    .toArray()
    .map((e) => [e.getKey(), e.getStamp(), e.getTimestamp(), e.values])
  const keys = (q: string): unknown[] =>
    Item.query(q)
      .toArray()
      .map((e) => e.getKey())
  return {
    entities,
    data: dumpData(ds),
    byName: keys("name = 'beta'"),
    begins: keys("name = 'b@' order by price desc"),
    range: keys('price > 0 order by qty, ID'),
    scan: keys('qty >= 0 and ok = true order by span'),
    nulls: keys('day = null or meta = null'),
    sum: Item.all().sum('price'),
    distinct: Item.all().distinct('name'),
  }
}

describe('rows kept in columns', () => {
  it('read as the same rows made by creates, through reads, writes, snapshots and restores', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 10 }),
        fc.array(op, { maxLength: 25 }),
        (rows, ops) => {
          const data = rows.map((r, i) => ({ ID: i + 1, code: `c${i + 1}`, ...r }))
          const loadedClock = new ManualClock(T0)
          const loaded = createDatastore(MODEL, { clock: loadedClock, data: { Item: data } })
          const builtClock = new ManualClock(T0)
          const built = createDatastore(MODEL, { clock: builtClock })
          for (const r of data) built.dataClass('Item').create(r)
          const stores = [
            { ds: loaded, clock: loadedClock, snapshots: [] as DataSnapshot[] },
            { ds: built, clock: builtClock, snapshots: [] as DataSnapshot[] },
          ]
          // Versions read before a write, with what they read then: they must not change.
          const held: { entity: Entity; values: unknown }[] = []
          let n = 0
          for (const o of ops) {
            for (const s of stores) {
              s.clock.advance(1000)
              const Item = s.ds.dataClass('Item')
              switch (o.op) {
                case 'read': {
                  // A reader warming the row first (a REST read from the columns) reads the same.
                  const rowId = rowIdOf(Item, o.key)
                  if (rowId !== undefined && rowId >= 0) loadedColumnsOf(Item, rowId)?.warm(rowId)
                  const e = Item.get(o.key)
                  expect(e).toBe(Item.get(o.key))
                  if (e && s.ds === loaded) held.push({ entity: e, values: { ...e.values } })
                  break
                }
                case 'update':
                  Item.get(o.key)?.edit(o.values).saveOrFail()
                  break
                case 'drop':
                  Item.get(o.key)?.dropOrFail()
                  break
                case 'create':
                  Item.create({ code: `n${n}`, ...o.values })
                  break
                case 'snapshot':
                  s.snapshots.push(s.ds.snapshot())
                  break
                case 'restore':
                  if (s.snapshots.length > 0)
                    s.ds.restore(s.snapshots[o.which % s.snapshots.length]!)
                  break
              }
            }
            n++
            expect(observe(loaded)).toEqual(observe(built))
          }
          for (const h of held) expect({ ...h.entity.values }).toEqual(h.values)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('make a row’s entity once, and keep it across a restore that does not change the row', () => {
    const ds = createDatastore(MODEL, {
      clock: new ManualClock(T0),
      data: { Item: [1, 2, 3].map((ID) => ({ ID, code: `c${ID}`, price: ID / 3 })) },
    })
    const Item = ds.dataClass('Item')
    const initial = ds.snapshot()
    const one = Item.get(1)!
    expect(Item.get(1)).toBe(one)
    expect(Item.all().at(0)).toBe(one)
    Item.get(2)!.edit({ price: 9 }).saveOrFail()
    ds.restore(initial)
    // Row 1 was read, not written: the restore leaves its entity; row 2 reads as loaded.
    expect(Item.get(1)).toBe(one)
    expect(Item.get(2)!.get('price')).toBe(2 / 3)
    expect(Item.get(2)!.getStamp()).toBe(1)
  })

  it('keep only the entities of the rows read last, not one for every row ever read', () => {
    const n = 70_000
    const ds = createDatastore(MODEL, {
      clock: new ManualClock(T0),
      data: { Item: Array.from({ length: n }, (_, i) => ({ ID: i + 1, code: `c${i}`, price: i })) },
    })
    const Item = ds.dataClass('Item')
    const first = Item.get(1)!
    let last = first
    for (let key = 2; key <= n; key++) last = Item.get(key)!
    // The last rows read hand out the same entity again; the first one read is made anew (equal).
    expect(Item.get(n)).toBe(last)
    const again = Item.get(1)!
    expect(again).not.toBe(first)
    expect([again.get('code'), again.getStamp()]).toEqual([first.get('code'), first.getStamp()])
  })

  it('keep each load’s rows apart: a load into row ids a restore freed leaves older snapshots right', () => {
    const ds = createDatastore(MODEL, { clock: new ManualClock(T0) })
    const Item = ds.dataClass('Item')
    const empty = ds.snapshot()
    ds.loadData({ Item: [{ ID: 1, code: 'a', price: 1.5, ok: true }] })
    const first = ds.snapshot()
    ds.restore(empty)
    // Row id 0 again, other values: the first load's columns must not be written over.
    ds.loadData({ Item: [{ ID: 1, code: 'b', price: 2.5, ok: false }] })
    expect(Item.get(1)!.get('code')).toBe('b')
    ds.restore(first)
    expect([Item.get(1)!.get('code'), Item.get(1)!.get('price'), Item.get(1)!.get('ok')]).toEqual([
      'a',
      1.5,
      true,
    ])
    expect(Item.query("code = 'a'").length).toBe(1)
    expect(Item.query("code = 'b'").length).toBe(0)
    // A second load into a store that has rows: both loads read, in one key order.
    ds.loadData({ Item: [{ ID: 2, code: 'c', price: 0.25 }] })
    expect(
      Item.all()
        .toArray()
        .map((e) => e.get('code')),
    ).toEqual(['a', 'c'])
    expect(Item.query('price < 1').toArray()[0]!.getKey()).toBe(2)
  })
})

describe('decodeLatin1', () => {
  // The runtime's decoder (Node's Buffer here) and the portable one give the same text for any
  // bytes and range, runs past fromCharCode's 4,096 arguments included.
  it('reads any bytes the same with and without the native decoder', () => {
    const native = (Buffer.prototype as unknown as { latin1Slice: Latin1Slice }).latin1Slice
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 10_000 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const start = bytes.length === 0 ? 0 : a % (bytes.length + 1)
        const end = start + (b % (bytes.length - start + 1))
        const portable = decodeLatin1(bytes, start, end, undefined)
        expect(portable).toBe(String.fromCharCode(...bytes.subarray(start, end)))
        expect(decodeLatin1(bytes, start, end, native)).toBe(portable)
        expect(decodeLatin1(bytes, start, end)).toBe(portable)
      }),
      { numRuns: 300 },
    )
  })
})
