/**
 * @module One entity version: the stored record itself (a table keeps every version as an Entity,
 * so reading one allocates nothing). Storage values are the record's; relations, calculated and
 * alias attributes are computed on read.
 *
 * `Entity<M, N>` is an entity of dataclass `N` of a typed model `M` (schema/typed-model.ts): `get`
 * then takes only the attribute names of `N` and returns each one's type. Without type arguments
 * it is the untyped entity of any dataclass (`get(name: string): unknown`).
 *
 * It has 4D's Entity members that read (docs/orda.md maps each one): an Entity is never new and
 * never touched; a change goes through its draft (`edit()`), which has `save()`, `touched()`,
 * `fromObject()`. An entity read from a selection by `first()`, `last()` or `memberAt(i)`
 * remembers it (`getSelection()`, `next()`…): a copy of the stored version, see selection-place.ts.
 */
import { kindOf, OBJECT_KIND } from '../kinds/object-kind.js'
import { fail } from '../../errors/datastore-error.js'
import type { AttributeDef, EntityView } from '../../schema/definitions.js'
import type {
  AttributeName,
  DataClassName,
  ModelTypes,
  UntypedModel,
} from '../../schema/typed-model.js'
import type { AttributeValue, WriteValues, PropertyName } from './attribute-types.js'
import type { DataClass } from './data-class.js'
import type { EntityRecord, KeyValue, StoredValues } from '../../store/entity-record.js'
import type { EntitySelection } from './entity-selection.js'
import type { EntityDraft, DropOptions, ReloadResult } from './entity-draft.js'
import { dropEntity } from '../writes/writes.js'
import { attemptWriteSteps, dropSteps } from '../writes/write-steps.js'
import type { Work } from '../../query/slices.js'
import { restrictedRows } from '../restrict/restrict.js'
import {
  lockEntity,
  unlockEntity,
  type LockingOptions,
  type LockOptions,
  type LockResult,
} from '../writes/locks.js'
import { callByName } from '../functions/call-function.js'
import { needAttribute } from '../restrict/access-checks.js'
import { attemptWrite, SAVE_STATUS, type WriteResult } from '../../txn/save-status.js'
import {
  differences,
  slotsOf,
  type AttributeDifference,
  type EntityObject,
  type ToObjectOptions,
} from '../members/entity-objects.js'
import { toObject, type ObjectFilter } from '../selections/selection-projections.js'
import {
  endOf,
  positionOf,
  samePlace,
  selectionOf,
  stepFrom,
} from '../selections/selection-place.js'

/**
 * A save's time, shared by the versions it made. A number field of its own would cost each entity
 * a 16-byte box (V8 keeps a double field in a separate heap number per object): every entity of a
 * data load, or of one commit, points to the same one instead.
 */
interface Moment {
  readonly ms: number
}
let lastMoment: Moment = Object.freeze({ ms: NaN })
const momentOf = (ms: number): Moment =>
  ms === lastMoment.ms ? lastMoment : (lastMoment = Object.freeze({ ms }))

/**
 * An Entity's members, without its attribute properties: what every dataclass's Entities share.
 * `Entity` (below) is this with the dataclass's attributes as properties.
 */
