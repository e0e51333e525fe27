/**
 * @module Orderings: how a selection's rows are put in order, lazily. A selection asks for its first
 * `count` rows in order; an ordering answers without sorting more than it must:
 *
 * - `byIndex`: one order key with a sorted index: walk the index and keep the rows of the selection,
 *   stopping after `count` (no sort at all);
 * - `byKeys`: any order keys: compute the sort keys once, then a bounded heap picks the first `count`
 *   (O(n log count)) or, when `count` is a large part of n, one full sort;
 * - `byPrimaryKey`: 4D's default order, through the table's key order.
 *
 * Ties are broken by row id, i.e. creation order, as 4D breaks them by record number. Rows deleted
 * since the selection was made (it keeps them; they read as null) go last in every ordering, in
 * row-id order, so that an index walk and a sort agree and `take` always returns `count` rows.
 *
 * Every `take` counts its rows against the query's time budget (budget.ts). `byKeys` reads its
 * keys, picks and sorts in steps (top-k.ts), as work a slice scope may stop between two of them
 * (slices.ts); the index and key-order walks run in one piece.
 */
import type { SortedIndex } from '../indexes/sorted-index.js'
import type { Table } from '../store/table.js'
import { NUMERIC_COLUMN_TYPES } from '../store/table-columns.js'
import { hasGetterSteps } from '../schema/getter-calls.js'
import type { BoundOrderKey } from './bound.js'
import { BUDGET_STEP, spendOnCode, spend } from './budget.js'
import { finish, type ChangedRows, type Work } from './slices.js'
import { steps } from './row-steps.js'
import { positions, sortWork, topK, topNumeric, topText, wholeTopNumeric } from './top-k.js'
import { appendDeleted, membership, rowsAt, stepsUntil, TakenRows } from './taken-rows.js'
import { compareKeys, sortKey, type SortKey } from '../values/compare.js'
import { foldCache } from '../values/fold.js'
import type { EntityOf } from './predicate.js'
import { copyRowIds, mapRowIds, type RowIds } from '../sets/row-ids.js'
import type { AllowedRows } from './visibility.js'
import { similarityReader } from './vector-scan.js'

/**
 * How a selection puts its rows in order, lazily: `take(rows, count)` returns the first `count` of
 * `rows` in order. Reading the first 100 entities of a million-row result then costs a top-100
 * selection, not a full sort.
 */
export interface Ordering {
  take(rows: RowIds, count: number): RowIds
  /**
   * `take` as work that may stop between steps (slices.ts), for the orderings whose cost grows
   * with the rows they read; absent when `take` is cheap enough to run in one piece.
   */
  work?(rows: RowIds, count: number): Work<RowIds>
  /** Whether its keys read other tables than the selection's (relations, calculated attributes). */
  readonly readsOthers?: boolean
  /**
   * Whether it walks positions of an index that writes move: what it took while rows changed
   * cannot be refreshed, only taken again.
   */
  readonly walksIndex?: boolean
}

/**
 * How the first `count` of `rows` by `ordering`, taken while writes went on (in slices), are brought
 * to the data as it is now: the rows changed since (`changed`) are offered again with the ones
 * taken. Undefined (take them again) when a row taken changed, since another row may then belong
 * in its place, or when the keys read another table that changed.
 */
export function refreshTaken(
  ordering: Ordering,
  table: Table,
  rows: RowIds,
  count: number,
): (taken: RowIds, changed: ChangedRows) => RowIds | undefined {
  return (taken, changed) => {
    // A key read through another table moves when that table changes: take them again.
    if (ordering.readsOthers && changed.tables().some((t) => t !== table)) return undefined
    const touched = changed.of(table)
    if (touched === undefined) return taken
    if (ordering.walksIndex) return undefined
    for (const r of taken) if (touched.has(r)) return undefined
    const candidates = copyRowIds(taken)
    for (let i = 0; i < rows.length; i++) if (touched.has(rows[i]!)) candidates.push(rows[i]!)
    return ordering.take(candidates, count)
  }
}

// Each table's primary-key order, made once: it holds nothing but the table. Made anew for every
// selection of more than one row, its functions were a fifth of an IN of 50 rows run from the
// sources (CPU profile at 10k rows, 2026-11-26: tsx's transform names each function it makes,
// `__name`); compiled, they were still three allocations a query.
const primaryKeyOrders = new WeakMap<Table, Ordering>()

/** Primary-key order. */
export function byPrimaryKey(table: Table): Ordering {
  let ordering = primaryKeyOrders.get(table)
  if (ordering === undefined) primaryKeyOrders.set(table, (ordering = primaryKeyOrder(table)))
  return ordering
}

