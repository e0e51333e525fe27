/**
 * @module The package's public functions that take the Datastore: running a class function
 * (`callFunction`, `promotedFor`) and whether a deletion may be told (`deletionVisible`). Their
 * signatures name the Datastore, which users pass; their bodies are in the rooms below
 * (functions/call-function.ts, feed/deletion-witnesses.ts), which name only what they read of it,
 * since the Datastore runs them too. Nothing here is used by the objects themselves.
 */
import type { Actor } from '../../access/actor.js'
import type { FunctionInfo } from '../../functions/registry.js'
import { deletionSeen } from '../feed/deletion-witnesses.js'
import { promotedActor, runFunction, type CallOptions } from '../functions/call-function.js'
import type { Datastore } from './datastore.js'

/**
 * Calls `fn` on `target` (what `this` is: the datastore, a dataclass, an entity, a selection or a
 * singleton's state) with `args`. Returns its result, or a Promise of it for an async function.
 * @throws DatastoreError FunctionNotImplemented (9103) or ProjectFunctionNotImplemented (9107),
 *   FunctionParameterInvalid (9101), whatever
 *   the function throws (see functions/call-function.ts).
 */
export function callFunction(
  ds: Datastore,
  fn: FunctionInfo,
  target: unknown,
  args: readonly unknown[],
  options: CallOptions = {},
): unknown {
  return runFunction(ds, fn, target, args, options)
}

/**
 * `actor` with the privileges `fn`'s `promote` permission gives (roles.json), for its call: 4D adds
 * them "to the process that runs the function" and removes them when it ends.
 */
export function promotedFor(ds: Datastore, actor: Actor, fn: FunctionInfo): Actor {
  return promotedActor(ds, actor, fn)
}

/**
 * Whether the acting session (none: full rights) may learn of the deletion of an entity of
 * `dataClass` made at global stamp `stamp`: it may read the dataclass, and, if the dataclass has a
 * restrict, it could see the entity when it was deleted.
 */
export function deletionVisible(ds: Datastore, dataClass: string, stamp: number): boolean {
  return deletionSeen(ds, dataClass, stamp)
}
