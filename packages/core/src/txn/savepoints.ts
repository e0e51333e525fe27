/**
 * @module What a transaction open across awaits (4D's `startTransaction`) needs besides staging:
 * savepoints for its nested levels, and the check of its writes against the data as it is when it
 * commits, since other callers may have committed meanwhile.
 *
 * A savepoint is a copy of the list of staged entries (each entry copied: staging changes an
 * entry in place), taken when a nested level starts: cancelling the level puts the list back. It
 * costs the size of what is staged, once per nested level.
 *
 * The check (`recheck`) runs only when something was committed since the transaction began. Each
 * write must still apply as it was staged, or the commit is refused with TransactionConflict
 * (9071) and nothing is applied: an entity updated or deleted must still be the version it was
 * based on (the stamp check every write makes, made again), a new entity's key must still be
 * free, the unique values and the references a write set must still hold, and no other owner may
 * hold the lock of an entity it writes. Row ids and sequence values cannot clash: they were taken
 * from the tables when staged (BatchState's `claimsInTables`).
 */
import type { Patch } from 'immer'
import { DatastoreError, fail } from '../errors/datastore-error.js'
import { heldFor, type LockOwner, type LockTable } from '../locks/lock-table.js'
import type { EntityRecord, KeyValue } from '../store/entity-record.js'
import type { Table } from '../store/table.js'
import type { Staged } from './staged.js'

/** What a transaction had staged when a nested level began (Transaction.mark). */
export type Savepoint = ReadonlyMap<Table, ReadonlyMap<KeyValue, Staged>>

/** A copy of `staged` whose entries are copies: staging more leaves the copy as it is. */
export function copyStaged(
  staged: ReadonlyMap<Table, ReadonlyMap<KeyValue, Staged>>,
): Map<Table, Map<KeyValue, Staged>> {
  const out = new Map<Table, Map<KeyValue, Staged>>()
  for (const [table, entries] of staged) {
    const copy = new Map<KeyValue, Staged>()
    for (const [key, s] of entries) copy.set(key, { ...s })
    out.set(table, copy)
  }
  return out
}

/** What `recheck` reads of a transaction, and its own checks of a value (transaction.ts). */
export interface RecheckView {
  readonly staged: ReadonlyMap<Table, ReadonlyMap<KeyValue, Staged>>
  readonly locks: LockTable | undefined
  readonly owner: LockOwner | undefined
  readonly id: string | undefined
  /** The version of `key` the transaction sees (its own writes first). */
  read(table: Table, key: KeyValue): EntityRecord | undefined
  /** Throws UniqueViolation when a unique value of `record` (of `only`) is taken by another. */
  checkUnique(table: Table, record: EntityRecord, only?: ReadonlySet<string>): void
  /** Throws InvalidAttributeValue when `key` names no entity of `target` the writer may see. */
  checkReference(table: Table, target: string, key: KeyValue, label: string): void
  /** The unique attributes an update's patches change (undefined: none). */
  uniqueChanged(table: Table, patches: readonly Patch[]): ReadonlySet<string>
}

/** Throws TransactionConflict (9071) for the first staged write that no longer applies. */
export function recheck(tx: RecheckView): void {
  for (const [table, entries] of tx.staged) {
    const name = table.def.name
    for (const [key, s] of entries) {
      const conflict = (why: string, cause?: unknown): never =>
        fail('TransactionConflict', [`the entity ${name}(${String(key)})`, why], {
          details: { dataClass: name, key },
          ...(cause === undefined ? {} : { cause }),
        })
      if (s.base !== undefined) {
        const rowId = s.base.rowId
        if (table.keyOf(rowId) !== key) conflict('another call deleted it')
        if (table.stampOf(rowId) !== s.base.stamp) conflict('another call saved it meanwhile')
        const lock = tx.locks?.holder(name, key)
        if (lock && !(tx.owner && heldFor(lock, tx.owner, tx.id)))
          conflict('another session or process holds its lock')
      } else if (s.current !== null) {
        if (table.rowIdOf(key) !== undefined)
          conflict('another call created an entity with its key')
      }
      const current = s.current
      if (current === null) continue
      // An update checks what it changed; a new entity, everything.
      const only = s.base === undefined ? undefined : tx.uniqueChanged(table, s.patches)
      try {
        if (table.hasUnique && only?.size !== 0) tx.checkUnique(table, current, only)
        checkReferences(tx, table, current, s.base === undefined ? undefined : s.patches)
      } catch (error) {
        if (!DatastoreError.is(error)) throw error
        conflict(error.message, error)
      }
    }
  }
}

// The references `current` sets (those its patches change, for an update) must name entities
// that still exist.
function checkReferences(
  tx: RecheckView,
  table: Table,
  current: EntityRecord,
  patches: readonly Patch[] | undefined,
): void {
  for (const attr of table.def.attributes) {
    if (attr.kind !== 'relatedEntity') continue
    const fk = attr.foreignKeyAttribute.name
    if (patches !== undefined && !patches.some((p) => p.path[0] === fk)) continue
    const key = current.values[fk]
    if (key === null || key === undefined) continue
    tx.checkReference(table, attr.target, key as KeyValue, attr.name)
  }
}
