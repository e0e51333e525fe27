/**
 * @module A table's columns: the numeric values (NaN for null) and the folded texts of an attribute by
 * row id, made by the first ordering or scan that needs them (at once or a step at a time), then
 * kept by every write. An order or a scan then reads one typed array instead of a record a row, and
 * a worker thread reads the shared memory as it is.
 */
import type { DataClassDef } from '../schema/definitions.js'
import type { EntityRecord } from './entity-record.js'
import { nanColumn } from '../parallel/shared-arrays.js'
import { FoldInterner } from '../values/fold-intern.js'
import { FoldedColumn, type FoldedTexts } from './folded-column.js'
import type { StoredValue } from '../values/coerce.js'
import { fold } from '../values/fold.js'

/** A storage attribute's value by row id; undefined for a deleted row. */
export type ColumnReader = (rowId: number) => StoredValue | undefined

/** A slot whose record differs between a table and the state it is restored to. */
export interface RestoredSlot {
  readonly before: EntityRecord | undefined
  readonly after: EntityRecord | undefined
}

/** Attribute types whose stored values are numbers or null: they can have a numeric column. */
export const NUMERIC_COLUMN_TYPES: ReadonlySet<string> = new Set([
  'byte',
  'word',
  'long',
  'long64',
  'number',
])

export const columnValue = (v: unknown): number => (typeof v === 'number' ? v : NaN)

export const foldedValue = (v: unknown): string | null => (typeof v === 'string' ? fold(v) : null)

/**
 * The numeric and folded columns of one table. The table tells it of every write (`set`, `clear`)
 * and of the rows it is cut or restored to (`rewind`, `patch`); it reads the rows through `reader`.
 */
export class TableColumns {
  readonly #def: DataClassDef
  // The number of row slots of the table now (its rows are replaced by a restore).
  readonly #length: () => number
  readonly #reader: (name: string) => ColumnReader
  // Numeric columns: attribute name → its values by row id (NaN for null), made by the first
  // ordering that needs one and then kept by the mutators. An order by a numeric attribute without
  // an index then reads one typed array instead of three objects per row. Shared memory
  // (parallel/shared-arrays.ts): a worker thread scans it as it is; a column that grows is a new
  // one, and a worker still reading the old one reads rows that the query's refresh tests again.
  readonly #numeric = new Map<string, { data: Float64Array }>()
  // Folded text columns: attribute name → each row's value folded (fold.ts), null for null and
  // deleted rows. Made by the first text scan that needs one, then kept by the mutators, so that a
  // scan folds each stored value once, not once per row per pattern per query.
  readonly #folded = new Map<string, FoldedColumn>()
  // Columns made a step at a time (`steps`): the rows read so far. The mutators keep every
  // row of such a column from its first step; the rows not read yet are read as they are then.
  readonly #filling = new Map<string, { filled: number; interner?: FoldInterner }>()

  constructor(def: DataClassDef, length: () => number, reader: (name: string) => ColumnReader) {
    this.#def = def
    this.#length = length
    this.#reader = reader
  }

  /** Whether any column is made: a write then updates them. */
  get any(): boolean {
    return this.#numeric.size > 0 || this.#folded.size > 0
  }

  /**
   * The values of the numeric storage attribute `name` by row id, NaN for null (and for deleted
   * rows): made on first use, then kept up to date by every write. Do not modify.
   */
  numeric(name: string): Float64Array {
    const column = this.#numeric.get(name) ?? this.#startNumeric(name)
    // Asked before its steps ended: the rest in one piece.
    for (const _ of this.steps(name, 'numeric', Infinity));
    return column.data
  }

