/**
 * @module The executor: runs a plan and returns the matching row ids (unique, in no order), and,
 * when asked, the path it took: each step's time and number of rows found (4D's `__queryPath`).
 *
 * A restricted dataclass (its `restrict` event, visibility.ts) is narrowed where a relation leads
 * into it: a join keeps the related rows the session may see before it maps them back, in every
 * form a join takes (run by itself, or as a per-row test of an AND). With a query path, every step
 * is narrowed to the rows of its dataclass the session may see, so that no count says more than
 * the session could count itself, and the query's own step counts what its selection holds. The
 * query's own rows are narrowed by the selection made of them (orda/objects/queries.ts).
 */
import type { DataClassDef } from '../schema/definitions.js'
import type { Table } from '../store/table.js'
import type { RowIds } from '../sets/row-ids.js'
import { finish, type ChangedRows, type Work } from './slices.js'
import { columnReady, steps } from './row-steps.js'
import { BUDGET_STEP } from './budget.js'
import { isIndexed, type PlanNode, type SetPlan } from './plan.js'
import { visibleRows } from './visibility.js'
import {
  callsSteps,
  columnOf,
  comparisonPredicate,
  linkedPredicate,
  madeOf,
  type RowPredicate,
} from './predicate.js'
import type { ExecContext, PathStep, Execution } from './exec-context.js'
import { mergeTextEqualities, isCovered, dataClassOfPlan } from './plan-reading.js'
import { scan, filterRows, leafRows } from './leaf-rows.js'
import { keysOf, foreignKeysOf, joinRows } from './join-rows.js'

/** Runs `node` over its whole dataclass, in one piece. */
export function execute(node: PlanNode, ctx: ExecContext): Execution {
  return finish(executeWork(node, ctx))
}

/**
 * `executeWork` after the columns its per-row tests read are made in steps (`columnReady`), rather
 * than in one piece when the first test is made: the work a slice scope runs for a query.
 */
export function* planWork(node: PlanNode, ctx: ExecContext): Work<Execution> {
  yield* columnsOf(node, ctx, false)
  const ran = yield* executeWork(node, ctx)
  return ctx.positions?.walked ? { ...ran, walked: true } : ran
}

// The columns the tests of `node` read (`tested`: the node is a per-row test, not run by itself),
// as the executor below makes its tests.
function* columnsOf(node: PlanNode, ctx: ExecContext, tested: boolean): Work<void> {
  switch (node.kind) {
    case 'Leaf': {
      const kind = columnOf(node.bound)
      if (kind && (tested || node.access.kind === 'scan' || node.bound.operand.kind !== 'storage'))
        yield* columnReady(ctx.tableOf(node.bound.dataClass), node.bound.operand.attr!.name, kind)
      return
    }
    case 'Linked':
      return
    case 'Join':
    case 'ReverseJoin':
    case 'Computed':
      return yield* columnsOf(node.inner, ctx, false)
    case 'Not':
      return yield* columnsOf(node.operand, ctx, tested)
    case 'And':
      for (const [i, o] of node.operands.entries())
        yield* columnsOf(o, ctx, tested || !node.driven || i > 0)
      return
    case 'Or':
      for (const o of node.operands) yield* columnsOf(o, ctx, tested || !isIndexed(o))
      return
    case 'Except':
      for (const o of node.operands) yield* columnsOf(o, ctx, tested)
  }
}

/** Runs `node` over its whole dataclass, as work that may stop between steps (slices.ts). */
export function* executeWork(node: PlanNode, ctx: ExecContext): Work<Execution> {
  // The clock is read only when a query path is wanted: two reads per plan node otherwise wasted.
  const start = ctx.trace ? ctx.clock.now() : 0
  const ran = yield* run(node, ctx)
  const { children } = ran
  // A query path counts what the session may see at every step (see the module comment).
  const rows =
    ctx.trace && ctx.allowed ? visibleRows(ran.rows, ctx.allowed(dataClassOfPlan(node))) : ran.rows
  const time = ctx.trace ? ctx.clock.now() - start : 0
  return { rows, step: { node, time, found: rows.length, children } }
}

