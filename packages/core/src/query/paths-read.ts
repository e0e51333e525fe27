/**
 * @module The attribute paths a query reads: each comparison's path and each ordering's, as the
 * names of their steps (`employer.name` → ['employer', 'name']). What a permission check walks
 * (access/actor.ts `needPath`): a query may read only what its caller may read. A path given as a
 * placeholder (`:1 = 5`) is read from its value, as the binder will read it.
 */
import type { FilterNode, OrderByItemNode, QueryNode } from './ast.js'
import { placeholderPath, type PathsOf, type PathValues } from './path-placeholders.js'

type Paths = readonly (readonly string[])[]

// Parsed queries are frozen and cached by text: their paths are worked out once.
const kept = new WeakMap<object, Paths>()

/** What the placeholders of paths stand for in one run of a query, and its dataclass for errors. */
export interface PathsFilled extends PathsOf {
  readonly values: PathValues
}

/** The paths `query` reads: its filter's, then its `order by`'s. */
export function pathsRead(query: QueryNode, filled?: PathsFilled): Paths {
  let paths = kept.get(query)
  if (paths === undefined) {
    const out: string[][] = []
    const fixed = query.filter ? filterPaths(query.filter, out, filled) : true
    for (const item of query.orderBy) out.push(steps(item))
    paths = Object.freeze(out)
    // Paths read from placeholders change from run to run: only fixed ones are kept.
    if (fixed) kept.set(query, paths)
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

/** Adds the paths of `node` to `out`; false when one of them was a placeholder's. */
function filterPaths(node: FilterNode, out: string[][], filled: PathsFilled | undefined): boolean {
  switch (node.kind) {
    case 'Comparison': {
      const { path } = node
      if (path.kind === 'AttributePath') {
        out.push(path.segments.map((s) => s.name))
        return true
      }
      const { values, ...of } = filled ?? { values: {}, dataClass: '' }
      out.push(placeholderPath(path, values, of).segments.map((s) => s.name))
      return false
    }
    case 'Logical': {
      let fixed = true
      for (const operand of node.operands) fixed = filterPaths(operand, out, filled) && fixed
      return fixed
    }
    case 'Not':
      return filterPaths(node.operand, out, filled)
  }
}
