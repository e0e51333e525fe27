/**
 * @module Writes as the public objects make them. Every write runs in a transaction (txn/): the
 * datastore's open one inside `ds.transaction(fn)`, else a transaction of its own committed at once.
 * Either way the store's one `commit` applies it, all or nothing.
 */
import type { LockOwner } from '../locks/lock-table.js'
import { Transaction, type Assignments, type WriteCheck } from '../txn/transaction.js'
import type { KeyValue } from '../store/entity-record.js'
import type { DataClass } from './data-class.js'
import type { Datastore } from './datastore.js'
import { Entity } from './entity.js'
import { currentCall } from '../functions/call-context.js'
import { isThenable } from '../functions/call.js'

/** A datastore's open transaction, while `ds.transaction(fn)` runs. */
const open = new WeakMap<Datastore, Transaction>()

/** Who acts on a datastore while `ds.runAs(owner, fn)` runs (an HTTP session, for the adapter). */
const acting = new WeakMap<Datastore, LockOwner>()

/**
 * The owner that writes and locks made now are made by: the one `runAs` set, else that of the
 * function call running (an async function's writes after an await are still its session's),
 * else the datastore's process owner (every TypeScript caller, as one 4D process).
 */
export function currentOwner(ds: Datastore): LockOwner {
  const owner = acting.get(ds)
  if (owner) return owner
  const call = currentCall()
  return (call?.datastore === ds ? call.owner : undefined) ?? ds.processOwner
}

/** Runs `fn` with `owner` as the author of every write and lock it makes (see `currentOwner`). */
export function runAs<T>(ds: Datastore, owner: LockOwner, fn: () => T): T {
  const before = acting.get(ds)
  acting.set(ds, owner)
  try {
    return fn()
  } finally {
    if (before) acting.set(ds, before)
    else acting.delete(ds)
  }
}

/** @internal The transaction `ds.transaction(fn)` has open, if any. */
export function openTransaction(ds: Datastore): Transaction | undefined {
  return open.get(ds)
}

/**
 * Runs `fn` in a transaction of `ds`: every write it makes is staged, and applied at once when it
 * returns. If it throws, nothing is applied and the error is rethrown. `fn` must be synchronous (a
 * transaction cannot stay open across an await: other callers would see it half-done).
 */
export function runTransaction<T>(ds: Datastore, fn: () => T): T {
  if (open.has(ds)) {
    throw new Error('ds.transaction: a transaction is already open (transactions do not nest)')
  }
  const tx = newTransaction(ds)
  open.set(ds, tx)
  let result: T
  try {
    result = fn()
    if (isThenable(result)) {
      throw new TypeError(
        'ds.transaction: the function returned a promise; a transaction must be synchronous',
      )
    }
  } catch (e) {
    tx.cancel()
    throw e
  } finally {
    open.delete(ds)
  }
  tx.commit()
  return result
}

const newTransaction = (ds: Datastore): Transaction =>
  new Transaction(ds.store, { locks: ds.locks, owner: currentOwner(ds) })

/** The check of a write, its owner filled in: the one named, else whoever acts now. */
const checkOf = (ds: Datastore, check: WriteCheck | undefined): WriteCheck =>
  check?.owner ? check : { ...check, owner: currentOwner(ds) }

/** Runs one write in the open transaction, or in its own committed at once. */
function write<T>(ds: Datastore, act: (tx: Transaction) => T): T {
  const current = open.get(ds)
  if (current) return act(current)
  const tx = newTransaction(ds)
  const result = act(tx)
  tx.commit()
  return result
}

/** Attribute values with Entity objects given for relations replaced by their keys. */
function plain(values: Assignments): Assignments {
  let out: Record<string, unknown> | undefined
  for (const name of Object.keys(values)) {
    const v = values[name]
    if (v instanceof Entity) (out ??= { ...values })[name] = v.key
  }
  return out ?? values
}

export function createEntity(dc: DataClass, values: Assignments): Entity {
  return write(dc.datastore, (tx) => tx.create(dc.table, plain(values)) as Entity)
}

export function updateEntity(
  dc: DataClass,
  key: KeyValue,
  values: Assignments,
  check?: WriteCheck,
): Entity {
  return write(
    dc.datastore,
    (tx) => tx.update(dc.table, key, plain(values), checkOf(dc.datastore, check)) as Entity,
  )
}

export function dropEntity(dc: DataClass, key: KeyValue, check?: WriteCheck): void {
  write(dc.datastore, (tx) => tx.delete(dc.table, key, checkOf(dc.datastore, check)))
}

/** Drops every entity of `entities` that still exists; returns how many were dropped. */
export function dropEntities(dc: DataClass, entities: Iterable<Entity | null>): number {
  return write(dc.datastore, (tx) => {
    let n = 0
    for (const e of entities) {
      if (!e || !tx.read(dc.table, e.key)) continue
      tx.delete(dc.table, e.key, checkOf(dc.datastore, undefined))
      n++
    }
    return n
  })
}