/**
 * How `node`'s rows, found while writes went on between slices, are brought to the data as it is
 * now (slices.ts): the rows changed since are tested again, by the same per-row test an AND uses.
 * Only a plan whose test reads its own rows alone can: one through a join or a calculated attribute
 * reads other rows that may have changed too (undefined: it is run again).
 */
export function refreshExecution(
  node: PlanNode,
  ctx: ExecContext,
): (ran: Execution, changed: ChangedRows) => Execution | undefined {
  const table = ctx.tableOf(dataClassOfPlan(node))
  const own = readsOwnRows(node) && !ctx.trace
  return (ran, changed) => {
    if (!own) return undefined
    const touched = changed.of(table)
    if (touched === undefined) return ran
    // An index range read over slices while rows moved may have skipped or repeated any row.
    if (ran.walked) return undefined
    const { test } = finish(predicateOf(node, ctx))
    const rows: number[] = []
    for (let i = 0; i < ran.rows.length; i++)
      if (!touched.has(ran.rows[i]!)) rows.push(ran.rows[i]!)
    for (const r of touched) if (table.has(r) && test(r)) rows.push(r)
    return { rows, step: ran.step }
  }
}

/** Whether a per-row test of `node` reads the row's own stored values alone. */
function readsOwnRows(node: PlanNode): boolean {
  switch (node.kind) {
    case 'Leaf':
      return node.bound.operand.kind === 'storage'
    case 'Linked':
      return true
    case 'Join':
    case 'ReverseJoin':
    case 'Computed':
      return false
    case 'Not':
      return readsOwnRows(node.operand)
    case 'And':
    case 'Or':
    case 'Except':
      return node.operands.every(readsOwnRows)
  }
}

/**
 * The rows of a join's inner plan, in the related dataclass, that the session may see: a hidden
 * related entity is as if it did not exist. (With a query path, `execute` narrowed them already.)
 */
function* related(inner: PlanNode, target: DataClassDef, ctx: ExecContext): Work<Execution> {
  const ran = yield* executeWork(inner, ctx)
  if (ctx.trace || !ctx.allowed) return ran
  return { rows: visibleRows(ran.rows, ctx.allowed(target)), step: ran.step }
}

