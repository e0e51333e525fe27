/**
 * @module What a process reads of its own transaction, as 4D's process does: an entity it created,
 * saved or dropped in its open transaction is as it wrote it (null once dropped), read by key
 * (`dataClass.get`, a relation to one entity), by row id (a selection's members), and found by
 * every read over many rows (a query, `all()`, a relation to many, an ordering, an aggregate),
 * which read the table as the transaction sees it (txn/staged-table.ts). Other processes read the
 * committed data (docs/compat.md, Transactions).
 *
 * Each read asks `openTransactions` (a module binding) first: while no transaction is open
 * anywhere, nothing more is asked, and no read outside a transaction pays for any of this.
 */
import type { KeyValue } from '../../store/entity-record.js'
import { toKey } from '../../store/keys.js'
import type { Table } from '../../store/table.js'
import type { WrittenClass, WrittenEntity } from './written-class.js'
import { openTransactions, type Processes } from '../processes.js'

/**
 * The version of entity `key` of `dc` that the calling process's open transaction wrote (null: it
 * dropped it), or undefined when it wrote none (or has no transaction open).
 */
export function stagedEntity(dc: WrittenClass, key: unknown): WrittenEntity | null | undefined {
  const tx = dc.datastore.processes.openTransaction()
  if (tx === undefined) return undefined
  let stored: KeyValue
  try {
    stored = toKey(dc.def, key)
  } catch {
    // Not a key of the dataclass: `get` answers as it does outside a transaction.
    return undefined
  }
  // The table stores each version as its Entity (data-class.ts), and so does a transaction.
  return tx.staged(dc.table, stored) as WrittenEntity | null | undefined
}

/**
 * The version of row `rowId` of `dc` that the calling process's open transaction wrote (null: it
 * dropped it), or undefined when it wrote none (or has no transaction open).
 */
export function stagedRow(dc: WrittenClass, rowId: number): WrittenEntity | null | undefined {
  const tx = dc.datastore.processes.openTransaction()
  return tx?.stagedAt(dc.table, rowId) as WrittenEntity | null | undefined
}

/**
 * `table` as the calling process reads it: with its open transaction's writes over it when it
 * has staged some there (txn/staged-table.ts), else the table itself.
 */
export function tableAsSeen(processes: Processes, table: Table): Table {
  if (openTransactions === 0) return table
  return processes.openTransaction()?.view(table) ?? table
}

/** Whether the calling process reads `dc` through its transaction's writes (see `tableAsSeen`). */
export function seesOwnWrites(dc: WrittenClass): boolean {
  return openTransactions !== 0 && tableAsSeen(dc.datastore.processes, dc.table) !== dc.table
}
