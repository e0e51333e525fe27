/**
 * @module Writes as the public objects make them, and 4D's transactions around them. Every write
 * runs in a transaction (txn/): the one its process has open (processes.ts: `startTransaction`,
 * `ds.transaction(fn)`), else a transaction of its own committed at once. Either way the store's
 * one `commit` applies it, all or nothing.
 */
import { writingOn } from './writing.js'
import type { LockOwner } from '../../locks/lock-table.js'
import {
  Transaction,
  type Assignments,
  type WriteCheck,
  type WritePermit,
} from '../../txn/transaction.js'
import { isWriteRefusal } from '../../txn/save-status.js'
import { updateAlone } from '../../txn/single-update.js'
import type { KeyValue } from '../../store/entity-record.js'
import { kindOf } from '../kinds/object-kind.js'
import type { WriteDatastore, WrittenClass, WrittenEntity } from './written-class.js'
import { afterDrop, beforeDrop, eventsOf } from './entity-events.js'
import { afterCommit } from './after-commit.js'
import type { DataClassEvents } from '../../functions/registry.js'
import { visible } from '../restrict/restrict.js'
import { fail } from '../../errors/datastore-error.js'
import { isThenable } from '../../values/thenable.js'
import { needDrop, needWrite } from '../restrict/access-checks.js'
import { currentOwner, openTransaction } from '../calls/owners.js'
import { entityUrl } from '../request-log.js'

// An Entity, by the tag its class carries (kinds/object-kind.ts): the writes do not name the class.
const isEntity = (v: unknown): v is WrittenEntity => kindOf(v) === 'entity'

/** 4D's `ds.startTransaction()`: a transaction of the current process, nested in its open one. */
export function startTransaction(ds: WriteDatastore): void {
  ds.processes.current().start((id) => newTransaction(ds, id), true)
}

/** 4D's `ds.validateTransaction()` (processes.ts: `ProcessState.validate`). */
export function validateTransaction(ds: WriteDatastore): void {
  ds.processes.current().validate()
}

/** 4D's `ds.cancelTransaction()` (processes.ts: `ProcessState.cancel`). */
export function cancelTransaction(ds: WriteDatastore): void {
  ds.processes.current().cancel()
}

/** 4D's `ds.transactionLevel()`. */
export function transactionLevel(ds: WriteDatastore): number {
  return ds.processes.anyTransaction ? ds.processes.current().level : 0
}

/**
 * Runs `fn` in a transaction of the current process, nested in its open one if any: validated
 * when `fn` returns, cancelled if it throws (the error is rethrown). `fn` must be synchronous, and
 * must leave the levels as it found them: a promise returned, or a level it opened and left open
 * (or one of the helper's it closed), cancels everything the helper opened and throws a TypeError.
 */
export function runTransaction<T>(ds: WriteDatastore, fn: () => T): T {
  const state = ds.processes.current()
  const level = state.level
  // Synchronous: nothing commits while it is open, so it needs none of what a transaction open
  // across awaits does (locks, row ids taken from the tables, a check at commit).
  state.start((id) => newTransaction(ds, id), false)
  let result: T
  try {
    result = fn()
    if (isThenable(result))
      throw new TypeError(
        'ds.transaction: the function returned a promise; a transaction must be synchronous (await inside startTransaction() … validateTransaction() instead)',
      )
  } catch (e) {
    state.cancelTo(level)
    throw e
  }
  state.leave(level, 'ds.transaction')
  return result
}

/** A transaction of `ds` for whoever acts now; `id`: one that may stay open across awaits. */
export const newTransaction = (ds: WriteDatastore, id?: string): Transaction =>
  new Transaction(ds.store, {
    locks: ds.locks,
    owner: currentOwner(ds),
    permit: permitOf(ds),
    // A reference to an entity the acting session's `restrict` hides is refused as a reference to
    // one that does not exist: a write must not tell whether it does.
    ...(ds.restricting ? { visible: visibleIn(ds) } : {}),
    ...(id === undefined ? {} : { id }),
  })

const visibleIn =
  (ds: WriteDatastore) =>
  (table: { readonly def: { readonly name: string } }, rowId: number): boolean =>
    visible(ds.dataClass(table.def.name), rowId)

