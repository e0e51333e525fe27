/**
 * @module Time, injected. Every timestamp, stamp time, session expiry, entity-set lifetime and lock
 * timeout reads a `Clock`, so tests move time forward instead of sleeping.
 */

export interface Clock {
  /** Milliseconds since the Unix epoch, like `Date.now()`. */
  now(): number
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() }

/**
 * A clock that moves only when told to. It starts at a non-zero time on purpose: some caches
 * (lru-cache among them) treat a start time of 0 as "no time".
 */
export class ManualClock implements Clock {
  #now: number

  constructor(start: number | Date | string = Date.UTC(2024, 0, 1)) {
    this.#now = typeof start === 'number' ? start : new Date(start).getTime()
    if (!Number.isFinite(this.#now))
      throw new RangeError(`ManualClock: invalid start time ${String(start)}`)
  }

  now(): number {
    return this.#now
  }

  /** Moves time forward by `ms` milliseconds (never backward). */
  advance(ms: number): this {
    if (!(ms >= 0))
      throw new RangeError(`ManualClock.advance: expected a non-negative duration, got ${ms}`)
    this.#now += ms
    return this
  }

  /** Jumps to an absolute time, which must not be earlier than the current one. */
  set(time: number | Date | string): this {
    const t = typeof time === 'number' ? time : new Date(time).getTime()
    if (!(t >= this.#now)) throw new RangeError(`ManualClock.set: time cannot go backward`)
    this.#now = t
    return this
  }
}
