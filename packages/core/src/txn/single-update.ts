/**
 * @module One update committed alone, without a Transaction: the write most callers make
 * (`dc.update(key, { age })`, a REST save of one entity) outside any transaction.
 *
 * A transaction of its own made such a write pay for what it cannot need: maps of staged entities
 * and of unique claims, a list of changes built at its commit, the owner of the write looked up
 * (async context, WeakMap) to check a lock nobody held. A CPU profile of 2,000,000 updates by key
 * at 100k rows (2026-11-25) put the Transaction's making, staging and commit at a third of an
 * update.
 *
 * This path takes the happy case only, and gives every other back to the transaction (`undefined`:
 * "write it in a transaction"), which then refuses it or writes it as before: an entity that does
 * not exist, one somebody holds a lock on (whose holder the transaction must tell), a stamp that
 * is not the entity's, a null where the attribute refuses null, a write of a unique attribute (its
 * claims), of the key, of the global stamp, of a relation or an explicit foreign key (references
 * to check), of an unknown or computed attribute, or a dataclass with `set` functions. So every
 * refusal is the transaction's own, with its message. What it writes is what the transaction
 * writes: the values coerced by the same function (a bad value throws the same error, at the same
 * attribute, as no attribute before it could have been refused), a new frozen version with the
 * stamp + 1 and the write's timestamp (the version before stays whole for whoever holds it), and
 * one change through the store's `commit`, which moves the global stamp, the indexes and columns,
 * and tells the commit listeners (journals, change history, entity sets) as for any write.
 */
import type { Patch } from 'immer'
import type { LockTable } from '../locks/lock-table.js'
import { GLOBAL_STAMP } from '../schema/change-tracking.js'
import type { StorageAttributeDef } from '../schema/definitions.js'
import { coerceAt } from '../store/changes.js'
import type { EntityRecord, KeyValue } from '../store/entity-record.js'
import type { Store } from '../store/store.js'
import type { Table } from '../store/table.js'
import type { StoredValue } from '../values/coerce.js'
import { hasSetters } from './computed-sets.js'
import { nextValues } from './next-values.js'
import type { CommittedChange, WriteCheck } from './transaction.js'
import {
  type Assignments,
  type WritePermit,
  explicitTarget,
  locator,
  versioned,
} from './write-values.js'

/**
 * Commits the update of entity `key` of `table` with `values` alone, as a transaction of its own
 * would; returns the version written, or undefined (nothing done) when the write is not one this
 * path takes (see the module comment): the caller then writes it in a transaction. Nothing may be
 * open that the write should join (a transaction of the caller's process).
 */
export function updateAlone(
  store: Store,
  table: Table,
  key: KeyValue,
  values: Assignments,
  check: WriteCheck | undefined,
  locks: LockTable | undefined,
  permit: WritePermit | undefined,
): EntityRecord | undefined {
  const dc = table.def
  if (hasSetters(dc)) return undefined
  // Asked first, as a transaction's update asks it (transaction.ts).
  permit?.(dc, values, false)
  const before = table.recordByKey(key)
  if (before === undefined) return undefined
  if (check?.stamp !== undefined && check.stamp !== before.stamp) return undefined
  // A lock: whether the writer holds it is the transaction's to say (it looks the owner up).
  if (locks !== undefined && locks.holder(dc.name, key) !== undefined) return undefined
  const assignments: [string, StoredValue][] = []
  let where: ReturnType<typeof locator> | undefined
  for (const name in values) {
    if (!Object.hasOwn(values, name)) continue
    const raw = values[name]
    if (raw === undefined) continue
    const attr = dc.attributesByName.get(name)
    if (attr === undefined || attr.kind !== 'storage' || !plainAttribute(table, attr))
      return undefined
    const v = versioned(coerceAt(dc, attr, raw, (where ??= locator(dc, key))), attr, before)
    if (v === null && attr.notNull) return undefined
    assignments.push([name, v])
  }
  // A tracked dataclass's change is copied by the commit (its global stamp written into `after`):
  // its patches are made now, as the copy keeps own fields only.
  const tracked = dc.tracked
  const [next, patches] = nextValues(before.values, assignments, table.copyValues, tracked)
  const after = table.newVersion(before.rowId, key, before.stamp + 1, store.clock.now(), next)
  const change: CommittedChange = tracked
    ? { op: 'update', table, before, after, patches }
    : new UpdateAlone(table, before, after, assignments)
  store.commit([change])
  return after
}

/**
 * The change of an update committed alone, whose patches are made when read: the commit listeners
 * of a datastore (change history, entity sets, REST's cache) read `op`, `before` and `after`, and
 * a patch list of three objects for each update nobody reads was 7% of an update by key. They are
 * what the write's own call of nextValues would have given: the same call, on the same values.
 */
class UpdateAlone {
  readonly op = 'update'
  readonly table: Table
  readonly before: EntityRecord
  readonly after: EntityRecord
  readonly #assignments: readonly (readonly [string, StoredValue])[]
  #patches: readonly Patch[] | undefined

  constructor(
    table: Table,
    before: EntityRecord,
    after: EntityRecord,
    assignments: readonly (readonly [string, StoredValue])[],
  ) {
    this.table = table
    this.before = before
    this.after = after
    this.#assignments = assignments
  }

  get patches(): readonly Patch[] {
    return (this.#patches ??= nextValues(
      this.before.values,
      this.#assignments,
      this.table.copyValues,
    )[1])
  }
}

/**
 * Whether a write of `attr` needs nothing but its value coerced: not the key, the global stamp, a
 * unique attribute (claims) nor an explicit foreign key (a reference to check).
 */
const plainAttribute = (table: Table, attr: StorageAttributeDef): boolean =>
  attr !== table.def.key &&
  attr.unique !== true &&
  attr.name !== GLOBAL_STAMP &&
  explicitTarget(table.def, attr) === undefined
