/**
 * @module Queries as the public objects see them: the query engine's rows wrapped in an
 * EntitySelection of the dataclass.
 */
import type { OrderByItemNode, QueryNode } from '../query/ast.js'
import { orderingBy, queryRows, type QueryOptions, type QueryRows } from '../query/run-query.js'
import type { DataClass } from './data-class.js'
import { EntitySelection } from './entity-selection.js'

export type { QueryOptions }

export interface QueryResult extends Omit<QueryRows, 'rows' | 'ordering'> {
  readonly selection: EntitySelection
}

/** Runs a query on `dc`. `text` is a query string (or its parsed form); an empty string selects all. */
export function runQuery(
  dc: DataClass,
  text: string | QueryNode,
  options: QueryOptions = {},
): QueryResult {
  return resultOf(dc, queryRows(dc.datastore.querySource, dc.def, text, options))
}

/** The selection of a query's rows. */
export function selectionOf(dc: DataClass, found: QueryRows): EntitySelection {
  return new EntitySelection(dc, found.rows, found.ordering)
}

// Fields listed, never spread: an object spread on this path doubled the cost of a small query.
function resultOf(dc: DataClass, found: QueryRows): QueryResult {
  const result: { -readonly [K in keyof QueryResult]: QueryResult[K] } = {
    selection: selectionOf(dc, found),
    plan: found.plan,
    explain: found.explain,
  }
  if (found.queryPlan !== undefined) {
    result.queryPlan = found.queryPlan
    result.extendedQueryPlan = found.extendedQueryPlan
  }
  if (found.queryPath !== undefined) {
    result.queryPath = found.queryPath
    result.extendedQueryPath = found.extendedQueryPath
  }
  return result
}

/** Orders an existing selection (4D's `entitySelection.orderBy()`). */
export function orderSelection(
  selection: EntitySelection,
  orderBy: string | readonly OrderByItemNode[],
  options: { exposedOnly?: boolean } = {},
): EntitySelection {
  const dc = selection.dataClass
  const ordering = orderingBy(dc.datastore.querySource, dc.def, orderBy, options)
  return new EntitySelection(dc, selection.unorderedRowIds, ordering)
}
