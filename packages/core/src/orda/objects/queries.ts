/**
 * @module Queries as the public objects see them: the query engine's rows wrapped in an
 * EntitySelection of the dataclass. A session acting may query a dataclass it may read, by what it
 * may read: the dataclass is asked here, each attribute the query reads by its binding
 * (query/bind.ts, through the datastore's `querySource.readCheck`).
 */
import type { OrderByItemNode, QueryNode } from '../../query/ast.js'
import { orderingBy, queryRows, type QueryOptions, type QueryRows } from '../../query/run-query.js'
import type { DataClass } from './data-class.js'
import type { EntitySelection } from './entity-selection.js'
import { ORDERED, type SelectionTraits } from '../selections/selection-traits.js'
import { and } from '../../sets/set-algebra.js'
import { restrictedRows } from '../restrict/restrict.js'
import type { DataClassName, ModelTypes, UntypedModel } from '../../schema/typed-model.js'
import { parseCached } from '../../query/run-query.js'
import { needRead } from '../restrict/access-checks.js'

export type { QueryOptions }

export interface QueryResult<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> extends Omit<QueryRows, 'rows' | 'ordering'> {
  readonly selection: EntitySelection<M, N>
}

/** Runs a query on `dc`. `text` is a query string (or its parsed form); an empty string selects all. */
export function runQuery<M extends ModelTypes, N extends DataClassName<M>>(
  dc: DataClass<M, N>,
  text: string | QueryNode,
  options: QueryOptions = {},
): QueryResult<M, N> {
  needRead(dc as unknown as DataClass)
  const found = queryRows(dc.datastore.querySource, dc.def, text, options)
  return resultOf(dc, found, traitsOf(text, options, found))
}

/** The members of `selection` that match a query (4D's `entitySelection.query()`). */
export function queryWithin<M extends ModelTypes, N extends DataClassName<M>>(
  selection: EntitySelection<M, N>,
  text: string,
  options: QueryOptions,
): EntitySelection<M, N> {
  const dc = selection.dataClass
  needRead(dc as unknown as DataClass)
  const found = queryRows(dc.datastore.querySource, dc.def, text, options)
  // The query runs on the dataclass (its indexes answer), then keeps this selection's members.
  const rows = and(found.rows, selection.unorderedRowIds)
  return dc.select(
    dc.restrictFunction === undefined ? rows : restrictedRows(dc, rows),
    found.ordering,
    traitsOf(text, options, found),
  )
}

// What a query's selection is besides its rows: ordered when the query orders, and its plan and
// path when the settings asked for them.
function traitsOf(
  text: string | QueryNode,
  options: QueryOptions,
  found: QueryRows,
): SelectionTraits | undefined {
  const ordered =
    options.orderBy !== undefined ||
    (typeof text === 'string' ? parseCached(text) : text).orderBy.length > 0
  if (!ordered && found.queryPlan === undefined && found.queryPath === undefined) return undefined
  return { ordered, queryPlan: found.queryPlan, queryPath: found.queryPath }
}

/** The selection of a query's rows. */
export function selectionOf<M extends ModelTypes, N extends DataClassName<M>>(
  dc: DataClass<M, N>,
  found: QueryRows,
  traits?: SelectionTraits,
): EntitySelection<M, N> {
  const rows = dc.restrictFunction === undefined ? found.rows : restrictedRows(dc, found.rows)
  return dc.select(rows, found.ordering, traits)
}

// Fields listed, never spread: an object spread on this path doubled the cost of a small query.
function resultOf<M extends ModelTypes, N extends DataClassName<M>>(
  dc: DataClass<M, N>,
  found: QueryRows,
  traits: SelectionTraits | undefined,
): QueryResult<M, N> {
  const result: { -readonly [K in keyof QueryResult<M, N>]: QueryResult<M, N>[K] } = {
    selection: selectionOf(dc, found, traits),
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
  needRead(dc)
  const ordering = orderingBy(dc.datastore.querySource, dc.def, orderBy, options)
  return dc.select(selection.unorderedRowIds, ordering, ORDERED)
}
