/**
 * @module The sort of a sorted index's build over numbers, as kernels a worker thread runs: each
 * part of the build's keys sorted on its own (`sortNumbersPart`, several parts on several
 * threads), then the sorted parts merged in one pass (`mergeSortedParts`, one more part). The
 * result is SortedIndex's layout, as the sliced sort makes it (indexes/sliced-sort.ts) bit for
 * bit: the null keys first in input order, then the others ascending, ties in input order (the
 * build reads the rows in row-id order, so ties keep row-id order).
 *
 * The kernels only read the keys and rows they sort and write to other arrays: a sort stopped
 * half-way leaves its input as it was, for the calling thread to sort instead.
 */
import { checkCancel, CHECK_ROWS } from './cancel.js'
import { sortNumbersStable } from './sort-numbers.js'

export interface SortNumbersPartArgs {
  /** The keys by position, NaN for null (no stored number is NaN). */
  readonly keys: Float64Array
  /** The row id of each key. */
  readonly rows: Int32Array
  /** Where each part's sorted keys go, at the part's own positions (its nulls' slots unset). */
  readonly sortedKeys: Float64Array
  /** Where each part's rows go, in the order of its sorted keys. */
  readonly sortedRows: Int32Array
}

/**
 * Sorts positions [from, to) of `keys` (with their `rows`) into the same positions of
 * `sortedKeys`/`sortedRows`: the part's nulls first, in input order, then its other keys ascending,
 * ties in input order. Returns how many nulls the part has.
 */
export function sortNumbersPart(
  args: SortNumbersPartArgs,
  from: number,
  to: number,
  cancel: Int32Array,
): number {
  const { sortedKeys, sortedRows } = args
  checkCancel(cancel, 0)
  // Views of the part: loops bounded by their own length read without a bounds check.
  const keys = args.keys.subarray(from, to)
  const rows = args.rows.subarray(from, to)
  let nulls = 0
  for (let i = 0; i < keys.length; i++) if (keys[i] !== keys[i]) nulls++
  const outRows = sortedRows.subarray(from, to)
  const outKeys = sortedKeys.subarray(from, to)
  let nullAt = 0
  let at = nulls
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    if (k !== k) outRows[nullAt++] = rows[i]!
    else {
      outKeys[at] = k
      outRows[at++] = rows[i]!
    }
  }
  sortRunsThenMerge(outKeys.subarray(nulls), outRows.subarray(nulls), cancel)
  return nulls
}

/**
 * Keys a run holds: each run is radix sorted within the caches (its digit counts and moves stay
 * there), then the runs are merged pass after pass. One radix sort of a part of millions was
 * slower than this (1.9 s against 1.5 s for 10M keys on one thread): its moves land anywhere in
 * arrays of tens of megabytes.
 */
const RUN = 1 << 14

// Sorts `keys` ascending (stable) and moves `rows` with them: runs of RUN keys, then merges.
function sortRunsThenMerge(keys: Float64Array, rows: Int32Array, cancel: Int32Array): void {
  const n = keys.length
  for (let s = 0; s < n; s += RUN) {
    if (s % CHECK_ROWS === 0) checkCancel(cancel, s)
    sortNumbersStable(
      keys.subarray(s, Math.min(n, s + RUN)),
      rows.subarray(s, Math.min(n, s + RUN)),
    )
  }
  if (n <= RUN) return
  let a = keys
  let ra = rows
  let b: Float64Array = new Float64Array(n)
  let rb: Int32Array = new Int32Array(n)
  for (let width = RUN; width < n; width *= 2) {
    checkCancel(cancel, 0)
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width)
      const hi = Math.min(n, lo + 2 * width)
      let i = lo
      let j = mid
      for (let k = lo; k < hi; k++)
        // Left first on a tie: stable.
        if (j >= hi || (i < mid && a[i]! <= a[j]!)) {
          b[k] = a[i]!
          rb[k] = ra[i++]!
        } else {
          b[k] = a[j]!
          rb[k] = ra[j++]!
        }
    }
    ;[a, b] = [b, a]
    ;[ra, rb] = [rb, ra]
  }
  if (a !== keys) {
    keys.set(a)
    rows.set(ra)
  }
}

export interface MergeSortedPartsArgs {
  /** The parts as `sortNumbersPart` left them. */
  readonly sortedKeys: Float64Array
  readonly sortedRows: Int32Array
  /** Each part as three numbers, in input order: its first position, one past its last, its nulls. */
  readonly parts: Int32Array
  /** The merged row ids (as long as the keys, or longer). */
  readonly rows: Int32Array
  /**
   * The merged keys, from the first non-null position on (the nulls' slots are left as they are):
   * an Int32Array when every key is a 32-bit integer, as SortedIndex holds them.
   */
  readonly numbers: Float64Array | Int32Array
}

/** The `parts` argument of `mergeSortedParts`: each part and the nulls `sortNumbersPart` found in it. */
export function partBounds(
  parts: readonly { readonly from: number; readonly to: number }[],
  nulls: readonly number[],
): Int32Array {
  const bounds = new Int32Array(parts.length * 3)
  parts.forEach((part, p) => bounds.set([part.from, part.to, nulls[p]!], 3 * p))
  return bounds
}

/**
 * Merges the sorted parts into `rows` and `numbers`: every part's nulls first (part after part,
 * so in input order), then the keys ascending, a tie to the earlier part (stable). Run as one
 * part covering every position (`from` and `to` are not read); returns the nulls in all.
 */
export function mergeSortedParts(
  args: MergeSortedPartsArgs,
  _from: number,
  _to: number,
  cancel: Int32Array,
): number {
  const { sortedKeys, sortedRows, parts, rows, numbers } = args
  checkCancel(cancel, 0)
  const k = parts.length / 3
  let out = 0
  for (let p = 0; p < k; p++) {
    const start = parts[3 * p]!
    const nulls = parts[3 * p + 2]!
    rows.set(sortedRows.subarray(start, start + nulls), out)
    out += nulls
  }
  const allNulls = out
  // The parts still being read, in input order: where each one is, where it ends, its next key.
  const at = new Int32Array(k)
  const end = new Int32Array(k)
  const head = new Float64Array(k)
  let live = 0
  for (let p = 0; p < k; p++) {
    const from = parts[3 * p]! + parts[3 * p + 2]!
    const to = parts[3 * p + 1]!
    if (from === to) continue
    at[live] = from
    end[live] = to
    head[live++] = sortedKeys[from]!
  }
  let check = out + CHECK_ROWS
  while (live > 1) {
    // The smallest head; on a tie the earlier part (a strict `<` keeps the first found).
    let best = 0
    let min = head[0]!
    for (let j = 1; j < live; j++)
      if (head[j]! < min) {
        best = j
        min = head[j]!
      }
    const i = at[best]!
    numbers[out] = min
    rows[out++] = sortedRows[i]!
    if (i + 1 < end[best]!) {
      at[best] = i + 1
      head[best] = sortedKeys[i + 1]!
    } else {
      // The part is read: the later ones move up, keeping their input order.
      at.copyWithin(best, best + 1, live)
      end.copyWithin(best, best + 1, live)
      head.copyWithin(best, best + 1, live)
      live--
    }
    if (out === check) {
      checkCancel(cancel, out)
      check += CHECK_ROWS
    }
  }
  // The last part left is copied as it is.
  if (live === 1) {
    const from = at[0]!
    const to = end[0]!
    rows.set(sortedRows.subarray(from, to), out)
    // Into an Int32Array, each key is converted (they are all 32-bit integers there).
    numbers.set(sortedKeys.subarray(from, to), out)
  }
  return allNulls
}
