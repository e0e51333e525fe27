/**
 * @module The rows of one data load, kept as columns (one per storage attribute) instead of one
 * record object per row: a record and its values object cost 160 bytes a row on short rows (see
 * docs/architecture.md), an integer 4 in an Int32Array, another number 8 in a Float64Array, a
 * text no object of its own (TextColumn), another value 8 (the pointer) in a plain array.
 * A table's slot holds this object for each row the load stored, until the row is first read as a
 * record (the table then makes that record from the columns and keeps it) or written.
 *
 * Immutable once the load's commit filled it: store snapshots keep slots that point here, so a row
 * must read the same for as long as one does. A later load, even into row ids a restore freed
 * again, gets columns of its own.
 */
import type { DataClassDef } from '../schema/definitions.js'
import type { StoredValue } from '../values/coerce.js'
import { Vector, type FloatsAt } from '../values/vector.js'
import type { EntityRecord, KeyValue } from './entity-record.js'
import {
  type Column,
  INT_TYPES,
  NUMBER_TYPES,
  NumberColumn,
  IntColumn,
  BoolColumn,
  ValueColumn,
  VectorColumn,
  Numbers,
} from './base-columns.js'
import { RowLanes } from './row-lanes.js'
import { TextPool, TextColumn } from './text-column.js'

/**
 * @internal A data load's rows as its columns hold them, for a reader that makes no record of a
 * row (a REST read rendered straight from them): `column(p).get(rowId - start)` is the value at
 * storage position `p` of row `rowId`, as the row's record would hold it.
 */
export interface LoadedColumns {
  /** The first row id of the load. */
  readonly start: number
  /** The column at storage position `position` (a class of its own a kind of value). */
  column(position: number): { get(i: number): StoredValue }
  key(rowId: number): KeyValue
  stamp(rowId: number): number
  timestamp(rowId: number): number
  /**
   * Reads, one after the other, the memory row `rowId`'s values are first read from (row-lanes.ts
   * says why): for a reader about to read most of the row's attributes.
   */
  warm(rowId: number): void
}

export class BaseRows implements LoadedColumns {
  /** The first row id of the load. */
  readonly start: number
  /** How many row ids it covers. */
  readonly length: number
  readonly #columns: readonly Column[]
  // The integer and the text columns with their storage positions, the others by position: a
  // row is written by a loop over each (see setRow).
  readonly #ints: readonly IntColumn[]
  readonly #intAt: readonly number[]
  readonly #texts: readonly TextColumn[]
  readonly #textAt: readonly number[]
  readonly #otherAt: readonly number[]
  readonly #keyColumn: Column
  readonly #stamps: Numbers
  readonly #timestamps: Numbers
  // Gathered at the first warm, once the commit has filled the columns (a column may change
  // arrays while it fills: a list moving to bytes, bytes growing). What warm read, kept so that
  // its reads are not dead code.
  #lanes: RowLanes | undefined
  #warmed = 0

