/**
 * @module The passes of an ordering over many rows, as work in steps (slices.ts): a bounded heap
 * for the first `count` rows (`topK`, and its forms for one numeric or text attribute read straight
 * from the table), and a merge sort (`sortWork`) when the page is a large share of the rows. Each
 * step is counted against the query budget; a step is at most STEP_ROWS rows or comparisons.
 */
import type { Table } from '../store/table.js'
import { BUDGET_STEP, spend } from './budget.js'
import { foldCache } from '../values/fold.js'
import type { RowIds } from '../sets/row-ids.js'
import { type Work } from './slices.js'
import { columnReady, steps } from './row-steps.js'
import { rowsAt } from './taken-rows.js'
import { TopNumbers } from '../parallel/top-numbers.js'
import type { TopNumbersPart } from '../parallel/kernels.js'
import { isShared, SHARED_ROWS, sharedFloat64, sharedInt32 } from '../parallel/shared-arrays.js'
import { kernelWork, sortedOnPool } from './parallel-work.js'

/** Sorted runs, each one call of Array.prototype.sort, before the merges. */
const RUN = 4096

/**
 * Positions in a list of rows (or row ids) that the passes sort: an Int32Array when there are many
 * (`positions`), since a JavaScript array of 100,000 numbers is allocated outside the young
 * generation and stays in the resident set until the next full collection (each sorted entity set
 * of 100,000 members left about 1 MB of it, more than its own 0.4 MB).
 */
export type Positions = number[] | Int32Array

/**
 * `items` sorted by `cmp` (which must order every two items: ties broken by row id), as work: runs of
 * RUN items sorted one a step, then merged pairwise, pass after pass, BUDGET_STEP items a step. The
 * list is sorted in place when the passes end there, else a new one of its kind is returned.
 */
export function* sortWork<P extends Positions>(
  items: P,
  cmp: (a: number, b: number) => number,
): Work<P> {
  const n = items.length
  if (n <= RUN) return items.sort(cmp) as P
  let src: Positions = items
  let dst: Positions = items instanceof Int32Array ? new Int32Array(n) : new Array<number>(n)
  for (let from = 0; from < n; from += RUN) {
    const to = Math.min(n, from + RUN)
    spend(to - from)
    const part = src.slice(from, to).sort(cmp)
    for (let i = 0; i < part.length; i++) src[from + i] = part[i]!
    yield
  }
  let count = 0
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width)
      const hi = Math.min(n, lo + 2 * width)
      let i = lo
      let j = mid
      for (let k = lo; k < hi; k++) {
        dst[k] = j >= hi || (i < mid && cmp(src[i]!, src[j]!) <= 0) ? src[i++]! : src[j++]!
        if (++count === BUDGET_STEP) {
          count = 0
          spend(BUDGET_STEP)
          yield
        }
      }
    }
    ;[src, dst] = [dst, src]
  }
  return src as P
}

/** Positions 0…n-1, 4 bytes each. */
export function positions(n: number): Int32Array {
  const out = new Int32Array(n)
  for (let i = 0; i < n; i++) out[i] = i
  return out
}

/**
 * The first `count` of `rows` ordered by the numeric attribute `name` (× `sign`; null is
 * -Infinity), ties by row id; or undefined when a row was deleted (the general path puts those
 * last). A small `count` keeps a bounded heap (TopNumbers).
 */
export function* topNumeric(
  table: Table,
  rows: RowIds,
  name: string,
  sign: number,
  count: number,
): Work<RowIds | undefined> {
  yield* columnReady(table, name, 'numeric')
  const column = table.numericColumn(name)
  // Deleted rows read NaN like nulls: they must be told apart, unless nothing was ever deleted.
  const mayBeDeleted = table.deletions !== 0
  const n = rows.length
  const k = Math.min(count, n)
  if (k <= 0) return []
  let gone = false
  if (k * 4 >= n) {
    // A large share of the rows: read every key, then one sort. Keys and rows in shared memory
    // when they are many, for the pool's sort; its ties keep the order given, which is the
    // row-id order asked for when the rows ascend (a scan's, an index range's once sorted…).
    const keys = n >= SHARED_ROWS ? sharedFloat64(n) : new Float64Array(n)
    const ids = n >= SHARED_ROWS ? sharedInt32(n) : undefined
    let ascending = true
    yield* steps(n, (from, to) => {
      for (let i = from; i < to; i++) {
        const row = rows[i]!
        if (mayBeDeleted && !table.has(row)) gone = true
        const v = column[row]!
        keys[i] = v === v ? v * sign : -Infinity * sign
        if (ids !== undefined) {
          ids[i] = row
          if (i > 0 && row <= rows[i - 1]!) ascending = false
        }
      }
    })
    if (gone) return undefined
    const sorted = ids !== undefined && ascending ? yield* sortedOnPool(keys, ids) : undefined
    if (sorted !== undefined) return sorted.subarray(0, k)
    const order = yield* sortWork(
      positions(n),
      (i, j) => keys[i]! - keys[j]! || rows[i]! - rows[j]!,
    )
    return rowsAt(rows, order, k)
  }
  const top = new TopNumbers(k)
  yield* steps(n, (from, to) => {
    for (let i = from; i < to; i++) {
      const row = rows[i]!
      if (mayBeDeleted && !table.has(row)) {
        gone = true
        return
      }
      const v = column[row]!
      top.offer(v === v ? v * sign : -Infinity * sign, row) // NaN is null
    }
  })
  if (gone) return undefined
  return top.sortedRows()
}

