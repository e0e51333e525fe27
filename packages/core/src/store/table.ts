/**
 * @module The rows of one dataclass: records by row id, the primary-key map, key order and
 * sequences. Reads are open to all; the mutators are called only by the datastore's commit, the
 * single place where data changes (so that stamps, indexes and later journals stay in step).
 */
import { IndexSet, type IndexSetState } from '../indexes/index-set.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { EntityRecord, KeyValue, StoredValues } from './entity-record.js'
import { fold } from '../values/fold.js'
import { KeyDirectory } from './key-directory.js'
import { valuesFactory, type ValuesFactory } from './values-shape.js'

export const compareKeys = (a: KeyValue, b: KeyValue): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * @internal A table's data at one moment, for store snapshots (data-snapshot.ts): copies of the
 * containers and indexes, never changed afterwards. The records themselves are shared, since
 * they are immutable.
 */
export interface TableState {
  readonly rows: readonly (EntityRecord | undefined)[]
  readonly byKey: KeyDirectory
  readonly ordered: readonly number[]
  readonly orderedDirty: boolean
  readonly sequences: ReadonlyMap<string, number>
  readonly deletions: number
  readonly indexes: IndexSetState
}

/** A slot whose record differs between a table and the state it is restored to. */
export interface RestoredSlot {
  readonly before: EntityRecord | undefined
  readonly after: EntityRecord | undefined
}

export class Table {
  readonly def: DataClassDef
  #rows: (EntityRecord | undefined)[] = []
  // Key → the current record itself, not its row id: a lookup by key (get, joins) is then one
  // memory read fewer, and a commit swaps the record here as it does in #rows.
  readonly #byKey = new KeyDirectory()
  // Row ids in key order. Appends with growing keys (autosequence) keep it sorted for free;
  // anything else marks it dirty and the next read sorts once.
  #ordered: number[] = []
  #orderedDirty = false
  // True once `#ordered` was handed out (selections keep it as their snapshot): the next append
  // copies it first, so a selection made before an insert does not grow.
  #orderedShared = false
  readonly #sequences = new Map<string, number>()
  // Numeric columns: attribute name → its values by row id (NaN for null), made by the first
  // ordering that needs one and then kept by the mutators. An order by a numeric attribute without
  // an index then reads one typed array instead of three objects per row.
  readonly #columns = new Map<string, { data: Float64Array }>()
  // Folded text columns: attribute name → each row's value folded (fold.ts), null for null and
  // deleted rows. Made by the first text scan that needs one, then kept by the mutators, so that a
  // scan folds each stored value once, not once per row per pattern per query.
  readonly #folded = new Map<string, (string | null)[]>()
  #deletions = 0
  // The state this table was last captured as or restored to, the index version then, and whether
  // a mutator ran since. Restoring that state again has nothing to do when none did, and patches
  // the hash indexes instead of copying them when only writes did (see IndexSet.restore).
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
  /** The position of each storage attribute in `def.storage`. */
  readonly #positions: ReadonlyMap<string, number>
  /** The position of the primary key in `def.storage`. */
  readonly keyPosition: number
  /** Whether any storage attribute but the key is unique (writes then check uniqueness). */
  readonly hasUnique: boolean
  /** The autosequence storage attributes (a commit advances their sequences). */
  readonly autosequenced: readonly string[]

