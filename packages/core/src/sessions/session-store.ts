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
 * A new guest made by `visit` (the REST interface's, for a request without a live cookie) is on
 * probation: found by `peek` for its request, but in no pool a count reads, told to no observer,
 * and forgotten by `settle` once answered unless it came to hold something (data, a lock, a login,
 * `hold`: an entity set, a token, a subscription). Its id says when this store issued it
 * (session-ids.ts), so a client that comes back with the cookie within a timeout finds its session
 * under the same id, kept from then on: a client that never sends its cookie back costs nothing.
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
import type { Clock } from '../clock/clock.js'
import { SESSION_USER_KEY } from './session-user.js'
import type {
  AuthUser,
  Session,
  SessionCloseReason,
  SessionObserver,
  SessionRenewal,
  SessionSnapshot,
  SessionStoreApi,
  SessionStoreOptions,
} from './session-api.js'
import { Entry, Pool, hasUser, keyOf } from './session-entry.js'
import { SignedSessionIds } from './session-ids.js'
import { BuriedIds } from './buried-ids.js'
import { SessionsPerUser, userKey } from './sessions-per-user.js'
import { admit, type AdmissionStore } from './session-admission.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to session-api.js once that lands.
export type { SessionStoreOptions } from './session-api.js'

export class SessionStore implements SessionStoreApi {
  readonly #clock: Clock
  readonly #timeout: number
  readonly #max: number
  readonly #maxPerUser: number
  readonly #maxGuests: number
  readonly #refuse: boolean
  readonly #newId: () => string
  /** The store's own ids, told apart from others' without being kept (undefined: `newId` given). */
  readonly #signed: SignedSessionIds | undefined
  /** Whether new guests are kept at once, never on probation (`keepEveryGuest`, or `newId` given). */
  #eager: boolean
  /** Ids of sessions that ended before their time (#bury). */
  readonly #buried: BuriedIds
  readonly #sessions = new Map<string, Entry>()
  // Touching a session moves it to the newest end of its pool in O(1), without the Map's
  // delete-and-reinsert, whose deleted slots made every later walk from the oldest end slower.
  readonly #guests = new Pool()
  /**
   * Guests on probation (`visit`): made for a request, forgotten by `settle` unless they came to
   * hold something. Swept and bounded as guests are, in case a caller never settles them.
   */
  readonly #probation = new Pool()
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
    if (entry.pool === this.#probation) this.#keep(entry)
    if (entry.established) this.#file(entry)
    for (const o of this.#observers) o.changed?.(entry)
  }

  // What admission (session-admission.ts) reads and does here.
  readonly #admission: AdmissionStore

  constructor(clock: Clock, options: SessionStoreOptions = {}) {
    this.#clock = clock
    this.#timeout = options.inactivityTimeout ?? 3_600_000
    this.#max = options.maxSessions ?? 10_000
    this.#maxPerUser = options.maxSessionsPerUser ?? 100
    this.#maxGuests = options.maxGuests ?? 10_000
    this.#buried = new BuriedIds(this.#max + this.#maxGuests)
    this.#refuse = options.whenFull === 'refuse'
    if (options.newId === undefined) {
      const signed = new SignedSessionIds()
      this.#signed = signed
      this.#newId = () => signed.issue(this.#clock.now())
      this.#eager = false
    } else {
      this.#newId = options.newId
      this.#eager = true
    }
    if (!(this.#timeout > 0))
      throw new RangeError('SessionStore: inactivityTimeout must be positive')
    if (!(this.#max >= 1) || !(this.#maxGuests >= 1) || !(this.#maxPerUser >= 1))
      throw new RangeError(
        'SessionStore: maxSessions, maxSessionsPerUser and maxGuests must be at least 1',
      )
    this.#admission = {
      perUser: this.#perUser,
      anonymous: this.#anonymous,
      users: this.#users,
      max: this.#max,
      maxPerUser: this.#maxPerUser,
      refuse: this.#refuse,
      sweep: () => this.#sweep(),
      close: (entry, reason) => this.#close(entry, reason),
    }
  }

  /** Open sessions, guests included. */
  get size(): number {
    this.sweep()
    return this.#sessions.size - this.#probation.size
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
    admit(this.#admission, undefined, undefined, true)
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
    const entry = this.#newGuest()
    this.#keep(entry)
    return entry
  }

  /** A new guest on probation: in the id map (peek finds it), in no pool a count reads. */
  #newGuest(id?: string): Entry {
    const now = this.#sweep()
    const entry = new Entry(id ?? this.#newId(), now, this.#timeout, false, this.#changed)
    this.#sessions.set(entry.id, entry)
    this.#probation.append(entry)
    while (this.#probation.size > this.#maxGuests) this.#close(this.#probation.oldest!, 'evicted')
    return entry
  }

  /** A guest on probation kept: counted, swept, evicted as a guest, and told to observers. */
  #keep(entry: Entry): void {
    if (entry.pool !== this.#probation) return
    this.#guests.moveToNewest(entry)
    while (this.#guests.size > this.#maxGuests) this.#close(this.#guests.oldest!, 'evicted')
    if (this.#observers.length > 0) for (const o of this.#observers) o.opened?.(entry)
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
    // A guest on probation is nobody's to follow yet: observers hear of it once it is kept.
    if (this.#observers.length > 0 && entry.pool !== this.#probation)
      for (const o of this.#observers) o.touched?.(entry)
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
    admit(this.#admission, entry, keyOf(entry), true)
    this.#keep(entry)
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
    admit(this.#admission, entry, key, !entry.established)
    this.#keep(entry)
    if (change.user !== undefined) entry.data.put(SESSION_USER_KEY, change.user ?? undefined)
    if (change.timeout !== undefined) entry.timeout = change.timeout
    const previous = entry.id
    this.#sessions.delete(previous)
    this.#bury(previous)
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

  /**
   * `resume`, a new guest on probation (see SessionStoreApi.visit). An id this store issued less
   * than a timeout ago that names no session is a client coming back with the cookie of a guest
   * that held nothing: its guest is taken up under that id, and kept from now on (a client that
   * keeps its cookie is one whose session goes on). With ids of its own (`newId`), the store cannot
   * tell its ids from others': every new guest is kept, as `resume` keeps it.
   */
  visit(id: string | undefined): { session: Session; created: boolean } {
    const existing = id === undefined ? undefined : this.touch(id)
    if (existing) return { session: existing, created: false }
    if (this.#eager || this.#signed === undefined)
      return { session: this.openGuest(), created: true }
    const issued = id === undefined ? undefined : this.#signed.issuedAt(id)
    const now = this.#clock.now()
    if (
      issued !== undefined &&
      issued <= now &&
      now - issued < this.#timeout &&
      !this.#buried.has(id!)
    ) {
      const entry = this.#newGuest(id)
      this.#keep(entry)
      return { session: entry, created: false }
    }
    return { session: this.#newGuest(), created: true }
  }

  /** Whether every new guest is kept at once (see SessionStoreApi.keepsEveryGuest). */
  get keepsEveryGuest(): boolean {
    return this.#eager
  }

  /** From now on every new guest is kept at once (see SessionStoreApi.keepEveryGuest). */
  keepEveryGuest(): void {
    this.#eager = true
  }

  /** Keeps a guest on probation as a guest (see SessionStoreApi.hold). */
  hold(id: string): void {
    const entry = this.#sessions.get(id)
    if (entry !== undefined) this.#keep(entry)
  }

  /** Forgets a guest on probation that holds nothing (see SessionStoreApi.settle). */
  settle(session: Session): boolean {
    const entry = this.#sessions.get(session.id)
    if (entry !== session || entry.pool !== this.#probation) return false
    this.#sessions.delete(entry.id)
    this.#probation.unlink(entry)
    return true
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
    this.#sweepPool(this.#probation, now)
    this.#sweepPool(this.#anonymous, now)
    this.#sweepPool(this.#users, now)
    this.#buried.sweep(now)
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
      admit(this.#admission, entry, userKey(user), !entry?.established, false)
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
   * Notes that `id`, one of this store's, named a session that ended before its time (buried-ids.ts
   * says why), until it is too old to be taken up; at most `maxSessions + maxGuests` of them.
   */
  #bury(id: string): void {
    if (this.#eager) return
    const issued = this.#signed?.issuedAt(id)
    if (issued === undefined) return
    this.#buried.bury(id, issued + this.#timeout)
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
    // An expired id is too old to be taken up again anyway; an evicted one is taken up as the
    // new guest, holding nothing, that a new id would be (a flood of guests evicts thousands a
    // second: none is noted).
    if (reason === 'closed') this.#bury(entry.id)
    entry.pool?.unlink(entry)
    this.#perUser.remove(entry)
    for (const listener of this.#onClose) listener(entry, reason)
  }
}

/** Adds `item` to `list`; returns the function that removes it (harmless twice). */
function subscribe<T>(list: T[], item: T): () => void {
  list.push(item)
  return () => {
    const i = list.indexOf(item)
    if (i >= 0) list.splice(i, 1)
  }
}
