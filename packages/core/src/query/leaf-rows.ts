/**
 * @module The rows of one comparison (a plan's leaf): through the index its access names, a range of
 * a sorted index read in steps, or a scan of the table testing each row; and the filtering of a
 * set of rows by a per-row test.
 */
import { approximateRows } from './vector-search.js'
import { vectorScan } from './vector-scan.js'
import type { Table } from '../store/table.js'
import type { RowIds } from '../sets/row-ids.js'
import { type Work } from './slices.js'
import { steps } from './row-steps.js'
import { BUDGET_STEP, spend } from './budget.js'
import type { SortedIndex } from '../indexes/sorted-index.js'
import type { BoundComparison, CmpValue } from './bound.js'
import type { SortKey } from '../values/compare.js'
import type { Access } from './plan.js'
import { equalRows, equalRowsOf, rangeOf } from './planner.js'
import { callsSteps, comparisonPredicate, foldedAccess, type RowPredicate } from './predicate.js'
import { numberOp, numberScan, textScan } from './column-scans.js'
import { rowIdBuffer } from '../parallel/shared-arrays.js'
import type { ExecContext } from './exec-context.js'

// The loops over rows run in steps (slices.ts), each counted against the query's time
// budget (budget.ts), after each of which the work may stop: no per-row cost.

export function* scan(table: Table, test: RowPredicate): Work<number[]> {
  const out: number[] = []
  yield* steps(
    table.scanLength,
    (from, to) => {
      for (let i = from; i < to; i++) if (table.has(i) && test(i)) out.push(i)
    },
    BUDGET_STEP,
    true,
    callsSteps(test),
  )
  return out
}

export function* filterRows(table: Table, rows: RowIds, test: RowPredicate): Work<number[]> {
  // Many candidates in random order (from a sorted index) make random memory reads: reading the
  // table in row order and skipping non-candidates is then faster, and keeps row order.
  if (rows.length >= 4096 && rows.length * 8 > table.size) {
    const mark = new Uint8Array(table.rowCapacity)
    for (const r of rows) mark[r] = 1
    const out: number[] = []
    yield* steps(
      table.scanLength,
      (from, to) => {
        for (let i = from; i < to; i++) if (mark[i] && table.has(i) && test(i)) out.push(i)
      },
      BUDGET_STEP,
      true,
      callsSteps(test),
    )
    return out
  }
  const out: number[] = []
  yield* steps(
    rows.length,
    (from, to) => {
      for (let i = from; i < to; i++) {
        const rowId = rows[i]!
        if (table.has(rowId) && test(rowId)) out.push(rowId)
      }
    },
    BUDGET_STEP,
    true,
    callsSteps(test),
  )
  return out
}

/** Rows of one comparison through its access path. */
export function* leafRows(c: BoundComparison, access: Access, ctx: ExecContext): Work<RowIds> {
  const table = ctx.tableOf(c.dataClass)
  if (c.value.kind === 'vector') {
    if (c.value.index) return approximateRows(c, c.value, table)
    if (access.kind === 'scan') return yield* vectorScan(c, c.value, table)
  }
  if (access.kind === 'scan' || c.operand.kind !== 'storage') {
    const folded = foldedAccess(c, table)
    if (folded)
      return yield* textScan(table, folded.column, folded.holds, folded.only, folded.forms)
    const op = numberOp(c)
    if (op !== undefined) return yield* numberScan(table, c.operand.attr!.name, op, c)
    return yield* scan(table, comparisonPredicate(c, ctx.entityOf(c.dataClass), table))
  }
  const name = c.operand.attr.name
  const pattern = c.value.kind === 'value' ? c.value.pattern : undefined
  if (
    access.kind === 'hash' ||
    (!pattern && (c.op === 'eq' || c.op === 'strictEq' || c.op === 'in'))
  ) {
    // Exact equality or IN. IN lists may repeat a value; distinct keys have disjoint row sets, so
    // no row comes twice.
    const via = access.kind === 'hash' ? access.via : 'sorted'
    const ix = table.indexes.of(name)
    const keys = c.value.kind === 'list' ? distinctKeys(c.value.items) : [keyOf(c.value)]
    if (keys.length === 1) return equalRows(table, ix, via, keys[0]!)
    return equalRowsOf(table, ix, via, keys)
  }
  const sorted = table.indexes.of(name)!.sorted!
  const [s, e] =
    (access.range && !ctx.stale?.() ? access.range : undefined) ??
    (pattern ? sorted.prefix(pattern.prefix) : rangeOf(c, sorted, access.otherBound))
  const rows = e - s > BUDGET_STEP ? yield* rangeRows(sorted, s, e, ctx) : sorted.rows(s, e)
  return access.verify
    ? yield* filterRows(table, rows, comparisonPredicate(c, ctx.entityOf(c.dataClass), table))
    : rows
}

/**
 * Positions [s, e) of a sorted index, BUDGET_STEP at a time: half of 10M rows in one array was a
 * pause of its own. A write between two steps moves positions: the execution says so (`walked`).
 */
function* rangeRows(sorted: SortedIndex, s: number, e: number, ctx: ExecContext): Work<RowIds> {
  // A typed array: its memory comes zeroed page by page as the steps write it, where an array
  // of 5M slots was made (and faulted in) in one piece, 20 ms and more. Shared: a worker thread
  // reads it as it is (set algebra, `$distinct` of the selection).
  let out = rowIdBuffer(e - s)
  for (let p = s; p < e; p += BUDGET_STEP) {
    const q = Math.min(e, p + BUDGET_STEP)
    spend(q - p)
    // Writes since the last step may have shortened the index: its end is read again.
    const end = Math.min(q, sorted.size)
    if (end < q) {
      if (ctx.positions) ctx.positions.walked = true
      out = out.subarray(0, Math.max(0, end - s))
      if (end <= p) return out
    }
    sorted.rowsInto(p, end, out, p - s)
    if (q < e) {
      if (ctx.positions) ctx.positions.walked = true
      yield
    }
  }
  return out
}

const keyOf = (v: CmpValue): SortKey => (v.kind === 'value' ? v.key : null)

function distinctKeys(items: readonly CmpValue[]): SortKey[] {
  return [...new Set(items.map(keyOf))]
}
