/**
 * @module What a running function changes of its own frame (acting.ts), as 4D's `Session` lets it:
 * - `promote(privilege)` (20 R10) adds a privilege of the roles file "to the current process during
 *   the execution of the calling function" and returns an id; `demote(id)` takes it back. The
 *   frame's Actor is replaced by one holding it (actor.ts `promote`), so every check of the rest
 *   of the call sees it, its awaits included; the session never holds it, its caller's frame is
 *   untouched, and it ends with the call.
 * - `restore(token)` (20 R9) makes the rest of the call act as the restored session.
 *
 * 4D documents that `promote` "does nothing and returns 0" when the privilege is not declared in
 * roles.json or is already promoted in the process (by `promote` or by the function's static
 * `promote` permission); a privilege the session holds of its own can still be promoted.
 */
import type { LockOwner } from '../locks/lock-table.js'
import { GUEST_PRIVILEGE, type Roles } from '../roles/roles.js'
import type { Session } from '../sessions/session-api.js'
import { actingFrame, type ActingFrame } from './acting.js'
import { Actor } from './actor.js'

/** A frame's dynamic promotions: the Actor before them, and each promotion's privileges by id. */
interface Promotions {
  readonly base: Actor
  readonly byId: Map<number, ReadonlySet<string>>
}

const framePromotions = new WeakMap<ActingFrame, Promotions>()
// 4D: "the returned id is incremented each time a privilege is dynamically added". One counter
// for the process: an id never names another call's promotion, which `demote` then ignores.
let lastId = 0

/** The frame of `scope`'s (a Datastore's) actor running now, if any. */
function frameOf(scope: object): ActingFrame | undefined {
  const frame = actingFrame()
  return frame !== undefined && frame.actor.scope === scope ? frame : undefined
}

/**
 * Adds `privilege` (and those it includes) to the running call's frame; its id, or 0 when nothing
 * was added: no actor acts (code outside a request has every right already), no roles file, a
 * privilege the file does not declare, or one the frame holds promoted already.
 */
export function promoteInFrame(scope: object, roles: Roles | undefined, privilege: string): number {
  const frame = frameOf(scope)
  if (frame === undefined || roles === undefined || typeof privilege !== 'string') return 0
  const key = privilege.toLowerCase()
  const added = new Set(roles.privilegesOf({ privileges: [privilege] }))
  added.delete(GUEST_PRIVILEGE)
  if (!added.has(key) || frame.actor.promoted.has(key)) return 0
  let promotions = framePromotions.get(frame)
  if (promotions === undefined)
    framePromotions.set(frame, (promotions = { base: frame.actor, byId: new Map() }))
  const id = ++lastId
  promotions.byId.set(id, added)
  frame.actor = frame.actor.promote(added)
  return id
}

/** Takes back the promotion `id` of the running call's frame; nothing if it made none by that id. */
export function demoteInFrame(scope: object, id: number): void {
  const frame = frameOf(scope)
  const promotions = frame && framePromotions.get(frame)
  if (!promotions?.byId.delete(id)) return
  let actor = promotions.base
  for (const privileges of promotions.byId.values()) actor = actor.promote(privileges)
  frame!.actor = actor
}

/**
 * Makes the rest of the running call act as `session` (a restored one): its own privileges, with
 * what the function's static `promote` gives; its dynamic promotions end. Nothing without a frame.
 */
export function actAsInFrame(scope: object, session: Session, owner: LockOwner): void {
  const frame = frameOf(scope)
  if (frame === undefined) return
  const before = framePromotions.get(frame)?.base ?? frame.actor
  framePromotions.delete(frame)
  frame.actor = new Actor({
    scope: before.scope,
    schema: before.schema,
    session,
    owner,
    rule: before.rule,
    promoted: before.promoted,
  })
}
