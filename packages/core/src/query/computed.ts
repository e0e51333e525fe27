/**
 * @module The `query` and `orderBy` functions of computed attributes (4D's `Function query` and
 * `Function orderBy`): what they are asked and what they answer, checked and parsed. The binder
 * (bind.ts) calls them while it binds, with the comparison's actual value (a prepared query binds
 * again on every run), and binds what they return in the attribute's dataclass, so that the
 * planner can read indexes where the default would call the getter on every entity.
 *
 * A function that throws is not caught: its error is the query's. What it returns is the
 * application's code, not the client's: a value of the wrong shape is an Internal error (9099); a
 * text that does not parse, or names what the dataclass does not have, keeps its usual error
 * (FilterSyntax 9001, AttributeNotFound 1500, WrongOrderBy 1810…) with a message that names the
 * function it came from.
 */
import { LRUCache } from 'lru-cache'
import { fail } from '../errors/datastore-error.js'
import { fromFunction } from '../errors/from-function.js'
import type {
  CalculatedAttributeDef,
  ComputedQueryOperator,
  DataClassDef,
} from '../schema/definitions.js'
import type { ComparisonOp, FilterNode, OrderByItemNode } from './ast.js'
import { filterDepth, MAX_FILTER_DEPTH } from './ast.js'
import { parseOrderBy, parseQuery } from './parse-filter.js'

/**
 * The engine's operators as 4D names them for a query function. `begin` has no 4D name here (4D
 * writes it `=` with a trailing `@`): a comparison with it takes the default scan.
 */
const QUERY_OPERATORS: Readonly<Record<ComparisonOp, ComputedQueryOperator | undefined>> = {
  eq: '==',
  strictEq: '===',
  ne: '!=',
  strictNe: '!==',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
  in: 'IN',
  contains: '%',
  begin: undefined,
}

/** A query function's answer, parsed: the filter to bind and the values of its placeholders. */
export interface ComputedFilter {
  readonly operator: ComputedQueryOperator
  readonly filter: FilterNode
  readonly params: readonly unknown[]
}

// Query functions return a few texts over and over (their values go in `parameters`): parsed once.
const filters = new LRUCache<string, FilterNode>({ max: 256 })
const orders = new LRUCache<string, readonly OrderByItemNode[]>({ max: 256 })

/** `Employee.fullName`, for messages. */
const nameOf = (dc: DataClassDef, attr: CalculatedAttributeDef): string => `${dc.name}.${attr.name}`

/**
 * Asks `attr`'s query function for the filter that replaces `attr op value`; undefined when the
 * default scan must answer (no function, an operator it is not asked about, a null answer).
 */
export function computedFilter(
  dc: DataClassDef,
  attr: CalculatedAttributeDef,
  op: ComparisonOp,
  value: unknown,
): ComputedFilter | undefined {
  const query = attr.query
  const operator = QUERY_OPERATORS[op]
  if (!query || !operator) return undefined
  const answer: unknown = query(
    Object.freeze({
      attributeName: attr.name,
      dataClassName: dc.name,
      kind: 'query' as const,
      value,
      operator,
    }),
  )
  if (answer === null || answer === undefined) return undefined
  const where = `the query function of ${nameOf(dc, attr)}`
  let text: unknown
  let params: unknown = []
  if (typeof answer === 'string') text = answer
  else if (typeof answer === 'object' && !Array.isArray(answer)) {
    text = (answer as { query?: unknown }).query
    params = (answer as { parameters?: unknown }).parameters ?? []
  }
  if (typeof text !== 'string') {
    fail('Internal', [
      `${where} returned ${shapeOf(answer)}: expected a query string, { query, parameters }, or null`,
    ])
  }
  if (!Array.isArray(params))
    fail('Internal', [`${where} returned parameters that are ${shapeOf(params)}, not an array`])
  return { operator, filter: parsedFilter(text, where), params }
}

function parsedFilter(text: string, where: string): FilterNode {
  const cached = filters.get(text)
  if (cached) return cached
  const parsed = fromFunction(where, () => parseQuery(text, where))
  if (parsed.orderBy.length > 0)
    fail('FilterSyntax', [
      `${where} returned a query with "order by", which is not supported there`,
    ])
  if (!parsed.filter) return fail('FilterSyntax', [`${where} returned an empty query`])
  // The binder checks the depth of the query it is given; this one is bound inside it.
  const depth = filterDepth(parsed.filter)
  if (depth > MAX_FILTER_DEPTH)
    fail('FilterSyntax', [`${where} returned a query nested ${depth} levels deep`])
  filters.set(text, parsed.filter)
  return parsed.filter
}

/**
 * Asks `attr`'s orderBy function for the order that replaces a sort on it, parsed; undefined when
 * the default sort must answer (no function, a null answer).
 */
export function computedOrder(
  dc: DataClassDef,
  attr: CalculatedAttributeDef,
  descending: boolean,
): readonly OrderByItemNode[] | undefined {
  const orderBy = attr.orderBy
  if (!orderBy) return undefined
  const answer: unknown = orderBy(
    Object.freeze({
      attributeName: attr.name,
      dataClassName: dc.name,
      kind: 'orderBy' as const,
      operator: descending ? ('desc' as const) : ('asc' as const),
      descending,
    }),
  )
  if (answer === null || answer === undefined) return undefined
  const where = `the orderBy function of ${nameOf(dc, attr)}`
  if (typeof answer !== 'string')
    fail('Internal', [`${where} returned ${shapeOf(answer)}: expected an order-by string or null`])
  let items = orders.get(answer)
  if (!items) {
    items = fromFunction(where, () => parseOrderBy(answer, where))
    orders.set(answer, items)
  }
  return items
}

function shapeOf(v: unknown): string {
  if (Array.isArray(v)) return 'an array'
  if (v === null) return 'null'
  if (typeof v === 'object') return 'an object without a "query" string'
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : `a ${typeof v}`
}