function primaryKeyOrder(table: Table): Ordering {
  function* work(rows: RowIds, count: number): Work<RowIds> {
    // The key order is the row-id order: the first live rows by row id, no key read.
    if (table.keyOrderIsRowOrder) return yield* firstByRowId(table, rows, count)
    // Few rows: sort them. Many: walk the key order and keep the selection's rows.
    if (rows.length * 8 < table.size) return (yield* sortByKey(table, rows)).slice(0, count)
    const mark = yield* membership(table, rows)
    const out = new TakenRows(Math.min(count, rows.length))
    // The key order is an array the table copies before it changes: a walk over slices reads one.
    const order = table.orderedRowIds()
    yield* stepsUntil(order.length, out, count, (from, to) => {
      for (let i = from; i < to && out.length < count; i++) {
        const r = order[i]!
        if (!mark || mark[r]) out.push(r)
      }
    })
    // The key order holds live rows only.
    appendDeleted(table, rows, out, count)
    return out.rows()
  }
  return { take: (rows, count) => finish(work(rows, count)), work }
}

/** Out-of-order rows sorted in one piece rather than found by a walk of the table (≈1 ms). */
const FEW_TO_SORT = 16_384

/**
 * The first `count` of `rows` in key order when that is the row-id order: its live rows by row id,
 * then its deleted ones (as sortByKey orders them). A scan's rows come in row-id order already:
 * a page of 50 of the 5,000 rows of a city at 100k rows sorted the 5,000 by their keys, a tenth of
 * the request (CPU profile, 2026-11-26).
 */
function* firstByRowId(table: Table, rows: RowIds, count: number): Work<RowIds> {
  let inOrder = true
  for (let i = 1; i < rows.length && inOrder; i++) inOrder = rows[i - 1]! < rows[i]!
  const out = new TakenRows(Math.min(count, rows.length))
  if (inOrder) {
    yield* stepsUntil(rows.length, out, count, (from, to) => {
      for (let i = from; i < to && out.length < count; i++) {
        const r = rows[i]!
        if (table.has(r)) out.push(r)
      }
    })
  } else if (rows.length <= FEW_TO_SORT && rows.length * 8 < table.rowCapacity) {
    // Few, out of order (a range read from a sorted index comes in key order): sorted. The walk
    // below reads row ids until `count` are found, most of the table for rows spread through it:
    // a page of a 20-row range at 200k rows cost as much as a scan.
    const live = new Int32Array(rows.length)
    let n = 0
    for (let i = 0; i < rows.length; i++) if (table.has(rows[i]!)) live[n++] = rows[i]!
    spend(rows.length)
    const sorted = live.subarray(0, n).sort()
    for (let i = 0; i < n && out.length < count; i++) out.push(sorted[i]!)
  } else {
    // Out of order and many (a join's rows): marked, then the table's row ids walked, in steps.
    // Sorted in one piece, 100,000 of them held the loop some 10 ms.
    const mark = yield* membership(table, rows)
    yield* stepsUntil(table.rowCapacity, out, count, (from, to) => {
      for (let r = from; r < to && out.length < count; r++)
        if ((!mark || mark[r]) && table.has(r)) out.push(r)
    })
  }
  appendDeleted(table, rows, out, count)
  return out.rows()
}

/**
 * `rows` in key order, deleted rows last, ties (none but deleted rows) by row id. Each key is read
 * once before the sort, not twice per comparison: the records of a small result are scattered
 * through the table, and reading them was most of the cost of ordering a 20-row range.
 */
function* sortByKey(table: Table, rows: RowIds): Work<number[]> {
  const keys = new Array<ReturnType<Table['keyOf']>>(rows.length)
  yield* steps(rows.length, (from, to) => {
    for (let i = from; i < to; i++) keys[i] = table.keyOf(rows[i]!)
  })
  const at = yield* sortWork(
    mapRowIds(rows, (_, i) => i),
    (i, j) => {
      const a = keys[i]
      const b = keys[j]
      // Deleted rows (no key) go last.
      const byKey =
        a === undefined || b === undefined
          ? a !== undefined
            ? -1
            : b !== undefined
              ? 1
              : 0
          : a < b
            ? -1
            : a > b
              ? 1
              : 0
      return byKey || rows[i]! - rows[j]!
    },
  )
  return at.map((i) => rows[i]!)
}

/** One order key on an attribute with a sorted index: an index walk. */
// Each sorted index's walks, made once each way for the table they were made for (as
// byPrimaryKey's): a rebuilt index is a new object. An index asked for with another table (a
// copy's) gets walks of its own each time.
const indexOrders = new WeakMap<SortedIndex, { table: Table; up?: Ordering; down?: Ordering }>()