  #startNumeric(name: string): { data: Float64Array } {
    const attr = this.#def.storage.find((a) => a.name === name)
    if (!attr || !NUMERIC_COLUMN_TYPES.has(attr.type))
      throw new TypeError(`numericColumn: ${this.#def.name}.${name} is not a numeric attribute`)
    const column = { data: nanColumn(Math.max(16, this.#length())) }
    this.#numeric.set(name, column)
    this.#filling.set(`n:${name}`, { filled: 0 })
    return column
  }

  /**
   * @internal Makes the numeric or folded column of `name` (see `numericColumn`, `foldedColumn`)
   * `rows` rows a step: a generator yielding the rows each step read, for work in slices
   * (query/slices.ts), where a first scan of 10M rows made its column in one piece. The column is
   * kept by writes from its first step; asked for before the last one, the rest is made at once.
   */
  *steps(name: string, kind: 'numeric' | 'folded', rows: number): Generator<number> {
    const numeric = kind === 'numeric'
    if (numeric) {
      if (!this.#numeric.has(name)) this.#startNumeric(name)
    } else if (!this.#folded.has(name)) this.#startFolded(name)
    const key = `${numeric ? 'n' : 'f'}:${name}`
    const state = this.#filling.get(key)
    if (state === undefined) return
    const read = this.#reader(name)
    const interner = state.interner
    while (state.filled < this.#length()) {
      const from = state.filled
      const to = Math.min(this.#length(), from + rows)
      if (numeric) {
        const data = this.#numeric.get(name)!.data
        for (let i = from; i < to; i++) data[i] = columnValue(read(i))
      } else {
        const column = this.#folded.get(name)!
        for (let i = from; i < to; i++) {
          const v = read(i)
          column.set(i, typeof v === 'string' ? interner!.fold(v) : null)
        }
      }
      state.filled = to
      if (to < this.#length()) yield to - from
    }
    this.#filling.delete(key)
  }

  /**
   * The values of the text storage attribute `name` by row id, folded (null for null and deleted
   * rows): made on first use, then kept up to date by every write. Do not modify.
   */
  folded(name: string): FoldedTexts {
    const column = this.#folded.get(name) ?? this.#startFolded(name)
    // Asked before its steps ended: the rest in one piece.
    for (const _ of this.steps(name, 'folded', Infinity));
    return column
  }

  #startFolded(name: string): FoldedColumn {
    const attr = this.#def.storage.find((a) => a.name === name)
    if (attr?.type !== 'string')
      throw new TypeError(`foldedColumn: ${this.#def.name}.${name} is not a text attribute`)
    // Null for every row until read (folded-column.ts: off the heap, shared with workers).
    const column = new FoldedColumn(this.#length())
    column.resize(this.#length())
    this.#folded.set(name, column)
    // One fold per distinct text while they are few: a load's text column gives one string for
    // all the rows of a text (base-rows.ts), folded once, not once a row.
    this.#filling.set(`f:${name}`, { filled: 0, interner: new FoldInterner() })
    return column
  }

  /**
   * Row `record.rowId` is written. `before`: the row's version it replaces; the values it kept are
   * in the columns already (an update of one attribute folded every text column's value again, a
   * fifth of the update).
   */
  set(record: EntityRecord, before?: EntityRecord): void {
    const kept = before?.values
    for (const [name, column] of this.#numeric) {
      if (kept !== undefined && Object.is(kept[name], record.values[name])) continue
      if (record.rowId >= column.data.length) {
        column.data = nanColumn(Math.max(2 * column.data.length, record.rowId + 1), column.data)
      }
      column.data[record.rowId] = columnValue(record.values[name])
    }
    for (const [name, column] of this.#folded) {
      if (kept !== undefined && kept[name] === record.values[name]) continue
      // A row past the column's end covers the rows before it too, null.
      column.set(record.rowId, foldedValue(record.values[name]))
    }
  }

  /** Row `rowId` is deleted. */
  clear(rowId: number): void {
    for (const column of this.#numeric.values()) column.data[rowId] = NaN
    for (const column of this.#folded.values()) column.set(rowId, null)
  }

  /** The table's rows are cut back to `nextRowId` (Table.rewind). */
  rewind(nextRowId: number): void {
    for (const column of this.#numeric.values())
      if (column.data.length < nextRowId) {
        column.data = nanColumn(nextRowId, column.data)
      }
    for (const column of this.#folded.values()) column.resize(nextRowId)
  }

  // Columns follow a restore: sized to the restored rows, then the changed slots rewritten.
  patch(changed: readonly RestoredSlot[], length: number): void {
    for (const [name, column] of this.#numeric) {
      if (column.data.length < length) {
        column.data = nanColumn(Math.max(2 * column.data.length, length), column.data)
      }
      const data = column.data
      for (const { before, after } of changed)
        data[(after ?? before)!.rowId] = after ? columnValue(after.values[name]) : NaN
    }
    for (const [name, column] of this.#folded) {
      column.resize(length)
      for (const { before, after } of changed) {
        const rowId = (after ?? before)!.rowId
        if (rowId < length) column.set(rowId, after ? foldedValue(after.values[name]) : null)
      }
    }
  }
}
