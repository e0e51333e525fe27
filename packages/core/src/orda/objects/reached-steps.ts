/**
 * @module The restricts a query, an ordering or a path reaches through relations, answered ahead
 * in steps: what a caller in slices runs before a read that follows a relation named in a text
 * (4D code's `ds.Employee.query("employer.name = :1"; …)`, `$sel.orderBy("employer.name")`,
 * `$sel.extract("employer.name")`), so that a related dataclass's restrict that loops holds no
 * other client there either. The engine asks those restricts lazily, as it reaches the relation,
 * and finds the answers kept (`restrictionReady`): core's `restriction` stays the one place that
 * decides. The dataclasses reached are found from the parsed text (query/classes-reached.ts).
 */
import { pathReaches, queryReaches } from '../../query/classes-reached.js'
import { parseCached, type QueryOptions } from '../../query/run-query.js'
import type { PathValues } from '../../query/path-placeholders.js'
import { parseOrderBy } from '../../query/parse-filter.js'
import type { Work } from '../../query/slices.js'
import type { DataClassDef } from '../../schema/definitions.js'
import { restrictionReady } from '../restrict/restrict.js'
import type { RestrictedClass } from '../restrict/restricted-class.js'
import { orderByText, queryOptionsOf, type OrderByCriterion } from '../selections/query-settings.js'

/**
 * The restricts `dc.query(text, ...params)` reaches through relations (its `order by` included),
 * answered ahead in steps where they can (code compiled from 4D). `params` gives the query's
 * arguments, asked only when a placeholder stands for a path. `dc`'s own restrict, which the
 * query's result is narrowed by, is `restrictInSteps`'s (here only if a path leads back to `dc`).
 */
export function queryReachInSteps(
  dc: RestrictedClass,
  text: string,
  params: () => readonly unknown[],
): Work<void> {
  return readied(dc, () => {
    // The arguments are converted (4D's values to core's) only for a path that needs them.
    let options: QueryOptions | undefined
    const values: PathValues = {
      get params() {
        return (options ??= queryOptionsOf(params())).params
      },
      get attributes() {
        return (options ??= queryOptionsOf(params())).attributes
      },
    }
    return queryReaches(schemaOf(dc), dc.def, parseCached(text), values)
  })
}

/**
 * The restricts an ordering of `dc`'s entities by `order` reaches (a text, or 4D's criteria), as
 * `queryReachInSteps`.
 */
export function orderReachInSteps(
  dc: RestrictedClass,
  order: string | readonly OrderByCriterion[],
): Work<void> {
  return readied(dc, () =>
    queryReaches(schemaOf(dc), dc.def, NO_QUERY, {}, parseOrderBy(orderByText(order))),
  )
}

/**
 * The restricts a read of `path` along `dc`'s entities reaches (`extract()`, an aggregate of an
 * alias), as `queryReachInSteps`; with `ends`, a relation the path ends on is read too.
 */
export function pathReachInSteps(dc: RestrictedClass, path: string, ends: boolean): Work<void> {
  return readied(dc, () => pathReaches(schemaOf(dc), dc.def, path.split('.'), ends))
}

const NO_QUERY = { kind: 'Query', filter: null, orderBy: [] } as const

const schemaOf = (dc: RestrictedClass) => dc.datastore.querySource.schema

/**
 * The answers of the restricts `reached` finds made ahead, each in steps: nothing is looked for
 * in a datastore without any restrict. A text that does not parse reaches nothing: the read
 * itself then fails with its error.
 */
function* readied(dc: RestrictedClass, reached: () => readonly DataClassDef[]): Work<void> {
  const ds = dc.datastore
  if (!ds.restricting) return
  let defs: readonly DataClassDef[]
  try {
    defs = reached()
  } catch {
    return
  }
  for (const def of defs) {
    const target = ds.findDataClass(def.name)
    if (target?.restrictFunction?.steps !== undefined) yield* restrictionReady(target)
  }
}
