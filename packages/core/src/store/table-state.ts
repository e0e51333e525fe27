/**
 * @module A table's data at one moment (store snapshots, data-snapshot.ts), and the comparison of
 * a table's row slots with a state's that a restore starts with: which slots hold other records,
 * and which only look different, a row read since (its record made from the load's columns) on
 * one side and the same row still in columns on the other.
 *
 * Apart from the table (table.ts), which keeps the rows: the comparison reads two slot arrays and
 * nothing of the table's own, so it is a function over them, and the table puts back the rest.
 */
import type { IndexSetState } from '../indexes/index-set.js'
import type { EntityRecord } from './entity-record.js'
import { BaseRows } from './base-rows.js'
import type { KeyDirectory } from './key-directory.js'
import type { SlotArray } from './slot-array.js'
import type { RestoredSlot } from './table-columns.js'

/**
 * @internal A table's data at one moment, for store snapshots (data-snapshot.ts): copies of the
 * containers and indexes, never changed afterwards. The records themselves are shared, since
 * they are immutable.
 */
export interface TableState {
  readonly rows: SlotArray
  readonly byKey: KeyDirectory
  /** Undefined: the row-id order of the live rows. */
  readonly ordered: readonly number[] | undefined
  readonly orderedDirty: boolean
  readonly sequences: ReadonlyMap<string, number>
  readonly deletions: number
  readonly indexes: IndexSetState
}

/** What a table restoring its slots to a state's is given by `restoredSlots`. */
export interface RestoredSlots {
  /** The slots to hold from now on: a copy of the state's. */
  readonly rows: SlotArray
  /** The slots whose record changed, in row-id order (records made for this list alone). */
  readonly changed: RestoredSlot[]
}

/**
 * The slots `after` (a state's) gives a table whose slots are `before`: a copy of `after`, but
 * where a row is the same on both sides, one as a record and one in a load's columns, the record
 * (the same object is handed out as before). `names`: the storage attribute names; `forget(i)`:
 * the record the table made from the columns of row `i` is forgotten (the slot is that record
 * now, and would be found after it); `record(base, i)`: row `i`'s record made from `base`.
 */
export function restoredSlots(
  before: SlotArray,
  after: SlotArray,
  names: readonly string[],
  forget: (rowId: number) => void,
  record: (base: BaseRows, rowId: number) => EntityRecord,
): RestoredSlots {
  const rows = after.slice()
  const changed: RestoredSlot[] = []
  for (let i = 0, n = Math.max(before.length, after.length); i < n; i++) {
    const b = before.get(i)
    const a = after.get(i)
    if (b === a) continue
    // A row read since (its record made from the columns) is the row the state holds in
    // columns, or the other way round: no change, and the record stays.
    if (b instanceof BaseRows && a && !(a instanceof BaseRows) && b.holds(i, a, names)) {
      forget(i)
      continue
    }
    if (a instanceof BaseRows && b && !(b instanceof BaseRows) && a.holds(i, b, names)) {
      rows.set(i, b)
      continue
    }
    // Records made here for the change list only: the restored slot keeps the columns.
    changed.push({
      before: b instanceof BaseRows ? record(b, i) : b,
      after: a instanceof BaseRows ? record(a, i) : a,
    })
  }
  return { rows, changed }
}
