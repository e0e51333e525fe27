/**
 * @module The data file: `{ "<DataClass>": [ {...}, ... ] }`, checked whole before anything loads.
 *
 * A row holds storage attribute values by name. A relatedEntity is given through its foreignKey
 * attribute, or under the relation's own name as the related key (or `{"__KEY": …}`). Pictures and
 * BLOBs are `{"$base64": "...", "type": "image/png"}`, with their `version` when it is not 1
 * (file-binary.ts). A row may carry `__KEY`, `__STAMP` and
 * `__TIMESTAMP` (as in a REST read), so a fixture can reproduce a real server's stamps. Relation
 * values in the deferred form of a REST read (`{"__deferred": {…}}`) are accepted for the same reason.
 */
import { DatastoreError } from '../errors/datastore-error.js'
import { BaseRows, baseOf } from './base-rows.js'
import { TextPool } from './text-column.js'
import { BatchState, fillNewRow, UniqueClaims, type Locate } from './changes.js'
import type { LoadTarget } from './load-target.js'
import type { Table } from './table.js'
import { RowReader, isRecord, bad, type PendingRef } from './row-reader.js'

/** Rows by dataclass name. Rows are plain objects (typed interfaces are fine: every row is checked). */
export type DataFile = { readonly [dataClass: string]: readonly object[] }

/** The rows a load checked for one table, in columns of their own that its commit hands over. */
export interface LoadedRows {
  readonly table: Table
  readonly base: BaseRows
}

/** Entities loaded, by dataclass. */
export type LoadReport = Readonly<Record<string, number>>

/**
 * 1570, 1541 and 1545 keep 4D's wording, which names no row: in a file of thousands of rows the
 * message must say where, so the location (`Employee[11].salary`) goes in front. InvalidData
 * messages have it already.
 */
function located(e: unknown): unknown {
  if (!DatastoreError.is(e) || e.name === 'InvalidData') return e
  const where = e.details?.location
  if (typeof where !== 'string') return e
  return new DatastoreError(e.name, `${where}: ${e.message}`, {
    cause: e.cause,
    details: e.details,
  })
}

/** Where a row is: `Employee[11]`, `Employee[11].salary`. Called only on errors. */
const locator =
  (dataClass: string, index: number): Locate =>
  (attribute) =>
    `${dataClass}[${index}]${attribute === undefined ? '' : `.${attribute}`}`

/**
 * How far a load is, for a progress display: rows read and checked (`rows`), then the one commit
 * that stores them and builds the indexes (`commit`, once at its start), then `done`.
 */
export interface LoadProgress {
  readonly phase: 'rows' | 'commit' | 'done'
  /** Rows read so far (all of them once the phase is `commit` or `done`). */
  readonly rows: number
  /** Rows in the file. */
  readonly total: number
}

export interface LoadOptions {
  /** Called every `PROGRESS_EVERY` rows, then at the commit and at the end. */
  readonly onProgress?: (progress: LoadProgress) => void
}

const always = (): boolean => true

/** Whether for-in over `o` yields any property. */
function enumerates(o: object): boolean {
  for (const _ in o) return true
  return false
}

/** Rows between two progress calls: often enough for a display, rare enough to cost nothing. */
const PROGRESS_EVERY = 16_384

export function prepareDataLoad(
  ds: LoadTarget,
  data: unknown,
  onProgress?: (progress: LoadProgress) => void,
): { loads: LoadedRows[]; report: LoadReport } {
  if (!isRecord(data))
    bad('data', 'expected an object of the form { "<DataClass>": [ {...}, ... ] }')
  let total = 0
  if (onProgress)
    for (const rows of Object.values(data)) if (Array.isArray(rows)) total += rows.length
  const load = new DataLoad(ds, onProgress, total)
  for (const name of Object.keys(data as object))
    load.add(name, (data as Record<string, unknown>)[name])
  return load.finish()
}

/** What a load keeps for one table across its batches. */
interface TableLoad {
  readonly table: Table
  readonly reader: RowReader
  readonly claims: UniqueClaims | undefined
  /** The batches' columns, by first row id: each batch takes the row ids after the last one's. */
  readonly bases: BaseRows[]
  /** The texts the batches' columns share. */
  readonly texts: TextPool
  /** Rows of this dataclass so far: the index of the next one (`Employee[11]`). */
  rows: number
}

/**
 * A data load fed batch by batch (a file read as a stream, one slice at a time): every batch is
 * checked as it comes and written into columns of its own (a BaseRows covering the row ids that
 * follow the previous batch's), which no table holds until the one commit. Keys, unique values and
 * references are claimed across batches, so batching changes nothing: the rows, their row ids and
 * the errors are those of one whole load of the same rows. A refused row fails the load for good.
 */
export class DataLoad {
  readonly #ds: LoadTarget
  readonly #batch = new BatchState()
  readonly #refs: PendingRef[] = []
  readonly #tables = new Map<string, TableLoad>()
  readonly #report: Record<string, number> = {}
  readonly #now: number
  readonly #onProgress: ((progress: LoadProgress) => void) | undefined
  readonly #total: number
  #read = 0
  #failed: unknown = undefined
  #finished = false

