/**
 * @module Attribute paths given as placeholders (4D's `query()`, "Using placeholders": a
 * placeholder may stand for an *attributePath*, `ds.Employee.query(":1 = 1234 and :2 = :3",
 * "salary", "name", "Smith")`, or `:att` with `{ attributes: { att: "name" } }` in the query
 * settings). An indexed placeholder takes its path from the values, as a value placeholder does; a
 * named one from `attributes`, never from `parameters`. A path is a string in dot notation or, as
 * 4D's `attributes` also takes, an array of names, one a level (names that dot notation cannot
 * write). The value is read when the query is bound, so one text serves many paths.
 */
import { fail } from '../errors/datastore-error.js'
import { describeValue } from '../values/coerce.js'
import {
  Ast,
  MAX_FILTER_DEPTH,
  type AttributePathNode,
  type ComparisonNode,
  type PathComparisonNode,
  type PlaceholderNode,
} from './ast.js'
import { parseAttributePath } from './parse-filter.js'

/** Where placeholders find their paths: `:1` in `params`, `:name` in `attributes`. */
export interface PathValues {
  readonly params?: readonly unknown[] | undefined
  readonly attributes?: Readonly<Record<string, unknown>> | undefined
}

/**
 * The dataclass a placeholder's path starts in, for its errors: its name, and the attribute names
 * its caller may use (asked only when a path names none, for the error's suggestions).
 */
export interface PathsOf {
  readonly dataClass: string
  readonly known?: (() => Iterable<string>) | undefined
}

/** `node` with its path written out: its own, or its placeholder's. */
export function filledComparison(
  node: ComparisonNode,
  values: PathValues,
  of: PathsOf,
): PathComparisonNode {
  if (node.path.kind === 'AttributePath') return node as PathComparisonNode
  return Ast.comparison(placeholderPath(node.path, values, of), node.op, node.value)
}

/**
 * The path a placeholder stands for. A value that is no path is 9003; a text that is no attribute
 * path (`first name`) names no attribute, 1500 as any unknown name, before the binder's own check.
 */
export function placeholderPath(
  p: PlaceholderNode,
  values: PathValues,
  of: PathsOf,
): AttributePathNode {
  const raw = valueOf(p, values)
  const shown = p.index === undefined ? `:${p.name}` : `:${p.index}`
  let path: AttributePathNode | undefined
  if (typeof raw === 'string') {
    path = parseAttributePath(raw)
    if (!path) return fail('AttributeNotFound', [raw, of.dataClass, of.known?.() ?? []])
  } else if (
    Array.isArray(raw) &&
    raw.length > 0 &&
    raw.every((name) => typeof name === 'string' && name !== '')
  ) {
    path = Ast.path((raw as string[]).map((name) => ({ name })))
  } else {
    return fail('InvalidComparison', [
      `${shown} stands for an attribute path: a string ("employer.name") or an array of names, not ${describeValue(raw)}`,
    ])
  }
  if (path.segments.length > MAX_FILTER_DEPTH)
    fail('FilterSyntax', [`the path of ${shown} has more than ${MAX_FILTER_DEPTH} steps`])
  return path
}

function valueOf(p: PlaceholderNode, values: PathValues): unknown {
  if (p.index !== undefined) {
    const params = values.params ?? []
    if (p.index > params.length) fail('PlaceholderOutOfRange', [`:${p.index}`, params.length])
    return params[p.index - 1]
  }
  const attributes = values.attributes ?? {}
  if (!Object.hasOwn(attributes, p.name))
    fail('PlaceholderOutOfRange', [`:${p.name}`, Object.keys(attributes).length])
  return attributes[p.name]
}
