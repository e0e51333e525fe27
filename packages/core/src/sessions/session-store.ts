/**
 * @module Sessions: who is talking to the datastore. A session is opened on first contact, kept
 * alive by each request, and closed after an inactivity timeout measured on the injected clock.
 * Locks and entity sets belong to sessions; they subscribe to `onClose` to release what a closed
 * session held. No timers: expiry is checked when sessions are touched and by `sweep()`, so a test
 * moves the clock and the next request sees the effect.
 *
 * Three pools, each its own recency list, so that who may evict whom is decided by what a session
 * holds, never by how often its client comes back:
 * - **guests**: sessions opened for a client (`resume` without a live id) that hold nothing. A
 *   guest that comes back with its cookie stays a guest (a returning cookie proves nothing: a
 *   script replays it as easily as a browser), in a pool bounded by `maxGuests` where only guests
 *   are evicted.
 * - **established** sessions without a user: a guest becomes one when it takes state (`establish`:
 *   a lock, a login without a user), and `open` makes one.
 * - **logged-in** sessions: those with a user (session-user.ts), put there by `renew`.
 *
 * The last two share `maxSessions`, and each user's logged-in sessions are bounded by
 * `maxSessionsPerUser` (users told apart by name, ignoring case: sessions-per-user.ts). Who may
 * evict whom, so that no client ever logs out a session that is not its own user's:
 * - past a user's quota, a login of that user evicts the user's own least recent session
 *   (`whenFull: 'refuse'`: refused, UserSessionLimit, 402);
 * - past `maxSessions`, an established session without a user may only evict the least recent
 *   session without a user; a login, that too, else its own user's least recent session. When
 *   only other users' sessions would make room, it is refused (SessionLimit, 402) in both modes:
 *   one user logging in over and over (10,050 times in 3.6 s) evicted an admin's session and
 *   released its lock before. `whenFull: 'refuse'` refuses rather than evicting anything.
 * Expired sessions are swept before a limit is judged reached.
 *
 * `renew` gives a session a new id at a login and at every change of who it is (session
 * fixation: an id a guest was given, planted in a victim's browser, must not become the victim's
 * session). The session object stays the same, its state (times, data, locks) carried over; the
 * old id is dead at once, and `onRenew` listeners (the datastore: its locks) are told.
 *
 * Several processes serving one datastore share their sessions through another service (Redis):
 * each keeps this store as a mirror, told of what happens here by an observer (`observe`: opened,
 * touched, established, data changed) and given what happened elsewhere by `adopt`. Without an
 * observer, the hooks cost one length check: the touch of a known session allocates nothing.
 */
import { fail } from '../errors/datastore-error.js'
import type { Clock } from '../clock/clock.js'
import { SESSION_USER_KEY, type AuthUser } from './session-user.js'
import { SessionsPerUser, userKey, type UserLinked } from './sessions-per-user.js'

export interface SessionStoreOptions {
  /** Inactivity timeout, in milliseconds. 4D's default is 60 minutes. @default 3_600_000 */
  readonly inactivityTimeout?: number
  /**
   * Maximum number of established sessions, logged in or not (see `whenFull`; a session without a
   * user never evicts a logged-in one). @default 10_000
   */
  readonly maxSessions?: number
  /**
   * Maximum number of logged-in sessions of one user (by user name, ignoring case as 4D compares
   * names). A person uses a few browsers and devices; a test suite or a load test logging in as
   * one fixture user keeps a client per worker or virtual user: 100 leaves room for those, and
   * takes 100 users to fill the default `maxSessions`. `Infinity`: no bound per user (a login
   * still never evicts another user's session). @default 100
   */
  readonly maxSessionsPerUser?: number
  /**
   * What happens when one more session would be established past `maxSessions`, or logged in past
   * its user's `maxSessionsPerUser`: `'evict'` closes the least recently used session that may
   * make room (past the quota, the user's own; past `maxSessions`, one without a user, else, for a
   * login, the user's own); `'refuse'` throws SessionLimit, or UserSessionLimit past the quota
   * (HTTP 402, the real server's "Maximum number of sessions has been reached"), and the session
   * stays as it was. When only another user's session would make room, it is refused in both.
   * @default 'evict'
   */
  readonly whenFull?: 'evict' | 'refuse'
  /** Maximum number of guest sessions; the least recent guest is closed beyond it. @default 10_000 */
  readonly maxGuests?: number
  /** Makes session ids. @default 32 uppercase hex digits from crypto.getRandomValues */
  readonly newId?: () => string
}

