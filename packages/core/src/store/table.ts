/**
 * @module The rows of one dataclass: records by row id, the primary-key map, key order and
 * sequences. Reads are open to all; the mutators are called only by the datastore's commit, the
 * single place where data changes (so that stamps, indexes and later journals stay in step).
 *
 * The slots and how they are read are the base class's (table-rows.ts); a table's data at one
 * moment and the comparison of slots a restore starts with, table-state.ts's.
 */
import { IndexSet } from '../indexes/index-set.js'
import type { More } from '../indexes/index-entry.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { EntityRecord, KeyValue } from './entity-record.js'
import type { FoldedTexts } from './folded-column.js'
import type { BaseRows } from './base-rows.js'
import { KeyDirectory } from './key-directory.js'
import type { Slot } from './slot-array.js'
import type { RowIds } from '../sets/row-ids.js'
import { SORT_AT_OPEN, TableView } from './table-view.js'
import { KeyOrder } from './key-order.js'
import { TableColumns, type RestoredSlot } from './table-columns.js'
import { restoredSlots, type TableState } from './table-state.js'
import { TableRows } from './table-rows.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to key-order.js once that lands.
export { compareKeys } from './key-order.js'

/**
 * What a row slot holds: the current record; the columns of the load that stored the row, until
 * the row is first read as a record or written (base-rows.ts); undefined once deleted.
 */
export type { Slot }

export class Table extends TableRows {
  // Key → row id. (It held the record itself, one memory read fewer on `get`; a row kept in
  // columns has none until it is read.)
  readonly #byKey = new KeyDirectory()
  // The live rows' primary-key order (key-order.ts), kept by the mutators.
  readonly #order: KeyOrder
  readonly #sequences = new Map<string, number>()
  // Its numeric and folded columns (table-columns.ts), kept by the mutators.
  readonly #columns: TableColumns
  #deletions = 0
  // The views open on this table (table-view.ts): each mutator tells them before it writes a slot.
  readonly #views = new Set<TableView>()
  // The state this table was last captured as or restored to, the index version then, and whether
  // a mutator ran since. Restoring that state again has nothing to do when none did, and keeps the
  // index entries (their content copied back) when only writes did (see IndexSet.restore).
  #base: TableState | undefined
  #baseIndexVersion = -1
  #written = false
  /** The indexes, updated by every mutator below. */
  readonly indexes: IndexSet
  /** The autosequence storage attributes (a commit advances their sequences). */
  readonly autosequenced: readonly string[]

