/**
 * @module The rows of one dataclass: records by row id, the primary-key map, key order and
 * sequences. Reads are open to all; the mutators are called only by the datastore's commit, the
 * single place where data changes (so that stamps, indexes and later journals stay in step).
 */
import { IndexSet, type IndexSetState } from '../indexes/index-set.js'
import type { More } from '../indexes/index-entry.js'
import type { KeyComparer } from '../indexes/hash-key.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { EntityRecord, KeyValue, StoredValues } from './entity-record.js'
import type { FoldedTexts } from './folded-column.js'
import { BaseRows } from './base-rows.js'
import { KeyDirectory } from './key-directory.js'
import { RecentRecords } from './recent-records.js'
import { SlotArray, type Slot } from './slot-array.js'
import type { RowIds } from '../sets/row-ids.js'
import {
  SORT_AT_OPEN,
  slotKey,
  slotStamp,
  slotTimestamp,
  slotValue,
  TableView,
} from './table-view.js'
import {
  valuesCopier,
  valuesFactory,
  type ValuesCopier,
  type ValuesFactory,
} from './values-shape.js'
import { VectorCursor } from './vector-cursor.js'
import { KeyOrder } from './key-order.js'
import { TableColumns, type ColumnReader, type RestoredSlot } from './table-columns.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to key-order.js once that lands.
export { compareKeys } from './key-order.js'

/**
 * What a row slot holds: the current record; the columns of the load that stored the row, until
 * the row is first read as a record or written (base-rows.ts); undefined once deleted.
 */
export type { Slot }

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

export class Table {
  readonly def: DataClassDef
  #rows = new SlotArray()
  // Key → row id. (It held the record itself, one memory read fewer on `get`; a row kept in
  // columns has none until it is read.)
  readonly #byKey = new KeyDirectory()
  // The readers handed out by `reader`, by attribute name: made once, then shared by every scan.
  readonly #readers = new Map<string, ColumnReader>()
  // The live rows' primary-key order (key-order.ts), kept by the mutators.
  readonly #order: KeyOrder
  readonly #sequences = new Map<string, number>()
  // Records made from a load's columns by `record`, the last ones only (see there).
  readonly #made = new RecentRecords<EntityRecord>(MADE_KEPT / 2)
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
  /**
   * @internal What is stored for a record: the dataclass makes every version its Entity, so that a
   * read hands out the stored object itself (no lookup, no allocation). Identity until then.
   */
  versionOf: (record: EntityRecord) => EntityRecord = (record) => record
  /** @internal A new stored version from its parts (the dataclass makes it its Entity directly). */
  newVersion = (
    rowId: number,
    key: KeyValue,
    stamp: number,
    timestamp: number,
    values: StoredValues,
  ): EntityRecord => this.versionOf({ rowId, key, stamp, timestamp, values })
  /** Builds a record's values object from the values in storage order (see values-shape.ts). */
  readonly makeValues: ValuesFactory
  /** Copies a record's values object, unfrozen, for a write (see values-shape.ts). */
  readonly copyValues: ValuesCopier
  /** The position of each storage attribute in `def.storage`. */
  readonly #positions: ReadonlyMap<string, number>
  /** The storage attribute names, in storage order. */
  readonly #names: readonly string[]
  /** The position of the primary key in `def.storage`. */
  readonly keyPosition: number
  /** Whether any storage attribute but the key is unique (writes then check uniqueness). */
  readonly hasUnique: boolean
  /** The autosequence storage attributes (a commit advances their sequences). */
  readonly autosequenced: readonly string[]

