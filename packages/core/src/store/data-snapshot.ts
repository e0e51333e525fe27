/**
 * @module A store's data at one moment, to go back to it quickly: the test fixture's reset before
 * every test (issue 12). Records are immutable (a write makes a new version), so a snapshot shares
 * them and copies only what writes change in place: each table's row slots, key directory, key
 * order, sequences and indexes, and the global stamp.
 *
 * Restoring copies the snapshot's containers back (the snapshot stays as it was, so it can be
 * restored any number of times). A table that nothing changed since it was last captured or
 * restored is skipped. The records that differ are found by comparing slots by identity, and the
 * commit listeners are told of them as changes (deleted, inserted, updated), as they are of a data
 * load; like a load, a restore is not a modification: the global stamp goes back to the
 * snapshot's.
 *
 * The snapshot names what it needs of the store it was taken from, its clock and its identity, as
 * SnapshotSource: the store makes and restores snapshots (store.ts imports this file), so naming
 * the Store here made the two files import each other.
 */
import type { Clock } from '../clock/clock.js'
import type { Change } from './changes.js'
import type { Table } from './table.js'
import type { TableState } from './table-state.js'
import type { RestoredSlot } from './table-columns.js'

/**
 * @internal What a snapshot keeps of the store it was taken from (the Store, matched by shape):
 * its clock, to date the snapshot, and itself, so that only that store restores it.
 */
export interface SnapshotSource {
  readonly clock: Clock
}

/** What `ds.snapshot()` returns: opaque, restorable into the datastore it was taken from only. */
export class DataSnapshot {
  /** @internal */
  readonly store: SnapshotSource
  /** @internal */
  readonly globalStamp: number
  /** @internal */
  readonly tables: ReadonlyMap<Table, TableState>
  /** When it was taken, in epoch milliseconds on the datastore's clock. */
  readonly takenAt: number

  /** @internal Made by `Store.snapshot`. */
  constructor(store: SnapshotSource, globalStamp: number, tables: ReadonlyMap<Table, TableState>) {
    this.store = store
    this.globalStamp = globalStamp
    this.tables = tables
    this.takenAt = store.clock.now()
  }
}

/** The changes a restore made to `table`, in the shape commit listeners know. */
export function restoredChanges(table: Table, slots: readonly RestoredSlot[], out: Change[]): void {
  for (const { before, after } of slots) {
    // A slot reused under another key (row ids run again after an earlier restore) is not an
    // update: an update keeps its key.
    if (before && after && before.key === after.key)
      out.push({ op: 'update', table, before, after })
    else {
      if (before) out.push({ op: 'delete', table, before })
      if (after) out.push({ op: 'insert', table, record: after })
    }
  }
}