  constructor(def: DataClassDef) {
    this.def = def
    this.indexes = new IndexSet(def)
    this.makeValues = valuesFactory(def.storage.map((a) => a.name))
    this.#positions = new Map(def.storage.map((a, i) => [a.name, i]))
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

  /** The next free row id (row ids are never reused). */
  get nextRowId(): number {
    return this.#rows.length
  }

  record(rowId: number): EntityRecord | undefined {
    return this.#rows[rowId]
  }

  rowIdOf(key: KeyValue): number | undefined {
    return this.#byKey.get(key)?.rowId
  }

  recordByKey(key: KeyValue): EntityRecord | undefined {
    return this.#byKey.get(key)
  }

  /** @internal Key → current record, for the hottest reads (`get`). Do not modify. */
  get byKey(): Pick<KeyDirectory, 'get'> {
    return this.#byKey
  }

  /** Live row ids in primary-key order. The array is shared: do not modify it. */
  orderedRowIds(): readonly number[] {
    if (this.#orderedDirty) {
      this.#ordered = [...this.#byKey.values()]
        .sort((a, b) => compareKeys(a.key, b.key))
        .map((r) => r.rowId)
      this.#orderedDirty = false
    }
    this.#orderedShared = true
    return this.#ordered
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

  /** @internal The records by row id (holes for deleted rows), for tight loops. Do not modify. */
  get slots(): readonly (EntityRecord | undefined)[] {
    return this.#rows
  }

  /**
   * The values of the numeric storage attribute `name` by row id, NaN for null (and for deleted
   * rows): made on first use, then kept up to date by every write. Do not modify.
   */
  numericColumn(name: string): Float64Array {
    let column = this.#columns.get(name)
    if (!column) {
      const attr = this.def.storage.find((a) => a.name === name)
      if (!attr || !NUMERIC_COLUMN_TYPES.has(attr.type))
        throw new TypeError(`numericColumn: ${this.def.name}.${name} is not a numeric attribute`)
      const data = new Float64Array(Math.max(16, this.#rows.length)).fill(NaN)
      for (const r of this.#rows) if (r) data[r.rowId] = columnValue(r.values[name])
      this.#columns.set(name, (column = { data }))
    }
    return column.data
  }

  /**
   * The values of the text storage attribute `name` by row id, folded (null for null and deleted
   * rows): made on first use, then kept up to date by every write. Do not modify.
   */
  foldedColumn(name: string): readonly (string | null)[] {
    let column = this.#folded.get(name)
    if (!column) {
      const attr = this.def.storage.find((a) => a.name === name)
      if (attr?.type !== 'string')
        throw new TypeError(`foldedColumn: ${this.def.name}.${name} is not a text attribute`)
      column = new Array<string | null>(this.#rows.length)
      const rows = this.#rows
      for (let i = 0; i < rows.length; i++) column[i] = foldedValue(rows[i]?.values[name])
      this.#folded.set(name, column)
    }
    return column
  }

  /** Every live record, in row-id order. */
  *records(): IterableIterator<EntityRecord> {
    for (const r of this.#rows) if (r) yield r
  }

  /** Upper bound of row ids (the length of the row array): for bitmaps over rows. */
  get rowCapacity(): number {
    return this.#rows.length
  }

  // ---- mutators: datastore commit only ----

  /** @internal */
  insert(given: EntityRecord): void {
    this.#written = true
    const record = this.versionOf(given)
    // Row ids a transaction claimed but never used (an entity made and dropped in it) leave
    // slots that were never filled: counted as deletions, so that 0 still means "no holes".
    if (record.rowId > this.#rows.length) this.#deletions += record.rowId - this.#rows.length
    this.#rows[record.rowId] = record
    this.#byKey.set(record.key, record)
    this.indexes.insert(record)
    if (this.#columns.size || this.#folded.size) this.#setColumns(record)
    if (this.#orderedDirty) return
    const last = this.#ordered[this.#ordered.length - 1]
    if (last === undefined || compareKeys(this.#rows[last]!.key, record.key) < 0) {
      if (this.#orderedShared) {
        this.#ordered = this.#ordered.slice()
        this.#orderedShared = false
      }
      this.#ordered.push(record.rowId)
    } else this.#orderedDirty = true
  }

  /** @internal The key of a record never changes (4D forbids editing a primary key). */
  replace(given: EntityRecord): void {
    this.#written = true
    const record = this.versionOf(given)
    const before = this.#rows[record.rowId]!
    this.#rows[record.rowId] = record
    this.#byKey.set(record.key, record)
    this.indexes.update(before, record)
    if (this.#columns.size || this.#folded.size) this.#setColumns(record)
  }

  /** @internal */
  delete(rowId: number): void {
    const record = this.#rows[rowId]
    if (!record) return
    this.#written = true
    if (!this.#orderedDirty) this.#unorder(record)
    this.#rows[rowId] = undefined
    this.#deletions++
    this.#byKey.delete(record.key)
    this.indexes.delete(record)
    for (const column of this.#columns.values()) column.data[rowId] = NaN
    for (const column of this.#folded.values()) column[rowId] = null
  }

  /** @internal Copies of the containers and indexes as they are now (store snapshots). */
  captureState(): TableState {
    const state: TableState = {
      rows: this.#rows.slice(),
      byKey: this.#byKey.copy(),
      ordered: this.#ordered.slice(),
      orderedDirty: this.#orderedDirty,
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
    const changed: RestoredSlot[] = []
    for (let i = 0, n = Math.max(before.length, after.length); i < n; i++)
      if (before[i] !== after[i]) changed.push({ before: before[i], after: after[i] })
    this.#rows = after.slice()
    this.#byKey.assign(state.byKey)
    this.#ordered = state.ordered.slice()
    this.#orderedDirty = state.orderedDirty
    this.#orderedShared = false
    this.#sequences.clear()
    for (const [name, v] of state.sequences) this.#sequences.set(name, v)
    this.#deletions = state.deletions
    this.indexes.restore(state.indexes, fromBase ? changed : undefined)
    this.#patchColumns(changed, after.length)
    this.#setBase(state)
    return changed
  }

  // Columns follow a restore: sized to the restored rows, then the changed slots rewritten.
  #patchColumns(changed: readonly RestoredSlot[], length: number): void {
    for (const [name, column] of this.#columns) {
      if (column.data.length < length) {
        const grown = new Float64Array(Math.max(2 * column.data.length, length)).fill(NaN)
        grown.set(column.data)
        column.data = grown
      }
      const data = column.data
      for (const { before, after } of changed)
        data[(after ?? before)!.rowId] = after ? columnValue(after.values[name]) : NaN
    }
    for (const [name, column] of this.#folded) {
      if (column.length > length) column.length = length
      while (column.length < length) column.push(null)
      for (const { before, after } of changed) {
        const rowId = (after ?? before)!.rowId
        if (rowId < length) column[rowId] = after ? foldedValue(after.values[name]) : null
      }
    }
  }

  // Takes a deleted record out of the key order: found by its key (the order is by key), then one
  // move of the tail. Marking the order dirty instead made the next read of the whole dataclass
  // sort every key again (about 50 ms at 200k rows) after a single delete.
  #unorder(record: EntityRecord): void {
    let lo = 0
    let hi = this.#ordered.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareKeys(this.#rows[this.#ordered[mid]!]!.key, record.key) < 0) lo = mid + 1
      else hi = mid
    }
    if (this.#ordered[lo] !== record.rowId) {
      this.#orderedDirty = true
      return
    }
    if (this.#orderedShared) {
      this.#ordered = this.#ordered.slice()
      this.#orderedShared = false
    }
    this.#ordered.splice(lo, 1)
  }

  #setColumns(record: EntityRecord): void {
    for (const [name, column] of this.#columns) {
      if (record.rowId >= column.data.length) {
        const grown = new Float64Array(Math.max(2 * column.data.length, record.rowId + 1)).fill(NaN)
        grown.set(column.data)
        column.data = grown
      }
      column.data[record.rowId] = columnValue(record.values[name])
    }
    for (const [name, column] of this.#folded) {
      // Row ids are given in order, so this appends or replaces; a gap would read as null.
      while (column.length < record.rowId) column.push(null)
      column[record.rowId] = foldedValue(record.values[name])
    }
  }
}
/** Attribute types whose stored values are numbers or null: they can have a numeric column. */
export const NUMERIC_COLUMN_TYPES: ReadonlySet<string> = new Set([
  'byte',
  'word',
  'long',
  'long64',
  'number',
])

const columnValue = (v: unknown): number => (typeof v === 'number' ? v : NaN)
const foldedValue = (v: unknown): string | null => (typeof v === 'string' ? fold(v) : null)
