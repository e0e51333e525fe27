/**
 * @module An ordered list of entities of one dataclass, held as row ids. A selection is a snapshot
 * of membership, not of values: reading an entity gives its current version, and an entity deleted
 * since the selection was made reads as null (4D shows it as `{"__STAMP": 0}` in entity sets).
 *
 * Iterating a selection (`for … of`, spread, `Array.from`) yields its live entities only, so
 * `for (const e of sel) e.get('title')` needs no null check; `length` still counts every member,
 * `at(i)` reads one member (null if deleted) and `members()` lists them all, deleted ones as null.
 *
 * `EntitySelection<M, N>` is a selection of dataclass `N` of a typed model `M`
 * (schema/typed-model.ts); without type arguments it is the untyped selection of any dataclass.
 */
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { DataClassName, ModelTypes, UntypedModel } from '../schema/typed-model.js'
import { refreshTaken, type Ordering } from '../query/order.js'
import { sliceable } from '../query/slices.js'
import { mapRowIds, type RowIds } from '../sets/row-ids.js'
import {
  aggregateWork,
  distinctWork,
  resolveAggregatePath,
  type AggregateOp,
  type Aggregates,
  type AggregatePath,
  type AggregateValue,
  type DistinctOptions,
} from '../query/aggregate.js'
import { orderSelection } from './queries.js'
import { dropEntities } from './writes.js'
import { clean, combine, intersects } from './entity-sets.js'
import type { EntitySet, KeepOptions } from './entity-sets.js'
import type { Datastore } from './datastore.js'
import { callByName } from './call-function.js'
import { needPathText } from './access-checks.js'

export class EntitySelection<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> implements Iterable<Entity<M, N>> {
  readonly dataClass: DataClass<M, N>
  readonly #rows: RowIds
  readonly #ordering: Ordering | undefined
  // The rows put in order so far: a prefix of the final order, complete once its length is #rows'.
  #ordered: RowIds | undefined

  /**
   * @internal Made by DataClass and the query engine; `rowIds` must not be modified afterwards. With
   * an `ordering`, `rowIds` may be in any order: the selection orders them on demand.
   */
  constructor(dataClass: DataClass<M, N>, rowIds: RowIds, ordering?: Ordering) {
    this.dataClass = dataClass
    this.#rows = rowIds
    // Zero or one row is in order whatever the ordering.
    this.#ordering = rowIds.length > 1 ? ordering : undefined
    this.#ordered = this.#ordering ? undefined : rowIds
  }

  /** Number of entities, deleted ones included (4D counts them in `__COUNT`). */
  get length(): number {
    return this.#rows.length
  }

  /** @internal The row ids, in order (orders them all if needed). */
  get rowIds(): RowIds {
    return this.#prefix(this.#rows.length)
  }

  /** @internal The row ids in no particular order (no sorting). */
  get unorderedRowIds(): RowIds {
    return this.#rows
  }