export function byIndex(table: Table, index: SortedIndex, descending: boolean): Ordering {
  let made = indexOrders.get(index)
  if (made === undefined) indexOrders.set(index, (made = { table }))
  else if (made.table !== table) return indexOrder(table, index, descending)
  if (descending) return (made.down ??= indexOrder(table, index, true))
  return (made.up ??= indexOrder(table, index, false))
}

function indexOrder(table: Table, index: SortedIndex, descending: boolean): Ordering {
  function* work(rows: RowIds, count: number): Work<RowIds> {
    spend(Math.max(rows.length, Math.min(index.size, count)))
    const mark = yield* membership(table, rows)
    const out = new TakenRows(Math.min(count, rows.length))
    const n = index.size
    // Positions walked since the last stop: the walk stops every BUDGET_STEP of them.
    let walked = 0
    if (!descending) {
      // `index.size` read again: writes between two stops may have shortened the index (the
      // rows taken are then taken again: walksIndex).
      for (let p = 0; p < n && p < index.size && out.length < count; p++) {
        const r = index.rowAt(p)
        if (!mark || mark[r]) out.push(r)
        if (++walked === BUDGET_STEP) {
          walked = 0
          yield
        }
      }
      appendDeleted(table, rows, out, count)
      return out.rows()
    }
    // Descending keys, but ties still in creation order: walk groups of equal keys from the end.
    let end = n
    while (end > 0 && out.length < count) {
      end = Math.min(end, index.size)
      if (end === 0) break
      const key = index.keyAt(end - 1)
      let start = end - 1
      while (start > 0 && compareKeys(index.keyAt(start - 1), key) === 0) start--
      for (let p = start; p < end && out.length < count; p++) {
        const r = index.rowAt(p)
        if (!mark || mark[r]) out.push(r)
      }
      walked += end - start
      end = start
      if (walked >= BUDGET_STEP) {
        walked = 0
        yield
      }
    }
    // The index holds live rows only.
    appendDeleted(table, rows, out, count)
    return out.rows()
  }
  return { take: (rows, count) => finish(work(rows, count)), work, walksIndex: true }
}

/**
 * The value of an order key for one live row: through relatedEntity steps, then the attribute.
 * Read through the tables' column readers: no record is made, except for a calculated attribute
 * (its code takes an entity). A related entity the session may not see (`allowed`, its dataclass's
 * `restrict`) is a missing one: the key is null, and its value tells nothing by its place. Made
 * for one pass over the rows (`pass()`): a text's folded form is made once a distinct value in it.
 */
function keyReader(
  key: BoundOrderKey,
  tableOf: (name: string) => Table,
  entityOf: (table: Table) => EntityOf,
  allowed: AllowedRows | undefined,
) {
  // Each step: the foreign key's reader in the table it starts from, the table it leads to, and
  // the rows of that table the session may see (undefined: all).
  let table = tableOf('')
  const steps = key.relations.map((rel) => {
    const read = table.reader(rel.foreignKey)
    table = tableOf(rel.target)
    return { read, target: table, visible: allowed?.(table.def) }
  })
  const last = table
  const op = key.operand
  const read = op.kind === 'calculated' ? undefined : last.reader(op.attr.name)
  if (key.similarity) {
    const similarity = similarityReader(last, op.attr.name, key.similarity)
    return () => similarity
  }
  return (): ((start: number) => SortKey) => {
    const fold = key.folds ? foldCache() : undefined
    return (start) => {
      let rowId: number | undefined = start
      for (const step of steps) {
        const fk = step.read(rowId)
        rowId = fk === null || fk === undefined ? undefined : step.target.rowIdOf(fk as never)
        if (rowId === undefined || (step.visible !== undefined && !step.visible.has(rowId)))
          return null
      }
      if (op.kind === 'calculated') {
        spendOnCode()
        return sortKey(op.attr.compute ? op.attr.compute(entityOf(last)(rowId)) : null, key.folds)
      }
      const v = read!(rowId)
      return fold !== undefined && typeof v === 'string' ? fold(v) : sortKey(v, key.folds)
    }
  }
}

/**
 * Any order keys: sort keys computed once per row, then heap selection or a full sort. `allowed`:
 * what the session may see of the dataclasses a key's relations lead to (undefined: everything).
 * Its passes over the rows are work in steps (slices.ts); a full sort, once started, runs to its end.
 */
