/**
 * @module What the commit of a data load does beyond the commit of writes: the rows a load stored in
 * columns put in their tables, the highest change stamp the loads tracked, and the columns a load's
 * changes carry.
 */
import type { Change } from './changes.js'
import type { LoadedRows } from './load-data.js'
import { Table } from './table.js'
import { DELETED_FIELDS, DELETED_RECORDS, GLOBAL_STAMP } from '../schema/change-tracking.js'
import { BaseRows } from './base-rows.js'

// What a commit with no rows in columns stores from them.
export const NO_LOADS: readonly LoadedRows[] = Object.freeze([])

/**
 * Stores the rows of `base`, columns that a load (or a replay) wrote, in `table`, and notes the
 * highest autosequence values among them (the table's indexes in bulk, by the caller).
 */
export function storeLoaded(table: Table, base: BaseRows): void {
  for (let rowId = base.start; rowId < base.start + base.length; rowId++)
    table.insertIn(base, rowId)
  for (const name of table.autosequenced) {
    const highest = base.highest(table.positionOf(name)!)
    if (highest !== undefined) table.noteSequence(name, highest)
  }
}

/** The highest `__GlobalStamp` and `__Stamp` among loaded rows (0 for none). */
export function highestTracked(loads: readonly LoadedRows[]): number {
  let highest = 0
  for (const { table, base } of loads) {
    const name = table.def.tracked
      ? GLOBAL_STAMP
      : table.def.name === DELETED_RECORDS
        ? DELETED_FIELDS.stamp
        : undefined
    const position = name === undefined ? undefined : table.positionOf(name)
    if (position === undefined) continue
    highest = Math.max(highest, base.highest(position) ?? 0)
  }
  return highest
}

/** Notes `v`, an autosequence value `table` stores under `name`, if it is the highest so far. */
export function seen(
  sequences: Map<Table, Map<string, number>>,
  table: Table,
  name: string,
  v: unknown,
): void {
  if (typeof v !== 'number') return
  let values = sequences.get(table)
  if (!values) sequences.set(table, (values = new Map()))
  if (!(v <= values.get(name)!)) values.set(name, v)
}

/**
 * Per table, columns for the rows `changes` insert at new row ids (those of a load or a replay
 * follow each other). Other changes are not in columns, nor a replay's insert into a slot below
 * them (a restore puts a record back in its own slot): the columns would span the table up to it.
 */
export function loadColumns(changes: readonly Change[]): Map<Table, BaseRows> {
  const span = new Map<Table, { first: number; last: number }>()
  for (const c of changes) {
    if (c.op !== 'insert') continue
    const rowId = c.record.rowId
    if (rowId < c.table.nextRowId) continue
    const s = span.get(c.table)
    if (!s) span.set(c.table, { first: rowId, last: rowId })
    else {
      if (rowId < s.first) s.first = rowId
      if (rowId > s.last) s.last = rowId
    }
  }
  const out = new Map<Table, BaseRows>()
  for (const [table, { first, last }] of span)
    out.set(table, new BaseRows(table.def, first, last - first + 1))
  return out
}
