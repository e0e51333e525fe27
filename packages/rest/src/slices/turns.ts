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
 * The line of work that waited for a turn of its own (core's `sliceLine`): how many slices wait,
 * whether one runs now, and how many ran (which tells one slice from the next).
 */
export interface WaitingLine {
  /** Slices waiting for their turn. */
  readonly waiting: number
  /** Whether one of its slices runs now. */
  readonly running: boolean
  /** Slices run so far: a new number, a new slice. */
  readonly ran: number
}

/**
 * The deadline the slices of one turn share, on a clock: the event loop's (`LOOP_TURNS`), or a
 * test's, whose `endTurn` it runs itself.
 *
 * With a `line`, work that waited is not starved by work that just came in. A turn's I/O
 * callbacks (new requests: a read's first slice, a reply's first measure) run before its check
 * phase, where the line's slice runs: asking the deadline first, they took the whole turn, and
 * the line's slice got one step, turn after turn, for as long as requests kept coming (three
 * replies of relation chains measured one related entity a turn for the whole of a 40 s load of
 * five clients). While the line waits, the work before its slice shares half the turn's time, and
 * the line's slice gets at least the other half of its own: a turn still holds the loop for about
 * `ms`, and each slice of the line moves its work on by half of it.
 */
export class Turns {
  readonly now: () => number
  readonly #endTurn: NextTurn
  readonly #atStart: (() => void) | undefined
  readonly #line: WaitingLine | undefined
  #deadline: number | undefined
  // The deadline of the line's slice that runs now, and which slice it is (`line.ran`).
  #lineDeadline = 0
  #lineSlice = -1

  /**
   * `atStart`: run when the first slice of a turn asks its deadline, before the slice's work.
   * `line`: the work that waited, kept a share of each turn (above).
   */
  constructor(
    now: () => number,
    endTurn: NextTurn = nextTurn,
    atStart?: () => void,
    line?: WaitingLine,
  ) {
    this.now = now
    this.#endTurn = endTurn
    this.#atStart = atStart
    this.#line = line
  }

  /**
   * When the slice that runs now must stop: the first slice of a turn sets it to its start plus
   * `ms` (half of it while the line waits), every other slice of the same turn gets the same; the
   * line's slice, at least half of `ms` from its first question.
   */
  deadline(ms: number): number {
    const line = this.#line
    if (this.#deadline === undefined) {
      this.#atStart?.()
      const share = line !== undefined && line.waiting > 0 && !line.running ? ms / 2 : ms
      this.#deadline = this.now() + share
      this.#endTurn(this.#end)
    }
    if (line === undefined || !line.running) return this.#deadline
    if (this.#lineSlice !== line.ran) {
      this.#lineSlice = line.ran
      this.#lineDeadline = Math.max(this.#deadline, this.now() + ms / 2)
    }
    return this.#lineDeadline
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
  sliceLine,
)

/** A reply's slices: `SLICE_MS` a turn, shared by every reply and other work of the turn. */
export const LOOP_CLOCK: SliceClock = LOOP_TURNS.clock(SLICE_MS)

/** `LOOP_TURNS.deadline(ms)`: when work in slices that runs now must stop (a `performance.now()`). */
export const turnDeadline = (ms: number): number => LOOP_TURNS.deadline(ms)