  /** `runBuild`: how its indexes run a build on first use (IndexSet's constructor). */
  constructor(def: DataClassDef, runBuild?: (build: () => void) => void) {
    this.def = def
    this.indexes = new IndexSet(def, this, runBuild)
    this.#order = new KeyOrder({
      def,
      size: () => this.size,
      slots: () => this.#rows,
      keyOf: (rowId) => this.keyOf(rowId),
      liveRowIds: () => this.liveRowIds(),
      keyed: () => this.#byKey.values(),
    })
    this.#columns = new TableColumns(
      def,
      () => this.#rows.length,
      (name) => this.reader(name),
    )
    this.makeValues = valuesFactory(def.storage.map((a) => a.name))
    this.copyValues = valuesCopier(def.storage.map((a) => a.name))
    this.#positions = new Map(def.storage.map((a, i) => [a.name, i]))
    this.#names = def.storage.map((a) => a.name)
    this.keyPosition = def.storage.indexOf(def.key)
    this.hasUnique = def.storage.some((a) => a.unique && a !== def.key)
    this.autosequenced = def.storage.filter((a) => a.autosequence).map((a) => a.name)
  }

  /** The position of storage attribute `name` in `def.storage`, or undefined. */
  positionOf(name: string): number | undefined {
    return this.#positions.get(name)
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
    this.#rows.reserve(this.#rows.length + rows)
    this.#byKey.reserve(this.size + rows + 1)
  }

  /** The next free row id (row ids are never reused). */
  get nextRowId(): number {
    return this.#rows.length
  }

  /**
   * @internal Takes the next row id for a row that a transaction open across awaits may insert
   * later: its slot stays empty (counted as a deletion) until that commit fills it, so that no
   * write committed meanwhile takes the same row id. Never filled, it stays a hole, as a row id a
   * transaction claimed for an entity it made and dropped.
   */
  reserveRowId(): number {
    const rowId = this.#rows.length
    this.#written = true
    this.#rows.length = rowId + 1
    this.#deletions++
    return rowId
  }

  /**
   * The current record of row `rowId`, or undefined if it was deleted. A row still in its load's
   * columns gets its record made now, kept among the last ones made (recent-records.ts): a read soon after hands
   * out the same object. Kept in its slot for good, every row a client read (a clone reads them
   * all) stayed an object on the heap: 1.7 GB more at 10M rows, and full collections to match.
   */
  record(rowId: number): EntityRecord | undefined {
    // The records made last first: a hit there is this row's (every change of a slot forgets the
    // record made for it), and its slot need not be read (a get by key over 100k rows is mostly
    // memory reads: one fewer).
    const recent = this.#made.front(rowId)
    if (recent !== undefined) return recent
    const stored = this.#rows.recordAt(rowId)
    if (stored !== undefined) return stored
    const slot = this.#rows.get(rowId)
    if (!(slot instanceof BaseRows)) return slot
    const made = this.#made
    let record = made.get(rowId)
    if (record === undefined) {
      record = this.#fromBase(slot, rowId)
      made.set(rowId, record)
    }
    return record
  }

  /** Whether row `rowId` is live (a liveness test that makes no record). */
  has(rowId: number): boolean {
    return this.#rows.has(rowId)
  }

  /** The key of row `rowId`, or undefined if it was deleted (makes no record). */
  keyOf(rowId: number): KeyValue | undefined {
    return slotKey(this.#rows.get(rowId), rowId)
  }

  /** The stamp of row `rowId`, or undefined if it was deleted (makes no record). */
  stampOf(rowId: number): number | undefined {
    return slotStamp(this.#rows.get(rowId), rowId)
  }

  /** The timestamp of row `rowId`, or undefined if it was deleted (makes no record). */
  timestampOf(rowId: number): number | undefined {
    return slotTimestamp(this.#rows.get(rowId), rowId)
  }

  /**
   * The reader of storage attribute `name` by row id, for loops over many rows: it reads a row's
   * columns or its record, and never makes a record. Undefined for a deleted row.
   */
  reader(name: string): ColumnReader {
    let read = this.#readers.get(name)
    if (!read) {
      const position = this.#positions.get(name)
      if (position === undefined)
        throw new TypeError(`reader: ${this.def.name}.${name} is not a storage attribute`)
      read = (rowId) => slotValue(this.#rows.get(rowId), rowId, position, name)
      this.#readers.set(name, read)
    }
    return read
  }

  /**
   * A cursor on the vectors of attribute `name` (a 4D.Vector attribute): `at(rowId)` points it at
   * the row's floats, making no object, for scans that read every row (query/vector-search.ts).
   */
  vectorCursor(name: string): VectorCursor {
    const position = this.#positions.get(name)
    if (position === undefined)
      throw new TypeError(`vectorCursor: ${this.def.name}.${name} is not a storage attribute`)
    return new VectorCursor((rowId) => this.#rows.get(rowId), position, name)
  }

  /**
   * Compares row `rowId`'s text of `name` with a lazy key in the load's columns that hold it,
   * making no string (BaseRows.compareLazy); undefined for a row written since, kept as a record.
   */
  comparer(name: string): KeyComparer {
    const position = this.#positions.get(name)
    if (position === undefined)
      throw new TypeError(`comparer: ${this.def.name}.${name} is not a storage attribute`)
    return (rowId, key) => {
      const slot = this.#rows.get(rowId)
      return slot instanceof BaseRows ? slot.compareLazy(rowId, position, key) : undefined
    }
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
   * @internal The record of row `rowId` as `base` holds it, made now and not kept (a commit
   * listener reading a data load's changes).
   */
  recordIn(base: BaseRows, rowId: number): EntityRecord {
    return this.#fromBase(base, rowId)
  }

  // The record of a row stored in `base`, made from its columns.
  #fromBase(base: BaseRows, rowId: number): EntityRecord {
    return this.newVersion(
      rowId,
      base.key(rowId),
      base.stamp(rowId),
      base.timestamp(rowId),
      this.makeValues(base.values(rowId)),
    )
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

  /** Live row ids, in row-id order (makes no record). */
  liveRowIds(): number[] {
    const out: number[] = []
    const rows = this.#rows
    for (let i = 0; i < rows.length; i++) if (rows.has(i)) out.push(i)
    return out
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

  /** Every live record, in row-id order. Makes the records of rows kept in columns. */
  *records(): IterableIterator<EntityRecord> {
    for (let i = 0; i < this.#rows.length; i++) {
      const r = this.record(i)
      if (r) yield r
    }
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
      rows: this.#rows,
      ordered,
      size: this.size,
      sequences: new Map(this.#sequences),
      autosequenced: this.autosequenced,
      rowIdOf: (key) => this.#byKey.get(key),
      positionOf: (name) => this.#positions.get(name),
      close: () => this.#views.delete(view),
    })
    this.#views.add(view)
    return view
  }

  // Slot `rowId` of the current rows is about to be written in place: the open views keep it.
  #preserve(rowId: number): void {
    for (const view of this.#views) view.preserve(this.#rows, rowId)
  }

  /** Upper bound of row ids (the length of the row array): for bitmaps over rows. */
  get rowCapacity(): number {
    return this.#rows.length
  }

  /**
   * The row ids a full scan walks, 0 to this (excluded): the same bound as `rowCapacity`, read
   * by the scans alone, so that a test can count them.
   */
  get scanLength(): number {
    return this.#rows.length
  }

  // ---- mutators: datastore commit only ----

  /**
   * @internal Stores a new row: as its record, or, given `base` (a data load's columns, which
   * cover the row), in those columns, with no record kept.
   */
  insert(given: EntityRecord, base?: BaseRows): void {
    let record = given
    if (base) base.set(given, this.#names)
    else record = this.versionOf(given)
    this.#place(record.rowId, record.key, base ?? record, record)
  }

  /**
   * @internal Stores row `rowId`, which a data load wrote into `base` (the load's commit, in
   * store.ts): no record is made unless an index or a column follows inserts now.
   */
  insertIn(base: BaseRows, rowId: number): void {
    const follows = this.indexes.followsInserts || this.#columns.any
    this.#place(rowId, base.key(rowId), base, follows ? this.#fromBase(base, rowId) : undefined)
  }

  // Puts a new row in `slot` and in the key directory and key order; `record` (the row's values)
  // for the indexes and columns, unless none follows inserts.
  #place(rowId: number, key: KeyValue, slot: Slot, record: EntityRecord | undefined): void {
    this.#written = true
    // Row ids a transaction claimed but never used (an entity made and dropped in it) leave
    // slots that were never filled: counted as deletions, so that 0 still means "no holes".
    if (rowId > this.#rows.length) this.#deletions += rowId - this.#rows.length
    // An empty slot below the end (reserved by `reserveRowId`, or a deleted row a revert puts
    // back) was counted as a deletion: it is one no longer.
    else if (rowId < this.#rows.length && !this.#rows.has(rowId)) this.#deletions--
    if (this.#views.size) this.#preserve(rowId)
    this.#made.delete(rowId)
    this.#rows.set(rowId, slot)
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
    this.#made.delete(record.rowId)
    this.#rows.set(record.rowId, record)
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
    this.#made.delete(rowId)
    this.#rows.set(rowId, undefined)
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
    for (let i = nextRowId; i < this.#rows.length; i++)
      if (this.#rows.has(i)) throw new TypeError(`rewind: row ${i} is still live`)
    this.#written = true
    // The slots cut off are empty, and were kept by the open views when their rows were deleted.
    this.#rows.length = nextRowId
    this.#made.clear()
    this.#order.rowsChanged()
    this.#deletions = deletions
    this.#columns.rewind(nextRowId)
  }

  /** @internal Copies of the containers and indexes as they are now (store snapshots). */
  captureState(): TableState {
    const state: TableState = {
      rows: this.#rows.slice(),
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
    if (fromBase && !this.#written) return []
    const before = this.#rows
    const after = state.rows
    const rows = after.slice()
    const changed: RestoredSlot[] = []
    for (let i = 0, n = Math.max(before.length, after.length); i < n; i++) {
      const b = before.get(i)
      const a = after.get(i)
      if (b === a) continue
      // A row read since (its record made from the columns) is the row the state holds in
      // columns, or the other way round: no change, and the record stays (the same object is
      // handed out as before).
      if (b instanceof BaseRows && a && !(a instanceof BaseRows) && b.holds(i, a, this.#names)) {
        // The slot is the record now: what was made from the columns is forgotten (it would be
        // found before the slot).
        this.#made.delete(i)
        continue
      }
      if (a instanceof BaseRows && b && !(b instanceof BaseRows) && a.holds(i, b, this.#names)) {
        rows.set(i, b)
        continue
      }
      // Records made here for the change list only: the restored slot keeps the columns.
      changed.push({
        before: b instanceof BaseRows ? this.#fromBase(b, i) : b,
        after: a instanceof BaseRows ? this.#fromBase(a, i) : a,
      })
    }
    // The old array is left as it was (the open views keep reading it); the keys that leave their
    // slot are told to them, since the key directory is assigned in place.
    for (const view of this.#views)
      for (const { before } of changed) if (before) view.removed(before.key, before.rowId)
    this.#rows = rows
    // A record made for a row the restore leaves as it was is still that row's.
    for (const { before, after } of changed) this.#made.delete((after ?? before)!.rowId)
    this.#byKey.assign(state.byKey)
    this.#order.restore(state)
    this.#sequences.clear()
    for (const [name, v] of state.sequences) this.#sequences.set(name, v)
    this.#deletions = state.deletions
    this.indexes.restore(state.indexes, fromBase ? changed : undefined)
    this.#columns.patch(changed, after.length)
    this.#setBase(state)
    return changed
  }
}

// Records made from a load's columns that a table keeps at most, the last half of them at least
// (see Table.record): about 13 MB of short rows.
const MADE_KEPT = 1 << 16
