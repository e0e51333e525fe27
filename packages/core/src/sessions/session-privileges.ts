/**
 * @module The privileges of a roles file (roles/roles.ts) that a session holds: those of its user
 * (a users file's `privileges` and `roles`, or what `setPrivileges` gave it), `guest`, and, while
 * a function with a `promote` permission runs for it, the privileges promoted. A promotion is a
 * view of the session (`promotedSession`), never a change to it: it ends with the call.
 */
import type { Roles } from '../roles/roles.js'
import type { Session } from './session-api.js'
import { sessionUser } from './session-user.js'

const PROMOTED = Symbol('entistore.promoted')

/**
 * A session seen with `privileges` (lowercased) held besides its own: everything else is the
 * session's, read from it and its methods run on it (a Proxy, since a session keeps its state in
 * private fields that a look-alike object could not reach).
 */
export function promotedSession(session: Session, privileges: ReadonlySet<string>): Session {
  return new Proxy(session, {
    get(target, property) {
      if (property === PROMOTED) return privileges
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value
    },
  })
}

/** The privileges (lowercased) `session` holds under `roles`; `guest` for every session. */
export function heldPrivileges(roles: Roles, session: Session | undefined): ReadonlySet<string> {
  const user = session && sessionUser(session)
  const held = roles.privilegesOf({ privileges: user?.privileges, roles: user?.roles })
  const promoted = (session as { [PROMOTED]?: ReadonlySet<string> } | undefined)?.[PROMOTED]
  if (!promoted?.size) return held
  return new Set([...held, ...promoted])
}
