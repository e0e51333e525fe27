/**
 * @module Distinct values of one attribute path over a set of rows (`$distinct`, a selection's
 * `distinct()`): a sorted index walked over the whole dataclass, else the numeric column, the
 * folded texts or the stored values read row by row. The rules are aggregate.ts's (nulls left out,
 * texts folded, the spelling of the lowest row id, mixed kinds booleans, texts, numbers).
 */
import type { Table } from '../store/table.js'
import type { FoldedTexts } from '../store/folded-column.js'
import type { SortedIndex } from '../indexes/sorted-index.js'
import { fold } from '../values/fold.js'
import { BUDGET_STEP, spend } from './budget.js'
import { finish, type Work } from './slices.js'
import { columnReady, steps } from './row-steps.js'
import { objectValues } from './predicate.js'
import type { RowIds } from '../sets/row-ids.js'
import { isShared } from '../parallel/shared-arrays.js'
import { kernelWork } from './parallel-work.js'
import { DistinctMerge } from '../parallel/distinct-numbers.js'
import {
  type AggregateValue,
  type DistinctOptions,
  type Source,
  type AggregatePath,
  type RowsOptions,
  CHUNK,
  STEP_ROWS,
  nonNull,
  scalar,
} from './aggregate-path.js'

/**
 * The distinct values of `path` over `rows`, nulls left out, in ascending order (texts by their
 * folded form; mixed kinds booleans, then texts, then numbers). Texts that fold alike are one
 * value unless `diacritical`; the spelling given is that of the lowest row id. Over the whole
 * table, a sorted index of the attribute is walked instead of the rows.
 */
export function distinctRows(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: DistinctOptions & RowsOptions,
): AggregateValue[] {
  return finish(distinctWork(table, rows, path, options))
}

/** `distinctRows` as work that may stop between steps (slices.ts). */
export function* distinctWork(
  table: Table,
  rows: RowIds,
  path: AggregatePath,
  options: DistinctOptions & RowsOptions,
): Work<AggregateValue[]> {
  const { source } = path
  const diacritical = options.diacritical === true
  if (source.kind === 'number' || source.kind === 'stored' || !diacritical) {
    const sorted = path.storage && table.indexes.of(path.storage.name)?.sorted
    if (sorted && options.whole()) return distinctFromIndex(table, sorted, path.storage!.name)
  }
  switch (source.kind) {
    case 'number':
      yield* columnReady(table, source.name, 'numeric')
      return yield* distinctNumbers(table, table.numericColumn(source.name), rows, options)
    case 'text':
      if (!diacritical) {
        yield* columnReady(table, source.name, 'folded')
        return yield* distinctTexts(table, rows, source.name)
      }
      break
  }
  const acc = new DistinctValues(
    !diacritical && (source.kind === 'computed' ? source.folds : source.kind !== 'stored'),
  )
  if (source.kind === 'text') {
    const read = table.reader(source.name)
    yield* steps(rows.length, (from, to) => {
      for (let i = from; i < to; i++) {
        const r = rows[i]!
        const v = read(r)
        if (v !== undefined) acc.add(v, r)
      }
    })
  } else yield* eachDistinct(table, rows, source, acc)
  return acc.values()
}

/**
 * The kernel distinctNumbers over `rows` (over the column itself when they are every row in
 * row-id order: a deleted row reads NaN there, as a null), on worker threads when the read runs in
 * slices on a datastore with a pool and the column and rows are shared (parallel-work.ts); its
 * parts' sorted values merged here.
 */
function* distinctNumbers(
  table: Table,
  column: Float64Array,
  rows: RowIds,
  options: RowsOptions,
): Work<number[]> {
  const merged = new DistinctMerge()
  const add = (part: Float64Array) => merged.add(part)
  if (table.keyOrderIsRowOrder && options.whole())
    yield* kernelWork('distinctNumbers', { column }, table.scanLength, isShared(column), add)
  else {
    const shared = isShared(column) && rows instanceof Int32Array && isShared(rows)
    yield* kernelWork('distinctNumbers', { column, rows }, rows.length, shared, add)
  }
  return Array.from(merged.values())
}

