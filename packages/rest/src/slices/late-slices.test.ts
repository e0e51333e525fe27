/**
 * A read that waited for its turn, beside new reads every turn. A turn's new requests run their
 * first slice before the slice of a read that waited (FairTurns, in core's line: the check phase),
 * and both the handler's slice of the turn and the turn's deadline were theirs first: the read
 * that waited got one step a turn for as long as they kept coming. Time here is a clock the test
 * moves (`performance.now`, a quarter of a millisecond a reading), and the turns are the test's.
 */
import { createDatastore, type ModelJson } from '@entistore/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRestHandler } from '../handler.js'
import { flush, get, settled } from './manual-turns.fixture.js'
import { Turns } from './turns.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'salary', type: 'number' },
      ],
    },
  ],
}
const SLICE_MS = 8
const HEAVY = '$filter="salary>100"&$orderby=salary desc&$top=5'

afterEach(() => vi.restoreAllMocks())

/** Turns until a heavy read is answered, with `fresh` new heavy reads sent before each turn's slice. */
async function turnsToAnswer(fresh: number): Promise<number> {
  let clock = 0
  vi.spyOn(performance, 'now').mockImplementation(() => (clock += 0.25))
  const ds = createDatastore(model)
  ds.loadData({
    Item: Array.from({ length: 100_000 }, (_, i) => ({ ID: i + 1, salary: (i * 37) % 10_000 })),
  })
  const queued: (() => void)[] = []
  // The line the read waits in: the test's own turns.
  const line = { running: false, ran: 0, waiting: 0 }
  const ends: (() => void)[] = []
  const turns = new Turns(
    () => performance.now(),
    (end) => void ends.push(end),
    undefined,
    line,
  )
  const handler = createRestHandler(ds, {
    sliceMs: SLICE_MS,
    nextTurn: (fn) => void queued.push(fn),
    turns,
  })
  const first = handler.respond(get('Item', HEAVY))
  const state = settled(first as Promise<unknown>)
  let ran = 0
  while (!state.done && queued.length > 0) {
    for (const end of ends.splice(0)) end()
    line.waiting = queued.length
    // A reply measured first in the turn sets its deadline: its slices are longer than a read's
    // (rest's SLICE_MS, 10 ms, against `sliceMs`, 5, by default).
    if (fresh > 0) turns.deadline(2 * SLICE_MS)
    // The turn's new requests: the same client, after the first in its line.
    for (let i = 0; i < fresh; i++) void handler.respond(get('Item', HEAVY))
    line.waiting = queued.length
    line.running = true
    line.ran++
    try {
      queued.shift()!()
    } finally {
      line.running = false
    }
    ran++
    await flush()
  }
  expect(state.done).toBe(true)
  return ran
}

describe('a read that waited for its turn', () => {
  it('moves on by half a slice at each, however much the turn’s new reads took first', async () => {
    const alone = await turnsToAnswer(0)
    expect(alone).toBeGreaterThan(3)
    const beside = await turnsToAnswer(2)
    expect(beside).toBeLessThanOrEqual(2 * alone + 2)
  })
})