export function byKeys(
  table: Table,
  keys: readonly BoundOrderKey[],
  tableOf: (name: string) => Table,
  entityOf: (table: Table) => EntityOf,
  allowed?: AllowedRows,
): Ordering {
  const readers = keys.map((k) =>
    keyReader(k, (name) => (name === '' ? table : tableOf(name)), entityOf, allowed),
  )
  // Rows whose keys a step reads: fewer when a row's keys take several reads (each relation a
  // key goes through is one more): `manager.manager.employer.name, employer.city` read 4,096
  // rows' keys in 12 ms, a step that held the loop past its slice.
  const reads = keys.reduce((n, k) => n + 1 + k.relations.length, 0)
  const rowsAStep = Math.min(BUDGET_STEP, Math.max(256, Math.floor((2 * BUDGET_STEP) / reads)))
  const signs = keys.map((k) => (k.descending ? -1 : 1))
  const only = keys.length === 1 ? keys[0]! : undefined
  const stored =
    only && only.relations.length === 0 && only.operand.kind === 'storage'
      ? only.operand.attr
      : undefined
  const direct = stored && NUMERIC_COLUMN_TYPES.has(stored.type) ? stored.name : undefined
  const text = stored?.type === 'string' ? stored.name : undefined
  // A computed attribute's getter is user code: the keys' pass is cut where it runs (row-steps.ts).
  const callsCode = keys.some((k) => k.operand.kind === 'calculated')
  const stepped = keys.some(
    (k) => k.operand.kind === 'calculated' && hasGetterSteps(k.operand.attr.compute),
  )
  function* work(rows: RowIds, count: number): Work<RowIds> {
    const n = rows.length
    // One numeric attribute, every row live (the usual `order by salary desc`): one pass over
    // the table's numeric column with plain number comparisons.
    // Every live row, a small page: read from the column itself (worker threads, when there are).
    const whole =
      direct !== undefined && count * 4 < n && table.isOrderedRowIds(rows)
        ? yield* wholeTopNumeric(table, direct, signs[0]!, count)
        : undefined
    const fast =
      whole ??
      (direct === undefined ? undefined : yield* topNumeric(table, rows, direct, signs[0]!, count))
    if (fast) return fast
    const byText =
      text === undefined ? undefined : yield* topText(table, rows, text, signs[0]!, count)
    if (byText) return byText
    // A row deleted since the selection was made (entity sets keep them) goes last, as in the
    // index walks; its keys are never read.
    const deleted = new Uint8Array(n)
    const read = readers.map((pass) => pass())
    const columns = read.map(() => new Array<SortKey>(n))
    yield* steps(
      n,
      (from, to) => {
        for (let i = from; i < to; i++) {
          const r = rows[i]!
          const gone = !table.has(r)
          deleted[i] = gone ? 1 : 0
          for (let k = 0; k < read.length; k++) columns[k]![i] = gone ? null : read[k]!(r)
        }
      },
      rowsAStep,
      callsCode,
      stepped,
    )
    // The scores a vector search kept for this order are read: not kept past it (vector-scan.ts).
    for (const k of keys) k.similarity?.scores?.release()
    const numeric = numericColumn(columns, deleted)
    const sign = signs[0]!
    // One numeric key (the usual `order by salary desc`): compare numbers directly. Nulls are
    // -Infinity, first ascending and last descending, as compareKeys orders them.
    const cmp = numeric
      ? (i: number, j: number): number => (numeric[i]! - numeric[j]!) * sign || rows[i]! - rows[j]!
      : (i: number, j: number): number => {
          if (deleted[i] !== deleted[j]) return deleted[i] ? 1 : -1
          for (let k = 0; k < columns.length; k++) {
            const c = compareKeys(columns[k]![i]!, columns[k]![j]!)
            if (c !== 0) return c * signs[k]!
          }
          return rows[i]! - rows[j]!
        }
    const taken = count * 4 >= n ? positions(n) : yield* topK(n, count, cmp)
    return rowsAt(rows, yield* sortWork(taken, cmp), count)
  }
  return {
    take: (rows, count) => finish(work(rows, count)),
    work,
    readsOthers: callsCode || keys.some((k) => k.relations.length > 0),
  }
}

/** The single order column as numbers (null → -Infinity), if it is one of numbers and nothing is deleted. */
function numericColumn(
  columns: readonly SortKey[][],
  deleted: Uint8Array,
): Float64Array | undefined {
  if (columns.length !== 1 || deleted.includes(1)) return undefined
  const column = columns[0]!
  const out = new Float64Array(column.length)
  for (let i = 0; i < column.length; i++) {
    const v = column[i]
    if (v === null) out[i] = -Infinity
    else if (typeof v === 'number') out[i] = v
    else return undefined
  }
  return out
}
