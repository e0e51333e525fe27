/**
 * @module The row slots of one dataclass and how they are read: records by row id (made from a
 * load's columns when read, the last ones kept), keys, stamps and values without making a record,
 * and the shape of a row (storage positions, the values objects). The base of Table (table.ts),
 * which adds the key directory, key order, indexes, columns, views and the mutators.
 *
 * A base class rather than an object the table holds: `record` and the readers are the hottest
 * reads (a get by key, every scan), and stay one method of the table's own with no call between.
 * The slots and the records made are protected, not private: the table's mutators write them.
 */
import type { KeyComparer } from '../indexes/hash-key.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { EntityRecord, KeyValue, StoredValues } from './entity-record.js'
import { BaseRows, type LoadedColumns } from './base-rows.js'
import { RecentRecords } from './recent-records.js'
import { SlotArray } from './slot-array.js'
import { slotKey, slotStamp, slotTimestamp, slotValue } from './table-view.js'
import {
  valuesCopier,
  valuesFactory,
  type ValuesCopier,
  type ValuesFactory,
} from './values-shape.js'
import { VectorCursor } from './vector-cursor.js'
import type { ColumnReader } from './table-columns.js'

// Records made from a load's columns that a table keeps at most, the last half of them at least
// (see TableRows.record): about 13 MB of short rows.
const MADE_KEPT = 1 << 16

export class TableRows {
  readonly def: DataClassDef
  /** The row slots by row id (slot-array.ts); replaced whole by a restore. */
  protected slots = new SlotArray()
  /** Records made from a load's columns by `record`, the last ones only (see there). */
  protected readonly made = new RecentRecords<EntityRecord>(MADE_KEPT / 2)
  // The readers handed out by `reader`, by attribute name: made once, then shared by every scan.
  readonly #readers = new Map<string, ColumnReader>()
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
  protected readonly names: readonly string[]
  /** The position of the primary key in `def.storage`. */
  readonly keyPosition: number
  /** Whether any storage attribute but the key is unique (writes then check uniqueness). */
  readonly hasUnique: boolean

  constructor(def: DataClassDef) {
    this.def = def
    this.makeValues = valuesFactory(def.storage.map((a) => a.name))
    this.copyValues = valuesCopier(def.storage.map((a) => a.name))
    this.#positions = new Map(def.storage.map((a, i) => [a.name, i]))
    this.names = def.storage.map((a) => a.name)
    this.keyPosition = def.storage.indexOf(def.key)
    this.hasUnique = def.storage.some((a) => a.unique && a !== def.key)
  }

  /** The position of storage attribute `name` in `def.storage`, or undefined. */
  positionOf(name: string): number | undefined {
    return this.#positions.get(name)
  }

  /** The next free row id (row ids are never reused). */
  get nextRowId(): number {
    return this.slots.length
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
    const recent = this.made.front(rowId)
    if (recent !== undefined) return recent
    const stored = this.slots.recordAt(rowId)
    if (stored !== undefined) return stored
    const slot = this.slots.get(rowId)
    if (!(slot instanceof BaseRows)) return slot
    const made = this.made
    let record = made.get(rowId)
    if (record === undefined) {
      record = this.recordIn(slot, rowId)
      made.set(rowId, record)
    }
    return record
  }

  /**
   * @internal The columns of the load that stored row `rowId`, while its slot still holds them
   * (the row never written since its load), else undefined: its values read there make no
   * record, and are the values its record would hold.
   */
  loadedColumns(rowId: number): LoadedColumns | undefined {
    const slot = this.slots.get(rowId)
    return slot instanceof BaseRows ? slot : undefined
  }

  /** Whether row `rowId` is live (a liveness test that makes no record). */
  has(rowId: number): boolean {
    return this.slots.has(rowId)
  }

  /** The key of row `rowId`, or undefined if it was deleted (makes no record). */
  keyOf(rowId: number): KeyValue | undefined {
    return slotKey(this.slots.get(rowId), rowId)
  }

  /** The stamp of row `rowId`, or undefined if it was deleted (makes no record). */
  stampOf(rowId: number): number | undefined {
    return slotStamp(this.slots.get(rowId), rowId)
  }

  /** The timestamp of row `rowId`, or undefined if it was deleted (makes no record). */
  timestampOf(rowId: number): number | undefined {
    return slotTimestamp(this.slots.get(rowId), rowId)
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
      read = (rowId) => slotValue(this.slots.get(rowId), rowId, position, name)
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
    return new VectorCursor((rowId) => this.slots.get(rowId), position, name)
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
      const slot = this.slots.get(rowId)
      return slot instanceof BaseRows ? slot.compareLazy(rowId, position, key) : undefined
    }
  }

  /**
   * @internal The record of row `rowId` as `base` holds it, made now and not kept (a commit
   * listener reading a data load's changes).
   */
  recordIn(base: BaseRows, rowId: number): EntityRecord {
    return this.newVersion(
      rowId,
      base.key(rowId),
      base.stamp(rowId),
      base.timestamp(rowId),
      this.makeValues(base.values(rowId)),
    )
  }

  /** Live row ids, in row-id order (makes no record). */
  liveRowIds(): number[] {
    const out: number[] = []
    const rows = this.slots
    for (let i = 0; i < rows.length; i++) if (rows.has(i)) out.push(i)
    return out
  }

  /** Every live record, in row-id order. Makes the records of rows kept in columns. */
  *records(): IterableIterator<EntityRecord> {
    for (let i = 0; i < this.slots.length; i++) {
      const r = this.record(i)
      if (r) yield r
    }
  }

  /** Upper bound of row ids (the length of the row array): for bitmaps over rows. */
  get rowCapacity(): number {
    return this.slots.length
  }

  /**
   * The row ids a full scan walks, 0 to this (excluded): the same bound as `rowCapacity`, read
   * by the scans alone, so that a test can count them.
   */
  get scanLength(): number {
    return this.slots.length
  }
}
