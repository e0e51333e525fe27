/**
 * @module The filter AST: immutable, `kind`-tagged nodes (Kysely's operation nodes) produced by the
 * peggy grammar from `$filter`, `$orderby` and the TS `query()` strings.
 *
 * Every node is a frozen plain object. Each walker over the tree is a table keyed by `kind`
 * (`Record<FilterNode['kind'], …>`), so adding a kind fails to compile until every walker handles it.
 * The AST is purely syntactic: attribute paths are not resolved against a model and values are not
 * coerced. Binding (query/bind.ts) does that against a dataclass.
 */

/** Comparison operators, by meaning. The spellings each one accepts are in the grammar. */
export type ComparisonOp =
  | 'eq' // =, ==      : equal; `@` is a wildcard; case- and diacritic-insensitive for strings
  | 'strictEq' // ===, IS   : equal; `@` is a literal character
  | 'ne' // !=, #       : not equal; `@` is a wildcard
  | 'strictNe' // !==, IS NOT : not equal; `@` is literal
  | 'lt' // <
  | 'gt' // >
  | 'le' // <=
  | 'ge' // >=
  | 'begin' // begin     : begins with
  | 'in' // IN [..] / IN :n : equal to one of the values; `@` is a wildcard
  | 'contains' // %         : contains the keyword (whole word)

export type LogicalOp = 'And' | 'Or' | 'Except'

/** The canonical spelling of each operator: what the printer writes and messages show. */
export const OPERATOR_TEXT: Readonly<Record<ComparisonOp, string>> = {
  eq: '=',
  strictEq: '===',
  ne: '!=',
  strictNe: '!==',
  lt: '<',
  gt: '>',
  le: '<=',
  ge: '>=',
  begin: 'begin',
  in: 'IN',
  contains: '%',
}

/**
 * One step of an attribute path. `collection` marks `name[]` (any element) or `name[a]` (linked
 * element `a`); `classIndex` marks `name{2}`, another reference of a relation (4D's class index:
 * the conditions of one AND through different references may be met by different related entities).
 */
export interface PathSegment {
  readonly name: string
  readonly collection?: { readonly letter: string | null }
  readonly classIndex?: number
}

export interface AttributePathNode {
  readonly kind: 'AttributePath'
  readonly segments: readonly PathSegment[]
}

/** A literal value as written. `date` literals are unquoted `YYYY-MM-DD`; the text is kept as written. */
export type LiteralValue =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly value: number }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'null'; readonly value: null }
  | { readonly type: 'date'; readonly value: string }

export type LiteralNode = { readonly kind: 'Literal' } & LiteralValue

/** `:1` (index is 1-based) or `:name`. */
export type PlaceholderNode =
  | { readonly kind: 'Placeholder'; readonly index: number; readonly name?: undefined }
  | { readonly kind: 'Placeholder'; readonly name: string; readonly index?: undefined }

/** `[v1, v2, …]`, the right side of IN. */
export interface ListNode {
  readonly kind: 'List'
  readonly items: readonly (LiteralNode | PlaceholderNode)[]
}

export type ValueNode = LiteralNode | PlaceholderNode | ListNode

/** `path op value`; the path may be a placeholder whose value names it (`:1 = 5`, `:att = :val`). */
export interface ComparisonNode {
  readonly kind: 'Comparison'
  readonly path: AttributePathNode | PlaceholderNode
  readonly op: ComparisonOp
  readonly value: ValueNode
}

/** A comparison whose path is written out (or was filled from its placeholder). */
export interface PathComparisonNode extends ComparisonNode {
  readonly path: AttributePathNode
}

/** Two or more operands joined by one operator, left to right (`a AND b AND c` is one node). */
export interface LogicalNode {
  readonly kind: 'Logical'
  readonly op: LogicalOp
  readonly operands: readonly FilterNode[]
}

export interface NotNode {
  readonly kind: 'Not'
  readonly operand: FilterNode
}

export type FilterNode = ComparisonNode | LogicalNode | NotNode

export interface OrderByItemNode {
  readonly kind: 'OrderByItem'
  readonly path: AttributePathNode
  readonly direction: 'asc' | 'desc'
}

/** A whole query string: an optional filter and an optional trailing `order by`. */
export interface QueryNode {
  readonly kind: 'Query'
  readonly filter: FilterNode | null
  readonly orderBy: readonly OrderByItemNode[]
}

export type AstNode = QueryNode | FilterNode | OrderByItemNode | AttributePathNode | ValueNode

