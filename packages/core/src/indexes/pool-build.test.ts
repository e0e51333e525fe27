/**
 * The background build of a datastore with a worker pool (`parallel`): the sorts of its large
 * numeric indexes go to the pool, and while every build left waits for it the builder runs no
 * slice at all, and reads are answered. Counted (slices scheduled, parts run), never timed.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { scoredItems } from './scored-items.fixture.js'
import { flushPromises, HandPool } from '../parallel/hand-pool.fixture.js'
import { expectIndexesRebuilt } from './indexes-rebuilt.fixture.js'

const N = 40_000

function fixture() {
  const pool = new HandPool(2, 1000)
  const ds = createDatastore(scoredItems({ label: 'string' }), { parallel: pool })
  ds.loadData({
    Item: Array.from({ length: N }, (_, i) => ({
      ID: i + 1,
      score: (i * 37) % 1000,
      label: `L${i % 50}`,
    })),
  })
  const slices: (() => void)[] = []
  // Each slice runs until its builds are done or wait for the pool: no clock is read.
  const built = ds.buildIndexesInBackground({
    schedule: (slice) => slices.push(slice),
    deadline: () => Infinity,
  })
  return { ds, pool, slices, built, Item: ds.dataClass('Item') }
}

describe('index builds with a worker pool', () => {
  it('send the numeric sorts to the pool, run no slice while they wait for it, and answer reads meanwhile', async () => {
    const { ds, pool, slices, built, Item } = fixture()
    expect(slices).toHaveLength(1)
    slices.shift()!()
    // The key's and score's sorts are on the pool; the text index was built here, in the slice.
    expect(pool.going.map((run) => [run.kernel, run.client])).toEqual([
      ['sortNumbersPart', 'index builds'],
      ['sortNumbersPart', 'index builds'],
    ])
    expect(pool.going[0]!.parts.length).toBeGreaterThan(1)
    expect(Item.table.indexes.unbuilt).toBe(2)
    await flushPromises()
    expect(slices).toHaveLength(0)
    // A GET by key, and a query step that scans for the unbuilt index, are answered meanwhile.
    expect(Item.get(3)!.get('score')).toBe(74)
    const scanned = ds.withoutUnbuiltIndexes(() => Item.query('score = 74').length)
    expect(scanned).toBe(N / 1000)
    // A write between two parts ends in the index.
    pool.next()
    Item.get(3)!.edit({ score: 5000 }).saveOrFail()
    Item.create({ ID: N + 1, score: -1, label: 'new' })
    // Every part and merge, then the slices woken by their end: two at most, one for each sort.
    let ran = 0
    while (Item.table.indexes.unbuilt > 0) {
      while (pool.next());
      await flushPromises()
      while (slices.length > 0) {
        slices.shift()!()
        ran++
      }
      expect(ran).toBeLessThanOrEqual(2)
    }
    expect(await built).toBe(3)
    expect(pool.started.filter((run) => run.kernel === 'mergeSortedParts')).toHaveLength(2)
    expectIndexesRebuilt(Item.table)
    expect(
      Item.query('score = 5000')
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([3])
    expect(
      Item.query('score < 0')
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([N + 1])
  })

  it('without a pool, build the same indexes in slices here', async () => {
    const ds = createDatastore(
      { dataClasses: [{ name: 'Item', attributes: [{ name: 'ID', type: 'long' }] }] },
      {},
    )
    ds.loadData({ Item: Array.from({ length: 5000 }, (_, i) => ({ ID: 5000 - i })) })
    const slices: (() => void)[] = []
    const built = ds.buildIndexesInBackground({
      schedule: (slice) => slices.push(slice),
      deadline: () => Infinity,
    })
    while (slices.length > 0) slices.shift()!()
    expect(await built).toBe(1)
    expectIndexesRebuilt(ds.dataClass('Item').table)
  })
})
