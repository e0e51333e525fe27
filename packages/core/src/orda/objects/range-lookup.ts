/**
 * @module The index lookup of a prepared query that is a range with both bounds on one number or
 * text attribute with a sorted index (`salary >= :1 and salary < :2`, `code >= 'C1' and code <
 * 'C2'`, `>` and `<=` alike, the bounds in either order): the two positions read from the index,
 * as the general path reads them once the planner has paired the two comparisons (planner.ts
 * `boundPartners`), without binding, planning or the executor, which were most of such a query (a
 * 20-row range at 200k rows took 8 µs where an indexed equality took 1.4). Values of the
 * attribute's own type (index-lookup.ts `exactKey`: the keys the general path would make, a text
 * folded as its `<` compares); a range of more rows than one step of the budget is the general
 * path's, which reads it in steps.
 */
import { Ast, type ComparisonNode, type FilterNode, type QueryNode } from '../../query/ast.js'
import { bindFilter } from '../../query/bind.js'
import { BUDGET_STEP } from '../../query/budget.js'
import type { KeptReads } from '../../query/kept-reads.js'
import type { SortedIndex } from '../../indexes/sorted-index.js'
import type { SortKey } from '../../values/compare.js'
import { exactKey, type Lookup, type LookupTarget } from './index-lookup.js'

const RANGED_TYPES: ReadonlySet<string> = new Set([
  'byte',
  'word',
  'long',
  'long64',
  'number',
  'string',
])

/** The lookup of `query` when it is such a range (see above), or undefined. */
export function rangeLookup(
  dc: LookupTarget,
  query: QueryNode,
  exposedOnly: boolean,
  reads: KeptReads,
): Lookup | undefined {
  const bounds = boundsOf(query.filter)
  if (bounds === undefined) return
  const { lower, upper } = bounds
  // Each path resolved once, as indexLookup resolves one (`= null` binds on every type).
  const attrOf = (c: ComparisonNode) => {
    const shape = bindFilter(
      dc.datastore.schema,
      dc.def,
      { ...c, op: 'eq', value: Ast.literal({ type: 'null', value: null }) },
      { exposedOnly, computedQueries: false, reads },
    )
    return shape.kind === 'Comparison' &&
      shape.operand.kind === 'storage' &&
      shape.type === shape.operand.attr.type &&
      RANGED_TYPES.has(shape.type)
      ? shape.operand.attr
      : undefined
  }
  const attr = attrOf(lower)
  if (attr === undefined || attrOf(upper) !== attr) return
  const keyOf = exactKey(attr.type, false)!
  const low = valueReader(lower)
  const high = valueReader(upper)
  if (low === undefined || high === undefined) return
  const lowerInclusive = lower.op === 'ge'
  const upperInclusive = upper.op === 'le'
  const table = dc.table
  const sorted = (): SortedIndex | undefined => table.indexes.of(attr.name)?.sorted
  return {
    rows(params, most = BUDGET_STEP) {
      const from = keyOf(low(params))
      const to = keyOf(high(params))
      const ix = from === undefined || to === undefined ? undefined : sorted()
      if (ix === undefined) return undefined
      const [s, e] = ix.range(
        { key: from as SortKey, inclusive: lowerInclusive },
        { key: to as SortKey, inclusive: upperInclusive },
      )
      return e - s > Math.min(most, BUDGET_STEP) ? undefined : ix.rows(s, e)
    },
    indexed: () => sorted() !== undefined,
  }
}

/** The lower and the upper bound of an AND of two range comparisons, or undefined. */
function boundsOf(
  filter: FilterNode | null,
): { lower: ComparisonNode; upper: ComparisonNode } | undefined {
  if (filter?.kind !== 'Logical' || filter.op !== 'And' || filter.operands.length !== 2) return
  const [a, b] = filter.operands as [FilterNode, FilterNode]
  if (a.kind !== 'Comparison' || b.kind !== 'Comparison') return
  const isLower = (c: ComparisonNode) => c.op === 'gt' || c.op === 'ge'
  const isUpper = (c: ComparisonNode) => c.op === 'lt' || c.op === 'le'
  if (isLower(a) && isUpper(b)) return { lower: a, upper: b }
  if (isUpper(a) && isLower(b)) return { lower: b, upper: a }
  return undefined
}

/** How a comparison's value is read from a run's values: a literal, or a numbered placeholder. */
function valueReader(c: ComparisonNode): ((params: readonly unknown[]) => unknown) | undefined {
  if (c.path.kind === 'Placeholder') return
  const v = c.value
  if (v.kind === 'Literal') return () => v.value
  if (v.kind === 'Placeholder' && v.index !== undefined) {
    const i = v.index
    return (params) => (i <= params.length ? params[i - 1] : undefined)
  }
  return undefined
}
