/**
 * @module A query from text to selection: parse → bind → plan → execute → order. This is what
 * `dataClass.query()` and the REST `$filter`/`$orderby` run.
 */
import { LRUCache } from 'lru-cache'
import { fail } from '../errors/datastore-error.js'
import type { DataClass } from '../store/data-class.js'
import { EntitySelection, type Ordering } from '../store/entity-selection.js'
import type { EntityRecord } from '../store/entity-record.js'
import type { Table } from '../store/table.js'
import type { OrderByItemNode, QueryNode } from './ast.js'
import { bindFilter, bindOrderBy } from './bind.js'
import type { BoundOrderKey } from './bound.js'
import { execute, type ExecContext, type PathStep } from './execute.js'
import {
  explainText,
  extendedQueryPathOf,
  extendedQueryPlanOf,
  queryPathOf,
  queryPlanOf,
} from './explain.js'
import { byIndex, byKeys, byPrimaryKey } from './order.js'
import { parseOrderBy, parseQuery } from './parse-filter.js'
import type { QueryPlan } from './plan.js'
import { planQuery } from './planner.js'
import type { EntityOf } from './predicate.js'

export interface QueryOptions {
  /** Values of `:1`, `:2`, … */
  readonly params?: readonly unknown[]
  /** Values of named placeholders `:name` (4D's querySettings.parameters). */
  readonly parameters?: Readonly<Record<string, unknown>>
  /** An order to apply (`"salary desc, lastName"` or parsed items); a query's own `order by` comes first. */
  readonly orderBy?: string | readonly OrderByItemNode[]
  /** Only exposed, public attributes can be named (what the REST interface allows). @default false */
  readonly exposedOnly?: boolean
  /** Compute 4D's query plan objects. @default false */
  readonly queryPlan?: boolean
  /** Record 4D's query path (steps, times, counts). @default false */
  readonly queryPath?: boolean
}

type Json = ReturnType<typeof queryPlanOf>

export interface QueryResult {
  readonly selection: EntitySelection
  readonly plan: QueryPlan
  /** 4D's `queryPlan` / `extendedQueryPlan` (with `queryPlan: true`; null when there was no filter). */
  readonly queryPlan?: Json | null
  readonly extendedQueryPlan?: Json | null
  /** 4D's `queryPath` / `extendedQueryPath` (with `queryPath: true`). */
  readonly queryPath?: Json | null
  readonly extendedQueryPath?: Json | null
  /** The plan as a SQLite-style text tree. */
  explain(): string
}

// Applications and clients repeat the same few query texts with different placeholder values:
// parsing is the costliest step of a small query, so parsed texts are kept (ASTs are immutable).
const parsed = new LRUCache<string, QueryNode>({ max: 512 })

/** `parseQuery` through a cache of recent texts. Failures are not cached (they throw). */
export function parseCached(text: string, source = 'query()'): QueryNode {
  let node = parsed.get(text)
  if (!node) {
    node = parseQuery(text, source)
    parsed.set(text, node)
  }
  return node
}

