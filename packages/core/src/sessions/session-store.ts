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

// Session ids are 128 random bits as 32 uppercase hex digits. Random bytes are drawn 4 KB at a
// time (one call to the system's generator per 256 ids, not one per id) and written through a
// table of the 256 byte spellings: a new session costs about 0.3 µs instead of 7.
const POOL = new Uint8Array(4096)
let poolAt = POOL.length
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0').toUpperCase())

function randomId(): string {
  if (poolAt + 16 > POOL.length) {
    globalThis.crypto.getRandomValues(POOL)
    poolAt = 0
  }
  let id = ''
  for (let i = 0; i < 16; i++) id += HEX[POOL[poolAt++]!]
  return id
}

/** A session and its place in the store's recency list (an intrusive doubly linked list). */
class Entry implements Session {
  readonly id: string
  readonly createdAt: number
  lastAccess: number
  timeout: number
  #data: Map<string, unknown> | undefined
  /** Less recently used neighbour, more recently used neighbour. */
  older: Entry | undefined = undefined
  newer: Entry | undefined = undefined

  constructor(id: string, now: number, timeout: number) {
    this.id = id
    this.createdAt = now
    this.lastAccess = now
    this.timeout = timeout
  }

  // Made on first use: most sessions (one per anonymous client) never store anything.
  get data(): Map<string, unknown> {
    return (this.#data ??= new Map())
  }
}

export class SessionStore {
  readonly #clock: Clock
  readonly #timeout: number
  readonly #max: number
  readonly #newId: () => string
  readonly #sessions = new Map<string, Entry>()
  // The recency list: the oldest (first to expire, first to evict) and the newest entry. Touching
  // a session moves it to the newest end in O(1), without the Map's delete-and-reinsert, whose
  // deleted slots made every later walk from the oldest end slower.
  #oldest: Entry | undefined
  #newest: Entry | undefined
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
    const entry = new Entry(this.#newId(), this.#clock.now(), this.#timeout)
    this.#sessions.set(entry.id, entry)
    this.#append(entry)
    while (this.#sessions.size > this.#max) this.#close(this.#oldest!, 'evicted')
    return entry
  }

  /** The live session with this id, its inactivity timer restarted; undefined if unknown or expired. */
  touch(id: string): Session | undefined {
    const entry = this.#live(id)
    if (!entry) return undefined
    entry.lastAccess = this.#clock.now()
    if (entry !== this.#newest) {
      this.#unlink(entry)
      this.#append(entry)
    }
    return entry
  }

  /** The live session with this id, without restarting its timer. */
  peek(id: string): Session | undefined {
    return this.#live(id)
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
    const entry = this.#sessions.get(id)
    if (!entry) return false
    this.#close(entry, 'closed')
    return true
  }

  /** Closes every expired session. Cheap when none is: stops at the first live one in LRU order. */
  sweep(): void {
    // Sessions with a longer personal timeout may hide behind a live one; they expire on touch.
    while (this.#oldest && this.#expired(this.#oldest)) this.#close(this.#oldest, 'expired')
  }

  /** Calls `listener` when a session closes, with the reason. Returns the unsubscribe function. */
  onClose(listener: (session: Session, reason: SessionCloseReason) => void): () => void {
    this.#onClose.push(listener)
    return () => {
      const i = this.#onClose.indexOf(listener)
      if (i >= 0) this.#onClose.splice(i, 1)
    }
  }

  #live(id: string): Entry | undefined {
    const entry = this.#sessions.get(id)
    if (!entry) return undefined
    if (this.#expired(entry)) {
      this.#close(entry, 'expired')
      return undefined
    }
    return entry
  }

  #expired(session: Session): boolean {
    return this.#clock.now() - session.lastAccess >= session.timeout
  }

  #append(entry: Entry): void {
    entry.older = this.#newest
    entry.newer = undefined
    if (this.#newest) this.#newest.newer = entry
    else this.#oldest = entry
    this.#newest = entry
  }

  #unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer
    else this.#oldest = entry.newer
    if (entry.newer) entry.newer.older = entry.older
    else this.#newest = entry.older
    entry.older = entry.newer = undefined
  }

  #close(entry: Entry, reason: SessionCloseReason): void {
    this.#sessions.delete(entry.id)
    this.#unlink(entry)
    for (const listener of this.#onClose) listener(entry, reason)
  }
}
