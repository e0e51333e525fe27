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
  const { rows, ordering, ...rest } = queryRows(dc.datastore.querySource, dc.def, text, options)
  return { ...rest, selection: new EntitySelection(dc, rows, ordering) }
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
