/**
 * @module Who may evict whom when a session is established or logged in (session-store.ts's module
 * comment says why): past a user's quota, the user's own least recent session; past `maxSessions`,
 * the least recent session without a user, else, for a login, the user's own. Never another user's
 * session: SessionLimit instead. In refuse mode nothing is evicted.
 */
import { fail } from '../errors/datastore-error.js'
import type { SessionCloseReason } from './session-api.js'
import type { Entry, Pool } from './session-entry.js'
import type { SessionsPerUser } from './sessions-per-user.js'

/** What admission reads and does in its store. */
export interface AdmissionStore {
  readonly perUser: SessionsPerUser<Entry>
  /** Established sessions without a user, and those with one. */
  readonly anonymous: Pool
  readonly users: Pool
  readonly max: number
  readonly maxPerUser: number
  readonly refuse: boolean
  /** Closes the expired sessions. */
  sweep(): void
  close(entry: Entry, reason: SessionCloseReason): void
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
export function admit(
  store: AdmissionStore,
  entry: Entry | undefined,
  key: string | undefined,
  established: boolean,
  sweep = true,
): void {
  const joins = key !== undefined && entry?.userKey !== key
  const overQuota = (): boolean => joins && store.perUser.count(key) >= store.maxPerUser
  const full = (): boolean => established && store.anonymous.size + store.users.size >= store.max
  if (!overQuota() && !full()) return
  // A limit is not reached by sessions whose time is up (a login may come long after the last
  // request that swept).
  if (sweep) store.sweep()
  if (store.refuse) {
    if (overQuota()) fail('UserSessionLimit', [store.maxPerUser])
    if (full()) fail('SessionLimit', [store.max])
    return
  }
  // `entry` is not among the user's sessions (it joins them) nor among those without a user
  // (it is a guest when `established` asks for room): it is never its own victim.
  while (overQuota()) store.close(store.perUser.oldest(key!)!, 'evicted')
  while (full()) {
    const victim =
      store.anonymous.oldest ?? (key === undefined ? undefined : store.perUser.oldest(key))
    if (!victim) fail('SessionLimit', [store.max])
    store.close(victim, 'evicted')
  }
}
