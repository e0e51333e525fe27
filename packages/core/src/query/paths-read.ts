/**
 * @module The attribute paths a query reads: each comparison's path and each ordering's, as the
 * names of their steps (`employer.name` → ['employer', 'name']). What a permission check walks
 * (access/actor.ts `needPath`): a query may read only what its caller may read.
 */
import type { FilterNode, OrderByItemNode, QueryNode } from './ast.js'

type Paths = readonly (readonly string[])[]

// Parsed queries are frozen and cached by text: their paths are worked out once.
const kept = new WeakMap<object, Paths>()

/** The paths `query` reads: its filter's, then its `order by`'s. */
export function pathsRead(query: QueryNode): Paths {
  let paths = kept.get(query)
  if (paths === undefined) {
    const out: string[][] = []
    if (query.filter) filterPaths(query.filter, out)
    for (const item of query.orderBy) out.push(steps(item))
    paths = Object.freeze(out)
    kept.set(query, paths)
  }
  return paths
}

/** The paths an ordering (`$orderby`, `orderBy(text)`) reads. */
export function orderPathsRead(items: readonly OrderByItemNode[]): Paths {
  let paths = kept.get(items)
  if (paths === undefined) {
    paths = Object.freeze(items.map(steps))
    kept.set(items, paths)
  }
  return paths
}

const steps = (item: OrderByItemNode): string[] => item.path.segments.map((s) => s.name)

function filterPaths(node: FilterNode, out: string[][]): void {
  switch (node.kind) {
    case 'Comparison':
      out.push(node.path.segments.map((s) => s.name))
      return
    case 'Logical':
      for (const operand of node.operands) filterPaths(operand, out)
      return
    case 'Not':
      return filterPaths(node.operand, out)
  }
}
