/**
 * @module The primary's side of the web server quotas shared by the workers of `serve --workers
 * N` (the worker's side is rest's `BatchedCounts`): each worker tells what it counted in a turn,
 * and the primary tells every other worker the new totals of the keys it changed, less that
 * worker's own (so that each adds them to its own exact counts). Nothing is sent when no quota
 * counts anything. A worker that exits leaves its counts until their windows end: it admitted
 * those requests. The sessions each worker holds (`WorkerSessions`) are summed alike, for
 * `nbSessions` and `nbGuestSessions`; a worker's go with it when it exits.
 */
import type { CountEntry, SessionTotals } from '@entistore/rest'

interface Total {
  readonly end: number
  sum: number
  /** By worker id, what that worker counted. */
  readonly by: Map<number, number>
}

export class QuotaTotals {
  readonly #totals = new Map<string, Total>()
  #nextPrune = Infinity

  constructor(private readonly now: () => number) {}

  /**
   * Adds what worker `from` counted; returns, for a worker `to`, the totals it should hear now
   * (undefined for `from` itself, and when nothing changed).
   */
  add(from: number, counts: readonly CountEntry[]): (to: number) => CountEntry[] | undefined {
    this.#prune()
    const changed: [string, Total][] = []
    for (const [key, amount, end] of counts) {
      if (!Number.isFinite(amount) || !Number.isFinite(end)) continue
      let total = this.#totals.get(key)
      if (total === undefined) {
        total = { end, sum: 0, by: new Map() }
        this.#totals.set(key, total)
        if (end < this.#nextPrune) this.#nextPrune = end
      }
      total.sum += amount
      total.by.set(from, (total.by.get(from) ?? 0) + amount)
      changed.push([key, total])
    }
    return (to) =>
      to === from || !changed.length
        ? undefined
        : changed.map(([key, t]): CountEntry => [key, t.sum - (t.by.get(to) ?? 0), t.end])
  }

  /** How many keys are held (tests: ended windows are let go). */
  get size(): number {
    return this.#totals.size
  }

  #prune(): void {
    const now = this.now()
    if (now < this.#nextPrune) return
    this.#nextPrune = Infinity
    for (const [key, { end }] of this.#totals)
      if (end <= now) this.#totals.delete(key)
      else if (end < this.#nextPrune) this.#nextPrune = end
  }
}

/**
 * The primary's side of the sessions the workers hold (rest's `ReportedSessions` is the worker's):
 * each worker tells its own when they change, and hears the sum of the others'.
 */
export class WorkerSessions {
  readonly #by = new Map<number, SessionTotals>()

  /**
   * Worker `from` holds `mine` now (undefined: it exited, its sessions gone with it); returns,
   * for a worker `to`, what it should hear now (undefined for `from` itself).
   */
  set(from: number, mine: SessionTotals | undefined): (to: number) => SessionTotals | undefined {
    if (mine === undefined) this.#by.delete(from)
    else this.#by.set(from, { sessions: mine.sessions, users: mine.users })
    return (to) => (to === from ? undefined : this.othersOf(to))
  }

  /** The sessions of every worker but `to`. */
  othersOf(to: number): SessionTotals {
    let sessions = 0
    let users = 0
    for (const [id, t] of this.#by)
      if (id !== to) {
        sessions += t.sessions
        users += t.users
      }
    return { sessions, users }
  }

  /** Whether any worker told of sessions (a worker that starts then hears of them). */
  get told(): boolean {
    return this.#by.size > 0
  }
}