export class EntityCore<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
>
  implements EntityRecord, EntityView
{
  /** @internal The slot of this entity in its table. */
  readonly rowId: number
  /** The primary key (also `getKey()`). */
  readonly key: KeyValue
  /** The version stamp (also `getStamp()`). */
  readonly stamp: number
  readonly #moment: Moment
  /** @internal The stored values by storage attribute name (read them with `get`). */
  readonly values: StoredValues
  readonly dataClass: DataClass<M, N>

  /**
   * @internal Entities are made by their DataClass's table, one per stored version: an Entity is
   * the record of that version, frozen, with the dataclass's methods.
   */
  constructor(
    dataClass: DataClass<M, N>,
    rowId: number,
    key: KeyValue,
    stamp: number,
    timestamp: number,
    values: StoredValues,
  ) {
    this.rowId = rowId
    this.key = key
    this.stamp = stamp
    this.#moment = momentOf(timestamp)
    this.values = values
    this.dataClass = dataClass
    Object.freeze(this)
  }

  // This entity and its dataclass as the engine's functions take them: a model's types only narrow
  // what users see (the objects are the same).
  get #self(): Entity {
    return this as unknown as Entity
  }

  // This entity as the public type gives it, with its dataclass's attribute properties.
  get #typed(): Entity<M, N> {
    return this as unknown as Entity<M, N>
  }

  /** @internal What this object is, for the files that may not import its class (kinds/object-kind.ts). */
  get [OBJECT_KIND](): 'entity' {
    return 'entity'
  }

  /** Time of the save that made this version, epoch ms (also `getTimestamp()`). */
  get timestamp(): number {
    return this.#moment.ms
  }

  /** @internal This version's record: the entity itself. */
  get record(): EntityRecord {
    return this
  }

  /**
   * The primary key (4D's `getKey()`); `{ asString: true }` (4D's `dk key as string`) gives it as
   * text whatever its type.
   */
  getKey(options: { readonly asString: true }): string
  getKey(options?: { readonly asString?: boolean }): KeyValue
  getKey(options?: { readonly asString?: boolean }): KeyValue | string {
    return options?.asString === true ? String(this.key) : this.key
  }

  /** The version stamp: 1 after the first save, +1 at every save. */
  getStamp(): number {
    return this.stamp
  }

  /** Time of the last save (epoch ms). */
  getTimestamp(): number {
    return this.timestamp
  }

  /** The dataclass of this entity (4D's `getDataClass()`; also the `dataClass` property). */
  getDataClass(): DataClass<M, N> {
    return this.dataClass
  }

  /** 4D's `getRemoteContextAttributes()`: `''`, there is no client/server context in one process. */
  getRemoteContextAttributes(): string {
    return ''
  }

  /** 4D's `isNew()`: false, an Entity is a saved version (a draft of `dataClass.new()` is new). */
  isNew(): false {
    return false
  }

  /** 4D's `touched()`: false, an Entity is never changed (its draft is: `edit()`). */
  touched(): false {
    return false
  }

  /** 4D's `touchedAttributes()`: none, an Entity is never changed (its draft's are). */
  touchedAttributes(): AttributeName<M, N>[] {
    return []
  }

  /**
   * 4D's `clone()`: another Entity object of this same version, which remembers no selection. A
   * version never changes, so the two stay alike; a change goes through a draft (`edit()`).
   */
  clone(): Entity<M, N> {
    return this.dataClass.makeEntity(this.rowId, this.key, this.stamp, this.timestamp, this.values)
  }

  /**
   * 4D's `reload()`: a version cannot be reloaded in place, so it answers the current one,
   * `{ success: true, entity }` (this one if unchanged; in this one's selection if it has one), or
   * status 5 "Entity does not exist" when it was deleted.
   */
  reload(): ReloadResult<Entity<M, N>> {
    const current = this.dataClass.get(this.key)
    if (!current) return { success: false, ...SAVE_STATUS.entityDoesNotExist }
    const entity = current === this ? this : samePlace(this.#self, current as unknown as Entity)
    return { success: true, entity: entity as unknown as Entity<M, N> }
  }

  /**
   * 4D's `toObject(filter?, options?)`: a plain object of this entity. Without a filter (or `''`,
   * `'*'`): every storage attribute, and each relatedEntity as `{ __KEY }` (or null). A filter
   * (`'firstName, employer'` or `['firstName', 'employer']`) picks attributes: a relatedEntity as
   * `{ __KEY }`, `'employer.*'` all its attributes, `'employer.name'` some; a relatedEntities as
   * a collection, `'directReports.*'` or `'directReports.lastName'` likewise. `{ withKey,
   * withStamp }` add `__KEY` and `__STAMP` (4D's `dk with primary key`, `dk with stamp`). Values
   * as stored (dates as text, pictures as binary values).
   *
   * @example ds.Employee.get(413)!.toObject('firstName, employer.name')
   */
  toObject(): EntityObject<M, N>
  toObject(filter: ObjectFilter, options?: ToObjectOptions): Partial<EntityObject<M, N>>
  toObject(filter?: ObjectFilter, options?: ToObjectOptions): Record<string, unknown> {
    return toObject(this.#self, filter, options)
  }

  /**
   * 4D's `diff(entityToCompare, attributesToCompare?)`: `{ attributeName, value, otherValue }` for
   * each storage attribute whose value differs from `other`'s (an Entity, or a draft as it would
   * save), and each relatedEntity whose key does (its values the related entities); only
   * `attributesToCompare` when given. Null is refused (1806), another dataclass's entity too (1587).
   */
  diff(
    other: Entity<M, N> | EntityDraft<M, N>,
    attributesToCompare?: readonly string[],
  ): AttributeDifference<AttributeName<M, N>>[] {
    const theirs = slotsOf(other as unknown as Entity | EntityDraft)
    return differences(slotsOf(this.#self)!, theirs, attributesToCompare) as AttributeDifference<
      AttributeName<M, N>
    >[]
  }

  // ---- the selection it was read from (selection-place.ts) ----

  /** 4D's `getSelection()`: the selection this entity was read from (`first()`, `last()`, `memberAt(i)`), or null. */
  getSelection(): EntitySelection<M, N> | null {
    return selectionOf(this.#self) as EntitySelection<M, N> | null
  }

  /**
   * 4D's `indexOf(entitySelection?)`: this entity's position in the selection it was read from, or
   * in `selection`; -1 when it is not in it (or was read from none). A null selection is refused
   * (1806), one of another dataclass too (1587).
   */
  indexOf(selection?: EntitySelection<M, N> | null): number {
    return positionOf(this.#self, selection as EntitySelection | null | undefined)
  }

  /** 4D's `next()`: the next live member of the selection this entity was read from, or null. */
  next(): Entity<M, N> | null {
    return stepFrom(this.#self, 1) as Entity<M, N> | null
  }

  /** 4D's `previous()`: the previous live member of the selection this entity was read from, or null. */
  previous(): Entity<M, N> | null {
    return stepFrom(this.#self, -1) as Entity<M, N> | null
  }

  /** 4D's `first()`: the first member of the selection this entity was read from, or null. */
  first(): Entity<M, N> | null {
    return endOf(this.#self, 'first') as Entity<M, N> | null
  }

  /** 4D's `last()`: the last member of the selection this entity was read from, or null. */
  last(): Entity<M, N> | null {
    return endOf(this.#self, 'last') as Entity<M, N> | null
  }

  /**
   * A draft of this version to change and `save()`: the save is refused (status 2, or StampChanged
   * 1263 from `saveOrFail()`) if the entity was saved by someone else since this version was read.
   *
   * @example ds.Employee.get(3)!.edit({ salary: 5200 }).save()
   */
  edit(values?: WriteValues<M, N>): EntityDraft<M, N> {
    return this.dataClass.draft(this.#typed, values)
  }

  /**
   * 4D's `drop(mode?)`: deletes this entity if it is still this version, or whatever version is
   * current with `{ force: true }` (4D's `dk force drop if stamp changed`). Answers 4D's result
   * object rather than throwing for what the data refused: `{ success: true }`, or `{ success:
   * false, status, statusText }` (1 not permitted, 2 saved since, 3 locked with the lock's holder,
   * 4 refused by a `dropping` event, 5 deleted already, 7/8 refused by `validateDrop`).
   * `dropOrFail()` drops the throwing way.
   *
   * @example const r = employees.first()!.drop(); if (!r.success) console.log(r.statusText)
   */
  drop(options: DropOptions = {}): WriteResult {
    return attemptWrite(() => this.dropOrFail(options))
  }

  /**
   * `drop(options)` as work in steps, for a caller that runs in slices (4D code's `$e.drop()` in a
   * REST call): the restrict and the `validateDrop` and `dropping` events in steps where they can
   * (code compiled from 4D), then the drop in one piece, its stamp checked then.
   */
  dropSteps(options: DropOptions = {}): Work<WriteResult> {
    const check = options.force ? {} : { stamp: this.stamp }
    return attemptWriteSteps(dropSteps(this.#self.dataClass, this.key, check))
  }

  /**
   * `drop()` the throwing way.
   *
   * @throws DatastoreError StampChanged (1263) if it changed (unless `force`), EntityNotFound
   *   (1542) if it was deleted already, EntityLocked (9070), EventRefused.
   */
  dropOrFail(options: DropOptions = {}): void {
    dropEntity(this.#self.dataClass, this.key, options.force ? {} : { stamp: this.stamp })
  }

  /**
   * Locks this entity for its owner (4D's pessimistic lock): until `unlock()`, or the end of the
   * owner's session, other sessions and processes can neither save, drop, lock nor unlock it. The
   * owner is whoever acts (`ds.runAs`), by default the datastore's one process owner, shared by
   * every TypeScript caller; the REST adapter passes the HTTP session.
   *
   * Returns `{ success: true }` (also when the owner holds it already), or `{ success: false,
   * status, statusText }`: 3 "Already locked" with `lockKind` 7, `lockKindText` and `lockInfo`
   * when another owner holds it; 2 if the entity was saved since this version was read; 5 if it no
   * longer exists; 4 if the owner is a closed session. With `{ reload: true }` (4D's `dk reload if
   * stamp changed`) a version saved since is locked all the same: the result says `wasReloaded`
   * and gives the current version in `entity` (a version cannot be reloaded in place).
   *
   * @example const r = ds.Employee.get(3)!.lock(); if (!r.success) console.log(r.statusText)
   */
  lock(options: LockingOptions & { readonly reload: true }): ReloadedLock<Entity<M, N>> | LockResult
  lock(options?: LockingOptions): LockResult
  lock(options?: LockingOptions): LockResult | ReloadedLock<Entity<M, N>> {
    return lockEntity(this.#self, options) as LockResult | ReloadedLock<Entity<M, N>>
  }

  /**
   * Releases this entity's lock if its owner holds it. `{ success: true }` when it is unlocked
   * afterwards (also if nobody held it); status 3 if another owner holds it, 5 if it was deleted.
   */
  unlock(options?: LockOptions): LockResult {
    return unlockEntity(this.#self, options)
  }

  /**
   * Calls the entity function `name` (4D's `entity.myFunction()`, a function of the
   * `<DataClass>Entity` class), exposed or not, with `this` this entity. Returns its result, or a
   * Promise of it for an async function.
   * @throws DatastoreError FunctionNotFound (1573), FunctionParameterInvalid (9101), and what the
   *   function throws (a non-DatastoreError as FunctionFailed, 9100).
   */
  call(name: string, ...args: unknown[]): unknown {
    const dc = this.#self.dataClass
    return callByName(dc.datastore, 'entity', dc.name, name, this, args)
  }

  /**
   * The value of an attribute: a stored value for storage attributes, an Entity (or null) for a
   * relatedEntity, an EntitySelection for relatedEntities, the computed value for calculated and
   * alias attributes. Throws AttributeNotFound (1500) for an unknown name.
   *
   * With a typed model the name must be an attribute of the dataclass and the result has its type:
   * `ds.Employee.get(3)?.get('salary')` is a `number | null`.
   */
  get<K extends AttributeName<M, N>>(name: K): AttributeValue<M, N, K> {
    const known = this.dataClass.def.attributesByName
    const attr = known.get(name)
    if (!attr) return fail('AttributeNotFound', [name, this.dataClass.name, known.keys()])
    // What the acting session may not read (a request's code), it is refused (1607, 1557).
    needAttribute(this.#self.dataClass, attr)
    return this.valueOf(attr) as AttributeValue<M, N, K>
  }

  /** @internal */
  valueOf(attr: AttributeDef): unknown {
    switch (attr.kind) {
      case 'storage':
        return this.values[attr.name] ?? null
      case 'relatedEntity': {
        const fk = this.values[attr.foreignKey]
        if (fk === null || fk === undefined) return null
        return this.#self.dataClass.datastore.dataClass(attr.target).get(fk)
      }
      case 'relatedEntities': {
        const target = this.#self.dataClass.datastore.dataClass(attr.target)
        const rows = target.rowIdsReferencing(attr.inverse, this.key)
        return target.select(
          target.restrictFunction === undefined ? rows : restrictedRows(target, rows),
        )
      }
      case 'calculated':
        return attr.compute ? (attr.compute(this) ?? null) : null
      case 'alias':
        return this.#follow(attr.path)
    }
  }

  // An alias path is a chain of relation steps ending on any attribute; a missing link gives
  // null. Past a to-many step the path goes on over a selection as 4D's `selection.attribute`
  // does: a relation gives the selection of the entities it reaches, another attribute its values.
  #follow(path: readonly string[]): unknown {
    let current: unknown = this
    for (const step of path) {
      if (current instanceof EntityCore) current = current.get(step)
      else if (kindOf(current) === 'selection') current = (current as EntitySelection).project(step)
      else return null
    }
    return current
  }
}

/**
 * The Entity members' names: an attribute of the same name is read with `get(name)` only (the
 * member wins; attribute-properties.ts), and the properties' type leaves it out likewise.
 */
type MemberName = keyof EntityCore | keyof object | 'constructor'

/**
 * What `lock({ reload: true })` answers when it locked: whether the entity was saved since, and its
 * current version. Here, with the Entity it gives: the lock itself is writes/locks.ts's.
 */
export interface ReloadedLock<E = Entity> {
  readonly success: true
  readonly wasReloaded: boolean
  readonly entity: E
}

/**
 * A typed model's attributes of dataclass `N` as read-only properties of its entities:
 * `ds.Employee.get(3)?.salary` is a `number | null`, `entity.employer?.name` follows a relation.
 * The untyped model has none (the name could be anything, a typo too): `get(name)` reads there.
 */
export type EntityAttributes<M extends ModelTypes, N extends DataClassName<M>> = {
  readonly [K in AttributeName<M, N> as PropertyName<M, N, K, MemberName>]: AttributeValue<M, N, K>
}

/**
 * One stored version of an entity of dataclass `N` (see the module's comment), with the
 * attributes of a typed model as properties (`entity.lastName`, `entity.employer?.name`).
 * At run time each dataclass's Entities are of a subclass of EntityCore whose prototype holds
 * those properties (attribute-properties.ts): `instanceof Entity` holds for all of them.
 */
export type Entity<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> = EntityCore<M, N> & EntityAttributes<M, N>

/** The class of every Entity (`x instanceof Entity`); each dataclass's Entities are of a subclass. */
export const Entity = EntityCore
