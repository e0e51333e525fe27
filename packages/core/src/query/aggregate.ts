/**
 * @module Aggregates (count, sum, average, min, max) and distinct values of one attribute path over
 * a set of rows: what `$compute` and `$distinct` answer and what the selections' `sum()`, `min()`,
 * `distinct()`… return. They read the table's columns and indexes, never entities:
 *
 * - a numeric attribute: its numeric column (one Float64Array by row id, NaN for null);
 * - a text attribute: its folded column, the original spelling read from one record per result;
 * - over the whole dataclass, min, max, count and distinct values of an attribute with a sorted
 *   index walk the index (its keys are in order, nulls first, ties in row-id order);
 * - anything else (booleans, dates, UUIDs, durations, object properties) the stored values object;
 *   calculated and alias attributes the value their entity computes, through `read`.
 *
 * The rules follow 4D's entity-selection functions: nulls are left out everywhere; `count` counts
 * the rows whose value is not null; `sum` of nothing is 0, `average`, `min` and `max` of nothing
 * null; text compares as 4D compares it, without case or accents (`fold`), and where several
 * spellings fold alike ("Smith", "SMITH") the one of the row created first (lowest row id) is
 * given. Values of different kinds (an object property) order booleans, then texts, then numbers
 * (4D's `distinct()` order), and `min`/`max` look at the first kind present.
 */
import { fail } from '../errors/datastore-error.js'
import type { Table } from '../store/table.js'
import type { SortedIndex } from '../indexes/sorted-index.js'
import { fold } from '../values/fold.js'
import { BUDGET_STEP, spend } from './budget.js'
import { finish, type Work } from './slices.js'
import { columnReady, steps } from './row-steps.js'
import { objectValues } from './predicate.js'
import type { RowIds } from '../sets/row-ids.js'
import { SUM_BLOCK } from '../parallel/kernels.js'
import { isShared } from '../parallel/shared-arrays.js'
import { kernelWork } from './parallel-work.js'
import {
  type AggregateValue,
  type AggregateOp,
  type Aggregates,
  type Source,
  type AggregatePath,
  type RowsOptions,
  CHUNK,
  STEP_ROWS,
  nonNull,
  scalar,
} from './aggregate-path.js'
// Still exported from here for orda/, which another helper is restructuring now: its imports
// move to distinct.js and aggregate-path.js once that lands.
export { distinctWork } from './distinct.js'
export {
  type Aggregates,
  type AggregateValue,
  type DistinctOptions,
  resolveAggregatePath,
  type AggregateOp,
  type AggregatePath,
} from './aggregate-path.js'

/**
 * The aggregates of `path` over `rows` (row ids; deleted rows are skipped). With `only` = count,
 * min or max over the whole table, a sorted index of the attribute answers. `only` undefined
 * computes all of them (`$compute=$all`); `sum` and `average` of a non-numeric path throw
 * AggregateNotApplicable (9050).
 */
export function aggregateRows(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: RowsOptions & { readonly only?: AggregateOp },
): Aggregates {
  return finish(aggregateWork(table, rows, path, options))
}

/** `aggregateRows` as work that may stop between steps (slices.ts). */
export function* aggregateWork(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: RowsOptions & { readonly only?: AggregateOp },
): Work<Aggregates> {
  const { source } = path
  const only = options.only
  if ((only === 'sum' || only === 'average') && !source.numeric)
    fail('AggregateNotApplicable', [
      only,
      path.text,
      table.def.name,
      `it holds ${path.type === 'string' ? 'text' : path.type} values, not numbers`,
    ])
  if (only === 'count' || only === 'min' || only === 'max') {
    const sorted = path.storage && table.indexes.of(path.storage.name)?.sorted
    if (sorted && options.whole()) return fromIndex(table, sorted, path.storage!.name)
  }
  switch (source.kind) {
    case 'number': {
      yield* columnReady(table, source.name, 'numeric')
      const column = table.numericColumn(source.name)
      return options.whole()
        ? yield* wholeNumbers(column, table.scanLength)
        : yield* numbers(column, rows)
    }
    case 'text':
      yield* columnReady(table, source.name, 'folded')
      return yield* texts(table, rows, source.name)
    default: {
      const acc = new Accumulator(
        source.kind === 'computed' ? source.folds : source.kind !== 'stored',
      )
      yield* eachValue(table, rows, source, acc)
      return acc.result(source.numeric)
    }
  }
}

