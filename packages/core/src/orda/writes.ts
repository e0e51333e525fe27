/**
 * @module Writes as the public objects make them. Every write runs in a transaction (txn/): the
 * datastore's open one inside `ds.transaction(fn)`, else a transaction of its own committed at once.
 * Either way the store's one `commit` applies it, all or nothing.
 */
import type { LockOwner } from '../locks/lock-table.js'
import { Transaction, type Assignments, type WriteCheck } from '../txn/transaction.js'
import { isWriteRefusal } from '../txn/save-status.js'
import type { KeyValue } from '../store/entity-record.js'
import type { DataClass } from './data-class.js'
import type { Datastore } from './datastore.js'
import { Entity } from './entity.js'
import { EntityDraft } from './entity-draft.js'
import { afterDrop, beforeDrop, eventsOf } from './entity-events.js'
import { visible } from './restrict.js'
import { fail } from '../errors/datastore-error.js'
import { currentCall } from './call-context.js'
import { isThenable } from './call-function.js'
import { currentActor } from '../access/acting.js'
import { needDrop, needWrite } from './access-checks.js'

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
  // A request's actor (its code after an await included).
  const actor = currentActor(ds)?.owner
  if (actor) return actor
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
    afterCommits.delete(tx)
    throw e
  } finally {
    open.delete(ds)
  }
  tx.commit()
  runAfterCommit(tx)
  return result
}

// What runs once a transaction has committed (entity after-events), by transaction.
const afterCommits = new WeakMap<Transaction, (() => void)[]>()

/**
 * Runs `fn` once the write just made has committed: at once when no transaction is open (the
 * write committed on its own), else when `ds.transaction(fn)` commits (never, if it is refused).
 */
export function afterCommit(ds: Datastore, fn: () => void): void {
  const tx = open.get(ds)
  if (!tx) return fn()
  let list = afterCommits.get(tx)
  if (!list) afterCommits.set(tx, (list = []))
  list.push(fn)
}

function runAfterCommit(tx: Transaction): void {
  const list = afterCommits.get(tx)
  if (!list) return
  afterCommits.delete(tx)
  for (const fn of list) fn()
}

const newTransaction = (ds: Datastore): Transaction =>
  new Transaction(ds.store, {
    locks: ds.locks,
    owner: currentOwner(ds),
    // A reference to an entity the acting session's `restrict` hides is refused as a reference to
    // one that does not exist: a write must not tell whether it does.
    ...(ds.restricting ? { visible: visibleIn(ds) } : {}),
  })

const visibleIn =
  (ds: Datastore) =>
  (table: { readonly def: { readonly name: string } }, rowId: number): boolean =>
    visible(ds.dataClass(table.def.name), rowId)

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
  return committedVersion(result)
}

/**
 * The version the datastore holds of an entity just written, once its commit is done: for a
 * tracked dataclass, the commit wrote its `__GlobalStamp` into a new version (store/change-
 * stamps.ts), so what a transaction's function returned is the version as staged. Anything
 * else is given back as it is.
 */
