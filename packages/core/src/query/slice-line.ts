/**
 * @module One slice of heavy work a turn of the event loop, whoever's it is.
 *
 * Work that goes on in slices (a function's 4D code, a save whose events run in steps, the
 * getters a reply makes ahead, the REST reads' fair turns) waits here for its next slice. Each
 * once scheduled its own `setImmediate`: Node runs every immediate queued before a check phase in
 * that one phase, so four heavy calls ran four slices (20 ms) between two looks at the sockets,
 * and a read by key that came in meanwhile waited 10 ms on average (its median beside four 4D
 * loops, bench/README.md "4D code beside clients"). Here the waiting slices form one line, and one
 * runs a turn: between any two, the turn's I/O callbacks run, where a read by key is answered at
 * once. The line is first come, first served; a job that goes on queues again at its end.
 *
 * A job runs in the async context of the code that queued it (the caller's view, process and
 * transaction: access/async-scope.ts), not of the job whose turn scheduled the line's.
 */
import { contextNow } from '../access/async-scope.js'

/** Runs `fn` in a later turn of the event loop. */
export type NextTurn = (fn: () => void) => void

/**
 * setImmediate where there is one (Node, Bun, Deno): it runs after the I/O callbacks of the turn;
 * else a timer.
 */
export const immediateTurn: NextTurn =
  typeof setImmediate === 'function' ? (fn) => setImmediate(fn) : (fn) => setTimeout(fn, 0)

/** Slices waiting for their turn, one run a turn. */
export class SliceLine {
  readonly #turn: NextTurn
  // A queue read from `#head` (shift() would move every element at each turn).
  #jobs: (() => void)[] = []
  #head = 0
  #scheduled = false
  // What runs before the next slice (`first`): a set, so that work asked again before a slice
  // ran is kept once.
  #first = new Set<() => void>()
  /** Slices run so far (tests count them). */
  ran = 0
  #running = false

  constructor(turn: NextTurn = immediateTurn) {
    this.#turn = turn
  }

  /** Slices waiting. */
  get waiting(): number {
    return this.#jobs.length - this.#head
  }

  /**
   * Whether a slice of this line runs now: the work of the turn that waited for it (rest's turns
   * keep it a share of the turn's time, whatever the work that came in this turn took first).
   */
  get running(): boolean {
    return this.#running
  }

  /**
   * Runs `slice` in a later turn, once the slices queued before it have run, one a turn. It must
   * not throw (a job catches its own errors): one that does is reported as uncaught, and the line
   * goes on.
   */
  later(slice: () => void): void {
    this.#jobs.push(contextNow().bind(undefined, slice) as () => void)
    this.#schedule()
  }

  /**
   * Runs `fn` before the next slice that starts, this line's or one of work whose turns call
   * `runFirst` (rest's replies written in pieces). What a turn's poll phase answered is written at
   * the turn's end, in a `setImmediate` (rest's reply batch), and the check phase runs its
   * immediates in the order they were queued: the slices queued the turn before, then those
   * replies. A read by key answered between two slices then left after the turn's slices, 10 ms
   * of them (20 ms at the median beside five readers of relation chains). `fn` must not throw, and
   * must do nothing when what it was asked for is already done: it is scheduled on its own too.
   */
  first(fn: () => void): void {
    this.#first.add(fn)
  }

  /** Runs what `first` was given, before a slice begins. */
  runFirst(): void {
    if (this.#first.size === 0) return
    const fns = [...this.#first]
    this.#first.clear()
    for (const fn of fns) fn()
  }

  #schedule(): void {
    if (this.#scheduled || this.waiting === 0) return
    this.#scheduled = true
    this.#turn(this.#next)
  }

  readonly #next = (): void => {
    this.#scheduled = false
    const job = this.#jobs[this.#head]!
    this.#jobs[this.#head++] = undefined as never
    if (this.#head > 64 && this.#head * 2 > this.#jobs.length) {
      this.#jobs = this.#jobs.slice(this.#head)
      this.#head = 0
    }
    // The next turn is asked before the job runs: one that throws does not stop the line.
    this.#schedule()
    this.runFirst()
    this.ran++
    this.#running = true
    try {
      job()
    } finally {
      this.#running = false
    }
  }
}

/** The process's line: every driver of slices queues here. */
export const sliceLine = new SliceLine()
