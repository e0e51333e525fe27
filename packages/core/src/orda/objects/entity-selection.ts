/**
 * @module An ordered list of entities of one dataclass, held as row ids. A selection is a snapshot
 * of membership, not of values: reading an entity gives its current version, and an entity deleted
 * since the selection was made reads as null (4D shows it as `{"__STAMP": 0}` in entity sets).
 *
 * Iterating a selection (`for … of`, spread, `Array.from`) yields its live entities only, so
 * `for (const e of sel) e.get('title')` needs no null check; `length` still counts every member,
 * `at(i)` reads one member (null if deleted) and `members()` lists them all, deleted ones as null.
 *
 * A selection is immutable, except an alterable one (4D's alterable entity selection): only
 * `dataClass.newSelection()` and `copy()` make one, and only `add()` changes it, in place. Every
 * other member returns a new selection (4D's shareable ones). docs/orda.md maps each member of 4D's
 * EntitySelection class to this one.
 *
 * `EntitySelection<M, N>` is a selection of dataclass `N` of a typed model `M`
 * (schema/typed-model.ts); without type arguments it is the untyped selection of any dataclass.
 */
import { OBJECT_KIND } from '../kinds/object-kind.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type {
  AttributeName,
  DataClassName,
  ModelTypes,
  UntypedModel,
} from '../../schema/typed-model.js'
import type { AttributeValue, SelectionAttributes } from './attribute-types.js'
import { fail } from '../../errors/datastore-error.js'
import type { Ordering } from '../../query/order.js'
import { mapRowIds, type RowIds, type SelectionRowIds } from '../../sets/row-ids.js'
import { orderSelection, queryWithin } from './queries.js'
import { dropEntities, dropKept } from '../writes/writes.js'
import { dropKeptSteps } from '../writes/drop-all-steps.js'
import type { Work } from '../../query/slices.js'
import { placed } from '../selections/selection-place.js'
import { rowsMatchingFormula } from '../selections/formula-query.js'
import type { FormulaQuerySettings, QueryFormula } from '../selections/formula-query.js'
import { projection } from './selection-attributes.js'
import { clean, combine, intersects } from './entity-sets.js'
import type { EntitySet, KeepOptions } from './entity-sets.js'
import type { Datastore } from './datastore.js'
import { callByName } from '../functions/call-function.js'
import { orderByText, queryOptionsOf, type OrderByCriterion } from '../selections/query-settings.js'
import { rangesOf, sliceBounds, type PositionRange } from '../selections/selection-positions.js'
import {
  distinctPaths,
  extractObjects,
  extractValues,
  toCollection,
  type ExtractOptions,
  type ToCollectionOptions,
} from '../selections/selection-projections.js'
import {
  orderedByFormula,
  type OrderByFormulaOptions,
  type OrderFormula,
} from '../selections/formula-order.js'
import { ORDERED, type SelectionTraits } from '../selections/selection-traits.js'
import { SelectionRows } from '../selections/selection-rows.js'
import { LiveEntities } from '../selections/live-entities.js'
import { SelectionBase } from './selection-base.js'

export { ORDERED, type SelectionTraits } from '../selections/selection-traits.js'

/**
 * A selection's members, without its attribute projections: what every dataclass's selections
 * share. `EntitySelection` (below) is this with the dataclass's attributes as projections. Those
 * answered from its rows alone (`length`, the aggregates, `isOrdered()`…) are in its base class
 * (selection-base.ts).
 */
