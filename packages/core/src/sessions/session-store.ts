/**
 * @module Sessions: who is talking to the datastore. A session is opened on first contact, kept
 * alive by each request, and closed after an inactivity timeout measured on the injected clock.
 * Locks and entity sets belong to sessions; they subscribe to `onClose` to release what a closed
 * session held. No timers: expiry is checked when sessions are touched and by `sweep()`, so a test
 * moves the clock and the next request sees the effect.
 *
 * Two pools, each its own recency list. A session opened for an unknown client (`resume` without a
 * live id) is a *guest*: it holds nothing, and lives in a bounded pool where only guests are
 * evicted. It becomes *established* when it comes back (`touch`) or takes state (`establish`: a
 * login, a lock). So a flood of cookie-less requests turns over the guest pool and never evicts an
 * established session, nor the locks it holds. `maxSessions` bounds the established pool: past it
 * the least recent is evicted, or (`whenFull: 'refuse'`) the new one is refused (SessionLimit, 402).
 *
 * Several processes serving one datastore share their sessions through another service (Redis):
 * each keeps this store as a mirror, told of what happens here by an observer (`observe`: opened,
 * touched, established, data changed) and given what happened elsewhere by `adopt`. Without an
 * observer, the hooks cost one length check: the touch of a known session allocates nothing.
 */
import { fail } from '../errors/datastore-error.js'
import type { Clock } from '../clock/clock.js'

export interface SessionStoreOptions {
  /** Inactivity timeout, in milliseconds. 4D's default is 60 minutes. @default 3_600_000 */
  readonly inactivityTimeout?: number
  /** Maximum number of established sessions (see `whenFull`). @default 10_000 */
  readonly maxSessions?: number
  /**
   * What happens when one more session would be established past `maxSessions`: `'evict'` closes
   * the least recently used established session; `'refuse'` throws SessionLimit (HTTP 402, the
   * real server's "Maximum number of sessions has been reached") and the session stays a guest.
   * @default 'evict'
   */
  readonly whenFull?: 'evict' | 'refuse'
  /** Maximum number of guest sessions; the least recent guest is closed beyond it. @default 10_000 */
  readonly maxGuests?: number
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
  /** False for a guest: a session opened for an unknown client that has not come back yet. */
  readonly established: boolean
}

export type SessionCloseReason = 'expired' | 'closed' | 'evicted'

/**
 * What a store tells of its sessions besides their closing (`onClose`): enough for a mirror in
 * another process to follow. Called synchronously, after the change; never for `adopt`.
 */
export interface SessionObserver {
  /** A session was opened here (`open`, `openGuest`). */
  opened?(session: Session): void
  /** A request came back: the session's inactivity timer restarted (`touch` of an established one). */
  touched?(session: Session): void
  /** A guest was established (it came back, logged in, took a lock); its timer restarted too. */
  established?(session: Session): void
  /**
   * `session.data` was changed (`set`, `delete`, `clear`): a login, a function's session storage.
   * A change inside a value (an object mutated in place) is not seen: set the value again.
   */
  changed?(session: Session): void
}

/** A session as another process (or a shared store) holds it, to be adopted here. */
export interface SessionSnapshot {
  readonly id: string
  readonly createdAt: number
  /** Time of the last request, on this store's clock. */
  readonly lastAccess: number
  readonly timeout: number
  readonly established: boolean
  readonly data?: Iterable<readonly [string, unknown]>
}

/**
 * What the datastore and the REST interface need of a session store. `SessionStore` (in memory)
 * implements it; another one (shared between processes, persistent) can be given as
 * `createDatastore(model, { sessions: { store } })`. Every method is synchronous: the lock table
 * asks `peek` whether a lock's holder is alive in the middle of a write.
 */
