/**
 * @module What the datastore and the REST interface need of a session store, and the session as
 * they see it. The in-memory store (session-store.ts) implements it; another one (shared between
 * processes, persistent) can be given as `createDatastore(model, { sessions: { store } })`; the
 * in-memory store's own bounds and choices are its options (SessionStoreOptions). The user a login
 * puts on a session is typed here too (session-user.ts reads and writes it).
 */

/** A logged-in user. */
export interface AuthUser {
  /** The user name (`userName` in `$directory/currentUser`). */
  readonly name: string
  /** @default name */
  readonly fullName?: string
  /** The user's ID in `currentUser`. @default name */
  readonly id?: string
  /** Names (or IDs) of the groups the user belongs to (`$directory/currentUserBelongsTo`). */
  readonly groups?: readonly string[]
  /** The roles file's privileges the session holds (4D's `Session.setPrivileges`). */
  readonly privileges?: readonly string[]
  /** The roles file's roles the session holds: their privileges. */
  readonly roles?: readonly string[]
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
  /**
   * `resume`, for one request: a new guest is only on probation (`peek` finds it, but it is not
   * counted, swept, evicted or told to observers) until it comes to hold something — a lock or a
   * login establishes it, session data or `hold` keeps it as a guest — and `settle` forgets it
   * if it never did. A client without a cookie then costs nothing once answered. Optional: without
   * it the REST interface uses `resume`, and keeps a guest per such client.
   */
  visit?(id: string | undefined): { session: Session; created: boolean }
  /**
   * From now on `visit` keeps every new guest at once, as `resume` does: a mirror of the store in
   * other processes must find every session a cookie names (a lock is claimed in a shared store
   * under its session before the request runs). Optional, as `visit`.
   */
  keepEveryGuest?(): void
  /**
   * Whether every new guest is kept at once (`keepEveryGuest`, or a store of ids it cannot tell
   * from a client's): then a request that hands out a cookie keeps its session, or no other
   * request, nor another process, would find it. Absent: guests may be on probation.
   */
  readonly keepsEveryGuest?: boolean
  /**
   * Keeps a guest on probation (`visit`) as a guest: something is kept for it (an entity set, a
   * one-time passcode, a subscription). Nothing for any other session.
   */
  hold?(id: string): void
  /**
   * Forgets `session` if it is a guest `visit` made that holds nothing, without telling
   * `onClose` listeners (nothing is held for it); true if it was forgotten.
   */
  settle?(session: Session): boolean
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