export class EntitySelectionCore<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
>
  extends SelectionBase
  implements Iterable<Entity<M, N>>
{
  readonly dataClass: DataClass<M, N>
  /** 4D's `queryPlan`: the plan of the query that made this selection, if it asked (`{ queryPlan: true }`). */
  readonly queryPlan: unknown
  /** 4D's `queryPath`: the steps of the query that made this selection, if it asked (`{ queryPath: true }`). */
  readonly queryPath: unknown
  // Its rows: held, ordered on demand, appended to by `add()` (selection-rows.ts).
  readonly #r: SelectionRows

  /**
   * @internal Made by DataClass and the query engine; `rowIds` must not be modified afterwards. With
   * an `ordering`, `rowIds` may be in any order: the selection orders them on demand. An alterable
   * selection takes its rows in order (no `ordering`) and keeps a copy of its own.
   */
  constructor(
    dataClass: DataClass<M, N>,
    rowIds: SelectionRowIds,
    ordering?: Ordering,
    traits?: SelectionTraits,
  ) {
    const rows = new SelectionRows(dataClass, rowIds, ordering, traits)
    super(dataClass, rows)
    this.#r = rows
    this.dataClass = dataClass
    this.queryPlan = traits?.queryPlan
    this.queryPath = traits?.queryPath
  }

  // This selection as the public type gives it, with its dataclass's attribute projections.
  get #typed(): EntitySelection<M, N> {
    return this as unknown as EntitySelection<M, N>
  }

  /** @internal What this object is, for the files that may not import its class (kinds/object-kind.ts). */
  get [OBJECT_KIND](): 'selection' {
    return 'selection'
  }

  /**
   * The entity at `index`, or null if it was deleted; undefined past the end. A negative index
   * counts from the end (4D's `at()`): `at(-1)` is the last. It is the stored version (nothing is
   * allocated), which remembers no selection: `memberAt(index)` gives one that does.
   */
  at(index: number): Entity<M, N> | null | undefined {
    const i = index < 0 ? index + this.#r.length : index
    if (!(i >= 0 && i < this.#r.length)) return undefined
    return this.dataClass.entityAt(this.#r.prefix(i + 1)[i]!)
  }

  /**
   * 4D's `selection[index]`: the entity at `index` as `at(index)` reads it, but one that remembers
   * this selection and its position (`getSelection()`, `indexOf()`, `next()`, `previous()`): a
   * copy of the stored version, made for the caller (selection-place.ts).
   */
  memberAt(index: number): Entity<M, N> | null | undefined {
    const i = index < 0 ? index + this.#r.length : index
    return placed(this.at(i), this, i)
  }

  /**
   * The first entity, or null when the selection is empty or its first member was deleted. It
   * remembers this selection, as `memberAt(0)`.
   */
  first(): Entity<M, N> | null {
    return this.memberAt(0) ?? null
  }

  /**
   * The last entity, or null when the selection is empty or its last member was deleted. It
   * remembers this selection, as `memberAt(-1)`.
   */
  last(): Entity<M, N> | null {
    return this.memberAt(-1) ?? null
  }

  /**
   * The members from `startFrom` up to `end` (not included), as 4D's and JavaScript's arrays'
   * `slice`: a negative bound counts from the end, `end` defaults to the length, `end <= startFrom`
   * gives an empty selection. Deleted members are kept. Only the rows up to `end` are ordered.
   */
  slice(startFrom = 0, end = Infinity): EntitySelection<M, N> {
    const { from, to } = sliceBounds(this.#r.length, startFrom, end)
    return this.window(from, to - from)
  }

  /**
   * The part starting at `skip` with at most `top` entities (REST's `$skip`/`$top` window).
   * A `skip` past the end gives an empty selection. Only the rows up to `skip + top` are ordered.
   */
  window(skip = 0, top = Infinity): EntitySelection<M, N> {
    const rows = this.#r.window(skip, top)
    if (rows === undefined) return this.#typed
    return this.dataClass.select(rows, undefined, this.#r.keepsOrder ? ORDERED : undefined)
  }

  /**
   * The live entities in order: a member deleted since the selection was made is skipped (it has
   * no values to read). Use `members()` or `at(i)` to see where deleted members are.
   */
  [Symbol.iterator](): Iterator<Entity<M, N>> {
    return new LiveEntities<Entity<M, N>>(this)
  }

  /** Every member in order, a deleted one as null (what `at(i)` reads for each i < `length`). */
  members(): (Entity<M, N> | null)[] {
    return mapRowIds(this.rowIds, (rowId) => this.dataClass.entityAt(rowId))
  }

  /**
   * This selection ordered by `"attr [asc|desc], …"` (relation paths allowed), or by 4D's
   * collection of criteria `[{ propertyPath, descending }]`; nulls first. Only as many rows as are
   * read get sorted.
   */
  orderBy(orderBy: string | readonly OrderByCriterion[]): EntitySelection<M, N> {
    return orderSelection(this, orderByText(orderBy)) as EntitySelection<M, N>
  }

  /**
   * This selection ordered by what `formula` returns for each entity (4D's `orderByFormula`, the
   * formula a function: `this` and its first argument are the entity, its second `options.args`).
   *
   * @example sel.orderByFormula((e) => String(e.get('lastName')).length, { descending: true })
   */
  orderByFormula<A = unknown>(
    formula: OrderFormula<Entity<M, N>, A>,
    options?: OrderByFormulaOptions<A>,
  ): EntitySelection<M, N> {
    const rows = orderedByFormula(this.#dc, this.rowIds, formula as OrderFormula<Entity>, options)
    return this.dataClass.select(rows, undefined, ORDERED)
  }

  /**
   * The entities of this selection that match a query (4D's `entitySelection.query()`): the text
   * and values as `dataClass.query()` takes them, 4D's querySettings last (`parameters`,
   * `attributes`, `queryPlan`, `queryPath`). In the query's `order by` if it has one, else in key
   * order.
   *
   * @example sel.query('manager.lastName = :1', 'S@')
   * @example sel.query('salary > :min', { parameters: { min: 5000 }, queryPlan: true }).queryPlan
   */
  query(text: string, ...args: unknown[]): EntitySelection<M, N>
  /**
   * 4D's `entitySelection.query(formula, querySettings)`: the members for which `formula` returns
   * true, as `dataClass.query(formula)` tests them (a member dropped since is left out).
   *
   * @example sel.query((e) => String(e.get('lastName')).startsWith('S'))
   */
  query<A = unknown>(
    formula: QueryFormula<Entity<M, N>, A>,
    settings?: FormulaQuerySettings<A>,
  ): EntitySelection<M, N>
  query(text: string | QueryFormula<Entity<M, N>, never>, ...args: unknown[]) {
    if (typeof text !== 'string')
      return this.dataClass.select(
        rowsMatchingFormula(this.dataClass, this.rowIds, text, args[0] as never),
      )
    return queryWithin(this.#typed, text, queryOptionsOf(args))
  }

  /**
   * 4D's `drop(mode?)`: deletes the entities of this selection (those deleted already are gone),
   * in one transaction (or as part of the open `ds.transaction(fn)`), and answers the selection of
   * those it could not drop: a lock, an entity event or the session's `restrict` kept them
   * (empty when all were dropped). `{ stopOnFirstError: true }` (4D's `dk stop dropping on first
   * error`) stops at the first one kept, which is then the answer's only member. This selection
   * keeps its members, which read as null once dropped. `dropOrFail()` drops the throwing way.
   *
   * @example const notDropped = ds.Employee.query('firstName = :1', 'S@').drop()
   */
  drop(options: { readonly stopOnFirstError?: boolean } = {}): EntitySelection<M, N> {
    return this.dataClass.select(dropKept(this.dataClass, this, options.stopOnFirstError === true))
  }

  /** `drop()` as work in steps (a REST call's code): its events in steps (drop-all-steps.ts). */
  *dropSteps(options: { readonly stopOnFirstError?: boolean } = {}): Work<EntitySelection<M, N>> {
    const kept = yield* dropKeptSteps(this.dataClass, this, options.stopOnFirstError === true)
    return this.dataClass.select(kept)
  }

  /**
   * Deletes every entity of the selection that still exists, in one transaction (or as part of the
   * open `ds.transaction(fn)`); returns how many were deleted. The first refusal (a lock, a changed
   * stamp, an entity event) is thrown, and nothing is deleted. The selection keeps its members,
   * which now read as null.
   */
  dropOrFail(): number {
    return dropEntities(this.dataClass, this)
  }

  /**
   * 4D's `selection.attributeName` with the name as text: what the attribute's property projects
   * (a relation, the selection of the entities it reaches, each once; another attribute, its
   * values as `extract(name)` gives them), also for an attribute named like a member (`length`,
   * `first`), which has no property. The 4D language reads `$sel.name` through it. Throws
   * AttributeNotFound (1500) for a name that is not an attribute.
   */
  project(attribute: string): unknown {
    return projection(this, this.dataClass.attribute(attribute))
  }

  /**
   * The distinct paths found in the values of the object attribute `attribute` (4D's
   * `distinctPaths()`; no index needed): `a.b`, a collection as `c.length` and `c[].d`.
   */
  distinctPaths(attribute: AttributeName<M, N>): string[] {
    return distinctPaths(this.#dc, this.#live(), attribute)
  }

  // ---- values as collections (selection-projections.ts) ----

  /**
   * The values at `attributePath` (an attribute, a relation path `employer.name`, an object
   * property), one a live entity, nulls left out unless `{ keepNull: true }` (4D's `ck keep
   * null`); a relatedEntity gives entities, a relatedEntities selections. Or, given pairs
   * `(attributePath, targetPath, …)`, one object an entity with each value (nulls kept) at its
   * target path. An invalid path gives an empty collection, as in 4D.
   */
  extract<K extends AttributeName<M, N>>(
    attributePath: K,
    options?: ExtractOptions & { readonly keepNull?: false },
  ): NonNullable<AttributeValue<M, N, K>>[]
  extract<K extends AttributeName<M, N>>(
    attributePath: K,
    options: ExtractOptions,
  ): AttributeValue<M, N, K>[]
  /** A path through a relation or into an object attribute: `employer.name`, `extra.level`. */
  extract(attributePath: `${string}.${string}`, options?: ExtractOptions): unknown[]
  extract(
    attributePath: string,
    targetPath: string,
    ...morePairs: string[]
  ): Record<string, unknown>[]
  extract(attributePath: string, second?: string | ExtractOptions, ...more: string[]): unknown[] {
    const dc = this.#dc
    if (typeof second === 'string')
      return extractObjects(dc, this.#live(), [attributePath, second, ...more])
    return extractValues(dc, this.#live(), attributePath, second)
  }

  /**
   * One plain object a live entity (4D's `toCollection`): every storage attribute and each
   * relatedEntity as `{ __KEY }`, or the paths of `filter` (`"a, b"` or `["a", "b"]`;
   * `"employer.*"`, `"employer.name"`, `"reports.lastName"`); `{ withKey, withStamp }` add
   * `__KEY` and `__STAMP` (4D's `dk with primary key`, `dk with stamp`); `begin` and `howMany`
   * cut the members first (a deleted one counts, and is left out).
   */
  toCollection(
    filter?: string | readonly string[],
    options?: ToCollectionOptions,
    begin = 0,
    howMany = Infinity,
  ): Record<string, unknown>[] {
    if (!(begin >= 0) || begin >= this.#r.length) return []
    return toCollection(this.window(begin, howMany).members() as Entity[], filter, options)
  }

  // The dataclass and the live entities, untyped for the helpers.
  get #dc(): DataClass {
    return this.dataClass as unknown as DataClass
  }

  #live(): Iterable<Entity> {
    return this as unknown as Iterable<Entity>
  }

  // ---- set algebra, membership, alteration ----

  /**
   * The entities in this selection and in `other` (4D's `and()`), in this selection's order; an
   * entity gives the selection of it alone if it is a member, else an empty one (so does null).
   */
  and(other: EntitySelection<M, N> | Entity<M, N> | null): EntitySelection<M, N> {
    if (other === null) return this.dataClass.select([])
    return combine(this, 'AND', this.#selectionOf(other)) as EntitySelection<M, N>
  }

  /** The entities of this selection, then those of `other` (a selection or an entity) not in it (4D's `or()`). */
  or(other: EntitySelection<M, N> | Entity<M, N> | null): EntitySelection<M, N> {
    if (other === null) return this.#typed
    return combine(this, 'OR', this.#selectionOf(other)) as EntitySelection<M, N>
  }

  /**
   * The entities of this selection that are not in `other`, a selection or an entity (4D's
   * `minus()`, REST's EXCEPT), in this selection's order; `{ keepOrder: true }` (4D's `dk keep
   * ordered`) marks the result ordered.
   */
  minus(
    other: EntitySelection<M, N> | Entity<M, N> | null,
    options: { readonly keepOrder?: boolean } = {},
  ): EntitySelection<M, N> {
    if (other === null) return this.#typed
    const out = combine(this, 'EXCEPT', this.#selectionOf(other)) as EntitySelection<M, N>
    return options.keepOrder === true ? this.dataClass.select(out.rowIds, undefined, ORDERED) : out
  }

  // An entity as the selection of it alone, in its own dataclass (so that combining it with a
  // selection of another dataclass fails as two selections do).
  #selectionOf(x: EntitySelection<M, N> | Entity<M, N>): EntitySelection<M, N> {
    return x instanceof EntitySelectionCore ? x : x.dataClass.select([x.rowId])
  }

  /** Whether this selection and `other` have an entity in common (REST's INTERSECT). */
  intersects(other: EntitySelection<M, N>): boolean {
    return intersects(this, other)
  }

  /** Whether `entity` is a member (false for null). 1587 if it is of another dataclass. */
  contains(entity: Entity<M, N> | null): boolean {
    if (entity === null) return false
    this.#sameDataClass(entity.dataClass)
    return this.#r.rows.indexOf(entity.rowId) >= 0
  }

  /**
   * Where the members of `selected` are in this selection (4D's `selected()`): runs of
   * consecutive positions, from 0, both ends included. 1587 if it is of another dataclass.
   */
  selected(selected: EntitySelection<M, N>): { ranges: PositionRange[] } {
    this.#sameDataClass(selected.dataClass)
    return { ranges: rangesOf(this.rowIds, selected.unorderedRowIds) }
  }

  #sameDataClass(other: DataClass<M, N>): void {
    if (other !== this.dataClass) fail('IncompatibleDataClass', [other.name, this.dataClass.name])
  }

  /**
   * Adds an entity (at the end of an ordered selection; not again to an unordered one that has
   * it) or every member of a selection (at the end; an unordered selection becomes ordered), in
   * place, and returns this selection (4D's `add()`, which chains). Only an alterable selection
   * (`newSelection()`, `copy()`) takes it: 1637 otherwise; 1587 for another dataclass's. Null adds
   * nothing.
   */
  add(added: Entity<M, N> | EntitySelection<M, N> | null): this {
    if (!this.#r.alterable) fail('SelectionNotAlterable', [this.dataClass.name])
    if (added === null) return this
    this.#sameDataClass(added.dataClass)
    if (added instanceof EntitySelectionCore) this.#r.addAll(added.rowIds)
    else this.#r.addOne(added.rowId)
    return this
  }

  /**
   * A new selection of the same members in the same order (4D's `copy()`): alterable, or not with
   * `{ shared: true }` (4D's `ck shared`).
   */
  copy(options: { readonly shared?: boolean } = {}): EntitySelection<M, N> {
    return this.dataClass.select(this.rowIds, undefined, {
      ordered: this.#r.keepsOrder,
      alterable: options.shared !== true,
    })
  }

  /** The dataclass of this selection (4D's `getDataClass()`; also the `dataClass` property). */
  getDataClass(): DataClass<M, N> {
    return this.dataClass
  }

  /**
   * 4D's `refresh()` invalidates a remote datastore's ORDA cache; here every read already gives
   * each entity's current version, so there is nothing to invalidate: it does nothing.
   */
  refresh(): void {}

  /**
   * 4D's `getRemoteContextAttributes()`: the attributes of a client/server optimization context.
   * There is no remote context in one process, so it is always `''`, 4D's answer without one.
   */
  getRemoteContextAttributes(): string {
    return ''
  }

  /**
   * This selection without its members deleted since it was made (4D's `clean()`, REST's
   * `$clean`), in its order, ordered and alterable as this one.
   */
  clean(): EntitySelection<M, N> {
    const live = clean(this) as EntitySelection<M, N>
    if (!this.#r.alterable && !this.#r.keepsOrder) return live
    return this.dataClass.select(live.rowIds, undefined, {
      ordered: this.#r.keepsOrder,
      alterable: this.#r.alterable,
    })
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

/**
 * A list of entities of dataclass `N` (see the module's comment), with the attributes of a typed
 * model as projections. Each dataclass's selections are of a subclass of EntitySelectionCore
 * whose prototype holds them (attribute-properties.ts).
 */
export type EntitySelection<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> = EntitySelectionCore<M, N> & SelectionAttributes<M, N>

/** The class of every selection (`x instanceof EntitySelection`); each dataclass's are of a subclass. */
export const EntitySelection = EntitySelectionCore
