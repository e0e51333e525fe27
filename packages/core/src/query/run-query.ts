/**
 * @module A query from text to rows: parse → bind → plan → execute → order. The public objects
 * (orda/) wrap the rows in an EntitySelection; this layer speaks tables and row ids only.
 */
import { linkSimilarity, resolveApproximate } from './vector-search.js'
import { LRUCache } from 'lru-cache'
import type { ReadCheck } from '../access/read-check.js'
import type { Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'
import type { DataClassDef, SchemaDef, StorageAttributeDef } from '../schema/definitions.js'
import type { NearestState } from '../indexes/nearest-index.js'
import type { VectorMetric } from '../values/vector.js'
import type { Table } from '../store/table.js'
import type { OrderByItemNode, QueryNode } from './ast.js'
import { bindFilter } from './bind.js'
import { bindOrderBy } from './bind-order.js'
import { withBudget } from './budget.js'
import type { BoundOrderKey } from './bound.js'
import { planWork, refreshExecution } from './execute.js'
import type { ExecContext, PathStep } from './exec-context.js'
import { currentScope, sliceable, type SliceScope } from './slices.js'
import { stagedOf } from '../txn/staged-table.js'
import { testsStagedRows, withStaged } from './staged-rows.js'
import { checkTemplate, fillTemplate, liftLiterals, type Template } from './literal-template.js'
import {
  explainText,
  extendedQueryPathOf,
  extendedQueryPlanOf,
  queryPathOf,
  queryPlanOf,
} from './explain.js'
import { byIndex, byKeys, byPrimaryKey, type Ordering } from './order.js'
import { parseOrderBy, parseQuery } from './parse-filter.js'
import type { PlanNode, QueryPlan } from './plan.js'
import { planQuery } from './planner.js'
import type { EntityOf } from './predicate.js'
import type { RowIds } from '../sets/row-ids.js'
import { allowedRows, type AllowedRows, type Visibility } from './visibility.js'

/** What a query reads: the model, the tables, the clock (for query paths). */
export interface QuerySource {
  readonly schema: SchemaDef
  readonly clock: Clock
  /** The table of dataclass `name`. */
  table(name: string): Table
  /** The entity a record of dataclass `name` is, for calculated attributes. */
  entityOf(name: string): EntityOf
  /**
   * What the acting session may see of each dataclass (their `restrict` events); undefined when
   * no dataclass has one, and queries then pay nothing for it (visibility.ts).
   */
  readonly visibility?: Visibility
  /**
   * The view acting now, asked about each attribute a query binds (query/bind.ts); undefined when
   * nothing is checked (no one acting, or no rule to ask).
   */
  readCheck(): ReadCheck | undefined
  /** The approximate index a vector search asking for approximation would use (nearest-index.ts). */
  readonly nearest?: (
    dc: DataClassDef,
    attr: StorageAttributeDef,
    metric: VectorMetric,
  ) => NearestState
}

export interface QueryOptions {
  /** Values of `:1`, `:2`, … */
  readonly params?: readonly unknown[]
  /** Values of named placeholders `:name` (4D's querySettings.parameters). */
  readonly parameters?: Readonly<Record<string, unknown>>
  /**
   * Attribute paths of named placeholders written where a path goes, `:att = 5` (4D's
   * querySettings.attributes): a path in dot notation, or an array of names, one a level.
   */
  readonly attributes?: Readonly<Record<string, string | readonly string[]>>
  /** An order to apply (`"salary desc, lastName"` or parsed items); a query's own `order by` comes first. */
  readonly orderBy?: string | readonly OrderByItemNode[]
  /** Only exposed, public attributes can be named (what the REST interface allows). @default false */
  readonly exposedOnly?: boolean
  /** Compute 4D's query plan objects. @default false */
  readonly queryPlan?: boolean
  /** Record 4D's query path (steps, times, counts). @default false */
  readonly queryPath?: boolean
  /**
   * A time budget for this query's filter, in milliseconds on the source's clock: past it, the
   * query stops with QueryBudgetExceeded (9090). An enclosing `ds.withBudget` with an earlier
   * deadline still applies. @default none
   */
  readonly budgetMs?: number
}

type Json = ReturnType<typeof queryPlanOf>

/** A query's answer as rows of its table: what the public QueryResult wraps in a selection. */
export interface QueryRows {
  /** The matching row ids, in no particular order when `ordering` is set. */
  readonly rows: RowIds
  /** How to order `rows` lazily; undefined when they are in order already. */
  readonly ordering: Ordering | undefined
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

// Applications and clients repeat the same few query texts, with different placeholder values or
// different literals: parsing is the costliest step of a small query, so parsed texts are kept
// (ASTs are immutable), and so are the parsed shapes of texts with their literals lifted out
// (literal-template.ts; false: a shape whose template cannot stand for its texts).
const parsed = new LRUCache<string, QueryNode>({ max: 512 })
const templates = new LRUCache<string, Template | false>({ max: 256 })

// The last text and its tree: a request parses its filter twice in a row (its limits are checked
// before its route runs it), and a text made from a template is not kept in `parsed`.
let lastText: string | undefined
let lastNode: QueryNode | undefined

/** `parseQuery` through a cache of recent texts and shapes. Failures are not cached (they throw). */
export function parseCached(text: string, source = 'query()'): QueryNode {
  if (text === lastText) return lastNode!
  let node = parseTemplated(text)
  if (!node) {
    node = parsed.get(text)
    if (!node) {
      node = parseQuery(text, source)
      parsed.set(text, node)
    }
  }
  lastText = text
  lastNode = node
  return node
}

/** The tree of `text` from its shape's template, or undefined when it has none (parse it whole). */
function parseTemplated(text: string): QueryNode | undefined {
  const lifted = liftLiterals(text)
  if (!lifted) return undefined
  let template = templates.get(lifted.template)
  if (template === undefined) {
    let tree: QueryNode | undefined
    try {
      tree = parseQuery(lifted.template)
    } catch {
      // The text itself is parsed next, and fails with its own message if it fails.
    }
    template = (tree && checkTemplate(tree, lifted)) ?? false
    templates.set(lifted.template, template)
  }
  return template ? fillTemplate(template, lifted.values) : undefined
}

/** Runs a query on the table of `def`. `text` is a query string (or its parsed form); '' selects all. */
export function queryRows(
  source: QuerySource,
  def: DataClassDef,
  text: string | QueryNode,
  options: QueryOptions = {},
): QueryRows {
  const ms = options.budgetMs
  if (ms === undefined || !(ms > 0) || ms === Infinity) return runRows(source, def, text, options)
  const budget = { deadline: source.clock.now() + ms, clock: source.clock, ms }
  return withBudget(budget, () => runRows(source, def, text, options))
}

function runRows(
  source: QuerySource,
  def: DataClassDef,
  text: string | QueryNode,
  options: QueryOptions,
): QueryRows {
  const query = typeof text === 'string' ? parseCached(text) : text
  const exposedOnly = options.exposedOnly ?? false
  const reads = source.readCheck()
  const bound = query.filter
    ? bindFilter(source.schema, def, query.filter, {
        params: options.params,
        named: options.parameters,
        attributes: options.attributes,
        exposedOnly,
        reads,
      })
    : null
  const orderItems = [
    ...query.orderBy,
    ...(typeof options.orderBy === 'string'
      ? parseOrderBy(options.orderBy)
      : (options.orderBy ?? [])),
  ]
  const orderKeys = linkSimilarity(
    bindOrderBy(source.schema, def, orderItems, { exposedOnly, reads }),
    bound,
  )
  let tableOf = (d: { name: string }): Table => source.table(d.name)
  const table = source.table(def.name)
  // A search asking for approximation: the index that answers it, if one is ready now.
  const searched = bound && resolveApproximate(bound, source.nearest)
  let plan = planQuery(def, searched, tableOf)
  // The table as the calling process's transaction sees it (txn/staged-table.ts), when it has
  // staged writes in it: most filters run on the committed table, whose indexes answer, and the
  // staged rows are tested one by one (staged-rows.ts); the others scan the views.
  const staging = stagedOf(table)
  const delta =
    staging !== undefined &&
    plan.root !== null &&
    testsStagedRows(plan.root, (dc) => stagedOf(source.table(dc.name)) !== undefined)
  if (delta) {
    const committed = staging.committed
    const views = tableOf
    tableOf = (d) => (d.name === def.name ? committed : views(d))
    plan = planQuery(def, searched, tableOf)
  }
  // The plan is the same for every session; what each may see is asked as the query runs.
  const allowed = source.visibility && allowedRows(source.visibility)
  let step: PathStep | undefined
  let rows: RowIds
  let ordering: Ordering | undefined
  if (plan.root) {
    const ctx: ExecContext = {
      tableOf,
      entityOf: (d) => source.entityOf(d.name),
      clock: source.clock,
      trace: options.queryPath ?? false,
      allowed,
      stale: staleSince(currentScope()),
      positions: { walked: false },
    }
    // A filter over many rows goes in slices when the request runs in a slice scope (slices.ts).
    const root = plan.root
    const run = sliceable(
      `filter ${def.name}`,
      () => planWork(root, ctx),
      refreshExecution(root, ctx),
    )
    step = run.step
    rows = delta ? withStaged(run.rows, root, ctx, staging) : run.rows
    ordering = resultOrdering(source, table, orderKeys, allowed)
  } else {
    rows = table.orderedRowIds()
    ordering = orderKeys.length ? orderingFor(source, table, orderKeys, allowed) : undefined
  }
  // Asked now, while the session acts: the explain text may be read after it.
  if (allowed) askEach(plan.root, def, allowed)
  const result: { -readonly [K in keyof QueryRows]: QueryRows[K] } = {
    rows,
    ordering,
    plan,
    explain: () =>
      explainText(plan.root, orderKeys.length ? orderLine(table, orderKeys) : undefined, {
        root: def,
        allowed,
      }),
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

/** Whether rows changed since the scope's work first stopped: a plan made before is then stale. */
const staleSince = (scope: SliceScope | undefined): (() => boolean) | undefined =>
  scope && (() => scope.any)

/** Asks `allowed` for `root` and for every dataclass a join of `node` leads to. */
function askEach(node: PlanNode | null, root: DataClassDef, allowed: AllowedRows): void {
  allowed(root)
  const walk = (n: PlanNode): void => {
    switch (n.kind) {
      case 'Join':
      case 'ReverseJoin':
        allowed(n.bound.target)
        return walk(n.inner)
      case 'Computed':
        return walk(n.inner)
      case 'Not':
        return walk(n.operand)
      case 'And':
      case 'Or':
      case 'Except':
        return n.operands.forEach(walk)
      default:
    }
  }
  if (node) walk(node)
}

/**
 * The order of a query's result: by `keys`, else 4D's default, the primary key. `allowed`: the
 * query's view of what the session may see, when it has one already.
 */
export function resultOrdering(
  source: QuerySource,
  table: Table,
  keys: readonly BoundOrderKey[],
  allowed?: AllowedRows,
): Ordering {
  return keys.length ? orderingFor(source, table, keys, allowed) : byPrimaryKey(table)
}

/**
 * The cheapest way to order by `keys`: an index walk when one sorted index can do it all. A key
 * through a relation reads a related entity the session may not see as a null: what it sees is
 * asked now, while it acts, not when the rows are taken (a reply may be written after).
 */
export function orderingFor(
  source: QuerySource,
  table: Table,
  keys: readonly BoundOrderKey[],
  allowed: AllowedRows | undefined = source.visibility && allowedRows(source.visibility),
): Ordering {
  const only = keys.length === 1 ? keys[0]! : undefined
  if (only && only.relations.length === 0 && only.operand.kind === 'storage') {
    const sorted = table.indexes.of(only.operand.attr.name)?.sorted
    if (sorted) return byIndex(table, sorted, only.descending)
  }
  return byKeys(
    table,
    keys,
    (name) => source.table(name),
    (t) => source.entityOf(t.def.name),
    allowed,
  )
}

function orderLine(table: Table, keys: readonly BoundOrderKey[]): string {
  const walk =
    keys.length === 1 &&
    keys[0]!.relations.length === 0 &&
    keys[0]!.operand.kind === 'storage' &&
    !!table.indexes.of(keys[0]!.operand.attr.name)?.sorted
  // The keys a computed attribute's orderBy function gave follow the sort they replace:
  // `fullName DESC = (lastName DESC, firstName DESC)`.
  const parts: string[] = []
  keys.forEach((k, i) => {
    const item = `${k.text}${k.descending ? ' DESC' : ''}`
    const from = k.computed
    if (!from) parts.push(item)
    else if (keys[i - 1]?.computed === from) parts[parts.length - 1] += `, ${item}`
    else parts.push(`${from.text}${from.descending ? ' DESC' : ''} = (${item}`)
    if (from && keys[i + 1]?.computed !== from) parts[parts.length - 1] += ')'
  })
  const list = parts.join(', ')
  return walk
    ? `ORDER BY ${list} USING SORTED INDEX (no sort)`
    : `ORDER BY ${list} (top-k on demand)`
}

/** The ordering of `rows` of `def` by `orderBy` (4D's `entitySelection.orderBy()`). */
export function orderingBy(
  source: QuerySource,
  def: DataClassDef,
  orderBy: string | readonly OrderByItemNode[],
  options: { exposedOnly?: boolean } = {},
): Ordering {
  const items = typeof orderBy === 'string' ? parseOrderBy(orderBy) : orderBy
  if (items.length === 0) fail('WrongOrderBy', ['', 'no attribute to order by'])
  // No filter here: a vector attribute has nothing to be ordered by its similarity to.
  const keys = linkSimilarity(
    bindOrderBy(source.schema, def, items, {
      exposedOnly: options.exposedOnly ?? false,
      reads: source.readCheck(),
    }),
    null,
  )
  return orderingFor(source, source.table(def.name), keys)
}
