/**
 * @module `GET /rest/{dataClass}({key})?$lock=true|false`: an entity locked or unlocked for the
 * session.
 */
import { fail, SAVE_STATUS, type DataClass, type Entity, type LockResult } from '@entistore/core'
import type { RestTarget } from '../url/parse-rest-url.js'
import { refusedStatus } from '../write/save-status-json.js'
import { ok, type Reply } from '../reply.js'
import { sessionOwner, type RouteContext } from './context.js'
import { lookupEntity } from './lookup.js'

/**
 * `GET /rest/Employee(3)?$lock=true` locks the entity for the session, `$lock=false` unlocks it.
 * The reply is 200 either way, `{"result": true, "__STATUS": {"success": true}}` or `result` false
 * with the status of the refusal: 3 "Already locked" (with `lockKind`, `lockKindText`, `lockInfo`)
 * when another session or a process holds it, 5 when the entity does not exist (deleted, or never
 * there). Only one entity can be locked: a selection is refused (1806).
 */
export function lock(
  ctx: RouteContext,
  dc: DataClass,
  target: Extract<RestTarget, { kind: 'dataClass' }>,
  wanted: boolean,
): Reply {
  if (target.key === undefined && target.lookup === undefined)
    fail('InvalidParameter', [
      '$lock',
      String(wanted),
      `one entity: GET /rest/${dc.name}({key})?$lock=true`,
    ])
  // Locking is for writing: it needs update permission (read too, as every GET of the dataclass).
  ctx.perms?.need('update', dc.name)
  const entity =
    target.key !== undefined ? dc.get(target.key) : lookupOrNull(ctx, dc, target.lookup!)
  // A guest that locks is established by the lock (core's lockEntity), before it takes it.
  const owner = sessionOwner(ctx)
  const result: LockResult = !entity
    ? { success: false, status: 5, statusText: SAVE_STATUS.entityDoesNotExist.statusText }
    : wanted
      ? entity.lock({ owner })
      : entity.unlock({ owner })
  if (result.success) return ok('{"result":true,"__STATUS":{"success":true}}')
  return ok({ result: false, __STATUS: refusedStatus(result) })
}

/** A lookup's entity, or null when none matches (a lock answers status 5, not 404). */
function lookupOrNull(
  ctx: RouteContext,
  dc: DataClass,
  lookup: { readonly attribute: string; readonly value: string },
): Entity | null {
  try {
    return lookupEntity(ctx, dc, lookup)
  } catch (error) {
    if ((error as { name?: unknown }).name === 'EntityNotFound') return null
    throw error
  }
}
