/**
 * @module The one decision of every access: may this session, holding these privileges, do this
 * action to this resource? Made of the project's roles file (roles/roles.ts, as 4D decides) and
 * the embedder's `authorize` hooks: every one given must allow. The REST interface and ORDA code
 * running for a request (functions, entity events, computed attributes, `restrict`) both ask it,
 * through the request's Actor (actor.ts); nothing else decides.
 */
import type { Roles, RolesAction, RolesResource } from '../roles/roles.js'
import { promotedSession } from '../sessions/session-privileges.js'
import type { Session } from '../sessions/session-api.js'
import type { Authorize, PermissionAction, PermissionTarget } from './authorize.js'

/**
 * Whether `session`, holding `privileges` (lowercased: its own under the roles file, `guest`, and
 * what functions on the call stack promote) besides, may do `action` on `target`.
 */
export interface AccessRule {
  (
    session: Session,
    privileges: ReadonlySet<string>,
    promoted: ReadonlySet<string>,
    action: PermissionAction,
    target: PermissionTarget,
  ): boolean
  /** The roles file the rule reads, if any: what a session's privileges are worked out from. */
  readonly roles: Roles | undefined
  /**
   * Whether an embedder's hook decides too: a hook sees the whole session, so its answers may
   * differ between two sessions of the same user and privileges (see Actor.view). A rule made
   * elsewhere than `accessRule` is taken to have one.
   */
  readonly hooked?: boolean
}

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
export function rolesResource(target: PermissionTarget): RolesResource {
  if (target.function !== undefined)
    return target.singleton !== undefined
      ? { type: 'singletonMethod', singleton: target.singleton, name: target.function }
      : { type: 'method', dataClass: target.dataClass, name: target.function }
  return target.attribute !== undefined
    ? { type: 'attribute', dataClass: target.dataClass, attribute: target.attribute }
    : { type: 'dataclass', dataClass: target.dataClass }
}

/**
 * The rule of `roles` and `hooks` together (all must allow); undefined when there is neither:
 * then everything is allowed and nothing need be asked.
 */
export function accessRule(
  roles: Roles | undefined,
  ...hooks: readonly (Authorize | undefined)[]
): AccessRule | undefined {
  const given = hooks.filter((h): h is Authorize => h !== undefined)
  if (roles === undefined && given.length === 0) return undefined
  const rule = (
    session: Session,
    privileges: ReadonlySet<string>,
    promoted: ReadonlySet<string>,
    action: PermissionAction,
    target: PermissionTarget,
  ): boolean => {
    // `execute` on a dataclass alone is the hook's first question (then the function's); the
    // roles file decides at the function, whose own entry overrides its dataclass's.
    if (roles && !(action === 'execute' && target.function === undefined)) {
      const asked = ACTION[action]
      if (asked !== undefined && !roles.allows(privileges, asked, rolesResource(target)))
        return false
    }
    if (given.length === 0) return true
    // A hook sees the session with the promotions in force, as `heldPrivileges` reads them.
    const seen = promoted.size > 0 ? promotedSession(session, promoted) : session
    for (const hook of given) if (hook(seen, action, target) !== true) return false
    return true
  }
  return Object.assign(rule, { roles, hooked: given.length > 0 })
}
