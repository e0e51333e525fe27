/**
 * @module The sessions open on every process that serves the same clients (the workers of one
 * `serve`, the machines of one Redis), for `nbSessions` and `nbGuestSessions`: a session opened on
 * one process is one of the server's, wherever its client's next request lands. As with the rate
 * counts (shared-counts.ts), a request never waits for the others: it is checked on what was last
 * heard of them, and a process tells them of a change of its own at the end of the turn.
 */
import type { Defer } from './shared-counts.js'

/** Open sessions, and of them those with a logged-in user (guests are the others). */
export interface SessionTotals {
  readonly sessions: number
  readonly users: number
}

/** The sessions open on every process serving the same clients. */
export interface SharedSessions {
  /**
   * The sessions open everywhere as last heard, given those of this process's store now (`here`),
   * which the others are told of when they changed. Called when a request that would open a
   * session is checked, and after each request answered.
   */
  totals(here: SessionTotals): SessionTotals
}

const same = (a: SessionTotals | undefined, b: SessionTotals): boolean =>
  a !== undefined && a.sessions === b.sessions && a.users === b.users

/**
 * The process's side where each process holds sessions of its own (the workers of one `serve`
 * without Redis): its totals go out through `send` when they changed, once a turn at most, and the
 * sum of the others' comes in through `heard`.
 */
export class ReportedSessions implements SharedSessions {
  #others: SessionTotals = { sessions: 0, users: 0 }
  /** What the others were told last, or are about to be. */
  #told: SessionTotals | undefined
  #flushing = false

  constructor(
    private readonly send: (mine: SessionTotals) => void,
    private readonly defer: Defer = setImmediate,
  ) {}

  totals(here: SessionTotals): SessionTotals {
    if (!same(this.#told, here)) {
      this.#told = { sessions: here.sessions, users: here.users }
      if (!this.#flushing) {
        this.#flushing = true
        this.defer(() => {
          this.#flushing = false
          this.send(this.#told!)
        })
      }
    }
    const others = this.#others
    return { sessions: here.sessions + others.sessions, users: here.users + others.users }
  }

  /** The others' sessions, all of them, replacing what was heard before. */
  heard(others: SessionTotals): void {
    this.#others = others
  }
}