function* run(node: PlanNode, ctx: ExecContext): Work<{ rows: RowIds; children: PathStep[] }> {
  switch (node.kind) {
    case 'Leaf':
      return { rows: yield* leafRows(node.bound, node.access, ctx), children: [] }
    case 'Linked': {
      const table = ctx.tableOf(node.bound.dataClass)
      return { rows: yield* scan(table, linkedPredicate(node.bound, table)), children: [] }
    }
    case 'Join': {
      const inner = yield* related(node.inner, node.bound.target, ctx)
      return {
        rows: yield* joinRows(
          node.bound.dataClass,
          node.bound.relation.foreignKey,
          yield* keysOf(node.bound.target, inner.rows, ctx),
          ctx,
        ),
        children: [inner.step],
      }
    }
    case 'ReverseJoin': {
      const inner = yield* related(node.inner, node.bound.target, ctx)
      const table = ctx.tableOf(node.bound.dataClass)
      const keys = [
        ...(yield* foreignKeysOf(node.bound.target, node.bound.relation.inverse, inner.rows, ctx)),
      ]
      const out: number[] = []
      yield* steps(keys.length, (from, to) => {
        for (let i = from; i < to; i++) {
          const rowId = table.rowIdOf(keys[i]!)
          if (rowId !== undefined) out.push(rowId)
        }
      })
      return { rows: out, children: [inner.step] }
    }
    case 'Computed': {
      const inner = yield* executeWork(node.inner, ctx)
      return { rows: inner.rows, children: [inner.step] }
    }
    case 'And': {
      const children: PathStep[] = []
      const dc = dataClassOfPlan(node)
      const table = ctx.tableOf(dc)
      if (!ctx.trace) return { rows: yield* fusedAnd(node, table, ctx), children }
      let rows: RowIds | undefined
      for (const [i, operand] of node.operands.entries()) {
        const start = ctx.clock.now()
        if (i === 0 && node.driven) {
          const first = yield* executeWork(operand, ctx)
          rows = first.rows
          children.push(first.step)
          continue
        }
        // Filtering candidates: the operand is a per-row test (a join becomes a key-set test). A
        // bound the driver's index range already applied passes every candidate.
        const { test, steps } = isCovered(operand)
          ? { test: () => true, steps: [] }
          : yield* predicateOf(operand, ctx)
        const from = rows
        // The driver's rows are visible ones (execute); a scan's are narrowed as a step would be.
        rows =
          from === undefined
            ? visibleRows(yield* scan(table, test), ctx.allowed?.(dc))
            : yield* filterRows(table, from, test)
        children.push({
          node: operand,
          time: ctx.clock.now() - start,
          found: rows.length,
          children: steps,
        })
        if (rows.length === 0) break // 4D: "if a part of the query returns no entities, the rest is not executed"
      }
      return { rows: rows ?? [], children }
    }
    case 'Or': {
      if (!ctx.trace) return { rows: yield* fusedOr(node, ctx), children: [] }
      const parts: Execution[] = []
      for (const o of node.operands) parts.push(yield* executeWork(o, ctx))
      const capacity = ctx.tableOf(dataClassOfPlan(node)).rowCapacity
      const seen = new Uint8Array(capacity)
      const rows: number[] = []
      for (const p of parts) for (const r of p.rows) if (!seen[r]) ((seen[r] = 1), rows.push(r))
      return { rows, children: parts.map((p) => p.step) }
    }
    case 'Except': {
      const parts: Execution[] = []
      for (const o of node.operands) parts.push(yield* executeWork(o, ctx))
      const table = ctx.tableOf(dataClassOfPlan(node))
      const removed = new Uint8Array(table.rowCapacity)
      for (const p of parts.slice(1)) for (const r of p.rows) removed[r] = 1
      return { rows: parts[0]!.rows.filter((r) => !removed[r]), children: parts.map((p) => p.step) }
    }
    case 'Not': {
      const inner = yield* executeWork(node.operand, ctx)
      const table = ctx.tableOf(dataClassOfPlan(node))
      const hit = new Uint8Array(table.rowCapacity)
      for (const r of inner.rows) hit[r] = 1
      const rows: number[] = []
      yield* steps(table.scanLength, (from, to) => {
        for (let i = from; i < to; i++) if (!hit[i] && table.has(i)) rows.push(i)
      })
      return { rows, children: [inner.step] }
    }
  }
}

/**
 * An AND without a query path to report: the driver's rows (or every row) filtered in one pass by
 * all the other operands together, instead of one pass per operand.
 */
function* fusedAnd(
  node: Extract<PlanNode, { kind: 'And' }>,
  table: Table,
  ctx: ExecContext,
): Work<RowIds> {
  const rest = (node.driven ? node.operands.slice(1) : node.operands).filter((o) => !isCovered(o))
  const tests: RowPredicate[] = []
  for (const o of rest) tests.push((yield* predicateOf(o, ctx)).test)
  const test = madeOf(allOf(tests), tests)
  if (!node.driven) return yield* scan(table, test)
  const first = (yield* executeWork(node.operands[0]!, ctx)).rows
  return tests.length === 0 || first.length === 0 ? first : yield* filterRows(table, first, test)
}

/**
 * An OR without a query path to report: its indexed operands read through their indexes, and all
 * the others tested in one pass over the table (instead of one pass each), skipping rows already
 * found. Equalities, INs and `begin`s on the same text attribute are merged into one IN first, so
 * a row's folded value meets all their patterns together (see foldedTest).
 */
