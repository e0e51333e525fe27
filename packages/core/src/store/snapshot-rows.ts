/**
 * @module A snapshot's rows in columns: a record of format 2, `SnapshotRows`, holds rows of one
 * dataclass as one list of values per storage attribute, where a record of format 1 (change-log.ts)
 * holds a change object per row, its values by attribute name. A snapshot written by
 * `snapshotRows` is such records, then one record of format 1 with no change that carries the
 * global stamp and the sequences; a replay (`applyLogRecords`) checks their rows straight into
 * columns of their own (base-rows.ts), as a data load's are, with no change, record or values
 * object made per row, and its commit stores them as a load's commit does.
 *
 * Why: a restart replayed 1M short rows in 6.0 s (`node --cpu-prof`), against 2.7 s for a load of
 * the data file: 2.3 s in `JSON.parse` of the records (207 MB of text, twice the data file: each
 * row named its dataclass, op, key and every attribute), 0.9 s decoding that text from UTF-8,
 * 1.8 s making a change, a record and a values object per row (and looking each key up among the
 * changes so far), 1.4 s collecting them. In columns, the text is a third of that, a column's
 * values parse as one packed array, and each value goes into its column as it is checked.
 *
 * ```json
 * { "format": 2, "kind": "rows", "dataClass": "Person", "count": 3,
 *   "attributes": ["ID", "name", "photo"],
 *   "columns": [[1, 2, 3], ["Ada", "Alan", null], [null, {"$bytes": 0, "type": "image/png"}, null]],
 *   "stamps": 1, "timestamps": {"all": 1767225600000, "rows": [2], "values": [1767229200000]} }
 * ```
 *
 * The values are those a format 1 record holds (null for none, a picture or BLOB as base64 or an
 * attachment); an attribute whose values are all null in the record is left out. `stamps` and
 * `timestamps` are one number when every row has the same (a loaded file's rows); the most common
 * one and the rows that differ when they are few (a loaded file's rows, some of them written
 * since: 10,000 updates of a million rows touch nearly every record, and a timestamp a row was a
 * quarter more text, 13 digits a row); else one a row.
 */
import { datastoreError, fail } from '../errors/datastore-error.js'
import type { StorageAttributeDef } from '../schema/definitions.js'
import { CoercionError, coerceExact, type StoredValue } from '../values/coerce.js'
import { BaseRows, baseOf } from './base-rows.js'
import type { EntityRecord, KeyValue } from './entity-record.js'
import { coerceFileValue, fromAttachment, isAttachedBinary } from './file-binary.js'
import type { LoadedRows } from './load-data.js'
import type { Store } from './store.js'
import type { Table } from './table.js'
import { compareKeys } from './key-order.js'

/** The format of a SnapshotRows record (a change-log record is of format 1, LOG_FORMAT). */
export const ROWS_FORMAT = 2

/** Rows of one dataclass, in columns: part of a snapshot (see the module's comment). */
export interface SnapshotRows {
  readonly format: typeof ROWS_FORMAT
  readonly kind: 'rows'
  readonly dataClass: string
  /** The rows it holds. */
  readonly count: number
  /**
   * In the first record of a dataclass's rows: how many the snapshot holds, in it and in the
   * records of the dataclass that follow it. A replay then keeps them all in one set of columns,
   * as a load of a data file does, rather than a set a record (1,000 rows: a column of texts
   * that repeat kept each distinct one a record).
   */
  readonly total?: number
  /** The storage attributes it has a column of (the key's among them), by name. */
  readonly attributes: readonly string[]
  /** For each of `attributes`, `count` values in their JSON form, null for none. */
  readonly columns: readonly (readonly unknown[])[]
  /** The rows' stamps (see RowNumbers). */
  readonly stamps: RowNumbers
  /** The rows' timestamps, in milliseconds (see RowNumbers). */
  readonly timestamps: RowNumbers
  /** The bytes its pictures and BLOBs name (`{"$bytes": i, …}`), as in a LogRecord. */
  readonly attachments?: readonly Uint8Array[]
}

/**
 * A number of each row: one for all of them; the one of all but `rows` (indexes, growing), whose
 * own are `values`; or one a row.
 */
