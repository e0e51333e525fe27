/**
 * @module What a running function may ask about its call: which datastore and function, the
 * session of the REST request that called it, and a way to log that session in (4D's `Session`
 * inside a function: `authentify` calls `Session.setPrivileges`) or to set its quotas
 * (`Session.quotas`).
 *
 * A call is followed through awaits with an async context (access/async-scope.ts: the runtime's
 * AsyncLocalStorage). Without one, the call is known only until the function first awaits;
 * `currentCall()` then answers undefined rather than another request's call.
 */
import type { LockOwner } from '../locks/lock-table.js'
import type { Session } from '../sessions/session-store.js'
import { heldPrivileges } from '../sessions/session-privileges.js'
import { asyncScope } from '../access/async-scope.js'
import { currentActor } from '../access/acting.js'
import { sessionUser, type AuthUser } from '../sessions/session-user.js'
import type { FunctionInfo } from '../functions/registry.js'
import type { Datastore } from './datastore.js'
import { quotaManager, type QuotaManager } from './session-quotas.js'
import { withSessionCalls, type SessionCalls } from './session-calls.js'
import { WebSession } from './web-session.js'

/** One running call of a function (4D's `Session` calls: session-calls.ts's SessionCalls too). */
export interface FunctionCall extends SessionCalls {
  readonly datastore: Datastore
  /** The function called: its name, kind and owner. */
  readonly function: FunctionInfo
  /**
   * The session of the REST request that made the call; undefined for a call from TypeScript. A
   * `restore(token)` replaces it for the rest of the call.
   */
  readonly session: Session | undefined
  /** Who the call's writes and locks belong to (the request's session); undefined: the process. */
  readonly owner: LockOwner | undefined
  /** The user logged in on the session, if any. */
  readonly user: AuthUser | undefined
  /**
   * Logs the session in as `user` (what `$directory/login` does): the session is kept (established)
   * under a new id (its cookie is renewed with the reply), and permissions and
   * `$directory/currentUser` see the user. Throws without a session, and SessionLimit when no
   * session can be established.
   */
  logIn(user: AuthUser): void
  /** Logs the session's user out (the session itself stays open, under a new id). */
  logOut(): void
  /**
   * Gives the session privileges of the roles file (4D's `Session.setPrivileges`): a name, names
   * separated by commas, a list of names, or `{ privileges, roles, userName }`. They replace the
   * privileges it had; `userName` logs it in under that name (without it, a user keeps their name
   * and a guest gets none). The session gets a new id, as for a login. True (4D's answer of a
   * success); throws without a session.
   */
  setPrivileges(settings: PrivilegeSettings): boolean
  /**
   * Whether the session holds `privilege` under the datastore's roles file, included and promoted
   * privileges counted (4D's `Session.hasPrivilege`); false without a roles file or a session.
   */
  hasPrivilege(privilege: string): boolean
  /**
   * The session's quotas (4D 21 R4's `Session.quotas`): `nbEntitySets`, `defaultEntitySetTimeout`,
   * `maxEntitySetTimeout`, and `currentValues` (orda/session-quotas.ts). Without a session it reads
   * the defaults and its writes throw.
   */
  readonly quotas: QuotaManager
}

/** What `setPrivileges` takes, as 4D's `Session.setPrivileges` does. */
export type PrivilegeSettings =
  | string
  | readonly string[]
  | {
      readonly privileges?: string | readonly string[]
      readonly roles?: string | readonly string[]
      readonly userName?: string
    }

// "a,b", ["a", "b"]: the names, trimmed.
const nameList = (v: string | readonly string[] | undefined): string[] =>
  (typeof v === 'string' ? v.split(',') : (v ?? [])).map((n) => n.trim()).filter((n) => n !== '')

const calls = asyncScope<FunctionCall>()

/** The call of the function running now, if any (see the module note for what follows awaits). */
export function currentCall(): FunctionCall | undefined {
  return calls.get()
}

// One Session object a call (and its `restore`: the object reads the call's session as it is now).
const sessionObjects = new WeakMap<FunctionCall, WebSession>()

/**
 * 4D's `Session` in a function called over REST: the session of the call (the one `restore`
 * put in place, if any) as 4D's Session class has it (web-session.ts); null for a call that has no
 * session (one made from TypeScript) and outside any call, where 4D's `Session` is Null too.
 *
 * @example
 * const session = currentSession()
 * if (session?.hasPrivilege('CreateInvoices')) …
 */
export function currentSession(): WebSession | null {
  const call = calls.get()
  if (call?.session === undefined) return null
  let object = sessionObjects.get(call)
  if (object === undefined) sessionObjects.set(call, (object = new WebSession(call)))
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
  // `restore` replaces the session every method below reads.
  const current = {
    get: () => session,
    set: (restored: Session) => {
      session = restored
      onRestore?.(restored)
    },
  }
  const call: Omit<FunctionCall, keyof SessionCalls> = {
    datastore,
    function: fn,
    get session() {
      return session
    },
    owner,
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
    quotas: quotaManager(datastore.entitySets, () => session),
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
