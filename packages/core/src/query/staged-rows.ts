/**
 * @module A query of the calling process inside a transaction with staged writes in the queried
 * dataclass (txn/staged-table.ts): when the filter's answer for a row depends on that row's own
 * values alone, or also on dataclasses the transaction did not write (a join into them), it runs
 * on the committed table, whose indexes answer, and the staged rows are then tested one by one
 * (`withStaged`): what a transaction with a few writes costs a query is a test of each. A filter
 * that reaches a dataclass it wrote through a relation, or a computed attribute (its code may read
 * anything), runs on the views instead, which scans them.
 */
import type { RowIds } from '../sets/row-ids.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { Staging } from '../txn/staged-table.js'
import { predicateOf } from './execute.js'
import type { ExecContext } from './exec-context.js'
import type { PlanNode } from './plan.js'
import { finish } from './slices.js'

type Tested = Extract<PlanNode, { kind: 'Leaf' | 'Linked' }>
type Joined = Extract<PlanNode, { kind: 'Join' | 'ReverseJoin' }>

/**
 * Whether `node`, a plan of the queried dataclass, may run on the committed table and then test
 * the staged rows (see the module note); `staged` says whether the transaction wrote in a
 * dataclass.
 */
export const testsStagedRows = (node: PlanNode, staged: (dc: DataClassDef) => boolean): boolean =>
  every(node, stored, (join) => readsCommitted(join.inner, staged))

// Whether `node` reads only dataclasses the transaction did not write, and no computed attribute:
// its answer is then the same on the committed tables.
const readsCommitted = (node: PlanNode, staged: (dc: DataClassDef) => boolean): boolean =>
  every(
    node,
    (leaf) => stored(leaf) && !staged(leaf.bound.dataClass),
    (join) => !staged(join.bound.dataClass) && readsCommitted(join.inner, staged),
  )

// A comparison of a stored value: a computed attribute's code may read anything.
const stored = (leaf: Tested): boolean =>
  leaf.kind === 'Linked' || leaf.bound.operand.kind !== 'calculated'

// Whether `leaf` holds for each comparison of `node` and `join` for each join (which says for its
// inner plan), through NOT, AND, OR, EXCEPT and a computed attribute's filter.
function every(
  node: PlanNode,
  leaf: (node: Tested) => boolean,
  join: (node: Joined) => boolean,
): boolean {
  switch (node.kind) {
    case 'Leaf':
    case 'Linked':
      return leaf(node)
    case 'Join':
    case 'ReverseJoin':
      return join(node)
    case 'Computed':
      return every(node.inner, leaf, join)
    case 'Not':
      return every(node.operand, leaf, join)
    case 'And':
    case 'Or':
    case 'Except':
      return node.operands.every((o) => every(o, leaf, join))
  }
}

/**
 * The rows a filter found in the committed table, brought to the transaction's view of it: the
 * rows it staged left out, and those of its staged versions that pass the same per-row test an AND
 * uses, read from the staged values, added.
 */
export function withStaged(
  rows: RowIds,
  root: PlanNode,
  ctx: ExecContext,
  staging: Staging,
): number[] {
  const tester = staging.tester
  const own = staging.committed.def.name
  const tableOf = ctx.tableOf
  const { test } = finish(
    predicateOf(root, { ...ctx, tableOf: (dc) => (dc.name === own ? tester : tableOf(dc)) }),
  )
  const staged = staging.rows
  const out: number[] = []
  for (let i = 0; i < rows.length; i++) if (!staged.has(rows[i]!)) out.push(rows[i]!)
  for (const [rowId, record] of staged) if (record !== null && test(rowId)) out.push(rowId)
  return out
}
