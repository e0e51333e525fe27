/**
 * @module A row read where its data load left it, with no entity made: what a REST read that only
 * writes rows out asks (rest's column-writer.ts). A read by key of a random row spent more on
 * making the row's record, values object and Entity, and on keeping them among the table's recent
 * records, than on writing it.
 *
 * Both answer as `get` and `entityAt` read, or not at all: while a transaction is open anywhere,
 * the calling process reads its own writes first, which only they know, so these give undefined
 * and the caller reads the entity.
 */
import type { LoadedColumns } from '../../store/base-rows.js'
import type { Table } from '../../store/table.js'
import { KeyLookup } from '../members/key-lookup.js'
import { openTransactions } from '../processes.js'
import { needRead } from '../restrict/access-checks.js'
import type { DataClass } from './data-class.js'

// One lookup a table, as each DataClass keeps its own (the table's key directory, its key type).
const lookups = new WeakMap<Table, KeyLookup>()

/**
 * @internal The row `dc.get(key)` reads, or -1 when it finds none (or `restrict` hides it); a key
 * its type refuses throws as `get` throws. Undefined while a transaction is open anywhere.
 */
export function rowIdOf(dc: DataClass, key: unknown): number | undefined {
  needRead(dc)
  if (openTransactions !== 0) return undefined
  let lookup = lookups.get(dc.table)
  if (lookup === undefined) lookups.set(dc.table, (lookup = new KeyLookup(dc.table)))
  return lookup.rowIdOf(dc, key)
}

/**
 * @internal The columns of the load that stored row `rowId` of `dc` when `dc.entityAt(rowId)`
 * reads the row as they hold it: the row never written since its load, and no transaction open
 * anywhere. Undefined otherwise.
 */
export function loadedColumnsOf(dc: DataClass, rowId: number): LoadedColumns | undefined {
  return openTransactions === 0 ? dc.table.loadedColumns(rowId) : undefined
}