function* fusedOr(node: SetPlan, ctx: ExecContext): Work<number[]> {
  const table = ctx.tableOf(dataClassOfPlan(node))
  const seen = new Uint8Array(table.rowCapacity)
  const rows: number[] = []
  const scanned: PlanNode[] = []
  for (const operand of node.operands) {
    if (!isIndexed(operand)) {
      scanned.push(operand)
      continue
    }
    for (const r of (yield* executeWork(operand, ctx)).rows)
      if (!seen[r]) ((seen[r] = 1), rows.push(r))
  }
  if (scanned.length === 0) return rows
  const tests: RowPredicate[] = []
  for (const o of mergeTextEqualities(scanned)) tests.push((yield* predicateOf(o, ctx)).test)
  const test: RowPredicate = tests.length === 1 ? tests[0]! : (r) => tests.some((t) => t(r))
  yield* steps(
    table.scanLength,
    (from, to) => {
      for (let i = from; i < to; i++) if (!seen[i] && table.has(i) && test(i)) rows.push(i)
    },
    BUDGET_STEP,
    true,
    tests.some(callsSteps),
  )
  return rows
}

/** One test for all of `tests`, unrolled for the usual two or three. */
function allOf(tests: readonly RowPredicate[]): RowPredicate {
  const [a, b, c] = tests
  switch (tests.length) {
    case 0:
      return () => true
    case 1:
      return a!
    case 2:
      return (r) => a!(r) && b!(r)
    case 3:
      return (r) => a!(r) && b!(r) && c!(r)
    default:
      return (r) => tests.every((t) => t(r))
  }
}

/** A plan node as a per-row test. Joins run their inner plan once and test membership. */
export function* predicateOf(
  node: PlanNode,
  ctx: ExecContext,
): Work<{ test: RowPredicate; steps: PathStep[] }> {
  switch (node.kind) {
    case 'Leaf':
      return {
        test: comparisonPredicate(
          node.bound,
          ctx.entityOf(node.bound.dataClass),
          ctx.tableOf(node.bound.dataClass),
        ),
        steps: [],
      }
    case 'Linked':
      return {
        test: linkedPredicate(node.bound, ctx.tableOf(node.bound.dataClass)),
        steps: [],
      }
    case 'Join': {
      const inner = yield* related(node.inner, node.bound.target, ctx)
      const keys = new Set<unknown>(yield* keysOf(node.bound.target, inner.rows, ctx))
      const read = ctx.tableOf(node.bound.dataClass).reader(node.bound.relation.foreignKey)
      return { test: (r) => keys.has(read(r)), steps: [inner.step] }
    }
    case 'ReverseJoin': {
      const inner = yield* related(node.inner, node.bound.target, ctx)
      const keys: Set<unknown> = yield* foreignKeysOf(
        node.bound.target,
        node.bound.relation.inverse,
        inner.rows,
        ctx,
      )
      const table = ctx.tableOf(node.bound.dataClass)
      return { test: (r) => keys.has(table.keyOf(r)!), steps: [inner.step] }
    }
    case 'Computed':
      // The filter the query function returned, tested as it would be if written in the query.
      return yield* predicateOf(node.inner, ctx)
    case 'And':
    case 'Or': {
      // An OR's tests of one text attribute become one test of all their patterns together.
      const operands = node.kind === 'Or' ? mergeTextEqualities(node.operands) : node.operands
      const parts: { test: RowPredicate; steps: PathStep[] }[] = []
      for (const o of operands) parts.push(yield* predicateOf(o, ctx))
      const tests = parts.map((p) => p.test)
      const test: RowPredicate = node.kind === 'And' ? allOf(tests) : (r) => tests.some((t) => t(r))
      return { test: madeOf(test, tests), steps: parts.flatMap((p) => p.steps) }
    }
    case 'Except': {
      const parts: { test: RowPredicate; steps: PathStep[] }[] = []
      for (const o of node.operands) parts.push(yield* predicateOf(o, ctx))
      const [first, ...rest] = parts.map((p) => p.test)
      return {
        test: madeOf((r) => first!(r) && !rest.some((t) => t(r)), [first!, ...rest]),
        steps: parts.flatMap((p) => p.steps),
      }
    }
    case 'Not': {
      const inner = yield* predicateOf(node.operand, ctx)
      return { test: madeOf((r) => !inner.test(r), [inner.test]), steps: inner.steps }
    }
  }
}
