/**
 * @module The calls of 4D's `Session` that 4D 20 R7 – 21 added, as a running function reaches them
 * through `currentCall()` (current-call/), beside `setPrivileges` and `hasPrivilege`:
 * - `promote(privilege)` / `demote(id)` (20 R10): a privilege for the rest of this call only
 *   (access/call-frame.ts);
 * - `createOTP(lifespan?)` / `restore(token)` (20 R9): one-time tokens of the session
 *   (sessions/session-tokens.ts); the REST interface restores a session from `$4DSID=<token>` too;
 * - `storage` (18 R6): the session's shared object (sessions/session-storage.ts);
 * and the state of session singletons (20 R7), one a session.
 *
 * Taking state (an OTP, a storage write, a session singleton made) establishes a guest session,
 * as a lock does: it is then kept among the established sessions, not evicted by new clients.
 */
import { actAsInFrame, demoteInFrame, promoteInFrame } from '../../access/call-frame.js'
import type { Session } from '../../sessions/session-api.js'
import { noteSessionRead, noteVolatileRead } from '../../sessions/session-reads.js'
import { sessionStorage, type SharedObject } from '../../sessions/session-storage.js'
import type { CallDatastore } from './call-datastore.js'
import { sessionLockOwner } from './session-locks.js'

/** What a function may ask of its session besides its privileges (FunctionCall extends it). */
export interface SessionCalls {
  /**
   * Adds the roles file's `privilege` (and what it includes) to this call while it runs, its
   * awaits included, never to the session (4D's `Session.promote`): `hasPrivilege` and every check
   * of the call's code see it. Returns the id `demote` takes; 0 when nothing was added (no roles
   * file, a privilege it does not declare, one this call holds promoted already, a call from
   * TypeScript outside a request, which has every right).
   */
  promote(privilege: string): number
  /** Takes back the promotion `promoteId` of this call (4D's `Session.demote`); nothing if none. */
  demote(promoteId: number): void
  /**
   * A one-time passcode for the session (4D's `Session.createOTP`): a token a callback presents
   * once, as `$4DSID=<token>` in a URL or to `restore`, to take up this session with its storage
   * and privileges. Valid `lifespan` seconds (at least 10), by default the session's inactivity
   * timeout. '' without a session (a call from TypeScript).
   * @throws DatastoreError SessionTokenLifespanInvalid (9151) for a lifespan that is not a finite number
   */
  createOTP(lifespan?: number): string
  /**
   * Replaces the call's session by the one `token` names (4D's `Session.restore`): the rest of the
   * call acts as it (its storage, its privileges), and over REST the reply carries its cookie.
   * False, the session unchanged, when the token was used already, has expired, is unknown, or
   * its session has ended. The token is used up either way.
   */
  restore(token: string): boolean
  /**
   * The session's storage (4D's `Session.storage`): read anywhere, written inside
   * `use(storage, (s) => { … })`; undefined without a session (a call from TypeScript).
   */
  readonly storage: SharedObject | undefined
}

/** How the calls reach the call's session, which `restore` replaces. */
export interface CallSession {
  get(): Session | undefined
  set(session: Session): void
}

/** A guest that takes state becomes an established session (may throw SessionLimit). */
export function establishSession(ds: CallDatastore, session: Session): void {
  if (!session.established) ds.sessions.establish(session.id)
}

/** `call` with the session calls, on `ds` and the session `current` gives. */
export function withSessionCalls<T extends object>(
  call: T,
  ds: CallDatastore,
  current: CallSession,
): T & SessionCalls {
  const calls: Omit<SessionCalls, 'storage'> = {
    promote: (privilege) => promoteInFrame(ds, ds.roles, privilege),
    demote: (promoteId) => demoteInFrame(ds, promoteId),
    createOTP(lifespan) {
      noteSessionRead()
      const session = current.get()
      if (session === undefined) return ''
      establishSession(ds, session)
      return ds.sessionTokens.create(session, lifespan)
    },
    restore(token) {
      noteSessionRead()
      if (current.get() === undefined || typeof token !== 'string') return false
      const restored = ds.sessionTokens.restore(token)
      if (restored === undefined) return false
      ds.sessions.touch(restored.id)
      current.set(restored)
      actAsInFrame(ds, restored, sessionLockOwner(restored))
      return true
    },
  }
  Object.assign(call, calls)
  Object.defineProperty(call, 'storage', {
    enumerable: true,
    get: () => {
      noteSessionRead()
      const session = current.get()
      return session && sessionStorage(session, ds.sessions)
    },
  })
  return call as T & SessionCalls
}

/**
 * The state of singleton `name` for `session`, as the public `singletonStateFor`
 * (current-call/session-singletons.ts) gives it.
 */
export function singletonState(
  ds: CallDatastore,
  name: string,
  session: Session | undefined,
): unknown {
  // A session singleton's state is the session's own (session-reads.ts); a singleton's state is
  // an object its functions change untold.
  if (session !== undefined && ds.functions.isSessionSingleton(name)) noteSessionRead()
  noteVolatileRead()
  return ds.functions.singletonState(name, session, () => establishSession(ds, session!))
}
