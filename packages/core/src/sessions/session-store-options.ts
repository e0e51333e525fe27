/**
 * @module The bounds and choices of an in-memory session store (session-store.ts): the inactivity
 * timeout, how many sessions, per user and guests, what happens when full, and how ids are made.
 */

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