/**
 * What a transaction of `ds` asks about every value it would store (a set function's assignments
 * included): whoever acts when it is written may write it (access-checks.ts `needWrite`).
 */
const permitOf =
  (ds: WriteDatastore): WritePermit =>
  (def, values, creating) =>
    needWrite(ds.dataClass(def.name), values, creating)

/** The check of a write, its owner filled in: the one named, else whoever acts now. */
const checkOf = (ds: WriteDatastore, check: WriteCheck | undefined): WriteCheck =>
  check?.owner ? check : { ...check, owner: currentOwner(ds) }

/**
 * Runs one write in the process's open transaction, or in its own committed at once; refused
 * while another process holds the datastore (`flushAndLock`), or after the process ended with
 * its transaction cancelled (processes.ts). Recorded as the request `url()` while the request log
 * records (request-log.ts).
 */
function write<T>(ds: WriteDatastore, act: (tx: Transaction) => T, url: () => string): T {
  const log = ds.requestLog
  return writingOn(ds, () =>
    log === undefined ? writeNow(ds, act) : log.record(url(), () => writeNow(ds, act)),
  )
}

function writeNow<T>(ds: WriteDatastore, act: (tx: Transaction) => T): T {
  const processes = ds.processes
  const current = processes.openTransaction()
  if (current) return act(current)
  if (processes.lockedBy !== undefined) processes.refuseLocked()
  if (processes.abandoned) processes.current().refuseAbandoned()
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
  if (!isEntity(result) || !result.dataClass.def.tracked) return result
  return (result.dataClass.table.record(result.rowId) as T | undefined) ?? result
}

/** Attribute values with Entity objects given for relations replaced by their keys. */
function plain(values: Assignments): Assignments {
  let out: Record<string, unknown> | undefined
  // for…in, not Object.keys: no array made for each write.
  for (const name in values) {
    if (!Object.hasOwn(values, name)) continue
    const v = values[name]
    if (isEntity(v)) (out ??= { ...values })[name] = v.key
  }
  return out ?? values
}

/**
 * Creates an entity. With entity events (`events: true` and the dataclass has some), through a
 * draft: its constructor, a `touched` for each value, then the save's events (entity-draft.ts).
 */
export function createEntity(dc: WrittenClass, values: Assignments, events = true): WrittenEntity {
  // The transaction asks about what it stores (`permit`); asked here too before events run, so
  // that none runs for a refused write (their save comes back here, events = false).
  if (events && eventsOf(dc)) {
    needWrite(dc, values, true)
    return dc.draft(null, values).saveOrFail()
  }
  return write(
    dc.datastore,
    (tx) => tx.create(dc.table, plain(values)) as WrittenEntity,
    () => entityUrl(dc.name, undefined, 'update'),
  )
}

/** Updates entity `key`; with entity events, through a draft of it, as createEntity. */
export function updateEntity(
  dc: WrittenClass,
  key: KeyValue,
  values: Assignments,
  check?: WriteCheck,
  events = true,
): WrittenEntity {
  const withEvents = events && eventsOf(dc) !== undefined
  // The transaction asks about what it stores (`permit`, before it looks the entity up); asked
  // here too when something comes first: events (none runs for a refused write), or the restrict
  // check of the entity (its 1542 must not answer before a refusal: it would tell a hidden entity
  // from a missing one).
  if (withEvents || dc.restrictFunction !== undefined) needWrite(dc, values, false)
  const base = writeTarget(dc, key, withEvents)
  if (base && withEvents) return dc.draft(base, values).saveChecked(check)
  if (!withEvents && alone(dc.datastore)) {
    const written = updateAlone(
      dc.datastore.store,
      dc.table,
      key,
      plain(values),
      check,
      dc.datastore.locks,
      permitOf(dc.datastore),
    )
    if (written !== undefined) return committedVersion(written as WrittenEntity)
  }
  return write(
    dc.datastore,
    (tx) => tx.update(dc.table, key, plain(values), checkOf(dc.datastore, check)) as WrittenEntity,
    () => entityUrl(dc.name, key, 'update'),
  )
}

