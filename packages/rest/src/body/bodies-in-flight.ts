/**
 * @module The bytes of request bodies a transport is reading, over all its connections, and the
 * clients that stop sending them. Both transports (node:http's listener, the fetch handler) read a
 * body whole before `respond` takes it, so an upload that starts and stops holds what it sent:
 * 80 connections stopped at 15 of 16 MiB held 1.2 GB for the five minutes of node's own request
 * timeout. Two bounds end that:
 *
 * - a budget of bytes in flight (`maxBodyBytesInFlight`): a body takes its declared length out of
 *   it when its head arrives (a chunked body, each chunk as it arrives), and gives it back when it
 *   is handed to `respond`, refused, timed out or abandoned. A body that does not fit is refused at
 *   once, 503 with `Retry-After` (9037), before any of it is read: the server is busy, the body is
 *   not too large (that is 413), and the same request may pass a moment later.
 * - a body timeout (`bodyTimeoutMs`): a body of which less than `MIN_PROGRESS_BYTES` arrived for
 *   that long is answered 408 (9038), its connection closed, what arrived dropped. A byte now and
 *   then does not keep it alive: a client sending 1 byte a second was kept 330 s before. A timer
 *   that fires judges only after the I/O of its turn: timers run before the loop reads its
 *   sockets, so after the loop was held past the timeout (a loaded machine, a long commit) the
 *   timer came first and refused a client that had been sending all along.
 */
import { datastoreError, type DatastoreError } from '@entistore/core'
import { unrefSchedule, type Schedule } from '../schedule.js'
import { nextTurn } from '../slices/turns.js'

export interface BodyReadOptions {
  /**
   * The most bytes of request bodies being read at once (read or declared, not yet handed to the
   * REST interface), over all connections; a body that would pass it is refused before it is
   * read, 503 with `Retry-After` (9037). A body larger than this alone is refused 413 (9033).
   * @default 67_108_864 (64 MiB)
   */
  readonly maxBodyBytesInFlight?: number
  /**
   * How long a request body may go with less than 1 KiB of it arriving, in milliseconds: past it
   * the request is answered 408 (9038), its connection closed and what it sent dropped.
   * @default 10_000
   */
  readonly bodyTimeoutMs?: number
  /**
   * Runs the body timeouts: `(fn, ms)` calls `fn` after `ms` milliseconds unless the function it
   * returns is called first. Tests give their own, and decide when the time has passed.
   * @default setTimeout (a timer that keeps no process alive)
   */
  readonly scheduleBodyTimeout?: Schedule
}

/**
 * The bytes that must arrive within `bodyTimeoutMs` for a body to count as arriving: below a
 * TCP segment a second or so, the client is trickling, not uploading.
 */
export const MIN_PROGRESS_BYTES = 1024

/** Seconds a client refused for want of room is told to wait (`Retry-After`). */
const RETRY_AFTER_S = 1

/** What a transport says of the bodies it reads (the node listener's and fetch handler's counters). */
export interface BodyCounters {
  /**
   * Bytes of request bodies being read, declared or arrived (what `maxBodyBytesInFlight` bounds);
   * a body's bytes go back when it is handed over, refused, timed out or abandoned.
   */
  readonly bodyBytesInFlight: number
  /** Request bodies being read. */
  readonly bodiesInFlight: number
  /** Bodies refused 503 because they did not fit in `maxBodyBytesInFlight` (since start). */
  readonly bodiesRefused: number
  /** Bodies answered 408 because they stopped arriving (`bodyTimeoutMs`; since start). */
  readonly bodiesTimedOut: number
}

/** What one transport (a listener, a fetch handler) holds of the bodies it is reading. */
export class BodiesInFlight {
  readonly maxBytes: number
  readonly timeoutMs: number
  readonly schedule: Schedule
  /** Bytes taken by the bodies being read: declared lengths, and what arrived of chunked ones. */
  bytes = 0
  /** Bodies being read. */
  reading = 0
  /** Bodies refused because they did not fit (since start). */
  refused = 0
  /** Bodies answered 408 because they stopped arriving (since start). */
  timedOut = 0