/** Node factories: the only way nodes are made (the grammar's actions call them), always frozen. */
export const Ast = {
  path: (segments: readonly PathSegment[]): AttributePathNode =>
    Object.freeze({
      kind: 'AttributePath',
      segments: Object.freeze(segments.map((s) => Object.freeze({ ...s }))),
    }),
  literal: (v: LiteralValue): LiteralNode =>
    Object.freeze({ kind: 'Literal', ...v }) as LiteralNode,
  placeholder: (ref: number | string): PlaceholderNode =>
    Object.freeze(
      typeof ref === 'number'
        ? { kind: 'Placeholder', index: ref }
        : { kind: 'Placeholder', name: ref },
    ) as PlaceholderNode,
  list: (items: readonly (LiteralNode | PlaceholderNode)[]): ListNode =>
    Object.freeze({ kind: 'List', items: Object.freeze([...items]) }),
  comparison: <P extends AttributePathNode | PlaceholderNode>(
    path: P,
    op: ComparisonOp,
    value: ValueNode,
  ): ComparisonNode & { readonly path: P } =>
    Object.freeze({ kind: 'Comparison', path, op, value }),
  /** Joins operands, flattening nested nodes of the same operator: And(And(a,b),c) = And(a,b,c). */
  logical: (op: LogicalOp, operands: readonly FilterNode[]): FilterNode => {
    const flat: FilterNode[] = []
    for (const o of operands) {
      // EXCEPT is not associative on the right, but left-nested Except(Except(a,b),c) = a minus b minus c.
      if (o.kind === 'Logical' && o.op === op && (op !== 'Except' || flat.length === 0))
        flat.push(...o.operands)
      else flat.push(o)
    }
    if (flat.length === 1) return flat[0]!
    return Object.freeze({ kind: 'Logical', op, operands: Object.freeze(flat) })
  },
  not: (operand: FilterNode): NotNode => Object.freeze({ kind: 'Not', operand }),
  orderByItem: (path: AttributePathNode, direction: 'asc' | 'desc'): OrderByItemNode =>
    Object.freeze({ kind: 'OrderByItem', path, direction }),
  query: (filter: FilterNode | null, orderBy: readonly OrderByItemNode[]): QueryNode =>
    Object.freeze({ kind: 'Query', filter, orderBy: Object.freeze([...orderBy]) }),
} as const

/**
 * How deeply the engine recurses on a filter: one level per NOT, per AND/OR/EXCEPT node (a chain
 * of one operator is one node; OR and EXCEPT alternating nest one level per switch), and one per
 * step of an attribute path (each relation is a join). Parsers and builders can make any depth;
 * the binder refuses one past MAX_FILTER_DEPTH, so no walker can run out of stack. Measured
 * without recursion, since the tree may be deep.
 */
export function filterDepth(filter: FilterNode): number {
  let deepest = 0
  const stack: [FilterNode, number][] = [[filter, 1]]
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, depth] = top
    switch (node.kind) {
      case 'Comparison':
        // A placeholder's path is measured once filled (path-placeholders.ts).
        if (node.path.kind === 'AttributePath')
          deepest = Math.max(deepest, depth + node.path.segments.length - 1)
        else deepest = Math.max(deepest, depth)
        break
      case 'Not':
        stack.push([node.operand, depth + 1])
        break
      case 'Logical':
        for (const o of node.operands) stack.push([o, depth + 1])
        break
    }
  }
  return deepest
}

/**
 * The size of a filter, for limits an embedder sets on what clients may send: its depth (as
 * filterDepth), its number of comparisons, and the number of values written in IN lists. Measured
 * without recursion, since the tree may be deep.
 */
export function filterSize(filter: FilterNode): {
  depth: number
  comparisons: number
  listItems: number
} {
  let comparisons = 0
  let listItems = 0
  const stack: FilterNode[] = [filter]
  for (let node = stack.pop(); node; node = stack.pop()) {
    switch (node.kind) {
      case 'Comparison':
        comparisons++
        if (node.value.kind === 'List') listItems += node.value.items.length
        break
      case 'Not':
        stack.push(node.operand)
        break
      case 'Logical':
        for (const o of node.operands) stack.push(o)
        break
    }
  }
  return { depth: filterDepth(filter), comparisons, listItems }
}

/** The deepest filter the engine takes (see filterDepth); the grammar's nesting limit is the same. */
export const MAX_FILTER_DEPTH = 256

/** The dotted text of a path, `employer.name`, `children[].age` or `roles.actor{2}.lastName`. */
export function pathText(path: AttributePathNode): string {
  return path.segments.map(segmentText).join('.')
}

const segmentText = (s: PathSegment): string =>
  s.collection
    ? `${s.name}[${s.collection.letter ?? ''}]`
    : s.classIndex === undefined
      ? s.name
      : `${s.name}{${s.classIndex}}`