/** The most rows each part of a whole-table top-k may report as NaN (see `wholeTopNumeric`). */
const MAX_NANS = 65_536

/**
 * `topNumeric` of every live row of `table` (`rows` the table's own order), read from the column
 * itself by the kernel topNumbers, on worker threads when the read runs in slices on a datastore
 * with a pool (parallel-work.ts); undefined when too many rows were ever deleted for the parts to
 * report their NaN rows (nulls and deleted rows read alike there), and `topNumeric` answers.
 */
export function* wholeTopNumeric(
  table: Table,
  name: string,
  sign: number,
  count: number,
): Work<RowIds | undefined> {
  const nanCap = count + table.deletions
  if (nanCap > MAX_NANS) return undefined
  yield* columnReady(table, name, 'numeric')
  const column = table.numericColumn(name)
  const top = new TopNumbers(count)
  const nulls: number[] = []
  yield* kernelWork<TopNumbersPart>(
    'topNumbers',
    { column, k: count, sign, nanCap },
    table.scanLength,
    isShared(column),
    (part) => {
      for (let i = 0; i < part.keys.length; i++) top.offer(part.keys[i]!, part.rows[i]!)
      for (const row of part.nans) if (nulls.length < count && table.has(row)) nulls.push(row)
    },
  )
  // A null's key, as topNumeric gives it: first ascending, last descending.
  for (const row of nulls) top.offer(-Infinity * sign, row)
  return top.sortedRows()
}

/**
 * The first `count` of `rows` ordered by the text attribute `name` folded (null first ascending),
 * ties by row id; or undefined when a row was deleted. The folded keys are read in one pass
 * straight from the records, then a bounded heap compares them with `<`.
 */
export function* topText(
  table: Table,
  rows: RowIds,
  name: string,
  sign: number,
  count: number,
): Work<RowIds | undefined> {
  const read = table.reader(name)
  const n = rows.length
  const keys = new Array<string | null>(n)
  const fold = foldCache()
  let gone = false
  yield* steps(n, (from, to) => {
    for (let i = from; i < to; i++) {
      const v = read(rows[i]!)
      if (v === undefined) {
        gone = true // a deleted row
        return
      }
      keys[i] = typeof v === 'string' ? fold(v) : null
    }
  })
  if (gone) return undefined
  const cmp = (i: number, j: number): number => {
    const a = keys[i]!
    const b = keys[j]!
    if (a === b) return rows[i]! - rows[j]!
    return (a === null ? -1 : b === null ? 1 : a < b ? -1 : 1) * sign
  }
  const taken = count * 4 >= n ? positions(n) : yield* topK(n, count, cmp)
  return rowsAt(rows, yield* sortWork(taken, cmp), count)
}

/** The `k` smallest of positions 0…n-1 under `cmp`, unordered: a max-heap of size k. */
export function* topK(n: number, k: number, cmp: (a: number, b: number) => number): Work<number[]> {
  const heap: number[] = []
  const up = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (cmp(heap[i]!, heap[parent]!) <= 0) return
      ;[heap[i], heap[parent]] = [heap[parent]!, heap[i]!]
      i = parent
    }
  }
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let top = i
      if (l < heap.length && cmp(heap[l]!, heap[top]!) > 0) top = l
      if (r < heap.length && cmp(heap[r]!, heap[top]!) > 0) top = r
      if (top === i) return
      ;[heap[i], heap[top]] = [heap[top]!, heap[i]!]
      i = top
    }
  }
  if (k <= 0) return []
  yield* steps(n, (from, to) => {
    for (let i = from; i < to; i++) {
      if (heap.length < k) {
        heap.push(i)
        up(heap.length - 1)
      } else if (cmp(i, heap[0]!) < 0) {
        heap[0] = i
        down(0)
      }
    }
  })
  return heap
}
