/**
 * @module What both the executor and explain read off a plan: the dataclass it finds rows of, and
 * the text equalities of an OR merged into one pattern test.
 */
import type { DataClassDef } from '../schema/definitions.js'
import { leafPlan, type LeafPlan, type PlanNode } from './plan.js'

/**
 * Leaves `text = x` / `text IN [..]` / `text begin x` of an OR on one attribute become one IN leaf
 * (the rest stay): `begin x` is the pattern `x@`. Used by the executor on the operands it tests per
 * row, and by plans to say so.
 */
export function mergeTextEqualities(nodes: readonly PlanNode[]): PlanNode[] {
  const byAttribute = new Map<string, LeafPlan[]>()
  const out: PlanNode[] = []
  for (const n of nodes) {
    const mergeable =
      n.kind === 'Leaf' &&
      n.bound.folds &&
      n.bound.operand.kind === 'storage' &&
      (n.bound.op === 'eq' || n.bound.op === 'in' || n.bound.op === 'begin')
    if (!mergeable) {
      out.push(n)
      continue
    }
    const name = (n.bound.operand as { attr: { name: string } }).attr.name
    const group = byAttribute.get(name)
    if (group) group.push(n)
    else byAttribute.set(name, [n])
  }
  for (const group of byAttribute.values()) {
    if (group.length === 1) {
      out.push(group[0]!)
      continue
    }
    const items = group.flatMap((l) =>
      l.bound.value.kind === 'list' ? l.bound.value.items : [l.bound.value],
    )
    const first = group[0]!
    out.push(
      leafPlan(
        { ...first.bound, op: 'in', value: { kind: 'list', items } },
        first.access,
        first.estimate,
      ),
    )
  }
  return out
}

/**
 * True for a bound that the AND's driver read as the other end of its index range: the driver's
 * rows all satisfy it. Only where the driver runs through its index: as a per-row test (under a
 * NOT, inside an OR…) the AND tests both bounds.
 */
export const isCovered = (node: PlanNode): boolean => node.kind === 'Leaf' && node.covered === true

/** The dataclass a plan node selects from. */
export function dataClassOfPlan(node: PlanNode): DataClassDef {
  switch (node.kind) {
    case 'Leaf':
    case 'Linked':
    case 'Join':
    case 'ReverseJoin':
    case 'Computed':
      return node.bound.dataClass
    case 'Not':
      return dataClassOfPlan(node.operand)
    case 'And':
    case 'Or':
    case 'Except':
      return dataClassOfPlan(node.operands[0]!)
  }
}
