/**
 * @module How long work in slices holds the event loop, and the one deadline a turn of the loop
 * that all of it shares.
 *
 * Work that would hold the loop long goes in slices, and goes on in a later turn: measuring a
 * reply (serialize/first-piece.ts), writing its pieces (json-chunks.ts), the node listener's and
 * the fetch stream's writes, and `entistore`'s saves, snapshots and index builds. Each slice once
 * had its own 10 ms: six replies measured in one turn held it 60 ms, and the writes of the same
 * turn 10 ms more, so that a fresh GET, which needs two or three turns, waited 100–160 ms behind
 * six relation chains at 100,000 rows. Now the first slice of a turn sets the deadline, every
 * other slice of that turn gets the same one (and still does one step: a slow step moves its work
 * on), and the turn ends at the next check phase (`setImmediate`), before the slices queued after
 * it run.
 */
import { immediateTurn, sliceLine, type NextTurn } from '@entistore/core'

export type { NextTurn }

/** The longest a turn's reply work holds the event loop, in milliseconds. */
export const SLICE_MS = 10

/**
 * setImmediate where there is one (Node, Bun, Deno): it runs after the I/O callbacks of the turn;
 * else a timer (core's `immediateTurn`).
 */
export const nextTurn: NextTurn = immediateTurn

/** The clock that ends a slice: a reading in milliseconds, and when the slice begun now ends. */
export interface SliceClock {
  readonly now: () => number
  /** Asked when a slice begins: the reading of `now` at which it ends. */
  readonly deadline: () => number
}

/** Slices of `ms` each on `now`, whatever ran before them in the turn (tests' own clocks). */
export const eachSlice = (now: () => number, ms: number): SliceClock => ({
  now,
  deadline: () => now() + ms,
})

/**
 * The deadline the slices of one turn share, on a clock: the event loop's (`LOOP_TURNS`), or a
 * test's, whose `endTurn` it runs itself.
 */
export class Turns {
  readonly now: () => number
  readonly #endTurn: NextTurn
  readonly #atStart: (() => void) | undefined
  #deadline: number | undefined

  /** `atStart`: run when the first slice of a turn asks its deadline, before the slice's work. */
  constructor(now: () => number, endTurn: NextTurn = nextTurn, atStart?: () => void) {
    this.now = now
    this.#endTurn = endTurn
    this.#atStart = atStart
  }

  /**
   * When the slice that runs now must stop: the first slice of a turn sets it to its start plus
   * `ms`, every other slice of the same turn gets the same.
   */
  deadline(ms: number): number {
    if (this.#deadline === undefined) {
      this.#atStart?.()
      this.#deadline = this.now() + ms
      this.#endTurn(this.#end)
    }
    return this.#deadline
  }

  /** Slices of at most `ms` a turn, shared with every other slice of the turn. */
  clock(ms: number): SliceClock {
    return { now: this.now, deadline: () => this.deadline(ms) }
  }

  readonly #end = (): void => {
    this.#deadline = undefined
  }
}

/**
 * The event loop's turns, on `performance.now()`: every slice of this process shares them. What
 * must run before any slice (core's `sliceLine.first`: the replies a turn's poll phase answered)
 * runs before the first of a turn.
 */
export const LOOP_TURNS = new Turns(
  () => performance.now(),
  nextTurn,
  () => sliceLine.runFirst(),
)

/** A reply's slices: `SLICE_MS` a turn, shared by every reply and other work of the turn. */
export const LOOP_CLOCK: SliceClock = LOOP_TURNS.clock(SLICE_MS)

/** `LOOP_TURNS.deadline(ms)`: when work in slices that runs now must stop (a `performance.now()`). */
export const turnDeadline = (ms: number): number => LOOP_TURNS.deadline(ms)
