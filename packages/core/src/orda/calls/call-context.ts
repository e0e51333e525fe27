/**
 * @module A running call as the engine makes and follows it: its datastore, function, session and
 * lock owner, the session's login and privileges (4D's `Session` inside a function: `authentify`
 * calls `Session.setPrivileges`) and quotas (`Session.quotas`), with the session calls of
 * session-calls.ts. `currentCall()` and `currentSession()` (current-call/) give it to a function's
 * code as the public FunctionCall and 4D's Session object; here it names its datastore by what a
 * call needs of it (call-datastore.ts), so the Datastore and the rooms below it can run calls.
 *
 * A call is followed through awaits with an async context (access/async-scope.ts: the runtime's
 * AsyncLocalStorage). Without one, the call is known only until the function first awaits;
 * `runningCall()` then answers undefined rather than another request's call.
 */
import type { PageFeedback } from './page-feedback.js'
import type { LockOwner } from '../../locks/lock-table.js'
import type { AuthUser, Session } from '../../sessions/session-api.js'
import { heldPrivileges } from '../../sessions/session-privileges.js'
import { noteSessionRead } from '../../sessions/session-reads.js'
import { asyncScope } from '../../access/async-scope.js'
import { currentActor } from '../../access/acting.js'
import { sessionUser } from '../../sessions/session-user.js'
import type { FunctionInfo } from '../../functions/registry.js'
import type { CallDatastore } from './call-datastore.js'
import { quotaManager } from './session-quotas.js'
import { withSessionCalls, type SessionCalls } from './session-calls.js'

// "a,b", ["a", "b"]: the names, trimmed.
const nameList = (v: string | readonly string[] | undefined): string[] =>
  (typeof v === 'string' ? v.split(',') : (v ?? [])).map((n) => n.trim()).filter((n) => n !== '')

/** What `setPrivileges` takes, as 4D's `Session.setPrivileges` does. */
export type PrivilegeSettings =
  | string
  | readonly string[]
  | {
      readonly privileges?: string | readonly string[]
      readonly roles?: string | readonly string[]
      readonly userName?: string
    }

/** What a call knows of its session and may do to it (the public SessionSource, current-call/). */
export type CallSource = ReturnType<typeof sessionSource>

/** A running call: its session's, the function it runs, and the page it tells, if any. */
export type RunningCall = CallSource & {
  readonly function: FunctionInfo
  readonly page: PageFeedback | undefined
}

const calls = asyncScope<RunningCall>()

/** The call of the function running now, if any (see the module note for what follows awaits). */
export function runningCall(): RunningCall | undefined {
  return calls.get()
}

/** Runs `fn` (and what it schedules) outside any call: `currentCall()` answers undefined. */
export function outsideCalls<R>(fn: () => R): R {
  return calls.exit(fn)
}

/** Runs `fn` as `call` (what `currentCall()` answers inside it). */
export function runCall<R>(call: RunningCall, fn: () => R): R {
  return calls.run(call, fn)
}

/** A call's context: the datastore, the function, and the session of the request, if any. */
export function newCall(
  datastore: CallDatastore,
  fn: FunctionInfo,
  session: Session | undefined,
  owner: LockOwner | undefined,
  onRestore?: (session: Session) => void,
  page?: PageFeedback,
): RunningCall {
  const call = sessionSource(datastore, session, owner, onRestore)
  Object.defineProperty(call, 'function', { value: fn, enumerable: true })
  // A call made by another call's code tells the same page.
  Object.defineProperty(call, 'page', { value: page ?? runningCall()?.page, enumerable: true })
  return call as RunningCall
}

/** The session calls of code that acts as `session` of `datastore` (a function's call, or not). */
export function sessionSource(
  datastore: CallDatastore,
  session: Session | undefined,
  owner: LockOwner | undefined,
  onRestore?: (session: Session) => void,
) {
  // `restore` replaces the session every method below reads.
  const current = {
    get: () => session,
    set: (restored: Session) => {
      session = restored
      onRestore?.(restored)
    },
  }
  const quotas = quotaManager(datastore.entitySets, () => session)
  // Typed by what it holds: FunctionCall (current-call/function-call.ts), which lists these
  // members with the session calls', gives its datastore as the Datastore class, which this room
  // may not name.
  const call = {
    datastore,
    // The session's own state: an answer that read it is that session's alone (session-reads.ts).
    get session() {
      noteSessionRead()
      return session
    },
    get owner() {
      noteSessionRead()
      return owner
    },
    get user() {
      return session && sessionUser(session)
    },
    logIn(user: AuthUser): void {
      if (!session) throw new Error('logIn: this call has no session (it was not made over REST)')
      // A new id: one the client had before the login (planted by someone else) is dead now. A
      // session closed while the call ran has nothing to log in.
      datastore.sessions.renew(session.id, { user })
    },
    logOut(): void {
      if (session && sessionUser(session)) datastore.sessions.renew(session.id, { user: null })
    },
    setPrivileges(settings: PrivilegeSettings): boolean {
      if (!session)
        throw new Error('setPrivileges: this call has no session (it was not made over REST)')
      const given =
        typeof settings === 'string' || Array.isArray(settings)
          ? { privileges: settings as string | readonly string[] }
          : (settings as Exclude<PrivilegeSettings, string | readonly string[]>)
      const current = sessionUser(session)
      datastore.sessions.renew(session.id, {
        user: {
          ...current,
          name: given.userName ?? current?.name ?? '',
          privileges: nameList(given.privileges),
          roles: nameList(given.roles),
        },
      })
      return true
    },
    get quotas() {
      noteSessionRead()
      return quotas
    },
    hasPrivilege(privilege: string): boolean {
      const roles = datastore.roles
      if (roles === undefined) return false
      // The acting actor holds what the functions on the call stack promote.
      const actor = currentActor(datastore)
      const held =
        actor !== undefined && actor.session === session && actor.rule?.roles === roles
          ? actor.privileges
          : heldPrivileges(roles, session)
      return held.has(privilege.toLowerCase())
    },
  }
  return withSessionCalls(call, datastore, current)
}
