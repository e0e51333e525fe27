/**
 * @module The rows of one entity selection: held as given (an IN's buckets lent by its hash index
 * stay deferred until something reads the ids rather than their count), put in order on demand
 * (only as many as are read: a page of a large ordered selection sorts a prefix), and, for an
 * alterable selection (4D's), appended to in place by `add()`. The EntitySelection holds one and
 * answers its members from it; it takes the dataclass by what it reads of it (its name and table
 * for the ordering's work, its datastore's default), which DataClass has.
 */
import { refreshTaken, type Ordering } from '../../query/order.js'
import { sliceable } from '../../query/slices.js'
import {
  copyRowIds,
  DeferredRowIds,
  settledRowIds,
  type RowIds,
  type SelectionRowIds,
} from '../../sets/row-ids.js'
import type { Table } from '../../store/table.js'
import type { SelectionTraits } from './selection-traits.js'

/** A dataclass as its selections' rows read it. */
export interface RowsClass {
  readonly name: string
  readonly table: Table
  readonly datastore: { readonly selectionsAlterable: boolean }
}

export class SelectionRows {
  readonly #dc: RowsClass
  // Replaced (never changed in place once read) by `add()` on an alterable selection. Deferred
  // (an IN's buckets lent by its hash index) until something reads the ids (#rows) rather than
  // their count: a selection only counted copies none.
  #held: SelectionRowIds
  readonly #ordering: Ordering | undefined
  // The rows put in order so far: a prefix of the final order, complete once its length is #rows'.
  #ordered: RowIds | undefined
  #keepsOrder: boolean
  readonly #alterable: boolean
  // Whether #rows of an alterable selection was handed out: `add()` then appends to a copy.
  #handedOut = false

  /**
   * The rows of a selection of `dc`; `rowIds` must not be modified afterwards. With an `ordering`,
   * `rowIds` may be in any order: they are ordered on demand. An alterable selection takes its rows
   * in order (no `ordering`) and keeps a copy of its own.
   */
  constructor(
    dc: RowsClass,
    rowIds: SelectionRowIds,
    ordering: Ordering | undefined,
    traits: SelectionTraits | undefined,
  ) {
    this.#dc = dc
    // After `ds.makeSelectionsAlterable()`, alterable unless made shareable: in the order given
    // (an alterable selection keeps its rows in order).
    const byDefault = traits?.alterable === undefined && dc.datastore.selectionsAlterable
    if (byDefault && ordering !== undefined && rowIds.length > 1)
      rowIds = ordering.take(settledRowIds(rowIds), rowIds.length)
    this.#alterable = traits?.alterable ?? byDefault
    this.#keepsOrder = traits?.ordered === true
    this.#held = this.#alterable ? copyRowIds(settledRowIds(rowIds)) : rowIds
    // Zero or one row is in order whatever the ordering.
    this.#ordering = rowIds.length > 1 && !this.#alterable ? ordering : undefined
    this.#ordered = this.#ordering ? undefined : this.rows
  }

  /** How many rows, deleted entities' included. */
  get length(): number {
    return this.#held.length
  }

  get alterable(): boolean {
    return this.#alterable
  }

  /** Whether the selection is one of 4D's ordered ones (see `isOrdered()`). */
  get keepsOrder(): boolean {
    return this.#keepsOrder
  }

  /** The row ids in no particular order, made now if they were deferred; not handed out. */
  get rows(): RowIds {
    const held = this.#held
    return held instanceof DeferredRowIds ? (this.#held = held.ids) : held
  }

  /** The row ids in order (all ordered if needed), handed out. */
  inOrder(): RowIds {
    if (this.#alterable) this.#handedOut = true
    return this.prefix(this.#held.length)
  }

  /** The row ids in no particular order (no sorting), handed out. */
  unordered(): RowIds {
    if (this.#alterable) this.#handedOut = true
    return this.rows
  }

  /**
   * The first `count` rows in order; asks for at least twice the previous prefix so that reading a
   * selection page by page costs O(n log n) in all, not a selection per page.
   */
  prefix(count: number): RowIds {
    const have = this.#ordered
    if (have && (have.length >= count || have.length === this.#held.length)) return have
    const want = Math.min(this.#held.length, Math.max(count, 2 * (have?.length ?? 0)))
    const ordering = this.#ordering!
    const rows = this.rows
    // A top-k over many rows goes in slices when the request runs in a slice scope.
    this.#ordered = ordering.work
      ? sliceable(
          `order ${this.#dc.name} ${want}`,
          () => ordering.work!(rows, want),
          refreshTaken(ordering, this.#dc.table, rows, want),
        )
      : ordering.take(rows, want)
    return this.#ordered
  }

  /**
   * The rows of the part starting at `skip` with at most `top` of them, in order (only the rows up
   * to its end are ordered); undefined when it is the whole selection as it is.
   */
  window(skip: number, top: number): RowIds | undefined {
    if (skip === 0 && top >= this.#held.length && !this.#ordering && !this.#alterable)
      return undefined
    const end = Math.min(this.#held.length, skip + top)
    return skip >= end ? [] : this.prefix(end).slice(skip, end)
  }

  /** `add()` of a selection's rows: at the end; the selection becomes ordered. */
  addAll(rows: RowIds): void {
    this.#keepsOrder = true
    this.#append(rows)
  }

  /** `add()` of one entity's row: at the end of an ordered selection, not again to an unordered one. */
  addOne(rowId: number): void {
    if (this.#keepsOrder || this.rows.indexOf(rowId) < 0) this.#append([rowId])
  }

  #append(rows: RowIds): void {
    // What was handed out keeps its rows: appending goes to a copy then.
    const mine = (this.#handedOut ? copyRowIds(this.rows) : this.rows) as number[]
    for (let i = 0; i < rows.length; i++) mine.push(rows[i]!)
    this.#held = this.#ordered = mine
    this.#handedOut = false
  }
}
