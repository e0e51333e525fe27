/**
 * @module A filter as a test of one row: whether the entity in a slot matches, without running the
 * query over its dataclass. A live feed (orda/feed/change-feed.ts) asks it for each event it sends, for
 * each subscriber with a filter: running the whole query each time was a scan of the table per
 * event and subscriber when the filter had no index.
 *
 * The filter is parsed and bound once (its errors thrown then); its per-row test (the executor's
 * own, `predicateOf`: the same semantics as a query) is made again when the data has changed since
 * the last one (`version`, the global stamp): a test through a relation holds the related rows it
 * found (a join's key set), and what `restrict` lets the acting session see of them. So a test is
 * made at most once per commit, and costs a lookup per event between two.
 *
 * What the binding read is kept (kept-reads.ts) and asked of the view acting at each `check`. A
 * filter bound through a computed attribute's `query` function (its answer may differ per view) is
 * bound again, as the view acting then, for each test made: its answer is never kept for another.
 */
import type { DataClassDef } from '../schema/definitions.js'
import type { QueryNode } from './ast.js'
import { bindFilter } from './bind.js'
import type { BoundFilter } from './bound.js'
import { predicateOf } from './execute.js'
import type { ExecContext } from './exec-context.js'
import { fromCode, KeptReads } from './kept-reads.js'
import type { RowPredicate } from './predicate.js'
import { planQuery } from './planner.js'
import { parseCached, type QuerySource } from './run-query.js'
import { finish } from './slices.js'
import { allowedRows } from './visibility.js'

export interface RowTestOptions {
  /** Values of `:1`, `:2`, … */
  readonly params?: readonly unknown[]
  /** Only exposed, public attributes can be named (the REST interface). @default false */
  readonly exposedOnly?: boolean
}

export class RowTest {
  readonly #source: QuerySource
  readonly #def: DataClassDef
  readonly #options: RowTestOptions
  #bound: BoundFilter | null
  #reads: KeptReads
  // Whether the bound filter holds a computed attribute's answer: then bound again for each test.
  readonly #fromCode: boolean
  /** The parsed query. */
  readonly query: QueryNode
  #version = NaN
  #test: RowPredicate | undefined

  /**
   * Parses and binds `text` for `def`; throws what a query would for a bad filter (FilterSyntax,
   * AttributeNotFound, PlaceholderOutOfRange…). Its `order by`, if any, is ignored.
   */
  constructor(
    source: QuerySource,
    def: DataClassDef,
    text: string | QueryNode,
    options: RowTestOptions = {},
  ) {
    this.#source = source
    this.#def = def
    this.#options = options
    this.query = typeof text === 'string' ? parseCached(text) : text
    this.#reads = new KeptReads()
    this.#bound = this.#bind()
    this.#fromCode = fromCode(this.#bound)
  }

  /**
   * Refuses (1607, 1557) a filter that reads what the view acting now may not read: every
   * attribute its binding read, through aliases and computed attributes' functions included.
   */
  check(): void {
    this.#reads.check(this.#source.readCheck())
  }

  // Binds the filter, keeping what it reads, and asks the view acting now about it.
  #bind(): BoundFilter | null {
    const filter = this.query.filter
    if (!filter) return null
    const reads = new KeptReads()
    const bound = bindFilter(this.#source.schema, this.#def, filter, {
      params: this.#options.params,
      exposedOnly: this.#options.exposedOnly ?? false,
      reads,
    })
    reads.check(this.#source.readCheck())
    this.#reads = reads
    return bound
  }

  /**
   * Whether the live row `rowId` matches, the data being at `version` (a global stamp: the test
   * is made again when it moved). Runs as the session acting now: what its `restrict` hides of a
   * related dataclass is not found through a relation.
   */
  matches(rowId: number, version: number): boolean {
    if (this.#bound === null) return true
    if (this.#test === undefined || version !== this.#version) {
      this.#test = this.#make()
      this.#version = version
    }
    return this.#test(rowId)
  }

  /** Forgets the test made: the next `matches` makes it again (the acting session changed). */
  forget(): void {
    this.#test = undefined
  }

  #make(): RowPredicate {
    const source = this.#source
    if (this.#fromCode) this.#bound = this.#bind()
    const tableOf = (d: { name: string }) => source.table(d.name)
    const plan = planQuery(this.#def, this.#bound, tableOf)
    const ctx: ExecContext = {
      tableOf,
      entityOf: (d) => source.entityOf(d.name),
      clock: source.clock,
      trace: false,
      allowed: source.visibility && allowedRows(source.visibility),
    }
    return finish(predicateOf(plan.root!, ctx)).test
  }
}
