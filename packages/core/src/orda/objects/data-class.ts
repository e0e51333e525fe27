/**
 * @module The public face of one dataclass: its definition, reads over its table, and writes by
 * key (each a transaction of its own, or a part of the open `ds.transaction(fn)`; see writes.ts).
 *
 * `DataClass<M, N>` is dataclass `N` of a typed model `M` (schema/typed-model.ts): its entities,
 * selections and drafts carry the types, and writes take only its attributes. Without type
 * arguments it is the untyped dataclass.
 */
import { fail } from '../../errors/datastore-error.js'
import type { AttributeDef, DataClassDef, StorageAttributeDef } from '../../schema/definitions.js'
import type { StoredValue } from '../../values/coerce.js'
import { coerceAt } from '../../store/changes.js'
import type { Datastore } from './datastore.js'
import type { EntityRecord, KeyValue } from '../../store/entity-record.js'
import { Entity, EntityCore } from './entity.js'
import { objectClassesOf, type ObjectClasses } from './object-classes.js'
import type { Ordering } from '../../query/order.js'
import { EntitySelectionCore, type EntitySelection } from './entity-selection.js'
import { ORDERED, type SelectionTraits } from '../selections/selection-traits.js'
import { toKey } from '../../store/keys.js'
import type { Table } from '../../store/table.js'
import type { IndexKind } from '../../indexes/index-set.js'
import type { QueryNode } from '../../query/ast.js'
import { runQuery, type QueryOptions, type QueryResult } from './queries.js'
import { PreparedQuery, type PrepareOptions } from './prepared-query.js'
import { isQuerySettings, queryOptionsOf } from '../selections/query-settings.js'
import { EntityDraftCore, type DraftArgs, type EntityDraft } from './entity-draft.js'
import { createEntity, dropEntity, updateEntity } from '../writes/writes.js'
import { openTransaction } from '../calls/owners.js'
import { DELETED_RECORDS } from '../../schema/change-tracking.js'
import { deletedRecordsRestrict } from '../feed/deletion-witnesses.js'
import { noteEveryEntity, restrictedRows, restrictRunning } from '../restrict/restrict.js'
import type { RestrictHandler } from '../../functions/registry.js'
import type { WriteCheck } from '../../txn/transaction.js'
import type {
  AttributeName,
  DataClassName,
  ModelTypes,
  UntypedModel,
} from '../../schema/typed-model.js'
import type { FromCollectionObject, WriteValues, PropertyName } from './attribute-types.js'
import { callByName } from '../functions/call-function.js'
import type { SelectionRowIds } from '../../sets/row-ids.js'
import { needRead } from '../restrict/access-checks.js'
import { currentActor } from '../../access/acting.js'
import { attributeInfo, dataClassInfo } from '../members/data-class-info.js'
import type { DataClassAttribute, DataClassInfo } from '../members/data-class-info.js'
import { createIndexOn, dropIndexOf } from '../members/data-class-indexes.js'
import { fromCollectionRows, type FromCollectionSettings } from '../members/from-collection.js'
import { KeyLookup } from '../members/key-lookup.js'
import { rowIdsReferencing } from '../members/related-rows.js'
import { rowsMatchingFormula } from '../selections/formula-query.js'
import type { FormulaQuerySettings, QueryFormula } from '../selections/formula-query.js'
import { stagedEntity, stagedRow, tableAsSeen } from '../writes/transaction-reads.js'
import { openTransactions } from '../processes.js'

/** 4D's `settings` of `get()` and `all()`: `context` is taken and ignored (no client/server cache). */
export interface ReadSettings {
  readonly context?: string
}

/** How many query texts a dataclass keeps prepared for `query()`. */
const PREPARED_TEXTS = 256

/**
 * A dataclass's members, without its attribute properties. `DataClass` (below) is this with the
 * attributes of a typed model as properties (4D's `ds.Employee.lastName`).
 */