  /** `runBuild`: how its indexes run a build on first use (IndexSet's constructor). */
  constructor(def: DataClassDef, runBuild?: (build: () => void) => void) {
    super(def)
    this.indexes = new IndexSet(def, this, runBuild)
    this.#order = new KeyOrder({
      def,
      size: () => this.size,
      slots: () => this.slots,
      keyOf: (rowId) => this.keyOf(rowId),
      liveRowIds: () => this.liveRowIds(),
      keyed: () => this.#byKey.values(),
    })
    this.#columns = new TableColumns(
      def,
      () => this.slots.length,
      (name) => this.reader(name),
    )
    // A text autosequence makes UUIDs (generatedBy): no sequence of its own.
    this.autosequenced = def.storage
      .filter((a) => a.autosequence && a.type !== 'string')
      .map((a) => a.name)
  }

  /** How many entities were ever deleted (row ids are never reused, so 0 means every slot is live). */
  get deletions(): number {
    return this.#deletions
  }

  /** Number of live entities. */
  get size(): number {
    return this.#byKey.size
  }

  /**
   * Makes room for `rows` more rows (a load's commit, before storing them): its slots, and its
   * key directory for keys up to the rows it will hold, so that neither is copied whole as it grows.
   */
  reserve(rows: number): void {
    this.slots.reserve(this.slots.length + rows)
    this.#byKey.reserve(this.size + rows + 1)
  }

  /**
   * @internal Takes the next row id for a row that a transaction open across awaits may insert
   * later: its slot stays empty (counted as a deletion) until that commit fills it, so that no
   * write committed meanwhile takes the same row id. Never filled, it stays a hole, as a row id a
   * transaction claimed for an entity it made and dropped.
   */
  reserveRowId(): number {
    const rowId = this.slots.length
    this.#written = true
    this.slots.length = rowId + 1
    this.#deletions++
    return rowId
  }

  rowIdOf(key: KeyValue): number | undefined {
    return this.#byKey.get(key)
  }

  recordByKey(key: KeyValue): EntityRecord | undefined {
    const rowId = this.#byKey.get(key)
    return rowId === undefined ? undefined : this.record(rowId)
  }

  /** @internal Key → row id, for the hottest reads (`get`). Do not modify. */
  get byKey(): Pick<KeyDirectory, 'get'> {
    return this.#byKey
  }

  /**
   * Whether the primary-key order of the live rows is their row-id order now (keys appended in
   * growing order: autosequences, ids exported in order), known without sorting anything.
   */
  get keyOrderIsRowOrder(): boolean {
    return this.#order.isRowOrder
  }

  /**
   * Live row ids in primary-key order. The list is shared: do not modify it. An Int32Array when
   * prepareOrder made it (row-ids.ts says why).
   */
  orderedRowIds(): RowIds {
    return this.#order.rowIds()
  }

  /**
   * Makes the key order that orderedRowIds gives, in slices of ORDER_PIECE rows while `more()`
   * says so; true once it is there. Only the order of row ids is made so: an order kept as an
   * array (keys not created in ascending order) is there already. Rows that come or go between two
   * slices start it again, and after ORDER_RESTARTS starts it is finished in one piece, so that a
   * steady flow of creates cannot keep a reader waiting for good.
   */
  prepareOrder(more: More): boolean {
    return this.#order.prepare(more)
  }

  /** Whether orderedRowIds would answer at once, not making the whole order in one piece. */
  orderReady(): boolean {
    return this.#order.ready()
  }

  /** Whether `rows` is the array `orderedRowIds()` would give now (a selection of every row). */
  isOrderedRowIds(rows: RowIds): boolean {
    return this.#order.isRowIds(rows)
  }

  /**
   * `rows` as an Int32Array alone in its buffer when it is the key order `orderedRowIds` gives now
   * (a selection of every row), else undefined: what an entity set of every row keeps, one copy
   * for every such set while no row comes or goes, as they all held the one array before. While
   * the key order is the row-id order the copy becomes that order (`orderedRowIds` hands it out
   * from now on); an order kept as an array gets a copy made once, for as long as a set holds it.
   */
  typedOrder(rows: RowIds): Int32Array | undefined {
    return this.#order.typed(rows)
  }

  /** The value the next autosequence of `attribute` will take, without consuming it. */
  peekSequence(attribute: string): number {
    return (this.#sequences.get(attribute) ?? 0) + 1
  }

  /** Records that `value` was used by `attribute`, so sequences continue after it. */
  noteSequence(attribute: string, value: number): void {
    if (value > (this.#sequences.get(attribute) ?? 0)) this.#sequences.set(attribute, value)
  }

  /**
   * @internal Sets the last value used by `attribute` (0: none), lower than now included: a
   * change log's replay of a restore moves sequences back (store commit only).
   */
  resetSequence(attribute: string, value: number): void {
    this.#written = true
    if (value > 0) this.#sequences.set(attribute, value)
    else this.#sequences.delete(attribute)
  }

  /**
   * The values of the numeric storage attribute `name` by row id, NaN for null (and for deleted
   * rows): made on first use, then kept up to date by every write. Do not modify.
   */
  numericColumn(name: string): Float64Array {
    return this.#columns.numeric(name)
  }

  /**
   * @internal Makes the numeric or folded column of `name` (see `numericColumn`, `foldedColumn`)
   * `rows` rows a step: a generator yielding the rows each step read, for work in slices
   * (query/slices.ts), where a first scan of 10M rows made its column in one piece. The column is
   * kept by writes from its first step; asked for before the last one, the rest is made at once.
   */
  columnSteps(name: string, kind: 'numeric' | 'folded', rows: number): Generator<number> {
    return this.#columns.steps(name, kind, rows)
  }

  /**
   * The values of the text storage attribute `name` by row id, folded (null for null and deleted
   * rows): made on first use, then kept up to date by every write. Do not modify.
   */
  foldedColumn(name: string): FoldedTexts {
    return this.#columns.folded(name)
  }

  /**
   * A consistent view of this table as it is now (table-view.ts), in O(1) but for a key order
   * that needs a sort (sorted now up to `sortUpTo` rows, else read in row-id order). A key order
   * that is the row-id order is read as such, the key order array not shared.
   */
  openView(sortUpTo = SORT_AT_OPEN): TableView {
    // Row-id order (undefined) when it is the key order, or when the key order needs a sort of
    // more than `sortUpTo` rows.
    const ordered = this.#order.forView(sortUpTo)
    const view: TableView = new TableView({
      def: this.def,
      rows: this.slots,
      ordered,
      size: this.size,
      sequences: new Map(this.#sequences),
      autosequenced: this.autosequenced,
      rowIdOf: (key) => this.#byKey.get(key),
      positionOf: (name) => this.positionOf(name),
      close: () => this.#views.delete(view),
    })
    this.#views.add(view)
    return view
  }

  // Slot `rowId` of the current rows is about to be written in place: the open views keep it.
  #preserve(rowId: number): void {
    for (const view of this.#views) view.preserve(this.slots, rowId)
  }

  // ---- mutators: datastore commit only ----

  /**
   * @internal Stores a new row: as its record, or, given `base` (a data load's columns, which
   * cover the row), in those columns, with no record kept.
   */
  insert(given: EntityRecord, base?: BaseRows): void {
    let record = given
    if (base) base.set(given, this.names)
    else record = this.versionOf(given)
    this.#place(record.rowId, record.key, base ?? record, record)
  }

  /**
   * @internal Stores row `rowId`, which a data load wrote into `base` (the load's commit, in
   * store.ts): no record is made unless an index or a column follows inserts now.
   */
  insertIn(base: BaseRows, rowId: number): void {
    const follows = this.indexes.followsInserts || this.#columns.any
    this.#place(rowId, base.key(rowId), base, follows ? this.recordIn(base, rowId) : undefined)
  }

  // Puts a new row in `slot` and in the key directory and key order; `record` (the row's values)
  // for the indexes and columns, unless none follows inserts.
  #place(rowId: number, key: KeyValue, slot: Slot, record: EntityRecord | undefined): void {
    this.#written = true
    // Row ids a transaction claimed but never used (an entity made and dropped in it) leave
    // slots that were never filled: counted as deletions, so that 0 still means "no holes".
    if (rowId > this.slots.length) this.#deletions += rowId - this.slots.length
    // An empty slot below the end (reserved by `reserveRowId`, or a deleted row a revert puts
    // back) was counted as a deletion: it is one no longer.
    else if (rowId < this.slots.length && !this.slots.has(rowId)) this.#deletions--
    if (this.#views.size) this.#preserve(rowId)
    this.made.delete(rowId)
    this.slots.set(rowId, slot)
    this.#byKey.set(key, rowId)
    if (record) {
      this.indexes.insert(record)
      if (this.#columns.any) this.#columns.set(record)
    }
    this.#order.placed(rowId, key)
  }

  /** @internal The key of a record never changes (4D forbids editing a primary key). */
  replace(given: EntityRecord): void {
    this.#written = true
    const record = this.versionOf(given)
    const before = this.record(record.rowId)!
    if (this.#views.size) this.#preserve(record.rowId)
    this.made.delete(record.rowId)
    this.slots.set(record.rowId, record)
    this.indexes.update(before, record)
    if (this.#columns.any) this.#columns.set(record, before)
  }

  /** @internal */
  delete(rowId: number): void {
    const record = this.record(rowId)
    if (!record) return
    this.#written = true
    this.#order.deleted(record)
    if (this.#views.size) {
      this.#preserve(rowId)
      for (const view of this.#views) view.removed(record.key, rowId)
    }
    this.made.delete(rowId)
    this.slots.set(rowId, undefined)
    this.#deletions++
    this.#byKey.delete(record.key)
    this.indexes.delete(record)
    this.#columns.clear(rowId)
  }

  /**
   * @internal Gives back the row ids and the deletion count as they were before commits that
   * revert.ts has just undone: the slots from `nextRowId` on are empty again (the undo deleted the
   * rows the commits inserted), so the next insert takes the row id it would have taken. (Past a
   * restore, which can shorten the rows, the slots up to `nextRowId` come back as deleted ones.)
   */
  rewind(nextRowId: number, deletions: number): void {
    for (let i = nextRowId; i < this.slots.length; i++)
      if (this.slots.has(i)) throw new TypeError(`rewind: row ${i} is still live`)
    this.#written = true
    // The slots cut off are empty, and were kept by the open views when their rows were deleted.
    this.slots.length = nextRowId
    this.made.clear()
    this.#order.rowsChanged()
    this.#deletions = deletions
    this.#columns.rewind(nextRowId)
  }

  /** @internal Copies of the containers and indexes as they are now (store snapshots). */
  captureState(): TableState {
    const state: TableState = {
      rows: this.slots.slice(),
      byKey: this.#byKey.copy(),
      ...this.#order.capture(),
      sequences: new Map(this.#sequences),
      deletions: this.#deletions,
      indexes: this.indexes.capture(),
    }
    this.#setBase(state)
    return state
  }

  #setBase(state: TableState): void {
    this.#base = state
    this.#baseIndexVersion = this.indexes.version
    this.#written = false
  }

  /**
   * @internal Puts the table back in `state` (copies of it: the state can be restored again), and
   * returns the slots whose record changed, in row-id order. A table unchanged since it was
   * captured as or restored to `state` is left alone. Columns are kept and patched slot by slot:
   * rebuilding one (folding every text) would cost more than the restore itself.
   */
  restoreState(state: TableState): RestoredSlot[] {
    const fromBase = this.#base === state && this.#baseIndexVersion === this.indexes.version
    if (fromBase && !this.#written) {
      // Indexes the state left unbuilt, built since over its very rows: kept in it.
      this.indexes.keepBuilt(state.indexes)
      return []
    }
    // Those built since over rows written meanwhile: built again below, over the state's rows.
    const used = this.indexes.builtOf(state.indexes)
    const { rows, changed } = restoredSlots(
      this.slots,
      state.rows,
      this.names,
      // The slot is the record now: what was made from the columns is forgotten.
      (rowId) => this.made.delete(rowId),
      (base, rowId) => this.recordIn(base, rowId),
    )
    // The old array is left as it was (the open views keep reading it); the keys that leave their
    // slot are told to them, since the key directory is assigned in place.
    for (const view of this.#views)
      for (const { before } of changed) if (before) view.removed(before.key, before.rowId)
    this.slots = rows
    // A record made for a row the restore leaves as it was is still that row's.
    for (const { before, after } of changed) this.made.delete((after ?? before)!.rowId)
    this.#byKey.assign(state.byKey)
    this.#order.restore(state)
    this.#sequences.clear()
    for (const [name, v] of state.sequences) this.#sequences.set(name, v)
    this.#deletions = state.deletions
    this.indexes.restore(state.indexes, fromBase ? changed : undefined)
    this.#columns.patch(changed, state.rows.length)
    if (used.length > 0) {
      // The rows are the state's now: an index built here is the state's (index-set-state.ts).
      for (const name of used) this.indexes.of(name)
      this.indexes.keepBuilt(state.indexes)
    }
    this.#setBase(state)
    return changed
  }
}
