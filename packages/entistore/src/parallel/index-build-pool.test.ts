// A datastore given a real worker pool (issue 65) builds its large numeric indexes' sorts on it:
// the indexes equal those of the same data built in one piece without a pool, and the main loop
// keeps turning while the workers sort. Counted (runs, parts, turns), never timed.
import { createDatastore } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorkerPool, type PartEvent } from './worker-pool.js'
import { scoredItems } from '../../../core/src/indexes/scored-items.fixture.js'

const pools: ReturnType<typeof createWorkerPool>[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

const MODEL = scoredItems({ rank: 'long' })

const N = 300_000
// Ties, nulls, negative numbers and fractions; the keys loaded backwards (not already in order).
const rows = Array.from({ length: N }, (_, i) => ({
  ID: N - i,
  score: i % 17 === 0 ? null : ((i * 7919) % 100_003) / 4 - 5000,
  rank: i % 11 === 0 ? null : (i * 31) % 1000,
}))

/** Each sorted index's content: its keys and row ids, position by position. */
function sortedIndexes(ds: ReturnType<typeof createDatastore>) {
  const { indexes } = ds.dataClass('Item').table
  return ['ID', 'score', 'rank'].map((name) => {
    const [keys, ids] = indexes.of(name)!.sorted!.content()
    return { name, keys: [...keys], ids: [...ids] }
  })
}

describe('index builds on a worker pool', () => {
  it('sort 300k-row numeric indexes on the workers, equal to a one-piece build, the main loop turning', async () => {
    const events: PartEvent[] = []
    const pool = createWorkerPool({ threads: 2, onPart: (event) => events.push(event) })
    pools.push(pool)
    const ds = createDatastore(MODEL, { parallel: pool })
    ds.loadData({ Item: rows })
    let turns = 0
    let building = true
    const tick = () => {
      turns++
      if (building) setImmediate(tick)
    }
    setImmediate(tick)
    const built = await ds.buildIndexesInBackground({ schedule: (slice) => setImmediate(slice) })
    building = false
    expect(built).toBe(3)
    // Each index: its parts (two threads: several), then one merge.
    const starts = events.filter((event) => event.kind === 'start')
    expect(pool.runs).toBe(6)
    expect(starts.length).toBeGreaterThan(6)
    expect(events.filter((event) => event.kind === 'end' && event.outcome !== 'done')).toEqual([])
    expect(turns).toBeGreaterThan(starts.length)

    const alone = createDatastore(MODEL)
    alone.loadData({ Item: rows })
    alone.buildIndexes()
    expect(sortedIndexes(ds)).toEqual(sortedIndexes(alone))
    expect(ds.dataClass('Item').query('score < -4999').length).toBe(
      alone.dataClass('Item').query('score < -4999').length,
    )
  })
})