export type RowNumbers =
  | number
  | { readonly all: number; readonly rows: readonly number[]; readonly values: readonly number[] }
  | readonly number[]

/** Whether a record read back from a log is rows in columns (format 2), by its format. */
export const isSnapshotRows = (record: unknown): record is SnapshotRows =>
  (record as { format?: unknown } | null)?.format === ROWS_FORMAT

export const isBinaryType = (attr: StorageAttributeDef): boolean =>
  attr.type === 'image' || attr.type === 'blob'

/**
 * The types whose JSON form is their stored form, as RowsWriter writes it: a value of the store
 * written by this process and read back is stored as it is, with no coercion (a trusted replay).
 * Not an object (copied when coerced), a vector, a picture or a BLOB (decoded), whose values are
 * checked however they come.
 */
const AS_WRITTEN: ReadonlySet<string> = new Set([
  'string',
  'long',
  'number',
  'bool',
  'byte',
  'word',
  'long64',
  'duration',
  'date',
  'uuid',
])

/** Whether a trusted replay stores `attr`'s values as a record gives them. */
const storedAsWritten = (attr: StorageAttributeDef): boolean =>
  AS_WRITTEN.has(attr.type) && attr.vector !== true

function invalid(where: string, why: string): never {
  return fail('InvalidLogRecord', [where, why])
}

/**
 * A value of a record for `attr`, checked as a data file's value is (not null: a record leaves
 * nulls out); a picture or BLOB may name one of the record's `attachments`. Throws
 * InvalidLogRecord located by `where()`.
 */
export function decodeValue(
  attr: StorageAttributeDef,
  raw: unknown,
  attachments: readonly Uint8Array[] | undefined,
  where: () => string,
): StoredValue {
  try {
    const attached = isBinaryType(attr) && isAttachedBinary(raw)
    return coerceFileValue(attr, attached ? fromAttachment(raw, attachments) : raw)
  } catch (e) {
    if (!(e instanceof CoercionError)) throw e
    throw datastoreError('InvalidLogRecord', [where(), e.message])
  }
}

/** One table's staged rows. */
interface Staged {
  readonly table: Table
  /** The row id of the first row. */
  readonly first: number
  /** The rows' columns, a batch a record, their row ids following one another. */
  readonly bases: BaseRows[]
  /** The row id the next row takes. */
  next: number
  /** The columns of a `total`'s rows, and how many of them are still to come. */
  run: { readonly base: BaseRows; readonly total: number; left: number } | undefined
  /** The last key staged, while every key is past the one before it (found by a binary search). */
  last: KeyValue | undefined
  /** Key → row id, made at the first key that is not (a view's order by row id, not by key). */
  byKey: Map<KeyValue, number> | undefined
}

/**
 * The rows of a replay's SnapshotRows records, checked and kept in columns of their own (a
 * BaseRows a record) that no table holds until the replay's commit stores them (`loads`): a record
 * that does not fit leaves nothing behind. The changes replayed after them find their rows by key
 * (`recordOf`) and take the row ids after them (`count`).
 */
export class StagedRows {
  readonly #store: Store
  readonly #trusted: boolean
  readonly #tables = new Map<Table, Staged>()
  // The table whose run of rows (a `total`) is being read.
  #open: Staged | undefined

  /**
   * `trusted`: the records are this engine's own, written by `snapshotRows` and read back whole
   * (a snapshot file whose magic and checksums the caller checked): the values of the types a
   * record holds as they are stored (AS_WRITTEN) go into their columns unchecked. The shape of
   * each record (its format, dataclass, attributes, counts, keys, stamps) is checked all the same:
   * a few checks a record, not a value. Checked, 1M short rows spent 0.3 s of a 0.5 s replay in
   * the loop that coerced each value, for values that were the store's own.
   */
  constructor(store: Store, trusted = false) {
    this.#store = store
    this.#trusted = trusted
  }