export interface SessionStoreApi {
  /** Open sessions, guests included. */
  readonly size: number
  /** Open established sessions and open guests. */
  readonly counts: { established: number; guests: number }
  /** A new established session (SessionLimit when full in refuse mode). */
  open(): Session
  /** A new guest session. */
  openGuest(): Session
  /** The live session, its timer restarted; a guest is established (may throw SessionLimit). */
  touch(id: string): Session | undefined
  /** Establishes a live guest (may throw SessionLimit); undefined if not open. */
  establish(id: string): Session | undefined
  /** The live session, timer untouched. */
  peek(id: string): Session | undefined
  /** `touch(id)`, else a new guest. */
  resume(id: string | undefined): { session: Session; created: boolean }
  /** Closes a session now; false if it was not open. Listeners are called. */
  close(id: string): boolean
  /** Closes the expired sessions. */
  sweep(): void
  /**
   * Closes every open session now (a test fixture's reset); listeners are called. Returns how many.
   * Optional: a store shared between processes may not offer it.
   */
  closeAll?(): number
  /** Calls `listener` when a session closes (the datastore releases its locks). */
  onClose(listener: (session: Session, reason: SessionCloseReason) => void): () => void
  /**
   * Tells `observer` of sessions opened, touched, established and changed; returns the function
   * that stops. Optional: what a mirror of a shared store needs (the in-memory store has it).
   */
  observe?(observer: SessionObserver): () => void
  /**
   * Takes in a session known elsewhere (another process made it) with its id, times and data, or
   * updates the one open here under that id; observers are not told. Optional, as `observe`.
   */
  adopt?(snapshot: SessionSnapshot): Session
}

// Session ids are 128 random bits as 32 uppercase hex digits. Random bytes are drawn 4 KB at a
// time (one call to the system's generator per 256 ids, not one per id) and spelled through a
// table of hex digit codes into one flat string: concatenating 16 pieces made 15 intermediate
// strings per id and a flattening copy when the id was first hashed as a Map key, work that a
// server answering cookie-less clients (one new session per request) paid on every request.
const POOL = new Uint8Array(4096)
let poolAt = POOL.length
const DIGITS = '0123456789ABCDEF'
const HIGH = Array.from({ length: 256 }, (_, b) => DIGITS.charCodeAt(b >> 4))
const LOW = Array.from({ length: 256 }, (_, b) => DIGITS.charCodeAt(b & 15))
const CODES: number[] = new Array<number>(32).fill(0)

/**
 * 128 random bits as 32 uppercase hex digits, the form of the real server's ids: sessions here, and
 * other ids a client must not guess (the REST interface's uploads).
 */
export function randomId(): string {
  if (poolAt + 16 > POOL.length) {
    globalThis.crypto.getRandomValues(POOL)
    poolAt = 0
  }
  for (let i = 0; i < 32; i += 2) {
    const byte = POOL[poolAt++]!
    CODES[i] = HIGH[byte]!
    CODES[i + 1] = LOW[byte]!
  }
  return String.fromCharCode.apply(null, CODES)
}

/** A session's data: a Map that tells its store when it changes (for the store's observers). */
class SessionData extends Map<string, unknown> {
  readonly #changed: () => void

  constructor(changed: () => void) {
    super()
    this.#changed = changed
  }

  /** Fills the map without telling (an adopted session's data). */
  fill(entries: Iterable<readonly [string, unknown]>): void {
    super.clear()
    for (const [k, v] of entries) super.set(k, v)
  }

  override set(key: string, value: unknown): this {
    super.set(key, value)
    this.#changed()
    return this
  }

  override delete(key: string): boolean {
    const had = super.delete(key)
    if (had) this.#changed()
    return had
  }

  override clear(): void {
    const had = this.size > 0
    super.clear()
    if (had) this.#changed()
  }
}

/** A session and its place in the store's recency list (an intrusive doubly linked list). */
class Entry implements Session {
  readonly id: string
  readonly createdAt: number
  lastAccess: number
  timeout: number
  established: boolean
  #data: SessionData | undefined
  readonly #changed: (entry: Entry) => void
  /** Less recently used neighbour, more recently used neighbour (in its pool's list). */
  older: Entry | undefined = undefined
  newer: Entry | undefined = undefined

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
    return (this.#data ??= new SessionData(() => this.#changed(this)))
  }

  /** Whether any data was ever stored (without making the map). */
  get hasData(): boolean {
    return this.#data !== undefined && this.#data.size > 0
  }
}

/** One pool's recency list: the oldest (first to expire, first to evict) and the newest entry. */
class Pool {
  oldest: Entry | undefined
  newest: Entry | undefined
  size = 0