  /** `pool`: the texts of the load's other batches (see TextPool). */
  constructor(def: DataClassDef, start: number, length: number, pool?: TextPool) {
    this.start = start
    this.length = length
    this.#columns = def.storage.map((a, p) =>
      INT_TYPES.has(a.type)
        ? new IntColumn(length)
        : NUMBER_TYPES.has(a.type)
          ? new NumberColumn(length)
          : a.type === 'bool'
            ? new BoolColumn(length)
            : a.type === 'string'
              ? new TextColumn(length, pool, p, pool?.bytesAt(p) ?? (a.unique ? 8 : undefined))
              : a.vector
                ? new VectorColumn(length)
                : new ValueColumn(length),
    )
    const at = (kind: new (...args: never[]) => Column): number[] =>
      this.#columns.flatMap((c, p) => (c instanceof kind ? [p] : []))
    this.#intAt = at(IntColumn)
    this.#ints = this.#intAt.map((p) => this.#columns[p] as IntColumn)
    this.#textAt = at(TextColumn)
    this.#texts = this.#textAt.map((p) => this.#columns[p] as TextColumn)
    this.#otherAt = this.#columns.flatMap((c, p) =>
      c instanceof IntColumn || c instanceof TextColumn ? [] : [p],
    )
    this.#keyColumn = this.#columns[def.storage.indexOf(def.key)]!
    this.#stamps = new Numbers(length)
    this.#timestamps = new Numbers(length)
  }

  /** Whether `rowId` is one of this load's rows. */
  covers(rowId: number): boolean {
    return rowId >= this.start && rowId < this.start + this.length
  }

  /** @internal Stores `record` (the load's commit only, before any reader sees these rows). */
  set(record: EntityRecord, names: readonly string[]): void {
    const i = record.rowId - this.start
    const columns = this.#columns
    for (let p = 0; p < columns.length; p++) columns[p]!.set(i, record.values[names[p]!] ?? null)
    this.#stamps.set(i, record.stamp)
    this.#timestamps.set(i, record.timestamp)
  }

  /**
   * @internal Stores row `rowId` from its values in storage order (a data load, which writes here
   * before its commit: these columns are not in any table until then).
   */
  setRow(
    rowId: number,
    values: readonly (StoredValue | undefined)[],
    stamp: number,
    timestamp: number,
  ): void {
    const i = rowId - this.start
    // A loop a kind of column: each call site sees one class and inlines its `set`, where one
    // loop over every column called through a site of five classes (megamorphic) a value.
    const ints = this.#ints
    const intAt = this.#intAt
    for (let j = 0; j < ints.length; j++) ints[j]!.set(i, values[intAt[j]!] ?? null)
    const texts = this.#texts
    const textAt = this.#textAt
    for (let j = 0; j < texts.length; j++) texts[j]!.set(i, values[textAt[j]!] ?? null)
    const columns = this.#columns
    const otherAt = this.#otherAt
    for (let j = 0; j < otherAt.length; j++) {
      const p = otherAt[j]!
      columns[p]!.set(i, values[p] ?? null)
    }
    this.#stamps.set(i, stamp)
    this.#timestamps.set(i, timestamp)
  }

  /**
   * @internal Stores `v` at storage position `position` of row `rowId`, and `setTimes` its stamp
   * and timestamp: a replay fills a snapshot's columns one attribute at a time, before its commit.
   */
  setValue(rowId: number, position: number, v: StoredValue): void {
    this.#columns[position]!.set(rowId - this.start, v)
  }

  /**
   * @internal Stores `values` (their stored form, unchecked; null and undefined skipped, as none)
   * at storage position `position` of the rows from `rowId` on: a trusted replay's column in one
   * loop over one column, where setValue looked the column up again for each value.
   */
  setColumn(rowId: number, position: number, values: readonly unknown[]): void {
    const column = this.#columns[position]!
    const from = rowId - this.start
    for (let i = 0; i < values.length; i++) {
      const v = values[i]
      if (v !== null && v !== undefined) column.set(from + i, v as StoredValue)
    }
  }

  /** @internal See setValue. Rows are given in row id order, the first one first. */
  setTimes(rowId: number, stamp: number, timestamp: number): void {
    this.#stamps.set(rowId - this.start, stamp)
    this.#timestamps.set(rowId - this.start, timestamp)
  }

  /** The highest number at storage position `position` over every row, or undefined if none. */
  highest(position: number): number | undefined {
    const column = this.#columns[position]!
    // A text column holds no number: reading it would make a string a row for nothing.
    if (column instanceof TextColumn) return undefined
    let max: number | undefined
    for (let i = 0; i < this.length; i++) {
      const v = column.get(i)
      if (typeof v === 'number' && !(v <= max!)) max = v
    }
    return max
  }

  /** The column at storage position `position` (LoadedColumns). */
  column(position: number): Column {
    return this.#columns[position]!
  }

  /** The value at storage position `position` of row `rowId`. */
  value(rowId: number, position: number): StoredValue {
    return this.#columns[position]!.get(rowId - this.start)
  }

  /** Points `at` at row `rowId`'s vector at `position` (see VectorColumn.locate). */
  locateVector(rowId: number, position: number, at: FloatsAt): boolean {
    const column = this.#columns[position]!
    if (column instanceof VectorColumn) return column.locate(rowId - this.start, at)
    const v = column.get(rowId - this.start)
    if (!(v instanceof Vector)) return false
    Vector.locate(v, at)
    return true
  }

  /**
   * The order of the fold of row `rowId`'s text at `position` and the fold of lazy key `key`
   * (compareLazy of its lazy key and `key`), read from the column's bytes with no string made;
   * undefined when the column cannot tell so (a text of the column's list, one kept outside the
   * bytes for a code unit past Latin-1, not a text column).
   */
  compareLazy(rowId: number, position: number, key: string): number | undefined {
    return this.#columns[position]!.compareLazy?.(rowId - this.start, key)
  }

  /** See LoadedColumns.warm. */
  warm(rowId: number): void {
    let lanes = this.#lanes
    if (lanes === undefined) {
      lanes = this.#lanes = new RowLanes()
      for (const column of this.#columns) column.lanes?.(lanes)
    }
    this.#warmed = lanes.touch(rowId - this.start)
  }

  key(rowId: number): KeyValue {
    return this.#keyColumn.get(rowId - this.start) as KeyValue
  }

  stamp(rowId: number): number {
    return this.#stamps.get(rowId - this.start)
  }

  timestamp(rowId: number): number {
    return this.#timestamps.get(rowId - this.start)
  }

  /** Row `rowId`'s values in storage order (what a values factory takes). */
  values(rowId: number): StoredValue[] {
    const i = rowId - this.start
    return this.#columns.map((c) => c.get(i))
  }

  /**
   * Whether `record` is row `rowId` as stored here: same key, stamp, timestamp and values (objects
   * by identity). A record made from these columns is; so is, harmlessly, an identical one.
   */
  holds(rowId: number, record: EntityRecord, names: readonly string[]): boolean {
    const i = rowId - this.start
    if (
      record.rowId !== rowId ||
      record.stamp !== this.#stamps.get(i) ||
      record.timestamp !== this.#timestamps.get(i)
    )
      return false
    const columns = this.#columns
    for (let p = 0; p < columns.length; p++)
      if (!Object.is(columns[p]!.get(i), record.values[names[p]!] ?? null)) return false
    return true
  }
}

/** The one of `bases` (contiguous, in row id order) that holds `rowId`. */
export function baseOf(bases: readonly BaseRows[], rowId: number): BaseRows {
  let lo = 0
  let hi = bases.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (bases[mid]!.start <= rowId) lo = mid
    else hi = mid - 1
  }
  return bases[lo]!
}
