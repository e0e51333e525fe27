/**
 * @module Sessions: who is talking to the datastore. A session is opened on first contact, kept
 * alive by each request, and closed after an inactivity timeout measured on the injected clock.
 * Locks and entity sets belong to sessions; they subscribe to `onClose` to release what a closed
 * session held. No timers: expiry is checked when sessions are touched and by `sweep()`, so a test
 * moves the clock and the next request sees the effect.
 */
import type { Clock } from '../clock/clock.js'

export interface SessionStoreOptions {
  /** Inactivity timeout, in milliseconds. 4D's default is 60 minutes. @default 3_600_000 */
  readonly inactivityTimeout?: number
  /** Maximum number of open sessions; the least recently used is closed beyond it. @default 10_000 */
  readonly maxSessions?: number
  /** Makes session ids. @default 32 uppercase hex digits from crypto.getRandomValues */
  readonly newId?: () => string
}

export interface Session {
  readonly id: string
  readonly createdAt: number
  /** Time of the last request of this session. */
  lastAccess: number
  /** Inactivity timeout of this session, in milliseconds. */
  timeout: number
  /** Free-form per-session data for the layers above (user, privileges). */
  readonly data: Map<string, unknown>
}

export type SessionCloseReason = 'expired' | 'closed' | 'evicted'

function randomId(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()
}

export class SessionStore {
  readonly #clock: Clock
  readonly #timeout: number
  readonly #max: number
  readonly #newId: () => string
  // Map iteration order is insertion order; touching a session re-inserts it, so the first entry
  // is always the least recently used (the one to expire or evict first).
  readonly #sessions = new Map<string, Session>()
  readonly #onClose: ((session: Session, reason: SessionCloseReason) => void)[] = []

  constructor(clock: Clock, options: SessionStoreOptions = {}) {
    this.#clock = clock
    this.#timeout = options.inactivityTimeout ?? 3_600_000
    this.#max = options.maxSessions ?? 10_000
    this.#newId = options.newId ?? randomId
    if (!(this.#timeout > 0))
      throw new RangeError('SessionStore: inactivityTimeout must be positive')
  }

  get size(): number {
    this.sweep()
    return this.#sessions.size
  }

  /** Opens a new session. */
  open(): Session {
    this.sweep()
    const now = this.#clock.now()
    const session: Session = {
      id: this.#newId(),
      createdAt: now,
      lastAccess: now,
      timeout: this.#timeout,
      data: new Map(),
    }
    this.#sessions.set(session.id, session)
    while (this.#sessions.size > this.#max)
      this.#close(this.#sessions.values().next().value!, 'evicted')
    return session
  }

  /** The live session with this id, its inactivity timer restarted; undefined if unknown or expired. */
  touch(id: string): Session | undefined {
    const session = this.peek(id)
    if (!session) return undefined
    session.lastAccess = this.#clock.now()
    this.#sessions.delete(id)
    this.#sessions.set(id, session)
    return session
  }

  /** The live session with this id, without restarting its timer. */
  peek(id: string): Session | undefined {
    const session = this.#sessions.get(id)
    if (!session) return undefined
    if (this.#expired(session)) {
      this.#close(session, 'expired')
      return undefined
    }
    return session
  }

  /** The session for `id` if it is alive (touched), otherwise a new one. */
  resume(id: string | undefined): { session: Session; created: boolean } {
    const existing = id === undefined ? undefined : this.touch(id)
    return existing
      ? { session: existing, created: false }
      : { session: this.open(), created: true }
  }

  /** Closes a session now (logout). Returns false if it was not open. */
  close(id: string): boolean {
    const session = this.#sessions.get(id)
    if (!session) return false
    this.#close(session, 'closed')
    return true
  }

  /** Closes every expired session. Cheap when none is: stops at the first live one in LRU order. */
  sweep(): void {
    for (const session of this.#sessions.values()) {
      if (!this.#expired(session)) {
        // Sessions with a longer personal timeout may hide behind a live one; they expire on touch.
        break
      }
      this.#close(session, 'expired')
    }
  }

  /** Calls `listener` when a session closes, with the reason. Returns the unsubscribe function. */
  onClose(listener: (session: Session, reason: SessionCloseReason) => void): () => void {
    this.#onClose.push(listener)
    return () => {
      const i = this.#onClose.indexOf(listener)
      if (i >= 0) this.#onClose.splice(i, 1)
    }
  }

  #expired(session: Session): boolean {
    return this.#clock.now() - session.lastAccess >= session.timeout
  }

  #close(session: Session, reason: SessionCloseReason): void {
    this.#sessions.delete(session.id)
    for (const listener of this.#onClose) listener(session, reason)
  }
}