/** Runs a query on `dc`. `text` is a query string (or its parsed form); an empty string selects all. */
export function runQuery(
  dc: DataClass,
  text: string | QueryNode,
  options: QueryOptions = {},
): QueryResult {
  const ds = dc.datastore
  const query = typeof text === 'string' ? parseCached(text) : text
  const bound = query.filter
    ? bindFilter(ds.schema, dc.def, query.filter, {
        params: options.params,
        named: options.parameters,
        exposedOnly: options.exposedOnly ?? false,
      })
    : null
  const orderItems = [
    ...query.orderBy,
    ...(typeof options.orderBy === 'string'
      ? parseOrderBy(options.orderBy)
      : (options.orderBy ?? [])),
  ]
  const orderKeys = bindOrderBy(ds.schema, dc.def, orderItems, {
    exposedOnly: options.exposedOnly ?? false,
  })
  const tableOf = (def: { name: string }): Table => ds.dataClass(def.name).table
  const plan = planQuery(dc.def, bound, tableOf)
  let step: PathStep | undefined
  let rows: readonly number[]
  let ordering: Ordering | undefined
  if (plan.root) {
    const ctx: ExecContext = {
      tableOf,
      entityOf: (def) => entityOfTable(dc, def.name),
      clock: ds.clock,
      trace: options.queryPath ?? false,
    }
    const run = execute(plan.root, ctx)
    step = run.step
    rows = run.rows
    ordering = resultOrdering(dc, orderKeys)
  } else {
    rows = dc.table.orderedRowIds()
    ordering = orderKeys.length ? orderingFor(dc, orderKeys) : undefined
  }
  const selection = new EntitySelection(dc, rows, ordering)
  const result: {
    -readonly [K in keyof QueryResult]: QueryResult[K]
  } = {
    selection,
    plan,
    explain: () => explainText(plan.root, orderKeys.length ? orderLine(dc, orderKeys) : undefined),
  }
  if (options.queryPlan) {
    result.queryPlan = plan.root ? queryPlanOf(plan.root) : null
    result.extendedQueryPlan = plan.root ? extendedQueryPlanOf(plan.root) : null
  }
  if (options.queryPath) {
    result.queryPath = step ? queryPathOf(step) : null
    result.extendedQueryPath = step ? extendedQueryPathOf(step) : null
  }
  return result
}

function entityOfTable(dc: DataClass, name: string): EntityOf {
  const target = dc.datastore.dataClass(name)
  return (record: EntityRecord) => target.entityAt(record.rowId)!
}

/** The order of a query's result: by `keys`, else 4D's default, the primary key. */
export function resultOrdering(dc: DataClass, keys: readonly BoundOrderKey[]): Ordering {
  return keys.length ? orderingFor(dc, keys) : byPrimaryKey(dc.table)
}

/** The cheapest way to order by `keys`: an index walk when one sorted index can do it all. */
export function orderingFor(dc: DataClass, keys: readonly BoundOrderKey[]): Ordering {
  const only = keys.length === 1 ? keys[0]! : undefined
  if (only && only.relations.length === 0 && only.operand.kind === 'storage') {
    const sorted = dc.table.indexes.of(only.operand.attr.name)?.sorted
    if (sorted) return byIndex(dc.table, sorted, only.descending)
  }
  const ds = dc.datastore
  return byKeys(
    dc.table,
    keys,
    (name) => ds.dataClass(name).table,
    (table) => entityOfTable(dc, table.def.name),
  )
}

function orderLine(dc: DataClass, keys: readonly BoundOrderKey[]): string {
  const walk =
    keys.length === 1 &&
    keys[0]!.relations.length === 0 &&
    keys[0]!.operand.kind === 'storage' &&
    !!dc.table.indexes.of(keys[0]!.operand.attr.name)?.sorted
  const list = keys.map((k) => `${k.text}${k.descending ? ' DESC' : ''}`).join(', ')
  return walk
    ? `ORDER BY ${list} USING SORTED INDEX (no sort)`
    : `ORDER BY ${list} (top-k on demand)`
}

/** Orders an existing selection (4D's `entitySelection.orderBy()`). */
export function orderSelection(
  selection: EntitySelection,
  orderBy: string | readonly OrderByItemNode[],
  options: { exposedOnly?: boolean } = {},
): EntitySelection {
  const dc = selection.dataClass
  const items = typeof orderBy === 'string' ? parseOrderBy(orderBy) : orderBy
  if (items.length === 0) fail('WrongOrderBy', ['', 'no attribute to order by'])
  const keys = bindOrderBy(dc.datastore.schema, dc.def, items, {
    exposedOnly: options.exposedOnly ?? false,
  })
  return new EntitySelection(dc, selection.unorderedRowIds, orderingFor(dc, keys))
}