/** Folded text → the lowest row holding it; then the keys sorted and each spelling read once. */
function* distinctTexts(table: Table, rows: RowIds, name: string): Work<string[]> {
  const folded = table.foldedColumn(name)
  const first = new Map<string, number>()
  // In chunks, as `numbers` (see CHUNK), a stop between steps of STEP_ROWS.
  for (let from = 0; from < rows.length; from += CHUNK) {
    spend(CHUNK)
    firstRows(folded, rows, from, Math.min(rows.length, from + CHUNK), first)
    if (((from + CHUNK) & (STEP_ROWS - 1)) === 0 && from + CHUNK < rows.length) yield
  }
  // Folded keys compare by code unit, which is the default sort.
  const keys = [...first.keys()].sort()
  const out = new Array<string>(keys.length)
  const read = table.reader(name)
  for (let i = 0; i < keys.length; i++) out[i] = read(first.get(keys[i]!)!) as string
  return out
}

function firstRows(
  folded: FoldedTexts,
  rows: RowIds,
  from: number,
  to: number,
  first: Map<string, number>,
): void {
  for (let i = from; i < to; i++) {
    const r = rows[i]!
    const f = folded.at(r)
    if (f === null) continue
    const seen = first.get(f)
    if (seen === undefined || r < seen) first.set(f, r)
  }
}

/**
 * A sorted index's keys, each once, as the stored value of the first (lowest) row holding it. The
 * end of each key's run is found by galloping then halving, so the walk costs O(d log(n/d)) key
 * reads for d distinct keys among n, not one per row: 20 cities among 1M rows read a few hundred.
 */
function distinctFromIndex(table: Table, sorted: SortedIndex, name: string): AggregateValue[] {
  const [start, end] = nonNull(sorted)
  // keyAt, not content(): content() copies numeric keys whole.
  const out: AggregateValue[] = []
  const read = table.reader(name)
  let p = start
  while (p < end) {
    const k = sorted.keyAt(p)
    out.push(read(sorted.rowAt(p)) as AggregateValue)
    // keys[lo] is k; keys[hi] is not (or hi is the end).
    let lo = p
    let step = 1
    while (p + step < end && sorted.keyAt(p + step) === k) {
      lo = p + step
      step *= 2
    }
    let hi = Math.min(p + step, end)
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1
      if (sorted.keyAt(mid) === k) lo = mid
      else hi = mid
    }
    p = hi
  }
  return out
}

function* eachDistinct(
  table: Table,
  rows: RowIds,
  source: Exclude<Source, { kind: 'number' | 'text' }>,
  acc: DistinctValues,
): Work<void> {
  const read = source.kind === 'computed' ? undefined : table.reader(source.name)
  // A getter is user code: its rows are cut where it runs, as an aggregate's (row-steps.ts).
  yield* steps(
    rows.length,
    (from, to) => {
      for (let i = from; i < to; i++) {
        const r = rows[i]!
        if (!table.has(r)) continue
        switch (source.kind) {
          case 'stored':
            acc.add(read!(r), r)
            break
          case 'object': {
            const root = read!(r)
            if (root === null || root === undefined) break
            for (const v of objectValues(root, source.steps)) acc.add(v, r)
            break
          }
          case 'computed':
            acc.add(source.read(r), r)
        }
      }
    },
    BUDGET_STEP,
    source.kind === 'computed',
    source.kind === 'computed' && source.stepped,
  )
}

/** Distinct values of any kind, kept per kind and put in order at the end. */
class DistinctValues {
  readonly #folds: boolean
  #false = false
  #true = false
  readonly #numbers = new Set<number>()
  // Comparison key → the value and row that gave it first (the lowest row id).
  readonly #texts = new Map<string, { value: string; row: number }>()

  constructor(folds: boolean) {
    this.#folds = folds
  }

  add(raw: unknown, rowId: number): void {
    const v = scalar(raw)
    if (v === null) return
    if (typeof v === 'number') this.#numbers.add(v)
    else if (typeof v === 'boolean') {
      if (v) this.#true = true
      else this.#false = true
    } else {
      const k = this.#folds ? fold(v) : v
      const seen = this.#texts.get(k)
      if (!seen) this.#texts.set(k, { value: v, row: rowId })
      else if (rowId < seen.row) {
        seen.value = v
        seen.row = rowId
      }
    }
  }

  values(): AggregateValue[] {
    const out: AggregateValue[] = []
    if (this.#false) out.push(false)
    if (this.#true) out.push(true)
    // Exact texts (diacritical) in folded order, ties by code unit: the order of `$orderby`.
    const texts = [...this.#texts.values()].map((t) => t.value)
    const keys = new Map(texts.map((t) => [t, fold(t)]))
    texts.sort((a, b) => {
      const fa = keys.get(a)!
      const fb = keys.get(b)!
      return fa < fb ? -1 : fa > fb ? 1 : a < b ? -1 : a > b ? 1 : 0
    })
    out.push(...texts)
    out.push(...Float64Array.from(this.#numbers).sort())
    return out
  }
}