export function committedVersion<T>(result: T): T {
  if (!(result instanceof Entity) || !result.dataClass.def.tracked) return result
  return ((result.dataClass as DataClass).table.record(result.rowId) as T | undefined) ?? result
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

/**
 * Creates an entity. With entity events (`events: true` and the dataclass has some), through a
 * draft: its constructor, a `touched` for each value, then the save's events (entity-draft.ts).
 */
export function createEntity(dc: DataClass, values: Assignments, events = true): Entity {
  // Checked before the events run, and again (events = false) with what they set.
  needWrite(dc, values, true)
  if (events && eventsOf(dc)) return new EntityDraft(dc, null, values).saveOrFail()
  return write(dc.datastore, (tx) => tx.create(dc.table, plain(values)) as Entity)
}

/** Updates entity `key`; with entity events, through a draft of it, as createEntity. */
export function updateEntity(
  dc: DataClass,
  key: KeyValue,
  values: Assignments,
  check?: WriteCheck,
  events = true,
): Entity {
  needWrite(dc, values, false)
  const withEvents = events && eventsOf(dc) !== undefined
  const base = writeTarget(dc, key, withEvents)
  if (base && withEvents) return new EntityDraft(dc, base, values).saveChecked(check)
  return write(
    dc.datastore,
    (tx) => tx.update(dc.table, key, plain(values), checkOf(dc.datastore, check)) as Entity,
  )
}

/** Drops entity `key`; with entity events: `validateDrop`, `dropping`, then `afterDrop`. */
export function dropEntity(dc: DataClass, key: KeyValue, check?: WriteCheck): void {
  needDrop(dc)
  const events = eventsOf(dc)
  const entity = writeTarget(dc, key, events !== undefined)
  if (events && entity) beforeDrop(events, dc, entity)
  write(dc.datastore, (tx) => tx.delete(dc.table, key, checkOf(dc.datastore, check)))
  if (events && entity) afterCommit(dc.datastore, () => afterDrop(events, dc, entity))
}

/**
 * Drops every entity of `entities` that still exists, in one transaction (the open one, if any);
 * returns how many were dropped. Without `refused`, the first refusal (a lock, an event) is thrown
 * and nothing is dropped. With it (4D's `entitySelection.drop()`), each entity a refusal keeps
 * (`isWriteRefusal`: a lock, an event, a `restrict` that hides it) is passed to
 * `refused` and left, and the others are dropped; `refused` answers false to stop there (4D's
 * `dk stop dropping on first error`).
 */
export function dropEntities(
  dc: DataClass,
  entities: Iterable<Entity | null>,
  refused?: (entity: Entity) => boolean,
): number {
  needDrop(dc)
  const events = eventsOf(dc)
  // Only what the acting session's `restrict` lets it see: a selection may hold others (an entity
  // set made by another session).
  const restricted = dc.restrictFunction !== undefined
  const dropped: Entity[] = []
  const n = write(dc.datastore, (tx) => {
    let n = 0
    for (const e of entities) {
      const live = e && (tx.read(dc.table, e.key) as Entity | undefined)
      if (!live) continue
      if (restricted && !visible(dc, live.rowId)) {
        if (refused && !refused(live)) break
        continue
      }
      try {
        // Each entity's events before its drop: the first refusal leaves the others undropped.
        if (events) beforeDrop(events, dc, live)
        tx.delete(dc.table, e.key, checkOf(dc.datastore, undefined))
      } catch (error) {
        // A refused drop stages nothing: the transaction goes on with the others.
        if (!refused || !isWriteRefusal(error)) throw error
        if (!refused(live)) break
        continue
      }
      if (events) dropped.push(live)
      n++
    }
    return n
  })
  for (const e of dropped) afterCommit(dc.datastore, () => afterDrop(events!, dc, e))
  return n
}

/** The version of `key` a write sees now (the open transaction's own first), if any. */
export function currentVersion(dc: DataClass, key: KeyValue): Entity | undefined {
  const tx = open.get(dc.datastore)
  return (tx ? tx.read(dc.table, key) : dc.table.recordByKey(key)) as Entity | undefined
}

/**
 * The version of `key` a write of it looks at first, read once for both its readers: `dc`'s
 * restrict (a write outside it is refused with 1542, as for a missing entity) and its entity
 * events (`withEvents`). Undefined when neither needs it, or when there is no such entity (the
 * write itself then answers 1542).
 */
function writeTarget(dc: DataClass, key: KeyValue, withEvents: boolean): Entity | undefined {
  const restricted = dc.restrictFunction !== undefined
  if (!restricted && !withEvents) return undefined
  const entity = currentVersion(dc, key)
  if (restricted && entity && !visible(dc, entity.rowId))
    fail('EntityNotFound', [String(key), dc.def.name])
  return entity
}
