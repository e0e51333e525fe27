/**
 * @module The writer of a snapshot's rows: a table's live rows turned into SnapshotRows records,
 * column by column, values stored as written where their type allows (snapshot-rows.ts reads them
 * back).
 */
import type { DataClassDef } from '../schema/definitions.js'
import { isBinaryValue, type BinaryValue } from '../values/binary.js'
import type { ColumnReader } from './table-columns.js'
import { ROWS_FORMAT, type SnapshotRows, type RowNumbers, isBinaryType } from './snapshot-rows.js'

/** What RowsWriter reads of a table (a view of one: store-view.ts). */
export interface RowSource {
  readonly def: DataClassDef
  /** The rows it will be given. */
  readonly size: number
  reader(name: string): ColumnReader
  stampOf(rowId: number): number | undefined
  timestampOf(rowId: number): number | undefined
}

/** Gathers rows of one table, a column per storage attribute, into SnapshotRows records. */
export class RowsWriter {
  readonly #source: RowSource
  readonly #readers: readonly ColumnReader[]
  readonly #binaries: readonly boolean[]
  readonly #binary: (value: BinaryValue) => unknown
  #columns: unknown[][]
  #stamps: number[] = []
  #timestamps: number[] = []
  // Rows taken so far.
  #taken = 0

  /** `binary` writes a picture or BLOB (as base64, or as an attachment of the record to come). */
  constructor(source: RowSource, binary: (value: BinaryValue) => unknown) {
    const storage = source.def.storage
    this.#source = source
    this.#readers = storage.map((attr) => source.reader(attr.name))
    this.#binaries = storage.map(isBinaryType)
    this.#binary = binary
    this.#columns = storage.map(() => [])
  }

  /** Rows gathered since the last `take`. */
  get length(): number {
    return this.#stamps.length
  }

  /** Adds row `rowId` (live: the source reads it). */
  add(rowId: number): void {
    const readers = this.#readers
    const columns = this.#columns
    for (let p = 0; p < readers.length; p++) {
      const v = readers[p]!(rowId) ?? null
      columns[p]!.push(v !== null && this.#binaries[p] && isBinaryValue(v) ? this.#binary(v) : v)
    }
    this.#stamps.push(this.#source.stampOf(rowId)!)
    this.#timestamps.push(this.#source.timestampOf(rowId)!)
  }

  /**
   * Checks that the rows given were as many as the source's size, which the first record
   * announced as its `total`: a snapshot whose records do not make it up could not be read back,
   * so its writing fails instead (the snapshot before it stays).
   */
  end(): void {
    if (this.#taken + this.length !== this.#source.size)
      throw new Error(
        `snapshotRows: ${this.#taken + this.length} rows of ${this.#source.def.name} where its view counts ${this.#source.size}`,
      )
  }

  /** The rows gathered, as one record (without its attachments: the caller's); starts anew. */
  take(): SnapshotRows {
    const storage = this.#source.def.storage
    const attributes: string[] = []
    const columns: unknown[][] = []
    this.#columns.forEach((column, p) => {
      if (column.some((v) => v !== null)) {
        attributes.push(storage[p]!.name)
        columns.push(column)
      }
    })
    const rows: SnapshotRows = {
      format: ROWS_FORMAT,
      kind: 'rows',
      dataClass: this.#source.def.name,
      count: this.#stamps.length,
      attributes,
      columns,
      stamps: rowNumbers(this.#stamps),
      timestamps: rowNumbers(this.#timestamps),
      ...(this.#taken === 0 ? { total: this.#source.size } : {}),
    }
    this.#taken += rows.count
    this.#columns = storage.map(() => [])
    this.#stamps = []
    this.#timestamps = []
    return rows
  }
}

/** `values` as RowNumbers: the shortest of the three forms, nearly. */
function rowNumbers(values: number[]): RowNumbers {
  const counts = new Map<number, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  if (counts.size === 1) return values[0]!
  let all = values[0]!
  for (const [v, count] of counts) if (count > counts.get(all)!) all = v
  // Two numbers an exception (its row and value) against one a row.
  if (2 * (values.length - counts.get(all)!) >= values.length) return values
  const rows: number[] = []
  const differ: number[] = []
  values.forEach((v, i) => {
    if (v !== all) (rows.push(i), differ.push(v))
  })
  return { all, rows, values: differ }
}
