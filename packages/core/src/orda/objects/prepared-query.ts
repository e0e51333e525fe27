/**
 * @module A prepared query: a query text parsed, its paths resolved and its order bound once, then
 * run many times with different placeholder values (SQLite's prepared statement).
 * `dataClass.query()` keeps the ones it ran recently, so code that repeats a text gets this for free.
 *
 * The most common query, one equality on an indexed attribute (`name = :1`, `ID = :1`,
 * `employer = :1`) given a value already of the attribute's type, skips binding, planning and the
 * executor: the value is folded and read from the index. So does one IN given its list in a
 * placeholder (`companyId in :1`), whose values are all of the attribute's type: planning it
 * counted each value's bucket for an estimate nobody read (19% of it, CPU profile at 100k rows).
 * So does a range with both bounds on a number or text attribute with a sorted index
 * (`salary >= :1 and salary < :2`: range-lookup.ts). Anything else (a value to coerce, wildcards,
 * null, a missing placeholder, no index) takes the general path, which is the reference for the
 * result: the tests run both on the same queries (index-lookup.ts reads the index).
 *
 * What the lookup and the order bound here read is kept (query/kept-reads.ts) and asked of the
 * view acting at each run, as a binding for it would. An order a computed attribute's `orderBy`
 * function gave (its answer may differ per view) takes no lookup: the general path binds it again
 * at each run, as the view acting then.
 */
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { EntitySelection } from './entity-selection.js'
import { ORDERED, type SelectionTraits } from '../selections/selection-traits.js'
import type { BoundOrderKey } from '../../query/bound.js'
import type { QueryNode } from '../../query/ast.js'
import { bindOrderBy } from '../../query/bind.js'
import { settledRowIds, type SelectionRowIds } from '../../sets/row-ids.js'
import { indexLookup, type Lookup } from './index-lookup.js'
import { rangeLookup } from './range-lookup.js'
import { parseCached, queryRows, resultOrdering, type QueryOptions } from '../../query/run-query.js'
import { runQuery, selectionOf, type QueryResult } from './queries.js'
import { restrictedRows, restrictRunning } from '../restrict/restrict.js'
import { keepable, keptQuery } from '../restrict/restrict-queries.js'
import { checker } from '../restrict/access-checks.js'
import { openTransactions } from '../processes.js'
import { seesOwnWrites } from '../writes/transaction-reads.js'
import { fromCode, KeptReads } from '../../query/kept-reads.js'
import type { DataClassName, ModelTypes, UntypedModel } from '../../schema/typed-model.js'

export interface PrepareOptions {
  /** Only exposed, public attributes can be named (what the REST interface allows). @default false */
  readonly exposedOnly?: boolean
}

/** A query prepared on the dataclass `N` of the model `M` (typed like the dataclass itself). */
export class PreparedQuery<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> {
  readonly dataClass: DataClass<M, N>
  readonly query: QueryNode
  readonly #exposedOnly: boolean
  readonly #orderKeys: readonly BoundOrderKey[]
  readonly #lookup: Lookup | undefined
  // What the lookup and the order read, asked of the view acting at each run that takes the lookup.
  readonly #reads = new KeptReads()
  // 4D's ordered selection when the query has an `order by`.
  readonly #traits: SelectionTraits | undefined
  // Its text and what it reads, when the dataclass's restrict may ask it and its rows can be kept
  // between writes (restrict-queries.ts): it reads the entity's own stored values. Kept only while
  // no index answers it (asked at each run: an index may be built or dropped after it was prepared).
  readonly #kept: { readonly text: string; readonly reads: KeptReads } | undefined

