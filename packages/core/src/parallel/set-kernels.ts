/**
 * @module The kernels of set algebra over large lists of row ids (AND, OR, EXCEPT, INTERSECT of
 * selections and entity sets): the bounds of a list, a bitmap of its members (one byte a row id,
 * written by every part at once: each writes 1s only), and the members of another list kept or
 * dropped by that bitmap, each part writing at its own positions of one shared output, so that the
 * parts laid end to end are the answer in the list's order.
 */
import { checkCancel, CHECK_ROWS } from './cancel.js'

type Rows = Int32Array | readonly number[]

/** The lowest and highest row id of `rows[from..to)`: [min, max] (±Infinity for none). */
export function rowIdBounds(
  args: { readonly rows: Rows },
  from: number,
  to: number,
  cancel: Int32Array,
): [number, number] {
  const { rows } = args
  let min = Infinity
  let max = -Infinity
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    for (let i = at; i < end; i++) {
      const r = rows[i]!
      if (r < min) min = r
      if (r > max) max = r
    }
  }
  return [min, max]
}

export interface MarkRowsArgs {
  readonly rows: Rows
  /** One byte a row id (at least the highest one's), set to 1 for each member. */
  readonly mark: Uint8Array
}

/** Sets `mark[r]` for each row id `r` of `rows[from..to)` (none negative: see rowIdBounds). */
export function markRows(args: MarkRowsArgs, from: number, to: number, cancel: Int32Array): 0 {
  const { rows, mark } = args
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    for (let i = at; i < end; i++) mark[rows[i]!] = 1
  }
  return 0
}

export interface KeepRowsArgs extends MarkRowsArgs {
  /** True: keep the members marked (AND); false: those not marked (EXCEPT, OR's second list). */
  readonly keep: boolean
  /** As long as `rows`: a part [from, to) writes what it keeps from `out[from]` on. */
  readonly out: Int32Array
}

/**
 * The members of `rows[from..to)` that `mark` holds (`keep`) or not, in their order, written to
 * `out` from position `from`: returns [from, how many]. A row id past the bitmap's end (or
 * negative) is not marked.
 */
export function keepRows(
  args: KeepRowsArgs,
  from: number,
  to: number,
  cancel: Int32Array,
): [number, number] {
  const { rows, mark, keep, out } = args
  let n = from
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    // One loop each way: a test of `keep` per row would cost as much as the lookup.
    if (keep)
      for (let i = at; i < end; i++) {
        const r = rows[i]!
        if (mark[r] === 1) out[n++] = r
      }
    else
      for (let i = at; i < end; i++) {
        const r = rows[i]!
        if (mark[r] !== 1) out[n++] = r
      }
  }
  return [from, n - from]
}

/** Whether a member of `rows[from..to)` is marked: 1 or 0 (INTERSECT). */
export function anyMarked(args: MarkRowsArgs, from: number, to: number, cancel: Int32Array): 0 | 1 {
  const { rows, mark } = args
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    for (let i = at; i < end; i++) if (mark[rows[i]!] === 1) return 1
  }
  return 0
}
