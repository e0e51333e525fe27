/**
 * The body timeout after the event loop was held: its timer runs in the turn's timers phase,
 * before the loop reads the bytes that arrived meanwhile. A stall is made on timers the test
 * advances (schedule.fixture.ts): the timer fires, then the bytes are counted, as the loop's I/O
 * phase would count them in the same turn.
 */
import { describe, expect, it } from 'vitest'
import { manualSchedule, turnEnd } from '../schedule.fixture.js'
import { BodiesInFlight, MIN_PROGRESS_BYTES } from './bodies-in-flight.js'

const TIMEOUT_MS = 10_000

/** A body of 16 MiB being read, on timers the test advances; `stalled` counts its 408s. */
function reading() {
  const timers = manualSchedule()
  const budget = new BodiesInFlight({
    bodyTimeoutMs: TIMEOUT_MS,
    scheduleBodyTimeout: timers.schedule,
  })
  const seen = { stalled: 0 }
  const read = budget.start(16 * 1024 * 1024, () => seen.stalled++)!
  return { timers, budget, seen, read }
}

describe('the body timeout after the loop was held', () => {
  it('keeps a body whose bytes arrived while the loop was held, read in the turn its timer fired', async () => {
    const { timers, seen, read } = reading()
    timers.advance(TIMEOUT_MS)
    read.arrived(MIN_PROGRESS_BYTES)
    await turnEnd()
    expect(seen.stalled).toBe(0)
    expect(timers.pending).toEqual([TIMEOUT_MS])
  })

  it('ends a body of which nothing, or less than 1 KiB, arrived by the end of that turn', async () => {
    const { timers, seen, read } = reading()
    timers.advance(TIMEOUT_MS)
    read.arrived(MIN_PROGRESS_BYTES - 1)
    await turnEnd()
    expect(seen.stalled).toBe(1)
  })

  it('ends nothing once the body is done with', async () => {
    const { timers, seen, read, budget } = reading()
    timers.advance(TIMEOUT_MS)
    read.end()
    await turnEnd()
    expect([seen.stalled, budget.bytes, budget.reading]).toEqual([0, 0, 0])
  })
})