export interface Session {
  /**
   * The session's id, what its cookie carries. It changes when the session is renewed (a login:
   * `renew`): keep the session, not its id.
   */
  readonly id: string
  readonly createdAt: number
  /** Time of the last request of this session. */
  lastAccess: number
  /** Inactivity timeout of this session, in milliseconds. */
  timeout: number
  /** Free-form per-session data for the layers above (user, privileges). */
  readonly data: Map<string, unknown>
  /**
   * False for a guest: a session that holds nothing (no lock, no login), whether or not its client
   * came back.
   */
  readonly established: boolean
}

/** Why a session closed. A renewed session does not close: its old id is dropped (`onRenew`). */
export type SessionCloseReason = 'expired' | 'closed' | 'evicted'

/** What `renew` changes besides the id. */
export interface SessionRenewal {
  /** The user now logged in on the session; null: nobody. @default unchanged */
  readonly user?: AuthUser | null
  /** The session's new inactivity timeout, in milliseconds. @default unchanged */
  readonly timeout?: number
}

/**
 * What a store tells of its sessions besides their closing (`onClose`) and renewal (`onRenew`):
 * enough for a mirror in another process to follow. Called synchronously, after the change; never
 * for `adopt`.
 */
export interface SessionObserver {
  /** A session was opened here (`open`, `openGuest`). */
  opened?(session: Session): void
  /** A request came back: the session's inactivity timer restarted (`touch`). */
  touched?(session: Session): void
  /** A guest was established (it took a lock, logged in); its timer restarted too. */
  established?(session: Session): void
  /**
   * `session.data` was changed (`set`, `delete`, `clear`): a function's session storage.
   * A change inside a value (an object mutated in place) is not seen: set the value again. A
   * renewal's change of user is told by `onRenew` instead.
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
  /**
   * Open established sessions (logged in or not), of them those logged in (`users`), and open
   * guests.
   */
  readonly counts: { established: number; users: number; guests: number }
  /**
   * Open logged-in sessions of the user of this name (ignoring case). Optional: what a store
   * that bounds sessions per user can tell.
   */
  sessionsOf?(userName: string): number
  /** A new established session (SessionLimit when full in refuse mode). */
  open(): Session
  /** A new guest session. */
  openGuest(): Session
  /**
   * A new session id, as `open` and `openGuest` would give one, for a client that is sent a
   * session cookie before any session is kept for it (a read by key: nothing to keep until it
   * holds something). Optional: without it the REST interface draws 128 random bits itself.
   */
  newId?(): string
  /** The live session, its timer restarted; a guest stays a guest. */
  touch(id: string): Session | undefined
  /** Establishes a live guest (may throw SessionLimit); undefined if not open. */
  establish(id: string): Session | undefined
  /**
   * Gives the live session `id` a new id (a login, a change of privileges), with the changes asked:
   * the same session, established, its state carried over; the old id is dead at once and
   * `onRenew` listeners are told. Throws SessionLimit, before changing anything, when it cannot be
   * established. Undefined if not open.
   */
  renew(id: string, change?: SessionRenewal): Session | undefined
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
   * Calls `listener` when a session is renewed, with its old id (the datastore moves its locks to
   * the new one). Returns the function that stops.
   */
  onRenew(listener: (session: Session, previousId: string) => void): () => void
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