  /** Checks the rows of `record` and stages them; throws InvalidLogRecord located by `where`. */
  add(record: SnapshotRows, where: string): void {
    const { count: n, attributes, columns, attachments } = record
    const name = record.dataClass
    const table =
      (typeof name === 'string' ? this.#store.findTable(name) : undefined) ??
      invalid(where, `no dataclass ${JSON.stringify(name)} in the model`)
    const dc = table.def.name
    if (!Number.isSafeInteger(n) || n < 0) invalid(where, 'no valid count of rows')
    if (
      !Array.isArray(attributes) ||
      !Array.isArray(columns) ||
      columns.length !== attributes.length
    )
      invalid(where, 'no list of attributes and of their columns')
    const positions = attributes.map((a: unknown, c) => {
      const p = typeof a === 'string' ? table.positionOf(a) : undefined
      if (p === undefined) invalid(where, `no storage attribute ${JSON.stringify(a)} in ${dc}`)
      if (attributes.indexOf(a) !== c) invalid(where, `two columns of ${dc}.${String(a)}`)
      if (!Array.isArray(columns[c]) || columns[c]!.length !== n)
        invalid(where, `the column of ${dc}.${String(a)} does not hold ${n} values`)
      return p!
    })
    const stampOf = numbers(record.stamps, n, Number.isSafeInteger, where, 'stamp')
    const timestampOf = numbers(record.timestamps, n, Number.isFinite, where, 'timestamp')
    const total = record.total
    if (total !== undefined && (!Number.isSafeInteger(total) || total < n))
      invalid(where, `no valid total of rows (${String(total)})`)

    let staged = this.#tables.get(table)
    if (!staged) {
      const first = table.nextRowId
      staged = {
        table,
        first,
        bases: [],
        next: first,
        run: undefined,
        last: undefined,
        byKey: undefined,
      }
      this.#tables.set(table, staged)
    }
    if (this.#open !== undefined && (this.#open !== staged || total !== undefined))
      this.finish(where)
    if (total !== undefined && total > 0) {
      // One set of columns for them all, whose rows the records fill in turn.
      let base: BaseRows
      try {
        base = new BaseRows(table.def, staged.next, total)
      } catch (e) {
        // Typed arrays of that many rows cannot be had: an error of the record, not a crash.
        if (!(e instanceof RangeError)) throw e
        return invalid(where, `no columns for a total of ${total} rows (${e.message})`)
      }
      staged.bases.push(base)
      staged.run = { base, total, left: total }
      this.#open = staged
    }
    if (n === 0) return
    const keyAt = positions.indexOf(table.keyPosition)
    if (keyAt < 0) invalid(`${where}[0]`, 'the key is missing')
    const start = staged.next
    const run = staged.run
    let base: BaseRows
    if (run !== undefined && run.left > 0) {
      if (n > run.left)
        invalid(where, `${n} rows of ${dc}, where ${run.left} of its total of ${run.total} remain`)
      base = run.base
      run.left -= n
    } else {
      base = new BaseRows(table.def, start, n)
      staged.bases.push(base)
    }
    staged.next += n
    const storage = table.def.storage
    // The keys first, so that an error in another column names its entity.
    const keyAttr = storage[table.keyPosition]!
    const keys = columns[keyAt]!
    for (let i = 0; i < n; i++) {
      const raw = keys[i]
      const key =
        raw === null || raw === undefined
          ? null
          : (coerceExact(keyAttr.type, raw) ??
            decodeValue(keyAttr, raw, attachments, () => `${where}[${i}] ${dc}.${keyAttr.name}`))
      if (typeof key !== 'number' && typeof key !== 'string')
        invalid(`${where}[${i}]`, 'the key is missing')
      base.setValue(start + i, table.keyPosition, key)
      this.#claim(staged, key, start + i, `${where}[${i}]`)
    }
    for (let c = 0; c < positions.length; c++) {
      if (c === keyAt) continue
      const p = positions[c]!
      const attr = storage[p]!
      const type = attr.type
      const column = columns[c]!
      if (this.#trusted && storedAsWritten(attr)) {
        base.setColumn(start, p, column)
        continue
      }
      for (let i = 0; i < n; i++) {
        const raw = column[i]
        if (raw === null || raw === undefined) continue
        const v =
          coerceExact(type, raw) ??
          decodeValue(
            attr,
            raw,
            attachments,
            () => `${where}[${i}] ${dc}(${JSON.stringify(base.key(start + i))}).${attr.name}`,
          )
        base.setValue(start + i, p, v)
      }
    }
    for (let i = 0; i < n; i++) base.setTimes(start + i, stampOf(i), timestampOf(i))
  }

  /**
   * Checks that the rows a record's `total` announced have all come: a record that is not one of
   * them follows (`where`), or the records end.
   */
  finish(where: string): void {
    const open = this.#open
    this.#open = undefined
    const run = open?.run
    if (run !== undefined && run.left > 0)
      invalid(where, `${run.left} of the ${run.total} rows of ${open!.table.def.name} missing`)
  }

  // Refuses a key staged twice (or in the table already), and keeps it for recordOf.
  #claim(staged: Staged, key: KeyValue, rowId: number, where: string): void {
    const { table } = staged
    const taken = (): never =>
      invalid(where, `insert of ${table.def.name}(${JSON.stringify(key)}), which is there already`)
    if (table.size > 0 && table.rowIdOf(key) !== undefined) taken()
    if (staged.byKey === undefined) {
      // While every key is past the one before it (a snapshot writes a table in key order, but
      // for a large one whose order needs a sort: store-view.ts), none can be there twice, and a
      // binary search finds them: no map of a million keys.
      if (staged.last === undefined || compareKeys(staged.last, key) < 0) {
        staged.last = key
        return
      }
      const byKey = new Map<KeyValue, number>()
      for (let r = staged.first; r < rowId; r++) byKey.set(baseOf(staged.bases, r).key(r), r)
      staged.byKey = byKey
    }
    if (staged.byKey.has(key)) taken()
    staged.byKey.set(key, rowId)
  }

  /** Staged rows of `table`: the changes after them take the row ids that follow. */
  count(table: Table): number {
    const staged = this.#tables.get(table)
    return staged ? staged.next - staged.first : 0
  }

  /** The staged row of `table` whose key is `key`, as a record (made now), or undefined. */
  recordOf(table: Table, key: KeyValue): EntityRecord | undefined {
    const staged = this.#tables.get(table)
    if (!staged) return undefined
    const rowId = staged.byKey ? staged.byKey.get(key) : search(staged, key)
    return rowId === undefined ? undefined : table.recordIn(baseOf(staged.bases, rowId), rowId)
  }

  /** What the replay's commit stores: each table's batches, in row id order. */
  loads(): LoadedRows[] {
    return [...this.#tables.values()].flatMap(({ table, bases }) =>
      bases.map((base) => ({ table, base })),
    )
  }
}

/** The row id of `key` among staged rows whose keys grow with their row ids. */
function search(staged: Staged, key: KeyValue): number | undefined {
  let lo = staged.first
  let hi = staged.next - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const at = baseOf(staged.bases, mid).key(mid)
    const order = compareKeys(at, key)
    if (order === 0 && at === key) return mid
    if (order < 0) lo = mid + 1
    else if (order > 0) hi = mid - 1
    else return undefined // a key of another type
  }
  return undefined
}

