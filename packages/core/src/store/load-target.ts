/**
 * @module What a data load reads of the store it loads into: its tables, its clock and its maker
 * of UUIDs. The store implements it (store.ts); the load (load-data.ts, row-reader.ts) names only
 * this, so that it need not import the store, which imports the load to run it.
 */
import type { Clock } from '../clock/clock.js'
import type { Table } from './table.js'

export interface LoadTarget {
  /** The time a load stamps its rows with. */
  readonly clock: Clock
  /** Generates ids for uuid keys. */
  readonly newUuid: () => string
  /** The table of dataclass `name`; throws DataClassNotFound (1800) if there is none. */
  table(name: string): Table
  /** The table of dataclass `name`, or undefined. */
  findTable(name: string): Table | undefined
}
