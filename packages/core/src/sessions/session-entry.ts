/**
 * @module A session as the in-memory store keeps it (session-store.ts): the session itself, its
 * data, and its place in the store's recency lists (intrusive doubly linked lists, so that a touch
 * moves it to the newest end in O(1)).
 */
import type { AuthUser, Session } from './session-api.js'
import type { UserLinked } from './sessions-per-user.js'
import { SESSION_USER_KEY } from './session-user.js'
import { userKey } from './sessions-per-user.js'
import { sessionStateChanged } from './session-reads.js'

/**
 * A session's data: a Map that tells its store when it changes (for the store's observers), and
 * tells every change as a change of its session's own state (session-reads.ts: a `restrict`
 * answer that read it is dropped), a change without telling the store included.
 */
export class SessionData extends Map<string, unknown> {
  readonly #changed: () => void
  readonly #session: object

  constructor(changed: () => void, session: object) {
    super()
    this.#changed = changed
    this.#session = session
  }

  /** Fills the map without telling (an adopted session's data). */
  fill(entries: Iterable<readonly [string, unknown]>): void {
    sessionStateChanged(this.#session)
    super.clear()
    for (const [k, v] of entries) super.set(k, v)
  }

  /** Sets (or, for undefined, deletes) one entry without telling (a renewal tells on its own). */
  put(key: string, value: unknown): void {
    sessionStateChanged(this.#session)
    if (value === undefined) super.delete(key)
    else super.set(key, value)
  }

  override set(key: string, value: unknown): this {
    sessionStateChanged(this.#session)
    super.set(key, value)
    this.#changed()
    return this
  }

  override delete(key: string): boolean {
    const had = super.delete(key)
    if (had) {
      sessionStateChanged(this.#session)
      this.#changed()
    }
    return had
  }

  override clear(): void {
    const had = this.size > 0
    super.clear()
    if (had) {
      sessionStateChanged(this.#session)
      this.#changed()
    }
  }
}

/**
 * A session and its place in the store's recency lists (intrusive doubly linked lists): its pool's,
 * and, logged in, its user's.
 */
export class Entry implements Session, UserLinked<Entry> {
  // Changed only by the store's `renew`.
  id: string
  readonly createdAt: number
  lastAccess: number
  timeout: number
  established: boolean
  #data: SessionData | undefined
  readonly #changed: (entry: Entry) => void
  /** The pool whose list holds it; less and more recently used neighbours in that list. */
  pool: Pool | undefined = undefined
  older: Entry | undefined = undefined
  newer: Entry | undefined = undefined
  userKey: string | undefined = undefined
  userOlder: Entry | undefined = undefined
  userNewer: Entry | undefined = undefined

  constructor(
    id: string,
    now: number,
    timeout: number,
    established: boolean,
    changed: (entry: Entry) => void,
    createdAt = now,
  ) {
    this.id = id
    this.established = established
    this.createdAt = createdAt
    this.lastAccess = now
    this.timeout = timeout
    this.#changed = changed
  }

  // Made on first use: most sessions (one per anonymous client) never store anything.
  get data(): SessionData {
    return (this.#data ??= new SessionData(() => this.#changed(this), this))
  }

  /** Whether any data was ever stored (without making the map). */
  get hasData(): boolean {
    return this.#data !== undefined && this.#data.size > 0
  }
}

/** One pool's recency list: the oldest (first to expire, first to evict) and the newest entry. */
export class Pool {
  oldest: Entry | undefined
  newest: Entry | undefined
  size = 0

  append(entry: Entry): void {
    entry.pool = this
    entry.older = this.newest
    entry.newer = undefined
    if (this.newest) this.newest.newer = entry
    else this.oldest = entry
    this.newest = entry
    this.size++
  }

  unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer
    else this.oldest = entry.newer
    if (entry.newer) entry.newer.older = entry.older
    else this.newest = entry.older
    entry.pool = entry.older = entry.newer = undefined
    this.size--
  }

  /** Makes `entry` (in this pool or another) the newest of this pool. */
  moveToNewest(entry: Entry): void {
    if (entry === this.newest) return
    entry.pool?.unlink(entry)
    this.append(entry)
  }
}

/** Whether a session holds a user (without making its data map). */
export const hasUser = (entry: Entry): boolean => entry.hasData && entry.data.has(SESSION_USER_KEY)

/** The key of the user a session holds (sessions-per-user.ts); undefined for none or no name. */
export const keyOf = (entry: Entry): string | undefined =>
  hasUser(entry) ? userKey(entry.data.get(SESSION_USER_KEY) as AuthUser) : undefined
