/**
 * Selections of an IN answered through a hash index hold the index's buckets lent, their row ids
 * copied only when read (sets/row-ids.ts's DeferredRowIds, HashIndex.lendRowsOf). Model-based:
 * random inserts, updates and deletes move rows between the buckets while such selections are kept,
 * some read at once, most only later; each is held to the general path's answer to the same query
 * made at the same moment (runQuery copies its rows), in members, length, order, set algebra
 * (and, or, minus, between two kept selections) and entity sets.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import type { EntitySelection } from './entity-selection.js'
import { runQuery } from './queries.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'c', type: 'long', indexed: true, indexKind: 'hash' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

// Values 0-2 hold about 65 rows each at the start (their groups past 64 rows are Int32Arrays in
// the index), 3-5 a few, 6-7 none until written.
const VALUES = 8
const start = (i: number): number => (i < 195 ? i % 3 : 3 + (i % 3))

type Command =
  | { kind: 'insert'; c: number }
  | { kind: 'update'; pick: number; c: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'query'; cs: number[]; readNow: boolean }

const value = fc.nat(VALUES - 1)
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: value.map((c) => ({ kind: 'insert' as const, c })) },
  {
    weight: 4,
    arbitrary: fc
      .record({ pick: fc.nat(), c: value })
      .map((r) => ({ kind: 'update' as const, ...r })),
  },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ kind: 'delete' as const, pick })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ cs: fc.array(value, { minLength: 1, maxLength: 4 }), readNow: fc.boolean() })
      .map((r) => ({ kind: 'query' as const, ...r })),
  },
)

const ids = (sel: EntitySelection): (number | null)[] =>
  sel.members().map((e) => (e === null ? null : (e.getKey() as number)))

describe('selections over lent hash buckets', () => {
  it('answer as the general path did when they were made, through later writes', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 10, maxLength: 60 }), (commands) => {
        const ds = createDatastore(MODEL, {
          data: { Item: Array.from({ length: 200 }, (_, i) => ({ c: start(i) })) },
        })
        const Item = ds.dataClass('Item')
        const live = (): number[] =>
          Item.all()
            .toArray()
            .map((e) => e.getKey() as number)
        // Each kept selection beside the general path's answer of the same moment.
        const kept: { lent: EntitySelection; general: EntitySelection }[] = []
        for (const c of commands) {
          switch (c.kind) {
            case 'insert':
              Item.create({ c: c.c })
              break
            case 'update': {
              const keys = live()
              if (keys.length > 0) Item.update(keys[c.pick % keys.length]!, { c: c.c })
              break
            }
            case 'delete': {
              const keys = live()
              if (keys.length > 0) Item.drop(keys[c.pick % keys.length]!)
              break
            }
            case 'query': {
              const lent = Item.query('c in :1', c.cs)
              const general = runQuery(Item, 'c in :1', { params: [c.cs] }).selection
              expect(lent.length).toBe(general.length)
              if (c.readNow) expect(ids(lent)).toEqual(ids(general))
              kept.push({ lent, general })
              break
            }
          }
        }
        for (const [i, { lent, general }] of kept.entries()) {
          expect(lent.length).toBe(general.length)
          expect(ids(lent)).toEqual(ids(general))
          expect(ids(lent.orderBy('c desc'))).toEqual(ids(general.orderBy('c desc')))
          const other = kept[(i + 1) % kept.length]!
          expect(ids(lent.and(other.lent))).toEqual(ids(general.and(other.general)))
          expect(ids(lent.or(other.lent))).toEqual(ids(general.or(other.general)))
          expect(ids(lent.minus(other.lent))).toEqual(ids(general.minus(other.general)))
          expect(ids(ds.entitySets.getOrFail(lent.keep().id).selection)).toEqual(ids(general))
        }
      }),
      { numRuns: 60 },
    )
  })
})
