/**
 * @module 4D's call forms of `query` and `orderBy` as TypeScript takes them:
 * `query(text, ...values, querySettings)`, the settings object last as in 4D, and
 * `orderBy([{ propertyPath, descending }])`, 4D's collection of criteria.
 *
 * Kept apart from the classes that take these forms (DataClass, EntitySelection): it needs none of
 * them, so it stays out of orda's import circle.
 */
import type { QueryOptions } from '../../query/run-query.js'

/** 4D's querySettings of `query()` that apply here. */
export interface QuerySettings {
  /** Values of named placeholders `:name`. */
  readonly parameters?: Readonly<Record<string, unknown>>
  /** Attribute paths of named placeholders written where a path goes (`:att = 5`). */
  readonly attributes?: Readonly<Record<string, string | readonly string[]>>
  /** Keep 4D's query plan on the result (`selection.queryPlan`). */
  readonly queryPlan?: boolean
  /** Keep 4D's query path on the result (`selection.queryPath`). */
  readonly queryPath?: boolean
  /**
   * 4D's label of a client/server optimization context: taken and ignored, since there is no
   * remote cache to optimize in one process.
   */
  readonly context?: string
  /**
   * 4D's settings of formulas (`args`, `allowFormulas`): a query text has none to run (4D's
   * `eval()` is not in the language), so they are taken and change nothing. A formula is given to
   * `dataClass.query(formula, settings)` (formula-query.ts).
   */
  readonly args?: unknown
  readonly allowFormulas?: boolean
}

const SETTINGS = new Set([
  'parameters',
  'attributes',
  'queryPlan',
  'queryPath',
  'context',
  'args',
  'allowFormulas',
])

/**
 * Whether the last argument of a query is its settings: a plain object whose every key is a
 * setting. A value compared with an object attribute is never such an object by accident in
 * practice, and 4D reads the last object the same way.
 */
export function isQuerySettings(value: unknown): value is QuerySettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) return false
  const keys = Object.keys(value)
  return keys.length > 0 && keys.every((k) => SETTINGS.has(k))
}

/** The query options of `query(text, ...args)`: the values of `:1`, `:2`…, then the settings if last. */
export function queryOptionsOf(args: readonly unknown[]): QueryOptions {
  const last = args[args.length - 1]
  if (!isQuerySettings(last)) return { params: args }
  return {
    params: args.slice(0, -1),
    parameters: last.parameters,
    attributes: last.attributes,
    queryPlan: last.queryPlan,
    queryPath: last.queryPath,
  }
}

/** One criterion of 4D's collection form of `orderBy`. */
export interface OrderByCriterion {
  readonly propertyPath: string
  /** @default false */
  readonly descending?: boolean
}

/** An order given as 4D takes it (text, or a collection of criteria) as the order text. */
export function orderByText(order: string | readonly OrderByCriterion[]): string {
  if (typeof order === 'string') return order
  return order.map((c) => `${c.propertyPath}${c.descending === true ? ' desc' : ''}`).join(', ')
}
