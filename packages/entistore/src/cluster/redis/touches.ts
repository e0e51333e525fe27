/**
 * @module The touches of sessions and sets: each request restarts the TTL of what it used (its
 * session's inactivity, a set's timeout), by a PEXPIRE no reply waits for. They are coalesced
 * into one pipeline per turn of the event loop, and written at most once a second per session or
 * set (never above a tenth of its life); what Redis answers it no longer has goes here too.
 */
import type { StoredSet } from '@entistore/core'
import type { PendingWrites } from './pending-writes.js'
import type { RedisKeys } from './wire.js'

// A touch is written at most this often per session or set (and never above a tenth of its life).
const TOUCH_EVERY = 1000

/** The commands of a pipeline of touches (an ioredis pipeline is one). */
export interface TouchBatch {
  pexpire(key: string, ms: number, when?: 'NX' | 'GT'): TouchBatch
  exec(): Promise<[Error | null, unknown][] | null>
}

export interface TouchCommands {
  pipeline(): TouchBatch
}

/**
 * An owner's list lives as long as its longest-lived set: given the set's life when it has none,
 * lengthened when the set outlives it. Ids of sets gone before it are dropped when read.
 */
export function extendOwner<B extends { pexpire(key: string, ms: number, when: 'NX' | 'GT'): B }>(
  batch: B,
  key: string,
  ttl: number,
): B {
  const ms = Math.ceil(ttl)
  return batch.pexpire(key, ms, 'NX').pexpire(key, ms, 'GT')
}

export interface TouchesOptions {
  readonly redis: TouchCommands
  readonly keys: RedisKeys
  readonly pending: PendingWrites
  /** The datastore's clock (ms): when each was last written. */
  readonly now: () => number
  /** A session Redis no longer has: gone here too. */
  readonly sessionGone: (id: string) => void
  /** A set Redis no longer has: released here too. */
  readonly setGone: (id: string) => void
}

export class Touches {
  readonly #o: TouchesOptions
  /** A flush is queued for the next turn of the event loop. */
  #flushing = false
  // Touches waiting for the next flush: id → the lifetime its TTL is set to again.
  readonly #sessions = new Map<string, number>()
  readonly #sets = new Map<string, StoredSet>()
  // When each session or set was last written.
  readonly #sessionWritten = new Map<string, number>()
  readonly #setWritten = new Map<string, number>()

  constructor(options: TouchesOptions) {
    this.#o = options
  }

  /** Session `id` was written whole: no touch of it is due for a while. */
  sessionWritten(id: string): void {
    this.#sessionWritten.set(id, this.#o.now())
  }

  /**
   * Session `id` is closed here. A touch of it already due is still written: one expired here
   * may live on in Redis (its TTL decides there), and one gone there is let go by its answer.
   */
  sessionClosed(id: string): void {
    this.#sessionWritten.delete(id)
  }

  /** Session `id` was renewed under another id: its old key is gone, nothing of it is due. */
  sessionRenamed(id: string): void {
    this.#sessionWritten.delete(id)
    this.#sessions.delete(id)
  }

  /** Set `id` was written whole; `live` says which sets still are, for the sweep of the others. */
  setWritten(id: string, size: number, live: (id: string) => boolean): void {
    this.#setWritten.set(id, this.#o.now())
    // Sets that expired here tell nothing: their entries go now and then, in one sweep.
    if (this.#setWritten.size > 2 * size + 1000)
      for (const id of this.#setWritten.keys()) if (!live(id)) this.#setWritten.delete(id)
  }

  forgetSet(id: string): void {
    this.#setWritten.delete(id)
  }

  touchSession(id: string, timeout: number): void {
    if (!this.#due(this.#sessionWritten, id, timeout)) return
    this.#sessions.set(id, timeout)
    this.#schedule()
  }

  touchSet(set: StoredSet): void {
    if (!this.#due(this.#setWritten, set.id, set.timeout)) return
    this.#sets.set(set.id, set)
    this.#schedule()
  }

  /** Every touch since the last flush, in one pipeline; what Redis no longer has goes here too. */
  flush(): void {
    this.#flushing = false
    const sessions = [...this.#sessions]
    const sets = [...this.#sets]
    this.#sessions.clear()
    this.#sets.clear()
    if (sessions.length === 0 && sets.length === 0) return
    const { keys } = this.#o
    const pipeline = this.#o.redis.pipeline()
    for (const [id, timeout] of sessions) pipeline.pexpire(keys.session(id), timeout)
    for (const [id, set] of sets) pipeline.pexpire(keys.set(id), set.timeout)
    // The owners' lists after every set's own key, so that the results' indexes stay the sets'.
    for (const [, set] of sets)
      for (const key of keys.owners(set.owner)) extendOwner(pipeline, key, set.timeout)
    this.#o.pending.send(
      pipeline.exec().then((results) => {
        results?.forEach(([error, done], i) => {
          if (error || done !== 0 || i >= sessions.length + sets.length) return
          if (i < sessions.length) this.#o.sessionGone(sessions[i]![0])
          else this.#o.setGone(sets[i - sessions.length]![0])
        })
      }),
    )
  }

  /** Whether a touch of `id` is worth writing: none written for a second (or a tenth of its life). */
  #due(written: Map<string, number>, id: string, timeout: number): boolean {
    const now = this.#o.now()
    const last = written.get(id)
    if (last !== undefined && now - last < Math.min(TOUCH_EVERY, timeout / 10)) return false
    written.set(id, now)
    return true
  }

  #schedule(): void {
    if (this.#flushing) return
    this.#flushing = true
    setImmediate(() => this.flush())
  }
}
