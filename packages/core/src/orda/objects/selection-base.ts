/**
 * @module What an entity selection answers from its rows alone, no entity read: how many, whether
 * ordered or alterable (4D's `isOrdered()`, `isAlterable()`), and the aggregates read from its
 * dataclass's columns and indexes (4D's count, sum, average, min, max, distinct:
 * selections/selection-aggregates.ts). EntitySelection extends it: its members are the selection's
 * (their names on its prototype chain, as before), written here so that entity-selection.ts keeps
 * the members that read or make entities and selections. It names none of the public classes:
 * it takes the dataclass by what the aggregates read of it.
 */
import type {
  Aggregates,
  AggregateOp,
  AggregateValue,
  DistinctOptions,
} from '../../query/aggregate.js'
import type { RowIds } from '../../sets/row-ids.js'
import {
  aggregateOf,
  countValues,
  distinctOf,
  type AggregatedClass,
  type CountedValue,
} from '../selections/selection-aggregates.js'
import type { SelectionRows } from '../selections/selection-rows.js'

/** A selection's rows and their aggregates: the base of EntitySelection (entity-selection.ts). */
export class SelectionBase {
  readonly #dc: AggregatedClass
  readonly #r: SelectionRows

  /** @internal Made by EntitySelection, with its dataclass and rows. */
  constructor(dataClass: AggregatedClass, rows: SelectionRows) {
    this.#dc = dataClass
    this.#r = rows
  }

  /** Number of entities, deleted ones included (4D counts them in `__COUNT`). */
  get length(): number {
    return this.#r.length
  }

  /** @internal The row ids, in order (orders them all if needed). */
  get rowIds(): RowIds {
    return this.#r.inOrder()
  }

  /** @internal The row ids in no particular order (no sorting). */
  get unorderedRowIds(): RowIds {
    return this.#r.unordered()
  }

  // ---- aggregates (4D's count, sum, average, min, max, distinct): read from columns and
  // indexes, no entity is read (selection-aggregates.ts) ----

  /**
   * How many entities have a value (not null) at `path`: an attribute (`salary`), or a property of
   * an object attribute (`extra.level`). `length` counts every entity.
   */
  count(path: string): number {
    return this.#aggregate(path, 'count').count
  }

  /** The sum of the numbers at `path`; 0 when there are none. 9050 if `path` is not numeric. */
  sum(path: string): number {
    return this.#aggregate(path, 'sum').sum ?? 0
  }

  /**
   * The mean of the numbers at `path`; null when there are none (4D's undefined). 9050 if `path`
   * is not numeric.
   */
  average(path: string): number | null {
    return this.#aggregate(path, 'average').average ?? null
  }

  /** The least value at `path` (texts compared without case or accents); null when there is none. */
  min(path: string): AggregateValue | null {
    return this.#aggregate(path, 'min').min
  }

  /** The greatest value at `path`; null when there is none. */
  max(path: string): AggregateValue | null {
    return this.#aggregate(path, 'max').max
  }

  /**
   * Every aggregate of `path` in one pass (`$compute=$all`): `count`, `min`, `max`, and for a
   * numeric path `sum` and `average`.
   */
  aggregates(path: string): Aggregates {
    return this.#aggregate(path, '$all')
  }

  /**
   * The distinct values at `path`, nulls left out, in ascending order. Texts that differ only by
   * case or accents are one value (the spelling of the entity created first) unless
   * `{ diacritical: true }`. With `{ count: true }` (4D's `dk count values`, for a scalar storage
   * attribute), each value with how many entities have it: `{ value, count }`.
   */
  distinct(path: string, options: DistinctOptions & { readonly count: true }): CountedValue[]
  distinct(path: string, options?: DistinctOptions & { readonly count?: false }): AggregateValue[]
  distinct(
    path: string,
    options: DistinctOptions & { readonly count?: boolean } = {},
  ): AggregateValue[] | CountedValue[] {
    const dc = this.#dc
    return options.count === true
      ? countValues(dc, this.#r.rows, path, options)
      : distinctOf(dc, this.#r.rows, path, options)
  }

  #aggregate(path: string, operation: AggregateOp | '$all'): Aggregates {
    return aggregateOf(this.#dc, this.#r.rows, path, operation)
  }

  /** Whether `add()` can change this selection (made by `newSelection()` or `copy()`). */
  isAlterable(): boolean {
    return this.#r.alterable
  }

  /**
   * Whether this is one of 4D's ordered selections: made by `orderBy`, `orderByFormula`, a query
   * with `order by`, `newSelection({ keepOrder: true })`, `minus(…, { keepOrder: true })`, or an
   * `add()` of a selection. The members of any selection are in a fixed order all the same (key
   * order unless ordered).
   */
  isOrdered(): boolean {
    return this.#r.keepsOrder
  }
}