/** One pass over the numeric column: count, sum, min and max. */
function* numbers(column: Float64Array, rows: RowIds): Work<Aggregates> {
  // count, sum, min, max: carried from chunk to chunk (the sum adds in row order, as one loop).
  const acc = new Float64Array([0, 0, Infinity, -Infinity])
  for (let from = 0; from < rows.length; from += CHUNK) {
    spend(CHUNK)
    numbersChunk(column, rows, from, Math.min(rows.length, from + CHUNK), acc)
    // Between steps of STEP_ROWS rows only: one of a small selection never stops.
    if (((from + CHUNK) & (STEP_ROWS - 1)) === 0 && from + CHUNK < rows.length) yield
  }
  const [count, sum, min, max] = acc as unknown as [number, number, number, number]
  return count === 0
    ? { count, sum: 0, average: null, min: null, max: null }
    : { count, sum, average: sum / count, min, max }
}

/**
 * `numbers` over every live row: the kernel numberStats over the column itself (a deleted row
 * reads NaN there, as a null), on worker threads when the read runs in slices on a datastore with
 * a pool (parallel-work.ts). Its blocks' sums add in row-id order, on a pool or not.
 */
function* wholeNumbers(column: Float64Array, length: number): Work<Aggregates> {
  let count = 0
  let sum = 0
  let min = Infinity
  let max = -Infinity
  const add = (blocks: Float64Array): void => {
    for (let b = 0; b < blocks.length; b += 4) {
      count += blocks[b]!
      sum += blocks[b + 1]!
      if (blocks[b + 2]! < min) min = blocks[b + 2]!
      if (blocks[b + 3]! > max) max = blocks[b + 3]!
    }
  }
  yield* kernelWork('numberStats', { column }, length, isShared(column), add, SUM_BLOCK)
  return count === 0
    ? { count, sum: 0, average: null, min: null, max: null }
    : { count, sum, average: sum / count, min, max }
}

function numbersChunk(
  column: Float64Array,
  rows: RowIds,
  from: number,
  to: number,
  acc: Float64Array,
): void {
  let count = acc[0]!
  let sum = acc[1]!
  let min = acc[2]!
  let max = acc[3]!
  for (let i = from; i < to; i++) {
    const v = column[rows[i]!]!
    // NaN (null, deleted) fails every comparison.
    if (v === v) {
      count++
      sum += v
      if (v < min) min = v
      if (v > max) max = v
    }
  }
  acc[0] = count
  acc[1] = sum
  acc[2] = min
  acc[3] = max
}

/** One pass over the folded column; the spellings of the results are read from their records. */
function* texts(table: Table, rows: RowIds, name: string): Work<Aggregates> {
  const folded = table.foldedColumn(name)
  let count = 0
  let min: string | null = null
  let max: string | null = null
  let minRow = -1
  let maxRow = -1
  yield* steps(rows.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const r = rows[i]!
      const f = folded.at(r)
      if (f === null) continue
      count++
      if (min === null || f < min || (f === min && r < minRow)) {
        min = f
        minRow = r
      }
      if (max === null || f > max || (f === max && r < maxRow)) {
        max = f
        maxRow = r
      }
    }
  })
  return {
    count,
    min: minRow < 0 ? null : (table.reader(name)(minRow) as string),
    max: maxRow < 0 ? null : (table.reader(name)(maxRow) as string),
  }
}

/** Count, min and max of a whole table from a sorted index: nulls first, ties in row-id order. */
function fromIndex(table: Table, sorted: SortedIndex, name: string): Aggregates {
  const [start, end] = nonNull(sorted)
  if (start >= end) return { count: 0, min: null, max: null }
  const value = (position: number): AggregateValue =>
    table.reader(name)(sorted.rowAt(position)) as AggregateValue
  // The first row of the last key: the lowest row id among the spellings of the greatest value.
  const [lastStart] = sorted.equal(sorted.keyAt(end - 1))
  return { count: end - start, min: value(start), max: value(Math.max(start, lastStart)) }
}

