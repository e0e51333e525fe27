/**
 * @module The kernel of `$distinct` over a number: each part's distinct values, sorted, which the
 * calling thread merges (`mergeDistinct`). Rows are read through a list of row ids when one is
 * given (a selection, in its order), else by row id (every row: the column itself, a deleted row
 * reading NaN as a null does).
 */
import { checkCancel, CHECK_ROWS } from './cancel.js'

export interface DistinctNumbersArgs {
  /** Values by row id, NaN for null and for deleted rows (Table.numericColumn). */
  readonly column: Float64Array
  /** The rows, when not every row id of [from, to): the parts are positions in this list. */
  readonly rows?: Int32Array | readonly number[]
}

/**
 * Distinct values a part keeps in a Set before it sorts instead: a Set of many doubles costs about
 * 300 ns a row (1M distinct prices: 345 ms), a sort of the values about 60 ns; a Set of a few
 * values (ages, prices in whole euros) beats any sort.
 */
const SET_LIMIT = 4096

/** Rows between two looks at the Set's size. */
const BLOCK = 4096

/**
 * The distinct non-null values of the rows [from, to) (positions in `rows` when given), ascending,
 * one zero (+0) for -0 and 0, as the per-row path's Set gives them (`Set.add` makes -0 +0). In a
 * Set while the values are few; past SET_LIMIT, every value of the part is sorted, then each kept
 * once.
 */
export function distinctNumbers(
  args: DistinctNumbersArgs,
  from: number,
  to: number,
  cancel: Int32Array,
): Float64Array {
  const { column, rows } = args
  const seen = new Set<number>()
  let at = from
  for (; at < to && seen.size <= SET_LIMIT; at += BLOCK) {
    if ((at - from) % CHECK_ROWS === 0) checkCancel(cancel, at - from)
    const end = Math.min(to, at + BLOCK)
    // One loop each way: V8 does not take the test of `rows` out of the loop.
    if (rows === undefined)
      for (let i = at; i < end; i++) {
        const v = column[i]!
        if (v === v) seen.add(v)
      }
    else
      for (let i = at; i < end; i++) {
        const v = column[rows[i]!]!
        if (v === v) seen.add(v)
      }
  }
  if (at >= to) return Float64Array.from(seen).sort()
  // Many values: the Set's, then every non-null value of the rest, sorted.
  const all = new Float64Array(seen.size + (to - at))
  let n = 0
  for (const v of seen) all[n++] = v
  for (; at < to; at += BLOCK) {
    if ((at - from) % CHECK_ROWS === 0) checkCancel(cancel, at - from)
    const end = Math.min(to, at + BLOCK)
    if (rows === undefined)
      for (let i = at; i < end; i++) {
        const v = column[i]!
        if (v === v) all[n++] = v
      }
    else
      for (let i = at; i < end; i++) {
        const v = column[rows[i]!]!
        if (v === v) all[n++] = v
      }
  }
  return uniqueSorted(all.subarray(0, n).sort())
}

/** `sorted` with each value once (-0 and 0 as +0), in place: a view of its start. */
function uniqueSorted(sorted: Float64Array): Float64Array {
  let n = 0
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i]!
    // -0 sorts before 0 and equals it: the first of them is written as +0.
    if (n === 0 || v !== sorted[n - 1]) sorted[n++] = v === 0 ? 0 : v
  }
  return sorted.subarray(0, n)
}

/**
 * The parts of `distinctNumbers` merged as they come, in row order: a stack of merged lists where
 * two neighbours of like length are merged, as a merge sort's runs, so that thousands of parts
 * (steps on the calling thread) cost O(n log parts), not a merge of the whole list per part.
 */
export class DistinctMerge {
  readonly #stack: Float64Array[] = []

  add(part: Float64Array): void {
    const stack = this.#stack
    stack.push(part)
    while (stack.length > 1 && stack.at(-2)!.length <= 2 * stack.at(-1)!.length)
      stack.push(mergeDistinct(stack.pop()!, stack.pop()!))
  }

  /** Every value once, ascending. */
  values(): Float64Array {
    let out: Float64Array = new Float64Array(0)
    for (const part of this.#stack) out = mergeDistinct(out, part)
    return out
  }
}

/** Two ascending lists of distinct values as one (each value once), ascending. */
export function mergeDistinct(a: Float64Array, b: Float64Array): Float64Array {
  if (a.length === 0) return b
  if (b.length === 0) return a
  const out = new Float64Array(a.length + b.length)
  let i = 0
  let j = 0
  let n = 0
  while (i < a.length && j < b.length) {
    const x = a[i]!
    const y = b[j]!
    if (x < y) {
      out[n++] = x
      i++
    } else if (y < x) {
      out[n++] = y
      j++
    } else {
      out[n++] = x
      i++
      j++
    }
  }
  while (i < a.length) out[n++] = a[i++]!
  while (j < b.length) out[n++] = b[j++]!
  return out.subarray(0, n)
}