/** Row `i`'s number of `given` (RowNumbers for `n` rows), each checked by `valid`. */
function numbers(
  given: unknown,
  n: number,
  valid: (v: unknown) => boolean,
  where: string,
  what: string,
): (i: number) => number {
  const check = (v: unknown, at: string): number => {
    if (!valid(v)) invalid(at, `the ${what} is not valid (${String(v)})`)
    return v as number
  }
  if (typeof given === 'number') {
    check(given, where)
    return () => given
  }
  if (Array.isArray(given)) {
    if (given.length !== n) invalid(where, `no ${what} for each of its rows`)
    for (let i = 0; i < n; i++) check(given[i], `${where}[${i}]`)
    return (i) => given[i] as number
  }
  const { all, rows, values } = (given ?? {}) as { all?: unknown; rows?: unknown; values?: unknown }
  if (!Array.isArray(rows) || !Array.isArray(values) || rows.length !== values.length)
    invalid(where, `no ${what} for each of its rows`)
  check(all, where)
  const own = new Map<number, number>()
  ;(rows as unknown[]).forEach((i, k) => {
    if (
      !Number.isSafeInteger(i) ||
      (i as number) <= (k === 0 ? -1 : (rows as number[])[k - 1]!) ||
      (i as number) >= n
    )
      invalid(where, `the rows of its ${what}s are not rows of it, in order`)
    own.set(i as number, check(values[k], `${where}[${String(i)}]`))
  })
  return (i) => own.get(i) ?? (all as number)
}