  constructor(options: BodyReadOptions = {}) {
    this.maxBytes = options.maxBodyBytesInFlight ?? 64 * 1024 * 1024
    this.timeoutMs = options.bodyTimeoutMs ?? 10_000
    this.schedule = options.scheduleBodyTimeout ?? unrefSchedule
    if (!(this.maxBytes >= 0))
      throw new RangeError(`maxBodyBytesInFlight must be a number >= 0, not ${this.maxBytes}`)
    if (!(this.timeoutMs > 0))
      throw new RangeError(`bodyTimeoutMs must be a number > 0, not ${this.timeoutMs}`)
  }

  /** The getters of `BodyCounters`, for the transport's own function to carry. */
  counters(): Record<keyof BodyCounters, PropertyDescriptor> {
    return {
      bodyBytesInFlight: { get: () => this.bytes },
      bodiesInFlight: { get: () => this.reading },
      bodiesRefused: { get: () => this.refused },
      bodiesTimedOut: { get: () => this.timedOut },
    }
  }

  /** The largest body this transport can take: `limit`, or the budget when it is smaller. */
  limit(limit: number): number {
    return Math.min(limit, this.maxBytes)
  }

  /** The refusal of a body that does not fit. */
  full(): DatastoreError {
    this.refused++
    return datastoreError('BodiesInFlightFull', [this.maxBytes], {
      details: { retryAfter: RETRY_AFTER_S },
    })
  }

  /** The refusal of a body that stopped arriving. */
  stalled(): DatastoreError {
    this.timedOut++
    const seconds = Math.round(this.timeoutMs / 100) / 10
    return datastoreError('BodyTimeout', [seconds, MIN_PROGRESS_BYTES])
  }

  /**
   * Starts reading a body of `declared` bytes (undefined: chunked), or undefined when it does not
   * fit: then nothing is taken. `stalled` is called once if it stops arriving.
   */
  start(declared: number | undefined, stalled: () => void): BodyRead | undefined {
    const taken = declared ?? 0
    if (this.bytes + taken > this.maxBytes) return undefined
    this.bytes += taken
    this.reading++
    return new BodyRead(this, taken, declared === undefined, stalled)
  }
}

/** One body being read: its share of the budget and its timeout. */
export class BodyRead {
  readonly #budget: BodiesInFlight
  readonly #chunked: boolean
  readonly #stalled: () => void
  #taken: number
  #progress = 0
  #ended = false
  #cancel: () => void

  constructor(budget: BodiesInFlight, taken: number, chunked: boolean, stalled: () => void) {
    this.#budget = budget
    this.#taken = taken
    this.#chunked = chunked
    this.#stalled = stalled
    this.#cancel = budget.schedule(this.#fire, budget.timeoutMs)
  }

  // The timer's turn comes before the one that reads what arrived while the loop was held: the
  // verdict waits for that read (after the I/O callbacks of the turn), where enough bytes start
  // the timeout again.
  readonly #fire = (): void => {
    const cancel = this.#cancel
    nextTurn(() => {
      if (!this.#ended && this.#cancel === cancel) this.#stalled()
    })
  }

  /**
   * Counts `n` bytes that arrived; false when a chunked body's next bytes do not fit (nothing is
   * taken then).
   */
  arrived(n: number): boolean {
    const budget = this.#budget
    if (this.#chunked) {
      if (budget.bytes + n > budget.maxBytes) return false
      budget.bytes += n
      this.#taken += n
    }
    this.#progress += n
    if (this.#progress >= MIN_PROGRESS_BYTES) {
      // Progress: the timeout starts again (once a KiB at most, not on every chunk of a trickle).
      this.#progress = 0
      this.#cancel()
      this.#cancel = budget.schedule(this.#fire, budget.timeoutMs)
    }
    return true
  }

  /** The body is done with (read, refused, timed out, abandoned): its bytes go back. Idempotent. */
  end(): void {
    if (this.#ended) return
    this.#ended = true
    this.#cancel()
    this.#budget.bytes -= this.#taken
    this.#budget.reading--
  }
}
