/**
 * @module Who a session is: the user a login put on it. Both ways of logging in write it here, the
 * REST interface's `$directory/login` (through the embedder's `authenticate`) and a datastore
 * function such as 4D's `authentify` (through its call's `logIn`), so that permissions and
 * `$directory/currentUser` read one answer.
 */
import type { AuthUser, Session } from './session-api.js'

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

// Made once a user object: a view is asked for at every restricted read.
const identities = new WeakMap<AuthUser, string>()

/**
 * All that `user` says of who it is, as one text ('' for no user): two logins that put equal users
 * on their sessions give the same text, whatever the order of their fields.
 */
export function userIdentity(user: AuthUser | undefined): string {
  if (user === undefined) return ''
  let text = identities.get(user)
  if (text === undefined) identities.set(user, (text = JSON.stringify(sorted(user))))
  return text
}

// Objects with their keys in order, arrays as they are: a stable text for JSON.stringify.
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort())
    out[key] = sorted((value as Record<string, unknown>)[key])
  return out
}