/** Feeds `acc` every value `source` reaches in `rows` (several per row for `[]` paths). */
function* eachValue(
  table: Table,
  rows: RowIds,
  source: Exclude<Source, { kind: 'number' | 'text' }>,
  acc: Accumulator,
): Work<void> {
  switch (source.kind) {
    case 'stored': {
      const read = table.reader(source.name)
      return yield* steps(rows.length, (from, to) => {
        for (let i = from; i < to; i++) {
          const r = rows[i]!
          const v = read(r)
          if (v !== undefined) acc.row(v, r)
        }
      })
    }
    case 'object': {
      const read = table.reader(source.name)
      return yield* steps(rows.length, (from, to) => {
        for (let i = from; i < to; i++) {
          const r = rows[i]!
          const root = read(r)
          if (root === null || root === undefined) continue
          const values = objectValues(root, source.steps)
          if (values.length === 1) acc.row(values[0], r)
          else acc.many(values, r)
        }
      })
    }
    case 'computed': {
      // Each row's getter is user code: the step is cut where it ran (slices.ts, codeStep); the
      // accumulator takes the rows in the same order either way.
      const read = source.read
      return yield* steps(
        rows.length,
        (from, to) => {
          for (let i = from; i < to; i++) {
            const r = rows[i]!
            if (table.has(r)) acc.row(read(r), r)
          }
        },
        BUDGET_STEP,
        true,
        source.stepped,
      )
    }
  }
}

/**
 * Aggregates of values of any kind, kept per kind: booleans, texts (compared folded or exactly)
 * and numbers. `count` counts rows with at least one value.
 */
class Accumulator {
  readonly #folds: boolean
  count = 0
  #numbers = 0
  #sum = 0
  #numMin = Infinity
  #numMax = -Infinity
  #hasFalse = false
  #hasTrue = false
  // Texts: the comparison key and the value of the least and greatest, and their rows.
  #minKey: string | null = null
  #min = ''
  #minRow = -1
  #maxKey: string | null = null
  #max = ''
  #maxRow = -1

  constructor(folds: boolean) {
    this.#folds = folds
  }

  /** One row's value. */
  row(v: unknown, rowId: number): void {
    if (this.#value(v, rowId)) this.count++
  }

  /** The values one row reaches through `[]`: the row counts once if any is a value. */
  many(values: readonly unknown[], rowId: number): void {
    let any = false
    for (const v of values) any = this.#value(v, rowId) || any
    if (any) this.count++
  }

  #value(raw: unknown, rowId: number): boolean {
    const v = scalar(raw)
    if (v === null) return false
    if (typeof v === 'number') {
      this.#numbers++
      this.#sum += v
      if (v < this.#numMin) this.#numMin = v
      if (v > this.#numMax) this.#numMax = v
    } else if (typeof v === 'boolean') {
      if (v) this.#hasTrue = true
      else this.#hasFalse = true
    } else {
      const k = this.#folds ? fold(v) : v
      if (
        this.#minKey === null ||
        k < this.#minKey ||
        (k === this.#minKey && rowId < this.#minRow)
      ) {
        this.#minKey = k
        this.#min = v
        this.#minRow = rowId
      }
      if (
        this.#maxKey === null ||
        k > this.#maxKey ||
        (k === this.#maxKey && rowId < this.#maxRow)
      ) {
        this.#maxKey = k
        this.#max = v
        this.#maxRow = rowId
      }
    }
    return true
  }

  result(numeric: boolean): Aggregates {
    // min and max of the first kind present, in 4D's order: booleans, texts, numbers.
    let min: AggregateValue | null = null
    let max: AggregateValue | null = null
    if (this.#hasFalse || this.#hasTrue) {
      min = !this.#hasFalse
      max = this.#hasTrue
    } else if (this.#minKey !== null) {
      min = this.#min
      max = this.#max
    } else if (this.#numbers > 0) {
      min = this.#numMin
      max = this.#numMax
    }
    if (!numeric) return { count: this.count, min, max }
    return {
      count: this.count,
      sum: this.#sum,
      average: this.#numbers === 0 ? null : this.#sum / this.#numbers,
      min,
      max,
    }
  }
}
