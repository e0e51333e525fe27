/**
 * @module For tests: turns of the event loop counted, never timed (a fixture: not built). The
 * clock moves one unit at each reading, and work in slices reads it after each step (a related
 * entity measured or written, a chunk written, a step of a read's scan): a turn's units are the
 * steps it ran. A turn ends at each check phase (`setImmediate`), as the event loop's do
 * (slices/turns.ts), even while the loop only waits for I/O, so that a test bounds the work of
 * the longest turn, and counts the turns a request waited, whatever the machine's speed or load.
 */
import { afterEach } from 'vitest'
import { SLICE_MS, Turns } from './turns.js'

// Every ticker a test started, stopped after it, whatever it asserted.
const tickers: (() => void)[] = []
afterEach(() => {
  for (const stop of tickers.splice(0)) stop()
})

/**
 * What a turn of reply work may take: its slice, and one step more for each of `works` (the one
 * that passed the deadline, and one for each that found it passed: its work still moves on).
 */
export const turnBound = (works: number): number => SLICE_MS + works + 1

export interface CountedTurns {
  /** The turns to give the handler (`turns`) and the node listener. */
  readonly turns: Turns
  /** Turns of the event loop ended so far. */
  readonly ended: number
  /** The units of each turn that ran any since the last `take`, the one going on included. */
  take(): number[]
}

/** Turns on a clock that counts its readings, ended at each check phase until the test ends. */
export function countedTurns(): CountedTurns {
  let readings = 0
  let ended = 0
  const ends: (() => void)[] = []
  const turns = new Turns(
    () => readings++,
    (end) => ends.push(end),
  )
  const costs: number[] = []
  let mark = 0
  let on = true
  const take = (): void => {
    if (readings > mark) costs.push(readings - mark)
    mark = readings
  }
  const tick = (): void => {
    ended++
    take()
    for (const end of ends.splice(0)) end()
    if (on) setImmediate(tick)
  }
  setImmediate(tick)
  tickers.push(() => (on = false))
  return {
    turns,
    get ended() {
      return ended
    },
    take() {
      take()
      return costs.splice(0)
    },
  }
}
