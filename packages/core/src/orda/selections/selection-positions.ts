/**
 * @module Positions in a selection as 4D counts them: the bounds of `slice(startFrom, end)` (and
 * of JavaScript's `Array.prototype.slice`), and the ranges `selected()` answers.
 */
import type { RowIds } from '../../sets/row-ids.js'

/**
 * `[from, to)` of `slice(startFrom, end)` on `length` members: a negative bound counts from the
 * end, a start still below 0 is 0, an end past the length is the length; `to <= from` is empty.
 */
export function sliceBounds(
  length: number,
  startFrom: number,
  end: number,
): { readonly from: number; readonly to: number } {
  const at = (n: number): number => (n < 0 ? Math.max(0, n + length) : Math.min(n, length))
  const from = at(Math.trunc(startFrom) || 0)
  const to = at(end === Infinity ? length : Math.trunc(end) || 0)
  return { from, to: Math.max(from, to) }
}

/** One run of consecutive positions, both ends included (4D's `{start, end}`). */
export interface PositionRange {
  readonly start: number
  readonly end: number
}

/** The runs of positions of `rows` whose row is one of `picked` (4D's `selected().ranges`). */
export function rangesOf(rows: RowIds, picked: RowIds): PositionRange[] {
  const wanted = new Set<number>(picked)
  const ranges: PositionRange[] = []
  let start = -1
  for (let i = 0; i <= rows.length; i++) {
    const hit = i < rows.length && wanted.has(rows[i]!)
    if (hit && start < 0) start = i
    else if (!hit && start >= 0) {
      ranges.push({ start, end: i - 1 })
      start = -1
    }
  }
  return ranges
}
