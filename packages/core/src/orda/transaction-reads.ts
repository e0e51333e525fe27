/**
 * @module What a process reads of its own transaction: an entity it created, saved or dropped in
 * its open transaction, read by key (`dataClass.get`, and so a relation to one entity), is as it
 * wrote it (null once dropped). Only reads by key: a query, `all()`, a relation to many and a
 * selection's members are read from the committed data, where the transaction's writes are not
 * yet (docs/orda.md, DataStore).
 */
import type { KeyValue } from '../store/entity-record.js'
import { toKey } from '../store/keys.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'

/**
 * The version of entity `key` of `dc` that the calling process's open transaction wrote (null: it
 * dropped it), or undefined when it wrote none (or has no transaction open).
 */
export function stagedEntity(dc: DataClass, key: unknown): Entity | null | undefined {
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
  return tx.staged(dc.table, stored) as Entity | null | undefined
}