  append(entry: Entry): void {
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
    entry.older = entry.newer = undefined
    this.size--
  }
}

export class SessionStore implements SessionStoreApi {
  readonly #clock: Clock
  readonly #timeout: number
  readonly #max: number
  readonly #maxGuests: number
  readonly #refuse: boolean
  readonly #newId: () => string
  readonly #sessions = new Map<string, Entry>()
  // Touching a session moves it to the newest end of its pool in O(1), without the Map's
  // delete-and-reinsert, whose deleted slots made every later walk from the oldest end slower.
  readonly #established = new Pool()
  readonly #guests = new Pool()
  readonly #onClose: ((session: Session, reason: SessionCloseReason) => void)[] = []
  readonly #observers: SessionObserver[] = []
  // One function for every entry's data: which entry changed is its argument.
  readonly #changed = (entry: Entry): void => {
    for (const o of this.#observers) o.changed?.(entry)
  }

  constructor(clock: Clock, options: SessionStoreOptions = {}) {
    this.#clock = clock
    this.#timeout = options.inactivityTimeout ?? 3_600_000
    this.#max = options.maxSessions ?? 10_000
    this.#maxGuests = options.maxGuests ?? 10_000
    this.#refuse = options.whenFull === 'refuse'
    this.#newId = options.newId ?? randomId
    if (!(this.#timeout > 0))
      throw new RangeError('SessionStore: inactivityTimeout must be positive')
    if (!(this.#max >= 1) || !(this.#maxGuests >= 1))
      throw new RangeError('SessionStore: maxSessions and maxGuests must be at least 1')
  }

  /** Open sessions, guests included. */
  get size(): number {
    this.sweep()
    return this.#sessions.size
  }

  /** Open established sessions and open guests. */
  get counts(): { established: number; guests: number } {
    this.sweep()
    return { established: this.#established.size, guests: this.#guests.size }
  }

  /**
   * Opens a new established session (a deliberate open, from code). Throws SessionLimit when
   * `maxSessions` are established and `whenFull` is 'refuse'.
   */
  open(): Session {
    const now = this.#sweep()
    this.#makeRoom()
    const entry = new Entry(this.#newId(), now, this.#timeout, true, this.#changed)
    this.#sessions.set(entry.id, entry)
    this.#established.append(entry)
    if (this.#observers.length > 0) for (const o of this.#observers) o.opened?.(entry)
    return entry
  }

  /** Opens a new guest session: it only ever evicts another guest. */
  openGuest(): Session {
    const now = this.#sweep()
    const entry = new Entry(this.#newId(), now, this.#timeout, false, this.#changed)
    this.#sessions.set(entry.id, entry)
    this.#guests.append(entry)
    while (this.#guests.size > this.#maxGuests) this.#close(this.#guests.oldest!, 'evicted')
    if (this.#observers.length > 0) for (const o of this.#observers) o.opened?.(entry)
    return entry
  }

  /**
   * The live session with this id, its inactivity timer restarted; undefined if unknown or expired.
   * A guest that comes back is established (so this throws SessionLimit when none can be).
   */
  touch(id: string): Session | undefined {
    const entry = this.#live(id)
    if (!entry) return undefined
    if (!entry.established) return this.#establish(entry)
    entry.lastAccess = this.#clock.now()
    if (entry !== this.#established.newest) {
      this.#established.unlink(entry)
      this.#established.append(entry)
    }
    if (this.#observers.length > 0) for (const o of this.#observers) o.touched?.(entry)
    return entry
  }

  /**
   * Makes a live guest an established session (it logs in, takes a lock), its timer restarted.
   * Returns undefined if the session is not open. Throws SessionLimit in refuse mode when full.
   */
  establish(id: string): Session | undefined {
    const entry = this.#live(id)
    if (!entry) return undefined
    return entry.established ? entry : this.#establish(entry)
  }

  /** The live session with this id, without restarting its timer. */
  peek(id: string): Session | undefined {
    return this.#live(id)
  }

  /** The session for `id` if it is alive (touched), otherwise a new guest. */
  resume(id: string | undefined): { session: Session; created: boolean } {
    const existing = id === undefined ? undefined : this.touch(id)
    return existing
      ? { session: existing, created: false }
      : { session: this.openGuest(), created: true }
  }

  /** Closes a session now (logout). Returns false if it was not open. */
  close(id: string): boolean {
    const entry = this.#sessions.get(id)
    if (!entry) return false
    this.#close(entry, 'closed')
    return true
  }

  /** Closes every expired session. Cheap when none is: stops at the first live one of each pool. */
  sweep(): void {
    this.#sweep()
  }

  /** `sweep`, returning the time it read. Runs on every new session: one reading of the clock. */
  #sweep(): number {
    // Sessions with a longer personal timeout may hide behind a live one; they expire on touch.
    const now = this.#clock.now()
    this.#sweepPool(this.#guests, now)
    this.#sweepPool(this.#established, now)
    return now
  }

  #sweepPool(pool: Pool, now: number): void {
    while (pool.oldest && now - pool.oldest.lastAccess >= pool.oldest.timeout)
      this.#close(pool.oldest, 'expired')
  }

  /** Closes every open session now, as `close` does each one. Returns how many were open. */
  closeAll(): number {
    const open = [...this.#sessions.values()]
    for (const entry of open) this.#close(entry, 'closed')
    return open.length
  }

  /** Calls `listener` when a session closes, with the reason. Returns the unsubscribe function. */
  onClose(listener: (session: Session, reason: SessionCloseReason) => void): () => void {
    this.#onClose.push(listener)
    return () => {
      const i = this.#onClose.indexOf(listener)
      if (i >= 0) this.#onClose.splice(i, 1)
    }
  }

  /** Tells `observer` of sessions opened, touched, established and changed; returns the stop. */
  observe(observer: SessionObserver): () => void {
    this.#observers.push(observer)
    return () => {
      const i = this.#observers.indexOf(observer)
      if (i >= 0) this.#observers.splice(i, 1)
    }
  }

  /**
   * Takes in a session another process opened (or updates the one open here under its id): its
   * times, state and data as given, at the newest end of its pool. Observers are not told: this is
   * how a mirror follows, not a change of its own. May evict (or, in refuse mode, throw
   * SessionLimit) to make room for an established one, as `open` does.
   */
  adopt(snapshot: SessionSnapshot): Session {
    let entry = this.#sessions.get(snapshot.id)
    // Established is never undone: this store may have established it before the other knew.
    const established = snapshot.established || entry?.established === true
    if (established && !entry?.established) this.#makeRoom()
    if (entry) {
      ;(entry.established ? this.#established : this.#guests).unlink(entry)
      entry.established = established
      entry.lastAccess = snapshot.lastAccess
      entry.timeout = snapshot.timeout
    } else {
      entry = new Entry(
        snapshot.id,
        snapshot.lastAccess,
        snapshot.timeout,
        established,
        this.#changed,
        snapshot.createdAt,
      )
      this.#sessions.set(entry.id, entry)
    }
    ;(established ? this.#established : this.#guests).append(entry)
    if (snapshot.data) entry.data.fill(snapshot.data)
    else if (entry.hasData) entry.data.fill([])
    while (this.#guests.size > this.#maxGuests) this.#close(this.#guests.oldest!, 'evicted')
    return entry
  }

  #establish(entry: Entry): Entry {
    this.#makeRoom()
    this.#guests.unlink(entry)
    entry.established = true
    entry.lastAccess = this.#clock.now()
    this.#established.append(entry)
    if (this.#observers.length > 0) for (const o of this.#observers) o.established?.(entry)
    return entry
  }

  /** Room for one more established session: evict the least recent, or refuse. */
  #makeRoom(): void {
    if (this.#established.size < this.#max) return
    if (this.#refuse) fail('SessionLimit', [this.#max])
    while (this.#established.size >= this.#max) this.#close(this.#established.oldest!, 'evicted')
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

  #close(entry: Entry, reason: SessionCloseReason): void {
    this.#sessions.delete(entry.id)
    ;(entry.established ? this.#established : this.#guests).unlink(entry)
    for (const listener of this.#onClose) listener(entry, reason)
  }
}
