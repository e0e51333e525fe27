/**
 * @module What an index set is made of and reads: an attribute's entry (its hash and sorted
 * indexes), the kinds asked for, the records and the source of rows a build reads, and the sizes of
 * a build's slices.
 */
import type { StorageAttributeDef } from '../schema/definitions.js'
import { HashIndex } from './hash-index.js'
import type { KeyComparer } from './hash-key.js'
import { SortedIndex } from './sorted-index.js'

/**
 * What an index reads of a stored record: its row id and its values by attribute name. The index
 * layer owns this shape; the store's records are of it.
 */
export interface IndexedRecord {
  readonly rowId: number
  readonly values: Readonly<Record<string, unknown>>
}

/**
 * Every live row, for a build: its row ids and a reader of each attribute by row id. The table is
 * one; reading through it makes no record for a row kept in columns.
 */
export interface IndexSource {
  liveRowIds(): readonly number[]
  reader(name: string): (rowId: number) => unknown
  /** Compares a row's text of `name` with a lazy key where it is stored (see KeyComparer). */
  comparer?(name: string): KeyComparer
  /** Whether row `rowId` is live (a build in slices reads the rows by row id). */
  has(rowId: number): boolean
  /** One past the highest row id a row may have now. */
  readonly nextRowId: number
  /**
   * Makes the rows' key order (every live row id in primary-key order) in slices while `more()`
   * says so; true once it is made. What a read waits for when the key's "index" is named by
   * IndexBuilding: see Table.orderedRowIds.
   */
  prepareOrder(more: More): boolean
  /** Whether the key order is there to take at once. */
  orderReady(): boolean
}

/** Asked by a build in slices between two chunks of its work: whether it may go on. */
export type More = () => boolean

/** The sizes of a build's slices, in entries (see IndexSet.buildSlices). */
export interface BuildSlices {
  /** Rows read, or keys copied or merged, between two questions to `more` (≈0.1-0.5 ms). */
  readonly read: number
  /** Keys a run of the sort holds (sliced-sort.ts). @default by the keys: RUN or TEXT_RUN */
  readonly run?: number
  /** Changes applied to a sorted index between two questions (each a memmove of its tail). */
  readonly delta: number
  /** Slots of a hash index moved to its larger table between two questions (HashIndex.prepare). */
  readonly grow: number
}

export interface AttributeIndexes {
  readonly attribute: StorageAttributeDef
  hash: HashIndex | undefined
  sorted: SortedIndex | undefined
}

export type IndexKind = 'hash' | 'sorted' | 'auto'

export const foldsOf = (attr: StorageAttributeDef): boolean => attr.type === 'string'
