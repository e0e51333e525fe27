/**
 * @module The primary-key order of a table's live rows, kept through every insert and delete. While
 * keys come in growing order (autosequences, ids exported in order) it is the row-id order, and no
 * array of it is kept; otherwise it is an array, sorted once when a read asks after a change that
 * broke it. A large order is made in slices for readers that refuse builds in one piece.
 */
import type { More } from '../indexes/index-entry.js'
import { buildsRefused, refuseBuild } from '../indexes/build-refusal.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { EntityRecord, KeyValue } from './entity-record.js'
import { rowIdBuffer } from '../parallel/shared-arrays.js'
import { compactRowIds, isCompact, rowIdArray, type RowIds } from '../sets/row-ids.js'

/** What the key order reads of its table. */
export interface KeyedRows {
  readonly def: DataClassDef
  /** The number of live rows. */
  size(): number
  /** The row slots (their number, and which are live). */
  slots(): { readonly length: number; has(rowId: number): boolean }
  keyOf(rowId: number): KeyValue | undefined
  /** Live row ids in row-id order. */
  liveRowIds(): number[]
  /** Live row ids in the key directory's order. */
  keyed(): Iterable<number>
}

export class KeyOrder {
  readonly #table: KeyedRows
  // Row ids in key order, or undefined while the key order is the row-id order of the live rows:
  // appends with growing keys (autosequence, ids exported in order) and deletes keep it so, with
  // no array of a number a row for every full garbage collection to mark (100 MB at 10M rows; see
  // slot-array.ts). A read then makes the array (#orderedCache). Anything else gives an array;
  // marked dirty, the next read sorts once, and an order found to be the row-id order goes back.
  #ordered: number[] | undefined
  #orderedDirty = false
  // True once `#ordered` was handed out (selections keep it as their snapshot): the next append
  // copies it first, so a selection made before an insert does not grow.
  #orderedShared = false
  // The last array made while the order is the row-id order, for as long as a selection keeps it
  // and no row came or went (#orderedVersion counts those).
  #orderedCache: WeakRef<RowIds> | undefined
  #orderedCacheVersion = -1
  #orderedVersion = 0
  // The key order being made in slices (prepareOrder), from row id 0 to `next`, for the version of
  // the rows it began with; then held strongly until a read takes it (the WeakRef alone could lose
  // it to a collection before the read that waited for it runs again).
  #orderBuild:
    { readonly out: Int32Array; length: number; next: number; readonly version: number } | undefined
  #orderRestarts = 0
  #prepared: RowIds | undefined
  // `#ordered` as an Int32Array (typedOrder), for as long as an entity set holds it: `of` is the
  // array it copies, weakly, so that a copy is made once while that array is the key order.
  #typedOrdered:
    { readonly of: WeakRef<readonly number[]>; readonly rows: WeakRef<Int32Array> } | undefined

  constructor(table: KeyedRows) {
    this.#table = table
  }

  /**
   * Whether the primary-key order of the live rows is their row-id order now (keys appended in
   * growing order: autosequences, ids exported in order), known without sorting anything.
   */
  get isRowOrder(): boolean {
    return this.#ordered === undefined && !this.#orderedDirty
  }