  /** Sets (or, for undefined, deletes) one entry without telling (a renewal tells on its own). */
  put(key: string, value: unknown): void {
    if (value === undefined) super.delete(key)
    else super.set(key, value)
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

/**
 * A session and its place in the store's recency lists (intrusive doubly linked lists): its pool's,
 * and, logged in, its user's.
 */
class Entry implements Session, UserLinked<Entry> {
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

export class SessionStore implements SessionStoreApi {
  readonly #clock: Clock
  readonly #timeout: number
  readonly #max: number
  readonly #maxPerUser: number
  readonly #maxGuests: number
  readonly #refuse: boolean
  readonly #newId: () => string
  readonly #sessions = new Map<string, Entry>()
  // Touching a session moves it to the newest end of its pool in O(1), without the Map's
  // delete-and-reinsert, whose deleted slots made every later walk from the oldest end slower.
  readonly #guests = new Pool()
  /** Established sessions without a user: the ones a session without a login may evict. */
  readonly #anonymous = new Pool()
  /** Logged-in sessions: only a login of the same user evicts one. */
  readonly #users = new Pool()
  /** The logged-in sessions of each user, least recent first. */
  readonly #perUser = new SessionsPerUser<Entry>()
  readonly #onClose: ((session: Session, reason: SessionCloseReason) => void)[] = []
  readonly #onRenew: ((session: Session, previousId: string) => void)[] = []
  readonly #observers: SessionObserver[] = []
  // One function for every entry's data: which entry changed is its argument. A user put on or
  // taken off an established session moves it between its two pools (their total is the same)
  // and its user's list, without judging the quota: a Map's `set` cannot refuse.
  readonly #changed = (entry: Entry): void => {
    if (entry.established) this.#file(entry)
    for (const o of this.#observers) o.changed?.(entry)
  }

  constructor(clock: Clock, options: SessionStoreOptions = {}) {
    this.#clock = clock
    this.#timeout = options.inactivityTimeout ?? 3_600_000
    this.#max = options.maxSessions ?? 10_000
    this.#maxPerUser = options.maxSessionsPerUser ?? 100
    this.#maxGuests = options.maxGuests ?? 10_000
    this.#refuse = options.whenFull === 'refuse'
    this.#newId = options.newId ?? randomId
    if (!(this.#timeout > 0))
      throw new RangeError('SessionStore: inactivityTimeout must be positive')
    if (!(this.#max >= 1) || !(this.#maxGuests >= 1) || !(this.#maxPerUser >= 1))
      throw new RangeError(
        'SessionStore: maxSessions, maxSessionsPerUser and maxGuests must be at least 1',
      )
  }

  /** Open sessions, guests included. */
  get size(): number {
    this.sweep()
    return this.#sessions.size
  }

  /** Open established sessions (logged-in ones included), logged-in ones, and open guests. */
  get counts(): { established: number; users: number; guests: number } {
    this.sweep()
    return {
      established: this.#anonymous.size + this.#users.size,
      users: this.#users.size,
      guests: this.#guests.size,
    }
  }

  /** Open logged-in sessions of the user of this name, ignoring case (0 for a name ''). */
  sessionsOf(userName: string): number {
    this.sweep()
    return this.#perUser.count(userKey({ name: userName }))
  }

  /**
   * Opens a new established session (a deliberate open, from code). Throws SessionLimit when
   * `maxSessions` are established and `whenFull` is 'refuse'.
   */
  open(): Session {
    const now = this.#sweep()
    this.#admit(undefined, undefined, true)
    const entry = new Entry(this.#newId(), now, this.#timeout, true, this.#changed)
    this.#sessions.set(entry.id, entry)
    this.#anonymous.append(entry)
    if (this.#observers.length > 0) for (const o of this.#observers) o.opened?.(entry)
    return entry
  }

  /** A new session id, nothing kept for it (see SessionStoreApi.newId). */
  newId(): string {
    return this.#newId()
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
   * A guest that comes back stays a guest: only what it takes (`establish`, `renew`) establishes it.
   */
  touch(id: string): Session | undefined {
    const entry = this.#live(id)
    if (!entry) return undefined
    entry.lastAccess = this.#clock.now()
    entry.pool!.moveToNewest(entry)
    if (entry.userKey !== undefined) this.#perUser.touch(entry)
    if (this.#observers.length > 0) for (const o of this.#observers) o.touched?.(entry)
    return entry
  }

  /**
   * Makes a live guest an established session (it takes a lock), its timer restarted. Returns
   * undefined if the session is not open. Throws SessionLimit when no room can be made for it.
   */
  establish(id: string): Session | undefined {
    const entry = this.#live(id)
    if (!entry) return undefined
    if (entry.established) return entry
    this.#admit(entry, keyOf(entry), true)
    this.#establish(entry)
    if (this.#observers.length > 0) for (const o of this.#observers) o.established?.(entry)
    return entry
  }

  /**
   * The live session `id` under a new id, its user and timeout changed as asked, established and
   * its timer restarted; the old id is dead at once, and `onRenew` listeners are told (observers
   * are not: the renewal is the one event). Throws SessionLimit before changing anything when it
   * cannot be established, UserSessionLimit when its new user may have no more sessions (refuse
   * mode); past the user's quota in evict mode, the user's least recent session is closed first.
   * Undefined if the session is not open.
   */
  renew(id: string, change: SessionRenewal = {}): Session | undefined {
    const entry = this.#live(id)
    if (!entry) return undefined
    const key = change.user === undefined ? keyOf(entry) : userKey(change.user)
    this.#admit(entry, key, !entry.established)
    if (change.user !== undefined) entry.data.put(SESSION_USER_KEY, change.user ?? undefined)
    if (change.timeout !== undefined) entry.timeout = change.timeout
    const previous = entry.id
    this.#sessions.delete(previous)
    entry.id = this.#newId()
    this.#sessions.set(entry.id, entry)
    this.#establish(entry)
    for (const listener of this.#onRenew) listener(entry, previous)
    return entry
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
    this.#sweepPool(this.#anonymous, now)
    this.#sweepPool(this.#users, now)
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
    return subscribe(this.#onClose, listener)
  }

  /** Calls `listener` when a session is renewed, with its old id. Returns the unsubscribe function. */
  onRenew(listener: (session: Session, previousId: string) => void): () => void {
    return subscribe(this.#onRenew, listener)
  }

  /** Tells `observer` of sessions opened, touched, established and changed; returns the stop. */
  observe(observer: SessionObserver): () => void {
    return subscribe(this.#observers, observer)
  }

  /**
   * Takes in a session another process opened (or updates the one open here under its id): its
   * times, state and data as given, at the newest end of its pool (and of its user's list, the
   * user read from its data). Observers are not told: this is how a mirror follows, not a change
   * of its own. May evict (or throw SessionLimit, UserSessionLimit) to make room for an
   * established one, or for a session that comes to a user, as `establish` and `renew` do.
   */
  adopt(snapshot: SessionSnapshot): Session {
    let entry = this.#sessions.get(snapshot.id)
    // Established is never undone: this store may have established it before the other knew.
    const established = snapshot.established || entry?.established === true
    const data = snapshot.data && [...snapshot.data]
    if (established) {
      const user = data?.find(([key]) => key === SESSION_USER_KEY)?.[1] as AuthUser | undefined
      this.#admit(entry, userKey(user), !entry?.established, false)
    }
    if (entry) {
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
    if (data) entry.data.fill(data)
    else if (entry.hasData) entry.data.fill([])
    this.#poolOf(entry).moveToNewest(entry)
    this.#fileUser(entry, true)
    while (this.#guests.size > this.#maxGuests) this.#close(this.#guests.oldest!, 'evicted')
    return entry
  }

  /** The pool `entry` belongs in: by what it holds, never by how often it came back. */
  #poolOf(entry: Entry): Pool {
    return !entry.established ? this.#guests : hasUser(entry) ? this.#users : this.#anonymous
  }

  /** Moves `entry` to the pool it belongs in, if it is not there (keeping its recency otherwise). */
  #file(entry: Entry): void {
    const pool = this.#poolOf(entry)
    if (entry.pool !== pool) pool.moveToNewest(entry)
    this.#fileUser(entry, false)
  }

  /** Puts a logged-in `entry` in its user's list (the newest there if `touched`), else in none. */
  #fileUser(entry: Entry, touched: boolean): void {
    this.#perUser.file(entry, entry.pool === this.#users ? keyOf(entry) : undefined, touched)
  }

  /** Established, its timer restarted, at the newest end of its pool (room was made). */
  #establish(entry: Entry): void {
    entry.established = true
    entry.lastAccess = this.#clock.now()
    this.#poolOf(entry).moveToNewest(entry)
    this.#fileUser(entry, true)
  }

  /**
   * Lets `entry` (undefined: a new session) be established as the user of `key` (undefined: no
   * user, or one without a name), making room: past the user's quota, when it joins that user's
   * sessions, the user's least recent one is evicted; when `established` sessions are to grow past
   * `maxSessions`, the least recent session without a user, else the user's own least recent. No
   * other user's session is ever evicted: SessionLimit instead. In refuse mode, nothing is evicted:
   * UserSessionLimit or SessionLimit. Nothing is changed before a refusal but expired sessions
   * closed (unless `sweep` is false: `adopt`, whose session may have expired here and not there).
   */
  #admit(
    entry: Entry | undefined,
    key: string | undefined,
    established: boolean,
    sweep = true,
  ): void {
    const joins = key !== undefined && entry?.userKey !== key
    const overQuota = (): boolean => joins && this.#perUser.count(key) >= this.#maxPerUser
    const full = (): boolean => established && this.#anonymous.size + this.#users.size >= this.#max
    if (!overQuota() && !full()) return
    // A limit is not reached by sessions whose time is up (a login may come long after the last
    // request that swept).
    if (sweep) this.#sweep()
    if (this.#refuse) {
      if (overQuota()) fail('UserSessionLimit', [this.#maxPerUser])
      if (full()) fail('SessionLimit', [this.#max])
      return
    }
    // `entry` is not among the user's sessions (it joins them) nor among those without a user
    // (it is a guest when `established` asks for room): it is never its own victim.
    while (overQuota()) this.#close(this.#perUser.oldest(key!)!, 'evicted')
    while (full()) {
      const victim =
        this.#anonymous.oldest ?? (key === undefined ? undefined : this.#perUser.oldest(key))
      if (!victim) fail('SessionLimit', [this.#max])
      this.#close(victim, 'evicted')
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

  #close(entry: Entry, reason: SessionCloseReason): void {
    this.#sessions.delete(entry.id)
    entry.pool?.unlink(entry)
    this.#perUser.remove(entry)
    for (const listener of this.#onClose) listener(entry, reason)
  }
}

/** Whether a session holds a user (without making its data map). */
const hasUser = (entry: Entry): boolean => entry.hasData && entry.data.has(SESSION_USER_KEY)

/** The key of the user a session holds (sessions-per-user.ts); undefined for none or no name. */
const keyOf = (entry: Entry): string | undefined =>
  hasUser(entry) ? userKey(entry.data.get(SESSION_USER_KEY) as AuthUser) : undefined

/** Adds `item` to `list`; returns the function that removes it (harmless twice). */
function subscribe<T>(list: T[], item: T): () => void {
  list.push(item)
  return () => {
    const i = list.indexOf(item)
    if (i >= 0) list.splice(i, 1)
  }
}
