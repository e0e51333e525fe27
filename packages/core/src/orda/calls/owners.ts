/**
 * @module Who acts on a datastore now, and the transaction their process has open: what every
 * write, lock and `restrict` asks first. Below writes.ts, so that those that need only this (locks,
 * restrict, entity sets) do not import the writes.
 */
import type { LockOwner } from '../../locks/lock-table.js'
import type { Transaction } from '../../txn/transaction.js'
import type { CallDatastore } from './call-datastore.js'
import { runningCall } from './call-context.js'
import { currentActor } from '../../access/acting.js'

/** Who acts on a datastore while `ds.runAs(owner, fn)` runs (an HTTP session, for the adapter). */
const acting = new WeakMap<CallDatastore, LockOwner>()

/**
 * The owner that writes and locks made now are made by: the one `runAs` set, else that of the
 * function call running (an async function's writes after an await are still its session's),
 * else the datastore's process owner (every TypeScript caller, as one 4D process).
 */
export function currentOwner(ds: CallDatastore): LockOwner {
  const owner = acting.get(ds)
  if (owner) return owner
  // A request's actor (its code after an await included).
  const actor = currentActor(ds)?.owner
  if (actor) return actor
  const call = runningCall()
  return (call?.datastore === ds ? call.owner : undefined) ?? ds.processOwner
}

/** Runs `fn` with `owner` as the author of every write and lock it makes (see `currentOwner`). */
export function runAs<T>(ds: CallDatastore, owner: LockOwner, fn: () => T): T {
  const before = acting.get(ds)
  acting.set(ds, owner)
  try {
    return fn()
  } finally {
    if (before) acting.set(ds, before)
    else acting.delete(ds)
  }
}

/** @internal The transaction the current process has open, if any (processes.ts). */
export function openTransaction(ds: CallDatastore): Transaction | undefined {
  return ds.processes.openTransaction()
}