  // The first `count` rows in order; asks for at least twice the previous prefix so that reading a
  // selection page by page costs O(n log n) in all, not a selection per page.
  #prefix(count: number): RowIds {
    const have = this.#ordered
    if (have && (have.length >= count || have.length === this.#rows.length)) return have
    const want = Math.min(this.#rows.length, Math.max(count, 2 * (have?.length ?? 0)))
    const ordering = this.#ordering!
    const rows = this.#rows
    // A top-k over many rows goes in slices when the request runs in a slice scope.
    this.#ordered = ordering.work
      ? sliceable(
          `order ${this.dataClass.name} ${want}`,
          () => ordering.work!(rows, want),
          refreshTaken(ordering, this.dataClass.table, rows, want),
        )
      : ordering.take(rows, want)
    return this.#ordered
  }

  /** The entity at `index`, or null if it was deleted; undefined past the end. */
  at(index: number): Entity<M, N> | null | undefined {
    if (!(index >= 0 && index < this.#rows.length)) return undefined
    return this.dataClass.entityAt(this.#prefix(index + 1)[index]!)
  }

  /**
   * The part starting at `skip` with at most `top` entities (the `$skip`/`$top` window).
   * A `skip` past the end gives an empty selection. Only the rows up to `skip + top` are ordered.
   */
  slice(skip = 0, top = Infinity): EntitySelection<M, N> {
    if (skip === 0 && top >= this.#rows.length && !this.#ordering) return this
    const end = Math.min(this.#rows.length, skip + top)
    if (skip >= end) return new EntitySelection(this.dataClass, [])
    return new EntitySelection(this.dataClass, this.#prefix(end).slice(skip, end))
  }

  /**
   * The live entities in order: a member deleted since the selection was made is skipped (it has
   * no values to read). Use `members()` or `at(i)` to see where deleted members are.
   */
  *[Symbol.iterator](): Iterator<Entity<M, N>> {
    for (const rowId of this.rowIds) {
      const e = this.dataClass.entityAt(rowId)
      if (e) yield e
    }
  }

  /** Every member in order, a deleted one as null (what `at(i)` reads for each i < `length`). */
  members(): (Entity<M, N> | null)[] {
    return mapRowIds(this.rowIds, (rowId) => this.dataClass.entityAt(rowId))
  }

  /**
   * This selection ordered by `"attr [asc|desc], …"` (relation paths allowed); nulls first.
   * Only as many rows as are read get sorted.
   */
  orderBy(orderBy: string): EntitySelection<M, N> {
    return orderSelection(this, orderBy) as EntitySelection<M, N>
  }

  /**
   * Deletes every entity of the selection that still exists, in one transaction (or as part of the
   * open `ds.transaction(fn)`); returns how many were deleted. The selection keeps its members,
   * which now read as null.
   */
  drop(): number {
    return dropEntities(this.dataClass, this)
  }

  // ---- aggregates (4D's count, sum, average, min, max, distinct): read from columns and
  // indexes, no entity is read (see query/aggregate.ts) ----

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

  /** The mean of the numbers at `path`; null when there are none. 9050 if `path` is not numeric. */
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
   * `{ diacritical: true }`.
   */
  distinct(path: string, options: DistinctOptions = {}): AggregateValue[] {
    const dc = this.dataClass
    needPathText(dc as unknown as DataClass, path)
    const resolved = this.#path(path, 'distinct')
    return sliceable(`distinct ${dc.name} ${path} ${options.diacritical === true}`, () =>
      distinctWork(dc.table, this.#rows, resolved, {
        diacritical: options.diacritical,
        whole: () => this.#whole(),
      }),
    )
  }

  #aggregate(path: string, operation: AggregateOp | '$all'): Aggregates {
    needPathText(this.dataClass as unknown as DataClass, path)
    const only = operation === '$all' ? undefined : operation
    const resolved = this.#path(path, operation)
    // A pass over many rows goes in slices when the request runs in a slice scope (slices.ts); a
    // result kept while rows changed is computed again.
    return sliceable(`aggregate ${this.dataClass.name} ${path} ${operation}`, () =>
      aggregateWork(this.dataClass.table, this.#rows, resolved, {
        ...(only ? { only } : {}),
        whole: () => this.#whole(),
      }),
    )
  }

  #path(path: string, operation: string): AggregatePath {
    const dc = this.dataClass
    return resolveAggregatePath(
      {
        def: dc.def,
        dataClass: (name) => dc.datastore.schema.byName.get(name),
        computed: (attr) => (rowId) => dc.entityAt(rowId)?.valueOf(attr) ?? null,
      },
      path,
      operation,
    )
  }

  // Whether this selection is every entity of the dataclass (`dc.all()`, or an ordering of it):
  // its rows are then the table's own list of live rows.
  #whole(): boolean {
    return this.dataClass.table.isOrderedRowIds(this.#rows)
  }

  /** The entities in this selection and in `other` (4D's `and()`), in this selection's order. */
  and(other: EntitySelection<M, N>): EntitySelection<M, N> {
    return combine(this, 'AND', other) as EntitySelection<M, N>
  }

  /** The entities of this selection, then those of `other` not in it (4D's `or()`). */
  or(other: EntitySelection<M, N>): EntitySelection<M, N> {
    return combine(this, 'OR', other) as EntitySelection<M, N>
  }

  /** The entities of this selection that are not in `other` (4D's `minus()`, REST's EXCEPT). */
  minus(other: EntitySelection<M, N>): EntitySelection<M, N> {
    return combine(this, 'EXCEPT', other) as EntitySelection<M, N>
  }

  /** Whether this selection and `other` have an entity in common (REST's INTERSECT). */
  intersects(other: EntitySelection<M, N>): boolean {
    return intersects(this, other)
  }

  /** This selection without its members deleted since it was made (REST's `$clean`). */
  clean(): EntitySelection<M, N> {
    return clean(this) as EntitySelection<M, N>
  }

  /** Keeps this selection in the datastore's entity-set cache; `ds.entitySets.get(id)` finds it. */
  keep(options?: KeepOptions): EntitySet {
    return this.dataClass.datastore.entitySets.keep(this, options)
  }

  /**
   * Calls the entity-selection function `name` (a function of the `<DataClass>Selection` class),
   * exposed or not, with `this` this selection. Returns its result, or a Promise of it.
   * @throws DatastoreError FunctionNotFound (1573), FunctionParameterInvalid (9101), and what the
   *   function throws (a non-DatastoreError as FunctionFailed, 9100).
   */
  call(name: string, ...args: unknown[]): unknown {
    const dc = this.dataClass
    const ds = dc.datastore as unknown as Datastore
    return callByName(ds, 'entitySelection', dc.name, name, this, args)
  }

  /** The live entities, deleted ones left out. */
  toArray(): Entity<M, N>[] {
    return [...this]
  }
}
