/**
 * @module Running a function: its arguments checked, its code run with `this` bound, as the caller's
 * session (writes and locks are the session's, `currentCall()` answers), and whatever it throws
 * turned into an error a client may read.
 *
 * A function may be synchronous or return a Promise; the result is returned as the function gave
 * it (a Promise stays a Promise), so a synchronous function costs no microtask.
 *
 * What a function throws: a DatastoreError (an entity not found, a stale stamp) is reported as it
 * is; anything else becomes FunctionFailed (9100) with its message, never its stack, and with any
 * file path in it masked (an ENOENT message names the server's folders: functions/mask-message.ts). A function that throws
 * 4D's way, `throw { errCode: 123, message: '…', componentSignature: 'shop' }`, keeps its code.
 */
import type { PageFeedback } from '../calls/page-feedback.js'
import { isThenable } from '../../values/thenable.js'
import { DatastoreError, datastoreError, fail } from '../../errors/datastore-error.js'
import type { LockOwner } from '../../locks/lock-table.js'
import type { Session } from '../../sessions/session-api.js'
import { maskMessage } from '../../functions/mask-message.js'
import { ownerText, type FunctionInfo, type FunctionKind } from '../../functions/registry.js'
import type { Roles } from '../../roles/roles.js'
import type { CallDatastore } from '../calls/call-datastore.js'
import { newCall, runCall } from '../calls/call-context.js'
import { checkParams } from './function-params.js'
import { currentActor, runActor } from '../../access/acting.js'
import type { Actor } from '../../access/actor.js'

/**
 * What running a function needs of its datastore: the calls' (its sessions, functions, roles),
 * and `runAs` for a caller's lock owner. Named by these members, which the Datastore has, and not
 * by its class, which calls its functions through this file. The public `callFunction` and
 * `promotedFor`, which take the Datastore, are with it (objects/datastore-functions.ts).
 */
export interface FunctionDatastore extends CallDatastore {
  runAs<R>(owner: LockOwner, fn: () => R): R
}

/** Who calls: the REST request's session (and its lock owner). Both absent for a TypeScript call. */
export interface CallOptions {
  readonly session?: Session | undefined
  readonly owner?: LockOwner | undefined
  /**
   * Told when the function's code restores another session (`currentCall().restore(token)`): the
   * client that called now belongs to it (the REST interface sends its cookie with the reply).
   */
  readonly onRestore?: ((session: Session) => void) | undefined
  /**
   * What the call tells the page that called it (Qodly's `Web Form`): the REST interface gives
   * one to each function call and writes it with the reply. @default the calling call's, if any
   */
  readonly page?: PageFeedback | undefined
}

/** `callFunction` (objects/datastore-functions.ts, where it is documented), on what it reads. */
export function runFunction(
  ds: FunctionDatastore,
  fn: FunctionInfo,
  target: unknown,
  args: readonly unknown[],
  options: CallOptions = {},
): unknown {
  const impl = fn.impl
  if (impl === undefined)
    return fn.declaredIn === undefined
      ? fail('FunctionNotImplemented', [`"${fn.name}" of ${ownerText(fn)}`])
      : fail('ProjectFunctionNotImplemented', [
          `"${fn.name}" of ${ownerText(fn)}`,
          fn.declaredIn,
          modulePath(fn),
        ])
  // A session acting (a request, or code it runs) calls only what it may execute, and the
  // function runs with what its `promote` adds, for this call only (the async context ends with it).
  const caller = currentActor(ds)
  caller?.needExecute(fn)
  const actor = caller && promotedActor(ds, caller, fn)
  const checked = checkParams(fn, args)
  const call = newCall(
    ds,
    fn,
    options.session ?? caller?.session,
    options.owner ?? caller?.owner,
    options.onRestore,
    options.page,
  )
  const owner = options.owner
  const run = (): unknown => impl.apply(target, checked)
  const asCaller = owner ? (): unknown => ds.runAs(owner, run) : run
  const inCall = (): unknown => runCall(call, asCaller)
  let result: unknown
  try {
    // A frame of its own even when nothing is promoted: what its code promotes (`promote()`) or
    // restores ends with it, never reaching its caller's frame.
    result = actor !== undefined ? runActor(actor, inCall) : inCall()
  } catch (error) {
    throw failure(error)
  }
  if (!isThenable(result)) return result
  return Promise.resolve(result).then(undefined, (error: unknown) => {
    throw failure(error)
  })
}

/** `promotedFor` (objects/datastore-functions.ts, where it is documented), on what it reads. */
export function promotedActor(
  ds: { readonly roles: Roles | undefined },
  actor: Actor,
  fn: FunctionInfo,
): Actor {
  const roles = ds.roles
  if (roles === undefined) return actor
  return actor.promote(
    roles.promoted(
      fn.kind === 'singleton'
        ? { type: 'singletonMethod', singleton: fn.owner, name: fn.name }
        : { type: 'method', dataClass: fn.kind === 'dataStore' ? '' : fn.owner, name: fn.name },
    ),
  )
}

/**
 * Finds the function `name` of `kind` on `owner` and calls it, exposed or not (a TypeScript call,
 * as one 4D process calls its own class functions).
 * @throws DatastoreError FunctionNotFound (1573), and as `callFunction` (objects/datastore-functions.ts).
 */
export function callByName(
  ds: FunctionDatastore,
  kind: FunctionKind,
  owner: string,
  name: string,
  target: unknown,
  args: readonly unknown[],
): unknown {
  const fn = ds.functions.find(kind, owner, name)
  if (!fn) return fail('FunctionNotFound', [name, ownerText({ kind, owner })])
  return runFunction(ds, fn, target, args)
}

export { isThenable }

export { maskMessage }

/** What a function threw, as the error a client reads. */
export function failure(error: unknown): DatastoreError {
  if (DatastoreError.is(error)) return error
  if (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof Error) &&
    typeof (error as { errCode?: unknown }).errCode === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  ) {
    // 4D's `throw({ errCode; message; componentSignature })`.
    const e = error as { errCode: number; message: string; componentSignature?: unknown }
    return datastoreError('FunctionFailed', [maskMessage(e.message)], {
      code: {
        errCode: e.errCode,
        componentSignature:
          typeof e.componentSignature === 'string' ? e.componentSignature : 'host',
      },
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return datastoreError('FunctionFailed', [maskMessage(message || 'the function failed')], {
    cause: error,
  })
}

/**
 * Where a functions module (`defineFunctions`) gives `fn`: `dataClasses.Employee.entity.raise`,
 * `dataStore.authentify`, `singletons.Stats.functions.status`.
 */
function modulePath(fn: FunctionInfo): string {
  if (fn.kind === 'dataStore') return `dataStore.${fn.name}`
  if (fn.kind === 'singleton') return `singletons.${fn.owner}.functions.${fn.name}`
  return `dataClasses.${fn.owner}.${fn.kind}.${fn.name}`
}
