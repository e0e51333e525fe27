/**
 * @module Who a session is: the user a login put on it. Both ways of logging in write it here, the
 * REST interface's `$directory/login` (through the embedder's `authenticate`) and a datastore
 * function such as 4D's `authentify` (through its call's `logIn`), so that permissions and
 * `$directory/currentUser` read one answer.
 */
import type { Session } from './session-api.js'

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

/** The key of the user in `session.data`: a plain string, so that a shared session store keeps it. */
export const SESSION_USER_KEY = 'entistore.user'

/** The user logged in on `session`, if any. */
export function sessionUser(session: Session): AuthUser | undefined {
  return session.data.get(SESSION_USER_KEY) as AuthUser | undefined
}

/**
 * Puts `user` on `session` (undefined: nobody is logged in on it any more) without changing its
 * id. A login goes through the store's `renew(id, { user })`, which gives the session a new id.
 */
export function setSessionUser(session: Session, user: AuthUser | undefined): void {
  if (user === undefined) session.data.delete(SESSION_USER_KEY)
  else session.data.set(SESSION_USER_KEY, user)
}