/**
 * Whether a write may commit alone (txn/single-update.ts), as `writeNow` would have it commit a
 * transaction of its own: no transaction open that it should join, no other process holding the
 * datastore, no ended process's transaction to refuse, and no request log to record it.
 */
function alone(ds: WriteDatastore): boolean {
  const processes = ds.processes
  return (
    !processes.anyTransaction &&
    processes.lockedBy === undefined &&
    !processes.abandoned &&
    ds.requestLog === undefined
  )
}

/** Drops entity `key`; with entity events: `validateDrop`, `dropping`, then `afterDrop`. */
export function dropEntity(dc: WrittenClass, key: KeyValue, check?: WriteCheck): void {
  needDrop(dc)
  const events = eventsOf(dc)
  const entity = writeTarget(dc, key, events !== undefined)
  if (events && entity) beforeDrop(events, dc, entity)
  dropWritten(dc, key, check, events, entity)
}

/** The drop itself, its events before it run; `afterDrop` once it has committed. */
export function dropWritten(
  dc: WrittenClass,
  key: KeyValue,
  check: WriteCheck | undefined,
  events: DataClassEvents | undefined,
  entity: WrittenEntity | undefined,
): void {
  write(
    dc.datastore,
    (tx) => tx.delete(dc.table, key, checkOf(dc.datastore, check)),
    () => entityUrl(dc.name, key, 'delete'),
  )
  const after = events && entity && afterDrop(events, dc, entity)
  if (after) afterCommit(dc.datastore, after)
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
  dc: WrittenClass,
  entities: Iterable<WrittenEntity | null>,
  refused?: (entity: WrittenEntity) => boolean,
): number {
  needDrop(dc)
  const events = eventsOf(dc)
  // Only what the acting session's `restrict` lets it see: a selection may hold others (an entity
  // set made by another session).
  const restricted = dc.restrictFunction !== undefined
  const dropped: WrittenEntity[] = []
  const n = write(
    dc.datastore,
    (tx) => {
      let n = 0
      for (const e of entities) {
        const live = e && (tx.read(dc.table, e.key) as WrittenEntity | undefined)
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
    },
    () => entityUrl(dc.name, undefined, 'delete'),
  )
  for (const e of dropped) {
    const after = afterDrop(events!, dc, e)
    if (after) afterCommit(dc.datastore, after)
  }
  return n
}

/**
 * 4D's `entitySelection.drop(mode?)`: drops the live `entities` that may be dropped, and answers
 * the rows of those a refusal kept (`dropEntities` with `refused`), up to the first with
 * `stopOnFirstError`. Refused as a whole (no permission, the store could not write), nothing is
 * dropped: every live entity's row.
 */
export function dropKept(
  dc: WrittenClass,
  entities: Iterable<WrittenEntity>,
  stopOnFirstError: boolean,
): number[] {
  const kept: number[] = []
  try {
    dropEntities(dc, entities, (e) => {
      kept.push(e.rowId)
      return !stopOnFirstError
    })
  } catch (error) {
    if (!isWriteRefusal(error)) throw error
    return Array.from(entities, (e) => e.rowId)
  }
  return kept
}

/** The version of `key` a write sees now (the open transaction's own first), if any. */
export function currentVersion(dc: WrittenClass, key: KeyValue): WrittenEntity | undefined {
  const tx = openTransaction(dc.datastore)
  return (tx ? tx.read(dc.table, key) : dc.table.recordByKey(key)) as WrittenEntity | undefined
}

/**
 * The version of `key` a write of it looks at first, read once for both its readers: `dc`'s
 * restrict (a write outside it is refused with 1542, as for a missing entity) and its entity
 * events (`withEvents`). Undefined when neither needs it, or when there is no such entity (the
 * write itself then answers 1542).
 */
export function writeTarget(
  dc: WrittenClass,
  key: KeyValue,
  withEvents: boolean,
): WrittenEntity | undefined {
  const restricted = dc.restrictFunction !== undefined
  if (!restricted && !withEvents) return undefined
  const entity = currentVersion(dc, key)
  if (restricted && entity && !visible(dc, entity.rowId))
    fail('EntityNotFound', [String(key), dc.def.name])
  return entity
}
