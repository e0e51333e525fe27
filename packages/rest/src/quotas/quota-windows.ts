/**
 * @module The counts of 4D's rate quotas: requests, bytes in and bytes out, each in a fixed
 * one-minute and a fixed one-hour window. The windows are the clock's own minutes and hours (a
 * minute starts at :00 seconds): a count starts again at 0 when its window ends, and a client
 * refused is told the seconds left in it (`Retry-After`).
 */
import type { SharedCounts } from './shared-counts.js'
import type { WebQuotaName, WebQuotas } from './web-quotas.js'

/** What a rate quota counts. */
export type Measure = 'nbRequests' | 'inBytes' | 'outBytes'

const MEASURES: readonly Measure[] = ['nbRequests', 'inBytes', 'outBytes']
const PERIODS = [
  { name: 'PerMin', ms: 60_000 },
  { name: 'PerHour', ms: 3_600_000 },
] as const

/** Each slot's window and quota names, server-wide and per session, in MEASURES × PERIODS order. */
const SLOTS = MEASURES.flatMap((measure) =>
  PERIODS.map((period) => ({
    ms: period.ms,
    '': `${measure}${period.name}` as WebQuotaName,
    PerSession: `${measure}${period.name}PerSession` as WebQuotaName,
  })),
)

/** A rate quota reached: its name, its value, and the seconds left in its window. */
export interface Reached {
  readonly name: WebQuotaName
  readonly limit: number
  readonly retryAfter: number
}

/**
 * The six counts of one scope (the server, or one session), each in its window. With `shared`,
 * each count is this process's own plus the other processes' as last heard, under the key
 * `scope|quota|window start` (`scope` is '' for the server, the session's id for a session).
 */
export class RateCounts {
  // [window start, count] for each measure × period, in MEASURES × PERIODS order.
  readonly #counts = new Float64Array(MEASURES.length * PERIODS.length * 2).fill(-1)

  constructor(
    private readonly shared?: SharedCounts,
    public scope = '',
  ) {}

  /** This process's count of slot `slot` in its window that holds `now`. */
  #own(slot: number, ms: number, now: number): number {
    const start = now - (now % ms)
    if (this.#counts[slot * 2] !== start) {
      this.#counts[slot * 2] = start
      this.#counts[slot * 2 + 1] = 0
    }
    return this.#counts[slot * 2 + 1]!
  }

  #key(slot: number, start: number): string {
    return `${this.scope}|${SLOTS[slot]!['']}|${start}`
  }

  /** The count of slot `slot` in its window that holds `now`, the other processes' included. */
  #used(slot: number, ms: number, now: number): number {
    const own = this.#own(slot, ms, now)
    return this.shared ? own + this.shared.others(this.#key(slot, now - (now % ms))) : own
  }

  /**
   * The quota of those `quotas` gives (named with `suffix`: '' for the server's, 'PerSession') that
   * is reached now, the one whose window ends last when several are; undefined when none is.
   */
  reached(quotas: WebQuotas, suffix: '' | 'PerSession', now: number): Reached | undefined {
    let worst: Reached | undefined
    for (let slot = 0; slot < SLOTS.length; slot++) {
      const { ms, [suffix]: name } = SLOTS[slot]!
      const limit = quotas[name]
      if (limit === undefined || this.#used(slot, ms, now) < limit) continue
      const retryAfter = Math.ceil((ms - (now % ms)) / 1000)
      if (worst === undefined || retryAfter > worst.retryAfter) worst = { name, limit, retryAfter }
    }
    return worst
  }

  /**
   * Adds `amount` to `measure` in both of its windows that hold `at`; in a window that has ended
   * already (a count given late: a session's first requests), nothing.
   */
  add(measure: Measure, amount: number, at: number): void {
    const m = MEASURES.indexOf(measure)
    PERIODS.forEach((period, p) => {
      const slot = m * PERIODS.length + p
      const start = at - (at % period.ms)
      if (this.#counts[slot * 2]! > start) return
      this.#counts[slot * 2 + 1] = this.#own(slot, period.ms, at) + amount
      this.shared?.add(this.#key(slot, start), amount, start + period.ms)
    })
  }

  /** The count of `measure` now, in the window of `period` (tests, `currentValues`). */
  count(measure: Measure, period: 'PerMin' | 'PerHour', now: number): number {
    const p = PERIODS.findIndex((x) => x.name === period)
    return this.#used(MEASURES.indexOf(measure) * PERIODS.length + p, PERIODS[p]!.ms, now)
  }
}