  /** `total`: the rows to come, when known (a progress display's denominator). */
  constructor(ds: LoadTarget, onProgress?: (progress: LoadProgress) => void, total = 0) {
    this.#ds = ds
    this.#now = ds.clock.now()
    this.#onProgress = onProgress
    this.#total = total
  }

  /** Rows checked so far. */
  get rows(): number {
    return this.#read
  }

  /**
   * Checks `rows`, the next rows of dataclass `name` (an array; anything else is refused as a
   * data file's value would be), and keeps them for the commit. Throws the error of the first
   * refused row, located as in a whole file (`Employee[11].salary`, counting the rows of the
   * class over every batch); the load is then dead.
   */
  add(name: string, rows: unknown): void {
    this.#usable()
    try {
      this.#add(name, rows)
    } catch (e) {
      this.#failed = e
      throw e
    }
  }

  /**
   * Makes room, while `more()` says so, for `rows` more rows of each dataclass read so far in
   * what the load grows by doubling (its claims of unique values); true once made. A load in
   * slices calls it between batches: grown inside a batch, the claims of 10M rows moved in one
   * piece (212-266 ms, measured holding a server during a --watch reload).
   */
  prepare(rows: number, more: () => boolean): boolean {
    this.#usable()
    for (const t of this.#tables.values())
      if (t.claims && !t.claims.prepare(t.rows + rows, more)) return false
    return true
  }

  #add(name: string, rows: unknown): void {
    const ds = this.#ds
    const batch = this.#batch
    let t = this.#tables.get(name)
    if (t === undefined) {
      const table = ds.findTable(name)
      if (!table) bad(JSON.stringify(name), `there is no dataclass "${name}" in the model`)
      const bases: BaseRows[] = []
      t = {
        table: table!,
        reader: new RowReader(ds, table!, batch, this.#refs, this.#now),
        // Unique values are claimed in an index over the batches' columns, read back from them.
        claims: table!.hasUnique
          ? new UniqueClaims(table!, (rowId, position) =>
              baseOf(bases, rowId).value(rowId, position),
            )
          : undefined,
        bases,
        texts: new TextPool(),
        rows: 0,
      }
      this.#tables.set(name, t)
      this.#report[name] = 0
    }
    if (!Array.isArray(rows)) bad(name, 'expected an array of rows')
    if (rows.length === 0) return
    const { table, reader, claims } = t
    // The rows go straight into columns of their own (base-rows.ts), which no table holds until
    // the commit: a refused row leaves nothing behind, and no record is made per row.
    // Room for a claim a row of the batch, made at once: grown by doubling inside the claims, the
    // unique codes of 200k short rows were moved seven times (a load in slices has made the room
    // already, between batches: then this does nothing).
    claims?.prepare(t.rows + rows.length, always)
    // The batch's row ids, taken at once: a refused row ends the load, so none is given back.
    const start = batch.takeRowIds(table, rows.length)
    const base = new BaseRows(table.def, start, rows.length, t.texts)
    t.bases.push(base)
    // One locator for the rows of a batch, reading the row being checked: a closure made per
    // row was one more object per row for the collector, for a message written only on an error.
    // Whether Object.prototype has no enumerable property (someone may have added one): then
    // for-in over a row whose prototype it is yields own properties only (see RowReader.read).
    const plain = enumerates(Object.prototype) === false
    let current = 0
    const at: Locate = (attribute) => locator(name, current)(attribute)
    const first = t.rows
    const onProgress = this.#onProgress
    for (let i = 0; i < rows.length; i++) {
      const row: unknown = rows[i]
      const index = first + i
      current = index
      if (!isRecord(row)) bad(at(), 'expected an object')
      try {
        const values = reader.read(row, at, index, plain)
        fillNewRow(table, values, batch, ds.newUuid, at)
        const rowId = start + i
        base.setRow(rowId, values, reader.stamp ?? 1, reader.timestamp)
        claims?.check(table, values, rowId, at)
      } catch (e) {
        throw located(e)
      }
      // A load whose total is not known (a stream) tells its progress by bytes, not here.
      if (++this.#read % PROGRESS_EVERY === 0 && onProgress && this.#total > 0)
        onProgress({ phase: 'rows', rows: this.#read, total: this.#total })
    }
    t.rows += rows.length
    this.#report[name] = t.rows
  }

  /**
   * Checks the references still waiting (a row may point to a row further down the file) and
   * gives what the commit applies. No batch may follow.
   */
  finish(): { loads: LoadedRows[]; report: LoadReport } {
    this.#usable()
    this.#finished = true
    try {
      for (const ref of this.#refs) {
        if (
          !this.#batch.hasNewKey(ref.target, ref.key) &&
          ref.target.rowIdOf(ref.key) === undefined
        ) {
          const where = locator(ref.dataClass, ref.index)(ref.label)
          bad(where, `there is no ${ref.target.def.name} with the key ${JSON.stringify(ref.key)}`)
        }
      }
    } catch (e) {
      this.#failed = e
      throw e
    }
    const loads: LoadedRows[] = []
    for (const { table, bases } of this.#tables.values())
      for (const base of bases) loads.push({ table, base })
    return { loads, report: { ...this.#report } }
  }

  #usable(): void {
    if (this.#failed !== undefined)
      throw new TypeError('this data load failed already: nothing of it can be committed', {
        cause: this.#failed,
      })
    if (this.#finished) throw new TypeError('this data load is finished: it takes no more rows')
  }
}
