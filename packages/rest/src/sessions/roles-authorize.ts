/**
 * @module A project's roles file (core's `Roles`) as the REST interface's permission rule: the
 * `Authorize` that permissions.ts asks, for each dataclass, attribute and function a request
 * touches. The embedder's own `authorize` hook, when there is one too, must also allow
 * (`bothAllow`).
 */
import {
  heldPrivileges,
  sessionUser,
  type AuthUser,
  type Roles,
  type RolesAction,
  type RolesResource,
  type Session,
} from '@entistore/core'
import type { Authorize, PermissionAction, PermissionTarget } from '../permissions.js'

// `describe` is not a roles action: 4D stopped checking it in 20 R7 (the catalog is open).
const ACTION: Readonly<Record<PermissionAction, RolesAction | undefined>> = {
  read: 'read',
  create: 'create',
  update: 'update',
  delete: 'drop',
  execute: 'execute',
  describe: undefined,
}

/** What a permission target is to a roles file. */
function resourceOf(target: PermissionTarget): RolesResource {
  if (target.function !== undefined)
    return target.singleton !== undefined
      ? { type: 'singletonMethod', singleton: target.singleton, name: target.function }
      : { type: 'method', dataClass: target.dataClass, name: target.function }
  return target.attribute !== undefined
    ? { type: 'attribute', dataClass: target.dataClass, attribute: target.attribute }
    : { type: 'dataclass', dataClass: target.dataClass }
}

/** The rule of `roles`: the session's privileges (core's heldPrivileges) against the file. */
export function rolesAuthorize(roles: Roles): Authorize {
  // A request asks once per dataclass and attribute it touches: the privileges (a closure over
  // the file's includes) are worked out once per session, again when its user changes (a login,
  // setPrivileges). A promoting function's view of a session is a session of its own here.
  const held = new WeakMap<
    Session,
    { user: AuthUser | undefined; privileges: ReadonlySet<string> }
  >()
  return (session, action, target) => {
    const asked = ACTION[action]
    if (asked === undefined) return true
    const user = sessionUser(session)
    let kept = held.get(session)
    if (kept === undefined || kept.user !== user) {
      kept = { user, privileges: heldPrivileges(roles, session) }
      held.set(session, kept)
    }
    return roles.allows(kept.privileges, asked, resourceOf(target))
  }
}

/** A rule that allows what every given rule allows; undefined when none is given. */
export function bothAllow(...rules: (Authorize | undefined)[]): Authorize | undefined {
  const given = rules.filter((r): r is Authorize => r !== undefined)
  if (given.length <= 1) return given[0]
  return (session, action, target) => given.every((rule) => rule(session, action, target) === true)
}