  /**
   * Parses `text` (or takes its parsed form) and resolves it against `dataClass`. Errors that do not
   * depend on placeholder values (syntax, unknown attributes, a bad order) are thrown here.
   */
  constructor(dataClass: DataClass<M, N>, text: string | QueryNode, options: PrepareOptions = {}) {
    this.dataClass = dataClass
    this.query = typeof text === 'string' ? parseCached(text) : text
    this.#exposedOnly = options.exposedOnly ?? false
    const { schema } = dataClass.datastore
    this.#orderKeys = bindOrderBy(schema, dataClass.def, this.query.orderBy, {
      exposedOnly: this.#exposedOnly,
      reads: this.#reads,
    })
    // An order by similarity needs the vector search of the general path (vector-search.ts); one
    // a computed attribute's function gave is asked again at each run (the module comment).
    const general =
      fromCode(null, this.#orderKeys) ||
      this.#orderKeys.some((k) => k.operand.kind === 'storage' && k.operand.attr.vector)
    this.#lookup = general
      ? undefined
      : (indexLookup(dataClass, this.query, this.#exposedOnly, this.#reads) ??
        rangeLookup(dataClass, this.query, this.#exposedOnly, this.#reads))
    this.#traits = this.query.orderBy.length > 0 ? ORDERED : undefined
    const reads =
      typeof text === 'string' && dataClass.restrictFunction !== undefined
        ? keepable(dataClass.def, this.query)
        : undefined
    this.#kept = reads && { text: text as string, reads }
  }

  /** The matching entities for these placeholder values (`:1` is the first). */
  select(...params: unknown[]): EntitySelection<M, N> {
    return this.selectWith(params)
  }

  /** The first matching entity in the query's order, or null. */
  first(...params: unknown[]): Entity<M, N> | null {
    return this.firstWith(params)
  }

  /** How many entities match. */
  count(...params: unknown[]): number {
    return this.selectWith(params).length
  }

  /** The query with 4D's settings (named `parameters`, `queryPlan`, `queryPath`, an extra `orderBy`). */
  run(options: Omit<QueryOptions, 'exposedOnly'> = {}): QueryResult<M, N> {
    // Listed, not spread: an object spread here made every query through it twice as slow.
    return runQuery(this.dataClass, this.query, {
      params: options.params,
      parameters: options.parameters,
      attributes: options.attributes,
      orderBy: options.orderBy,
      queryPlan: options.queryPlan,
      queryPath: options.queryPath,
      exposedOnly: this.#exposedOnly,
    })
  }

  /**
   * True when this query is one equality that an index answers directly, without planning, for
   * values of the attribute's own type (see the module comment).
   */
  get direct(): boolean {
    return this.#lookup?.indexed() ?? false
  }

  /**
   * @internal `first` with the values as an array. An answer of one row (or none) through the
   * index lookup is read without a selection: an equality on a unique attribute is an entity
   * lookup, and the EntitySelection made and read at 0 was a third of it (CPU profile, 2026-11-25).
   */
  firstWith(params: readonly unknown[]): Entity<M, N> | null {
    const dc = this.dataClass
    if (openTransactions !== 0 && this.#throughOwnWrites())
      return this.#general(params).at(0) ?? null
    const one = this.#lookup?.one
    if (one !== undefined && dc.restrictFunction === undefined) {
      this.#check()
      // No array for the one row of a unique key (an eighth of the lookup's own work).
      const row = one(params)
      if (row !== undefined) return row < 0 ? null : dc.entityAt(row)
    }
    const rows = this.#lookupRows(params)
    if (rows !== undefined && rows.length <= 1)
      return rows.length === 0 ? null : this.dataClass.entityAt(settledRowIds(rows)[0]!)
    return this.#select(params, rows).at(0) ?? null
  }

  /** @internal `select` with the values as an array. */
  selectWith(params: readonly unknown[]): EntitySelection<M, N> {
    if (openTransactions !== 0 && this.#throughOwnWrites()) return this.#general(params)
    const dc = this.dataClass as unknown as DataClass
    const keep = this.#kept
    // A lookup is there for any one equality (`owner = :1`, the commonest restrict), an index or
    // not: without one, the general path would scan the table at every write.
    if (keep !== undefined && restrictRunning(dc) && !this.direct) {
      // Kept rows were not bound for this view: it is asked about what the query reads.
      const actor = checker(dc.datastore)
      actor?.need('read', dc.name)
      keep.reads.check(actor)
      const kept = keptQuery(dc, keep.text, this.query, params, () =>
        this.#select(params, undefined),
      )
      if (kept !== undefined) return kept as unknown as EntitySelection<M, N>
    }
    return this.#select(params, this.#lookupRows(params))
  }

  /**
   * @internal The selection the index lookup gives for these values, or undefined when only the
   * general path can answer: no lookup or no index now, reads through the caller's own staged
   * writes, or a range of more than `most` rows. For a caller with a cheaper way to answer than
   * the general path's (REST's quick lane), which must not run the general path outside its slices.
   */
  lookupSelect(params: readonly unknown[], most: number): EntitySelection<M, N> | undefined {
    if (!this.direct || (openTransactions !== 0 && this.#throughOwnWrites())) return undefined
    const rows = this.#lookupRows(params, most)
    return rows === undefined ? undefined : this.#select(params, rows)
  }

  /**
   * The rows of the index lookup, the acting session's `restrict` applied, or undefined when the
   * general path must answer. Checks first that the acting session may query by what it reads.
   */
  #lookupRows(params: readonly unknown[], most?: number): SelectionRowIds | undefined {
    const dc = this.dataClass
    this.#check()
    const found = this.#lookup?.rows(params, most)
    return found === undefined || dc.restrictFunction === undefined
      ? found
      : restrictedRows(dc as unknown as DataClass, settledRowIds(found))
  }

  // Whether the calling process reads this dataclass through its transaction's staged writes: the
  // index lookup and the rows kept between writes know the committed data only (transaction-reads.ts).
  #throughOwnWrites(): boolean {
    return seesOwnWrites(this.dataClass as unknown as DataClass)
  }

  // The general path, asked of the view acting as the lookup's is.
  #general(params: readonly unknown[]): EntitySelection<M, N> {
    this.#check()
    return this.#select(params, undefined)
  }

  // A session acting (a request's code) may query only a dataclass it reads, by what it may read:
  // what the lookup and the order read (the general path's binding asks for itself).
  #check(): void {
    const actor = checker(this.dataClass.datastore)
    if (actor === undefined) return
    actor.need('read', this.dataClass.name)
    if (this.#lookup !== undefined) this.#reads.check(actor)
  }

  // The selection of `rows` (the lookup's), or of the general path when there are none.
  #select(params: readonly unknown[], rows: SelectionRowIds | undefined): EntitySelection<M, N> {
    const dc = this.dataClass
    if (!rows) {
      const options = { params, exposedOnly: this.#exposedOnly }
      return selectionOf(
        dc,
        queryRows(dc.datastore.querySource, dc.def, this.query, options),
        this.#traits,
      )
    }
    // Zero or one row needs no ordering: the common unique-key answer makes no ordering object.
    return dc.select(
      rows,
      rows.length > 1
        ? resultOrdering(dc.datastore.querySource, dc.table, this.#orderKeys)
        : undefined,
      this.#traits,
    )
  }
}
