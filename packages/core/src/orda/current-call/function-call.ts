/**
 * @module What a running call is to the code it runs: its datastore, function, session, user and
 * the session's quotas, as calls/call-context.ts makes it, `currentCall()` gives it and
 * web-session.ts shows it under 4D's names. Here, above the Datastore it names, and not with the
 * calls, which the Datastore runs and which name their datastore by what they need of it.
 */
import type { LockOwner } from '../../locks/lock-table.js'
import type { Session } from '../../sessions/session-api.js'
import type { AuthUser } from '../../sessions/session-api.js'
import type { FunctionInfo } from '../../functions/registry.js'
import type { Datastore } from '../objects/datastore.js'
import type { PrivilegeSettings } from '../calls/call-context.js'
import type { PageFeedback } from '../calls/page-feedback.js'
import type { QuotaManager } from '../calls/session-quotas.js'
import type { SessionCalls } from '../calls/session-calls.js'

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
   * `maxEntitySetTimeout`, and `currentValues` (orda/calls/session-quotas.ts). Without a session it
   * reads the defaults and its writes throw.
   */
  readonly quotas: QuotaManager
  /**
   * What the call tells the page that called it (4D's `Web Form`: a notification, components,
   * states), written with the REST reply; undefined for a call made outside a request.
   */
  readonly page: PageFeedback | undefined
}

/** What a call knows of its session and may do to it: all of FunctionCall but the function. */
export type SessionSource = Omit<FunctionCall, 'function' | 'page'>
