/**
 * @module The rows an ordering takes: collected one at a time (`TakenRows`) or picked by positions
 * (`rowsAt`), in an Int32Array when they are many, so that a kept entity set holds them as they
 * are; and the walks that take them, in steps that end once enough are taken.
 */
import type { Table } from '../store/table.js'
import type { RowIds } from '../sets/row-ids.js'
import { BUDGET_STEP, spend } from './budget.js'
import { type Work } from './slices.js'
import { steps } from './row-steps.js'
import { rowIdBuffer } from '../parallel/shared-arrays.js'

/** Results past this many rows are Int32Arrays; fewer, arrays (cheaper to make). */
const MANY = 4096

/**
 * Row ids taken one at a time, as many as `capacity` at most (the rows an ordering was asked for):
 * in an Int32Array when they may be many (`rowsAt`), else an array.
 */
export class TakenRows {
  readonly #rows: number[] | Int32Array
  #length = 0

  constructor(capacity: number) {
    // Shared when large (rowIdBuffer): a worker thread reads them as they are (set algebra).
    this.#rows = capacity > MANY ? rowIdBuffer(capacity) : []
  }

  get length(): number {
    return this.#length
  }

  push(rowId: number): void {
    this.#rows[this.#length++] = rowId
  }

  /** The rows taken: an Int32Array alone in its buffer when it is one. */
  rows(): RowIds {
    const rows = this.#rows
    if (rows.length === this.#length) return rows
    if (Array.isArray(rows)) return rows.slice(0, this.#length)
    const out = rowIdBuffer(this.#length)
    out.set(rows.subarray(0, this.#length))
    return out
  }
}

/**
 * The rows at the first `count` positions of `order`: an Int32Array when they are many (what a
 * kept entity set then holds as it is, 4 bytes a member, with no copy), else an array.
 */
export function rowsAt(rows: RowIds, order: ArrayLike<number>, count: number): RowIds {
  const k = Math.min(count, order.length)
  const out = k > MANY ? rowIdBuffer(k) : new Array<number>(k)
  for (let i = 0; i < k; i++) out[i] = rows[order[i]!]!
  return out
}

/** Marks `rows` in a bitmap, unless they are every live row of the table (then no test is needed). */
export function* membership(table: Table, rows: RowIds): Work<Uint8Array | undefined> {
  // Equal counts are not enough: a selection made before a delete and an insert has as many rows
  // as the table but not the same ones. Row ids are never reused, so "all live" settles it.
  // With no delete ever, n distinct row ids of a table of n rows are all of them: no O(n) check.
  if (rows.length === table.size && (table.deletions === 0 || rows.every((r) => table.has(r))))
    return undefined
  const mark = new Uint8Array(table.rowCapacity)
  yield* steps(rows.length, (from, to) => {
    for (let i = from; i < to; i++) mark[rows[i]!] = 1
  })
  return mark
}

/**
 * `steps` over [0, n) that end once `out` holds `count` rows: a page of the first rows stops where
 * it is full, with no more steps (each of them a slice) over the rest.
 */
export function* stepsUntil(
  n: number,
  out: TakenRows,
  count: number,
  step: (from: number, to: number) => void,
): Work<void> {
  for (let from = 0; from < n && out.length < count; from += BUDGET_STEP) {
    const to = Math.min(n, from + BUDGET_STEP)
    spend(to - from)
    step(from, to)
    if (to < n && out.length < count) yield
  }
}

/** Appends the deleted rows of `rows` to `out`, in row-id order, until it holds `count` rows. */
export function appendDeleted(table: Table, rows: RowIds, out: TakenRows, count: number): void {
  if (out.length >= count || out.length >= rows.length) return
  const deleted = rows.filter((r) => !table.has(r)).sort((a, b) => a - b)
  for (const r of deleted) {
    if (out.length >= count) break
    out.push(r)
  }
}