  /**
   * Live row ids in primary-key order. The list is shared: do not modify it. An Int32Array when
   * prepareOrder made it (row-ids.ts says why).
   */
  rowIds(): RowIds {
    if (this.#orderedDirty) {
      const sorted = [...this.#table.keyed()].sort((a, b) =>
        compareKeys(this.#table.keyOf(a)!, this.#table.keyOf(b)!),
      )
      this.#orderedDirty = false
      if (!ascending(sorted)) this.#ordered = sorted
      else {
        this.#ordered = undefined
        this.#cacheOrder(sorted)
        return sorted
      }
    }
    if (this.#ordered === undefined) {
      const cached = this.#cachedOrder()
      this.#prepared = undefined
      if (cached !== undefined) return cached
      // Every row id of a large table at once holds the event loop (334 ms for 10M rows, measured
      // under a clone): where builds are refused, the caller waits for prepareOrder in slices.
      if (this.#table.size() > ORDER_AT_ONCE && buildsRefused())
        refuseBuild(this.#table.def.name, this.#table.def.key.name)
      return this.#cacheOrder(this.#table.liveRowIds())
    }
    this.#orderedShared = true
    return this.#ordered
  }

  /**
   * Makes the key order that orderedRowIds gives, in slices of ORDER_PIECE rows while `more()`
   * says so; true once it is there. Only the order of row ids is made so: an order kept as an
   * array (keys not created in ascending order) is there already. Rows that come or go between two
   * slices start it again, and after ORDER_RESTARTS starts it is finished in one piece, so that a
   * steady flow of creates cannot keep a reader waiting for good.
   */
  prepare(more: More): boolean {
    if (this.ready()) return true
    let build = this.#orderBuild
    if (build !== undefined && build.version !== this.#orderedVersion) {
      build = undefined
      this.#orderRestarts++
    }
    if (build === undefined) {
      // Sized at once (grown by pushes, it would be copied whole at each doubling), and typed, so
      // that its memory comes in as the slices write it, not all in this turn (row-ids.ts); shared,
      // so that a worker thread reads it as it is (`$distinct`, set algebra of every row).
      const out = rowIdBuffer(this.#table.size())
      build = this.#orderBuild = { out, length: 0, next: 0, version: this.#orderedVersion }
    }
    const rows = this.#table.slots()
    const end = rows.length
    const restarted = this.#orderRestarts > ORDER_RESTARTS
    while (build.next < end) {
      const stop = restarted ? end : Math.min(end, build.next + ORDER_PIECE)
      const out = build.out
      let length = build.length
      for (let i = build.next; i < stop; i++) if (rows.has(i)) out[length++] = i
      build.length = length
      build.next = stop
      if (stop < end && !more()) return false
    }
    this.#orderBuild = undefined
    this.#orderRestarts = 0
    const out = build.length === build.out.length ? build.out : build.out.subarray(0, build.length)
    this.#prepared = this.#cacheOrder(out)
    return true
  }

  /** Whether orderedRowIds would answer at once, not making the whole order in one piece. */
  ready(): boolean {
    return (
      this.#ordered !== undefined ||
      this.#orderedDirty ||
      this.#table.size() <= ORDER_AT_ONCE ||
      this.#cachedOrder() !== undefined
    )
  }

  /** Whether `rows` is the array `orderedRowIds()` would give now (a selection of every row). */
  isRowIds(rows: RowIds): boolean {
    if (rows.length !== this.#table.size()) return false
    if (this.#ordered === undefined) return rows === this.#cachedOrder()
    if (this.#orderedDirty) return false
    if (rows === this.#ordered) return true
    // Its typed copy, that entity sets of every row keep (typedOrder).
    const made = this.#typedOrdered
    return made !== undefined && made.of.deref() === this.#ordered && rows === made.rows.deref()
  }

  /**
   * `rows` as an Int32Array alone in its buffer when it is the key order `orderedRowIds` gives now
   * (a selection of every row), else undefined: what an entity set of every row keeps, one copy
   * for every such set while no row comes or goes, as they all held the one array before. While
   * the key order is the row-id order the copy becomes that order (`orderedRowIds` hands it out
   * from now on); an order kept as an array gets a copy made once, for as long as a set holds it.
   */
  typed(rows: RowIds): Int32Array | undefined {
    if (!this.isRowIds(rows)) return undefined
    if (rows instanceof Int32Array && isCompact(rows)) return rows
    if (this.#ordered === undefined) return this.#cacheOrder(compactRowIds(rows))
    const made = this.#typedOrdered
    let typed = made?.of.deref() === rows ? made.rows.deref() : undefined
    if (typed === undefined) {
      typed = compactRowIds(rows)
      this.#typedOrdered = { of: new WeakRef(this.#ordered), rows: new WeakRef(typed) }
    }
    return typed
  }

  #cachedOrder(): RowIds | undefined {
    return this.#orderedCacheVersion === this.#orderedVersion
      ? this.#orderedCache?.deref()
      : undefined
  }

  #cacheOrder<R extends RowIds>(rows: R): R {
    this.#orderedCache = new WeakRef(rows)
    this.#orderedCacheVersion = this.#orderedVersion
    return rows
  }

  /**
   * The key order a view of the table keeps (store-view.ts): undefined when it is the row-id
   * order, or when it needs a sort of more than `sortUpTo` rows (the view then reads row-id order).
   */
  forView(sortUpTo: number): readonly number[] | undefined {
    return this.#ordered === undefined
      ? undefined
      : !this.#orderedDirty || this.#table.size() <= sortUpTo
        ? rowIdArray(this.rowIds())
        : undefined
  }

  /** Row `rowId`, of key `key`, was just placed (inserted, or put back by a revert). */
  placed(rowId: number, key: KeyValue): void {
    if (this.#orderedDirty) return
    if (this.#ordered === undefined) {
      this.#orderedVersion++
      if (!this.#inRowOrder(rowId, key)) {
        this.#ordered = []
        this.#orderedDirty = true
      }
      return
    }
    const last = this.#ordered[this.#ordered.length - 1]
    if (last === undefined || compareKeys(this.#table.keyOf(last)!, key) < 0) {
      if (this.#orderedShared) {
        this.#ordered = this.#ordered.slice()
        this.#orderedShared = false
      }
      this.#ordered.push(rowId)
    } else this.#orderedDirty = true
  }

  /** `record` is being deleted. */
  deleted(record: EntityRecord): void {
    if (this.#ordered === undefined) this.#orderedVersion++
    else if (!this.#orderedDirty) this.#unorder(record)
  }

  /** Rows came or went outside an insert or a delete (a rewind): what was made is stale. */
  rowsChanged(): void {
    this.#orderedVersion++
  }

  /** The order as a table state keeps it (Table.captureState). */
  capture(): { ordered: readonly number[] | undefined; orderedDirty: boolean } {
    return { ordered: this.#ordered?.slice(), orderedDirty: this.#orderedDirty }
  }

  /** Puts back the order of a captured state (Table.restoreState). */
  restore(state: {
    readonly ordered: readonly number[] | undefined
    readonly orderedDirty: boolean
  }): void {
    this.#ordered =
      state.ordered === undefined || (!state.orderedDirty && ascending(state.ordered))
        ? undefined
        : state.ordered.slice()
    this.#orderedDirty = this.#ordered !== undefined && state.orderedDirty
    this.#orderedShared = false
    this.#orderedVersion++
  }

  // Takes a deleted record out of the key order: found by its key (the order is by key), then one
  // move of the tail. Marking the order dirty instead made the next read of the whole dataclass
  // sort every key again (about 50 ms at 200k rows) after a single delete.
  #unorder(record: EntityRecord): void {
    let ordered = this.#ordered!
    let lo = 0
    let hi = ordered.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareKeys(this.#table.keyOf(ordered[mid]!)!, record.key) < 0) lo = mid + 1
      else hi = mid
    }
    if (ordered[lo] !== record.rowId) {
      this.#orderedDirty = true
      return
    }
    if (this.#orderedShared) {
      this.#ordered = ordered = ordered.slice()
      this.#orderedShared = false
    }
    ordered.splice(lo, 1)
  }

  // Whether the key order stays the row-id order with row `rowId` (key `key`, just placed): no
  // live row after it, and the live row before it has a lower key. A long run of deleted rows
  // before it, or of slots after it (more than ORDER_LOOKBACK), gives up: the next read sorts.
  #inRowOrder(rowId: number, key: KeyValue): boolean {
    const rows = this.#table.slots()
    if (rows.length - 1 - rowId > ORDER_LOOKBACK) return false
    for (let i = rows.length - 1; i > rowId; i--) if (rows.has(i)) return false
    for (let i = rowId - 1, seen = 0; i >= 0; i--, seen++) {
      if (seen >= ORDER_LOOKBACK) return false
      if (rows.has(i)) return compareKeys(this.#table.keyOf(i)!, key) < 0
    }
    return true
  }
}

// Up to how many rows orderedRowIds makes the row-id order at once (a few ms); past it, a reader
// that refuses builds waits for prepareOrder. Rows read between two questions to `more()`, and how
// many times a build restarts (rows came or went) before it is finished in one piece.
const ORDER_AT_ONCE = 1 << 16
const ORDER_PIECE = 1 << 16
const ORDER_RESTARTS = 3

// Deleted rows #inRowOrder steps over to find the live row before a new one.
const ORDER_LOOKBACK = 64

const ascending = (ids: readonly number[]): boolean => {
  for (let i = 1; i < ids.length; i++) if (ids[i]! <= ids[i - 1]!) return false
  return true
}

/** The order of primary keys: numbers or texts, compared as they are (no folding). */
export const compareKeys = (a: KeyValue, b: KeyValue): number => (a < b ? -1 : a > b ? 1 : 0)
