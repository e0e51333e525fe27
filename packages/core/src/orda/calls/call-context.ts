/**
 * @module What a running function may ask about its call: which datastore and function, the
 * session of the REST request that called it, and a way to log that session in (4D's `Session`
 * inside a function: `authentify` calls `Session.setPrivileges`) or to set its quotas
 * (`Session.quotas`); and `currentSession()`, 4D's `Session` object itself (web-session.ts), for
 * a function's code and any other code that acts as a session.
 *
 * A call is followed through awaits with an async context (access/async-scope.ts: the runtime's
 * AsyncLocalStorage). Without one, the call is known only until the function first awaits;
 * `currentCall()` then answers undefined rather than another request's call.
 */
import type { LockOwner } from '../../locks/lock-table.js'
import type { Session } from '../../sessions/session-api.js'
import { heldPrivileges } from '../../sessions/session-privileges.js'
import { noteSessionRead } from '../../sessions/session-reads.js'
import { asyncScope } from '../../access/async-scope.js'
import { actingFrame, currentActor } from '../../access/acting.js'
import { sessionUser } from '../../sessions/session-user.js'
import type { FunctionInfo } from '../../functions/registry.js'
import type { Datastore } from '../objects/datastore.js'
import { quotaManager } from './session-quotas.js'
import { withSessionCalls, type SessionCalls } from './session-calls.js'
import { WebSession } from './web-session.js'
import type { FunctionCall, PrivilegeSettings, SessionSource } from './function-call.js'

// "a,b", ["a", "b"]: the names, trimmed.
const nameList = (v: string | readonly string[] | undefined): string[] =>
  (typeof v === 'string' ? v.split(',') : (v ?? [])).map((n) => n.trim()).filter((n) => n !== '')

const calls = asyncScope<FunctionCall>()

/** The call of the function running now, if any (see the module note for what follows awaits). */
export function currentCall(): FunctionCall | undefined {
  return calls.get()
}

// One Session object a call, or an acting frame outside any call (the object reads the session
// as it is now: a `restore` replaces it).
const sessionObjects = new WeakMap<object, WebSession>()

/**
 * 4D's `Session` for code that runs as a session (a function called over REST, a `restrict`
 * event or any code a request runs, `ds.actAs(session, fn)`): that session (the one `restore` put
 * in place, if any) as 4D's Session class has it (web-session.ts). Null for code that runs as no
 * session (a call made from TypeScript, start-up), where 4D's `Session` is Null too.
 *
 * @example
 * const session = currentSession()
 * if (session?.hasPrivilege('CreateInvoices')) …
 */
export function currentSession(): WebSession | null {
  const call = calls.get()
  if (call !== undefined) {
    if (call.session === undefined) return null
    let object = sessionObjects.get(call)
    if (object === undefined) sessionObjects.set(call, (object = new WebSession(call)))
    return object
  }
  // Code of a session outside a function call: its acting frame's actor.
  const frame = actingFrame()
  if (frame === undefined) return null
  let object = sessionObjects.get(frame)
  if (object === undefined) {
    const { scope, session, owner } = frame.actor
    object = new WebSession(sessionSource(scope as Datastore, session, owner))
    sessionObjects.set(frame, object)
  }
  return object
}

/** Runs `fn` as `call` (what `currentCall()` answers inside it). */
export function runCall<R>(call: FunctionCall, fn: () => R): R {
  return calls.run(call, fn)
}

/** A call's context: the datastore, the function, and the session of the request, if any. */
export function newCall(
  datastore: Datastore,
  fn: FunctionInfo,
  session: Session | undefined,
  owner: LockOwner | undefined,
  onRestore?: (session: Session) => void,
): FunctionCall {
  const call = sessionSource(datastore, session, owner, onRestore)
  Object.defineProperty(call, 'function', { value: fn, enumerable: true })
  return call as FunctionCall
}

/** The session calls of code that acts as `session` of `datastore` (a function's call, or not). */
function sessionSource(
  datastore: Datastore,
  session: Session | undefined,
  owner: LockOwner | undefined,
  onRestore?: (session: Session) => void,
): SessionSource {
  // `restore` replaces the session every method below reads.
  const current = {
    get: () => session,
    set: (restored: Session) => {
      session = restored
      onRestore?.(restored)
    },
  }
  const quotas = quotaManager(datastore.entitySets, () => session)
  const call: Omit<SessionSource, keyof SessionCalls> = {
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
    logIn(user) {
      if (!session) throw new Error('logIn: this call has no session (it was not made over REST)')
      // A new id: one the client had before the login (planted by someone else) is dead now. A
      // session closed while the call ran has nothing to log in.
      datastore.sessions.renew(session.id, { user })
    },
    logOut() {
      if (session && sessionUser(session)) datastore.sessions.renew(session.id, { user: null })
    },
    setPrivileges(settings) {
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
    hasPrivilege(privilege) {
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