export class DataClassCore<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> {
  readonly datastore: Datastore<M>
  readonly def: DataClassDef
  /** @internal */
  readonly table: Table
  /** @internal The `restrict` event of the dataclass's functions, if any (orda/restrict/restrict.ts). */
  readonly restrictFunction: RestrictHandler | undefined
  // Its rows by key as a caller spells it (key-lookup.ts).
  readonly #keys: KeyLookup
  // The query texts `query()` ran, prepared: code repeats a few texts with new values. A plain
  // Map (a lookup here is on every query): when it is full, the oldest text makes room.
  readonly #prepared = new Map<string, PreparedQuery<M, N>>()
  // The classes of this dataclass's objects, with its attributes as properties (object-classes.ts).
  readonly #classes: ObjectClasses<
    typeof EntityCore,
    typeof EntityDraftCore,
    typeof EntitySelectionCore
  >

  /** @internal Made by the Datastore. */
  constructor(datastore: Datastore<M>, table: Table) {
    this.datastore = datastore
    this.def = table.def
    this.table = table
    this.#keys = new KeyLookup(table)
    const classes = (this.#classes = objectClassesOf(table.def, {
      Entity: EntityCore,
      Draft: EntityDraftCore,
      Selection: EntitySelectionCore,
    }))
    // Every version is stored as its Entity: `get` and selections hand out the stored object.
    table.versionOf = (record) =>
      record instanceof Entity && record.dataClass === this
        ? record
        : new classes.Entity(
            this.#typed,
            record.rowId,
            record.key,
            record.stamp,
            record.timestamp,
            record.values,
          )
    table.newVersion = (rowId, key, stamp, timestamp, values) =>
      new classes.Entity(this.#typed, rowId, key, stamp, timestamp, values)
    const own = datastore.functions.restrict(table.def.name)
    // The deleted rows of change tracking show a session only the deletions it may learn of.
    this.restrictFunction = table.def.name === DELETED_RECORDS ? deletedRecordsRestrict(own) : own
  }

  /** @internal An Entity of this dataclass for a stored version (the table's, or a clone). */
  makeEntity(
    rowId: number,
    key: KeyValue,
    stamp: number,
    timestamp: number,
    values: EntityRecord['values'],
  ): Entity<M, N> {
    return new this.#classes.Entity(
      this.#typed,
      rowId,
      key,
      stamp,
      timestamp,
      values,
    ) as unknown as Entity<M, N>
  }

  /**
   * @internal A selection of the given row ids of this dataclass, in that order, or in
   * `ordering`'s (then `rowIds` may be in any order: the selection orders them when read).
   */
  select(
    rowIds: SelectionRowIds,
    ordering?: Ordering,
    traits?: SelectionTraits,
  ): EntitySelection<M, N> {
    return new this.#classes.Selection(
      this.#typed,
      rowIds,
      ordering,
      traits,
    ) as unknown as EntitySelection<M, N>
  }

  /** @internal A draft of `base`, or of a new entity (null): `new()`, `entity.edit()`, writes. */
  draft(...making: DraftArgs<M, N>): EntityDraft<M, N> {
    return new this.#classes.Draft(this.#typed, ...making) as unknown as EntityDraft<M, N>
  }

  // This dataclass as the public type gives it, with its attribute properties.
  get #typed(): DataClass<M, N> {
    return this as unknown as DataClass<M, N>
  }

  get name(): string {
    return this.def.name
  }

  get attributes(): readonly AttributeDef[] {
    return this.def.attributes
  }

  /** The attribute called `name`; throws AttributeNotFound (1500) if there is none. */
  attribute(name: string): AttributeDef {
    const def = this.def
    return (
      def.attributesByName.get(name) ??
      fail('AttributeNotFound', [name, def.name, def.attributesByName.keys()])
    )
  }

  /**
   * 4D's attribute object (`ds.Employee.firstname` in 4D: `{ name, kind, type, fieldType, … }`),
   * a new plain object at each call; AttributeNotFound (1500) if there is none (data-class-info.ts).
   */
  attributeInfo(name: AttributeName<M, N>): DataClassAttribute<AttributeName<M, N>> {
    return attributeInfo(this as unknown as DataClass, name)
  }

  /** 4D's `getInfo()`: `{ exposed, name, primaryKey, tableNumber }`, a new object at each call. */
  getInfo(): DataClassInfo {
    return dataClassInfo(this.def)
  }

  /** 4D's `getDataStore()`: the datastore (`getDataStore().dataClass(name)` for another class). */
  getDataStore(): Datastore<M> {
    return this.datastore
  }

  /** `raw` coerced to the type of the storage attribute `attr`; throws InvalidAttributeValue (1570). */
  coerce(attr: StorageAttributeDef, raw: unknown): StoredValue {
    return coerceAt(this.def, attr, raw, (name) => `${this.name}.${name}`)
  }

  /**
   * Number of entities. For a session acting (`ds.actAs`, a request's code), those its `restrict`
   * lets it see: a count of the others would tell what it hides.
   */
  get length(): number {
    needRead(this as DataClass)
    if (this.restrictFunction !== undefined && currentActor(this.datastore) !== undefined)
      return this.all().length
    return this.table.size
  }

  /**
   * 4D's `getCount()`: `length`, and inside a transaction the entities it created or deleted so far
   * counted (4D: "entities created during the transaction will be taken into account").
   */
  getCount(): number {
    const tx = openTransaction(this.datastore)
    return this.length + (tx === undefined ? 0 : tx.countChange(this.table))
  }

  /**
   * The entity with this primary key, or null (4D's `get()`). The key may be given as text (`"3"`)
   * and is coerced to the key's type; a key that cannot be of that type throws InvalidKey (1541).
   */
  get(key: unknown, _settings?: ReadSettings): Entity<M, N> | null {
    needRead(this as DataClass)
    // Inside a transaction, the calling process reads its own writes first (processes.ts).
    if (openTransactions !== 0) {
      const own = stagedEntity(this as DataClass, key)
      if (own !== undefined) return own as Entity<M, N> | null
    }
    return this.#keys.find(this.#typed, key)
  }

  /**
   * Creates and saves an entity. Unset attributes are null or generated (autosequence, uuid key);
   * a relation takes an Entity, a key or `{ __KEY }`.
   *
   * @example ds.Employee.create({ lastName: 'Smith', employer: 3 })
   * @throws DatastoreError UnknownAttribute (1500), AttributeReadOnly (1516), InvalidAttributeValue
   *   (1570: wrong type, null in a not-null attribute, a missing related entity), DuplicateKey
   *   (1545), UniqueViolation (9040). Nothing is saved when it throws.
   */
  create(values: WriteValues<M, N> = {}): Entity<M, N> {
    return createEntity(this, values) as Entity<M, N>
  }

  /** A new unsaved entity to fill and `save()` (4D's `dataClass.new()`). */
  new(values?: WriteValues<M, N>): EntityDraft<M, N> {
    return this.draft(null, values)
  }

  /**
   * 4D's `fromCollection()`: creates or updates one entity per object (`__NEW`, `__KEY`,
   * `__STAMP` as 4D reads them; see from-collection.ts), each saved in turn; returns them as an
   * ordered selection in the collection's order. A failure throws, the objects before it saved.
   *
   * @example ds.Employee.fromCollection([{ __KEY: 1720, lastName: 'Boorman', employer: { ID: 121 } }])
   */
  fromCollection(
    objects: readonly FromCollectionObject<M, N>[],
    _settings?: FromCollectionSettings,
  ): EntitySelection<M, N> {
    const rows = fromCollectionRows(this as unknown as DataClass, objects)
    return this.select(rows, undefined, ORDERED)
  }

  /**
   * Saves new values for the entity `key`; returns the new version (stamp + 1). With
   * `{ stamp }`, refuses with StampChanged (1263) unless the entity still has that stamp.
   *
   * @throws DatastoreError EntityNotFound (1542), StampChanged (1263), and as `create`.
   */
  update(key: unknown, values: WriteValues<M, N>, check?: WriteCheck): Entity<M, N> {
    return updateEntity(this, toKey(this.def, key), values, check) as Entity<M, N>
  }

  /**
   * Deletes the entity `key`. With `{ stamp }`, only if it still has that stamp.
   *
   * @throws DatastoreError EntityNotFound (1542), StampChanged (1263).
   */
  drop(key: unknown, check?: WriteCheck): void {
    dropEntity(this, toKey(this.def, key), check)
  }

  /** Like `get`, but throws EntityNotFound (1542) when there is no such entity. */
  getOrFail(key: unknown): Entity<M, N> {
    return this.get(key) ?? fail('EntityNotFound', [String(key), this.def.name])
  }

  /**
   * The entities matching a query string, in primary-key order unless the query ends with
   * `order by`. Placeholders `:1`, `:2`… take `params` in order; a last argument of 4D's
   * querySettings (`parameters`, `attributes`, `queryPlan`, `queryPath`) is read as such.
   *
   * @example ds.Employee.query('salary > :1 and employer.name = :2', 5000, 'Acme')
   * @example ds.Employee.query('salary > :min', { parameters: { min: 5000 }, queryPlan: true })
   * @throws DatastoreError FilterSyntax (9001) with the position, AttributeNotFound (1500),
   *   InvalidComparison (9003), PlaceholderOutOfRange (9002).
   */
  query(text: string, ...params: unknown[]): EntitySelection<M, N>
  /**
   * 4D's `query(formula, querySettings)`: the entities for which `formula` returns true, called
   * with the entity as `this` and first argument, `settings.args` second (formula-query.ts).
   *
   * @example ds.Student.query((s) => String(s.get('lastname')).length >= 30)
   * @throws DatastoreError FormulaNotAllowed (1278) with `allowFormulas: false`
   */
  query<A = unknown>(
    formula: QueryFormula<Entity<M, N>, A>,
    settings?: FormulaQuerySettings<A>,
  ): EntitySelection<M, N>
  query(text: string | QueryFormula<Entity<M, N>, never>, ...params: unknown[]) {
    if (typeof text !== 'string') {
      const all = this.all().rowIds
      const rows = rowsMatchingFormula(this as unknown as DataClass, all, text, params[0] as never)
      return this.select(rows)
    }
    if (params.length > 0 && isQuerySettings(params[params.length - 1]))
      return runQuery(this.#typed, text, queryOptionsOf(params)).selection
    return this.#preparedFor(text).selectWith(params)
  }

  // The prepared query of `text`, kept among the last PREPARED_TEXTS ones.
  #preparedFor(text: string): PreparedQuery<M, N> {
    let prepared = this.#prepared.get(text)
    if (!prepared) {
      prepared = new PreparedQuery(this.#typed, text)
      if (this.#prepared.size >= PREPARED_TEXTS)
        this.#prepared.delete(this.#prepared.keys().next().value!)
      this.#prepared.set(text, prepared)
    }
    return prepared
  }

  /**
   * Entistore extension: the first entity a query finds, in its order, or null: what
   * `query(text, ...params).at(0)` gives, without an EntitySelection when the query is one
   * equality (or IN) an index answers with one row or none (a lookup by a unique attribute).
   *
   * @example ds.Employee.findOne('email = :1', 'ada@acme.com')
   * @throws DatastoreError as `query`.
   */
  findOne(text: string, ...params: unknown[]): Entity<M, N> | null {
    return this.#preparedFor(text).firstWith(params)
  }

  /**
   * A query parsed and resolved once, to run many times: `select(...params)`, `first(...params)`,
   * `count(...params)`. Syntax and attribute errors are thrown here.
   *
   * @example const byName = ds.Employee.prepare('lastName = :1'); byName.first('Smith')
   */
  prepare(text: string | QueryNode, options?: PrepareOptions): PreparedQuery<M, N> {
    return new PreparedQuery(this.#typed, text, options)
  }

  /**
   * A query with 4D's query settings: named `parameters`, `queryPlan`/`queryPath`, an extra
   * `orderBy`. Returns the selection with the plan objects and a text explanation.
   */
  run(text: string | QueryNode, options: QueryOptions = {}): QueryResult<M, N> {
    return runQuery(this.#typed, text, options)
  }

  /**
   * Calls the dataclass function `name` (4D's `ds.Employee.myFunction()`), exposed or not, with
   * `this` the dataclass. Returns its result, or a Promise of it for an async function.
   * @throws DatastoreError FunctionNotFound (1573), FunctionParameterInvalid (9101), and what the
   *   function throws (a non-DatastoreError as FunctionFailed, 9100).
   */
  call(name: string, ...args: unknown[]): unknown {
    const ds = this.datastore as unknown as Datastore
    return callByName(ds, 'dataClass', this.name, name, this, args)
  }

  /**
   * Adds an index on a storage attribute: `hash` (equality, IN), `sorted` (also ranges, begin,
   * ordering) or `auto` (both). It is filled at once and kept up to date by every write.
   */
  createIndex(attribute: string, kind: IndexKind = 'auto'): void {
    createIndexOn(this as unknown as DataClass, attribute, kind)
  }

  /**
   * Removes the index of an attribute, except what a constraint needs (a unique attribute and a
   * relation's foreign key keep their hash index; the primary key keeps its sorted index).
   */
  dropIndex(attribute: string): void {
    dropIndexOf(this as unknown as DataClass, attribute)
  }

  /** Rebuilds every index of this dataclass from its entities. */
  rebuildIndexes(): void {
    this.table.indexes.rebuild(this.table)
  }

  /** The indexes of this dataclass: attribute name → which kinds. */
  indexes(): { attribute: string; hash: boolean; sorted: boolean }[] {
    return this.table.indexes.kinds()
  }

  /** Every entity, in primary-key order (4D's `all()`). */
  all(_settings?: ReadSettings): EntitySelection<M, N> {
    needRead(this as DataClass)
    const rows = this.seenTable().orderedRowIds()
    if (this.restrictFunction === undefined) return this.select(rows)
    const all = this.select(restrictedRows(this as DataClass, rows))
    // Its own restrict answering every entity (an admin's) restricts nothing: told so, it makes no
    // bitmap of every row at each data version.
    if (restrictRunning(this as DataClass)) noteEveryEntity(all as EntitySelection)
    return all
  }

  /**
   * A new empty alterable selection to `add()` entities to (4D's `newSelection()`): unordered, or
   * ordered with `{ keepOrder: true }` (4D's `dk keep ordered`), which keeps duplicates.
   */
  newSelection(options: { readonly keepOrder?: boolean } = {}): EntitySelection<M, N> {
    return this.select([], undefined, {
      alterable: true,
      ordered: options.keepOrder === true,
    })
  }

  /** 4D's `clearRemoteCache()`: nothing to empty, one process has no client ORDA cache. */
  clearRemoteCache(): void {}

  /** 4D's `getRemoteCache()`: null, 4D's answer for a datastore that is not remote. */
  getRemoteCache(): null {
    return null
  }

  /** 4D's `setRemoteCacheSettings()`: nothing to set, as `clearRemoteCache()`. */
  setRemoteCacheSettings(_settings: {
    readonly timeout?: number
    readonly maxEntries?: number
  }): void {}

  /** @internal The entity of a live row of this dataclass (calculated attributes compute from it). */
  readonly entityOf = (rowId: number): Entity<M, N> => this.entityAt(rowId)!

  /** @internal The current version of the entity in slot `rowId`, or null if it was deleted. */
  entityAt(rowId: number): Entity<M, N> | null {
    // Inside a transaction, the calling process reads its own writes first (transaction-reads.ts).
    if (openTransactions !== 0) {
      const own = stagedRow(this as DataClass, rowId)
      if (own !== undefined) return own as Entity<M, N> | null
    }
    // The table stores Entities (see the constructor).
    return (this.table.record(rowId) as Entity<M, N> | undefined) ?? null
  }

  /**
   * @internal The table as the calling process reads it: with its open transaction's writes over
   * it, when it staged some here (transaction-reads.ts); the table itself otherwise.
   */
  seenTable(): Table {
    return tableAsSeen(this.datastore.processes, this.table)
  }

  /**
   * @internal Row ids (in key order) of the entities whose relatedEntity `relation` points at `key`
   * (related-rows.ts).
   */
  rowIdsReferencing(relation: string, key: KeyValue): number[] {
    return rowIdsReferencing(this, relation, key)
  }
}

/**
 * A typed model's attributes of dataclass `N` as properties of the dataclass (4D's
 * `ds.Employee.lastName`): each one's attribute object, as `attributeInfo(name)` gives it. A name
 * the DataClass already has as a member (`name`, `get`, `query`…) is left to `attributeInfo`.
 */
export type DataClassAttributes<M extends ModelTypes, N extends DataClassName<M>> = {
  readonly [
    K in AttributeName<M, N> as PropertyName<
      M,
      N,
      K,
      keyof DataClassCore | keyof object | 'constructor'
    >
  ]: DataClassAttribute<K>
}

/** Dataclass `N` of a typed model `M`, with its attributes as properties (see the module's comment). */
export type DataClass<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> = DataClassCore<M, N> & DataClassAttributes<M, N>

/** The class of every dataclass object (`x instanceof DataClass`). */
export const DataClass = DataClassCore
