/**
 * Index builds whose sort runs on a worker pool (pool-sort.ts), the pool run part by part by the
 * test: writes that land while the rows are read, between two parts, or between the parts and the
 * merge end in the index; a run that fails is sorted here instead; a query that needs the index
 * in one piece drops the pool's sort. Whatever the order, the finished indexes equal a one-piece
 * build from the live rows, bit for bit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { flushPromises, HandPool } from '../parallel/hand-pool.fixture.js'
import { scoredItems } from './scored-items.fixture.js'
import { expectIndexesRebuilt } from './indexes-rebuilt.fixture.js'

const MODEL = scoredItems({ age: 'long' })

// Few distinct values: many ties, whose order is the row ids'.
const score = fc.option(fc.constantFrom(-1.5, -0, 0, 2, 2.5, 1e9, -1e9), { nil: null })
const age = fc.option(fc.integer({ min: -3, max: 3 }), { nil: null })

type Op =
  | { readonly op: 'slice'; readonly n: number }
  | { readonly op: 'part' | 'fail' | 'query' }
  | { readonly op: 'update'; readonly pick: number; readonly score: number | null }
  | { readonly op: 'insert'; readonly score: number | null; readonly age: number | null }
  | { readonly op: 'delete'; readonly pick: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => ({ op: 'slice', n }) as Op) },
  { weight: 5, arbitrary: fc.constant({ op: 'part' } as Op) },
  { weight: 1, arbitrary: fc.constant({ op: 'fail' } as Op) },
  { weight: 1, arbitrary: fc.constant({ op: 'query' } as Op) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('update'), pick: fc.nat(), score }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('insert'), score, age }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete'), pick: fc.nat() }) },
) as fc.Arbitrary<Op>

const ROWS = 1200 // a load of 1,000 rows or more leaves its indexes to build

async function run(initial: readonly [number | null, number | null][], ops: readonly Op[]) {
  const pool = new HandPool(2, 1)
  const ds = createDatastore(MODEL, { parallel: pool })
  const Item = ds.dataClass('Item')
  // The generated rows again and again, up to ROWS.
  const row = (i: number) => initial[i % initial.length]!
  ds.loadData({
    Item: Array.from({ length: ROWS }, (_, i) => ({ ID: i + 1, score: row(i)[0], age: row(i)[1] })),
  })
  const { indexes } = Item.table
  // Small slices: the rows read a few at a time, writes between two of them.
  indexes.buildSlices = { ...indexes.buildSlices, read: 100, delta: 3 }
  let next = ROWS + 1
  const keys = () =>
    Item.all()
      .toArray()
      .map((e) => e.getKey() as number)
  const slice = (n: number) => {
    let left = n
    indexes.step(() => --left > 0, [], pool)
  }
  for (const o of ops) {
    switch (o.op) {
      case 'slice':
        slice(o.n)
        break
      case 'part':
        pool.next()
        break
      case 'fail':
        pool.fail()
        break
      case 'query':
        // In one piece: the index is built now, its sort on the pool (if any) dropped.
        Item.query('score >= :1', 2).length
        break
      case 'update': {
        const all = keys()
        if (all.length > 0)
          Item.get(all[o.pick % all.length]!)!
            .edit({ score: o.score })
            .saveOrFail()
        break
      }
      case 'insert':
        Item.create({ ID: next++, score: o.score, age: o.age })
        break
      case 'delete': {
        const all = keys()
        if (all.length > 0) Item.get(all[o.pick % all.length]!)!.dropOrFail()
        break
      }
    }
    await flushPromises()
  }
  // The rest: every part, then the slices, until built.
  for (let round = 0; indexes.unbuilt > 0; round++) {
    expect(round).toBeLessThan(1000)
    while (pool.next());
    await flushPromises()
    slice(1000)
  }
  return { pool, table: Item.table }
}

describe('index builds sorted on a worker pool', () => {
  it('end equal to a one-piece build, whatever the writes, parts, failures and queries between', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(score, age), { minLength: 1, maxLength: 50 }),
        fc.array(opArb, { maxLength: 40 }),
        async (initial, ops) => {
          const { pool, table } = await run(initial, ops)
          expectIndexesRebuilt(table)
          // The sorts went to the pool (unless a query built them first, or its run failed).
          if (!ops.some((o) => o.op === 'query' || o.op === 'fail'))
            // ID (the key), score and age: each one's parts, then its merge.
            expect(pool.started.filter((r) => r.kernel === 'mergeSortedParts')).toHaveLength(3)
        },
      ),
      { numRuns: 60 },
    )
  })
})
