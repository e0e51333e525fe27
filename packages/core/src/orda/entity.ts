/**
 * @module One entity version: the stored record itself (a table keeps every version as an Entity,
 * so reading one allocates nothing). Storage values are the record's; relations, calculated and
 * alias attributes are computed on read.
 *
 * `Entity<M, N>` is an entity of dataclass `N` of a typed model `M` (schema/typed-model.ts): `get`
 * then takes only the attribute names of `N` and returns each one's type. Without type arguments
 * it is the untyped entity of any dataclass (`get(name: string): unknown`).
 */
import { fail } from '../errors/datastore-error.js'
import type { AttributeDef, EntityView } from '../schema/definitions.js'
import type {
  AttributeName,
  DataClassName,
  ModelTypes,
  UntypedModel,
} from '../schema/typed-model.js'
import type { AttributeValue, WriteValues } from './attribute-types.js'
import type { DataClass } from './data-class.js'
import type { EntityRecord, KeyValue, StoredValues } from '../store/entity-record.js'
import { EntitySelection } from './entity-selection.js'
import { EntityDraft } from './entity-draft.js'
import { dropEntity } from './writes.js'
import { restrictedRows } from './restrict.js'
import { lockEntity, unlockEntity, type LockOptions, type LockResult } from './locks.js'
import { callByName } from './call-function.js'
import { needAttribute } from './access-checks.js'

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

export class Entity<
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

  /** Time of the save that made this version, epoch ms (also `getTimestamp()`). */
  get timestamp(): number {
    return this.#moment.ms
  }

  /** @internal This version's record: the entity itself. */
  get record(): EntityRecord {
    return this
  }

  getKey(): KeyValue {
    return this.key
  }

  /** The version stamp: 1 after the first save, +1 at every save. */
  getStamp(): number {
    return this.stamp
  }

  /** Time of the last save (epoch ms). */
  getTimestamp(): number {
    return this.timestamp
  }

  /**
   * A draft of this version to change and `save()`: the save is refused with StampChanged (1263)
   * if the entity was saved by someone else since this version was read.
   *
   * @example ds.Employee.get(3)!.edit({ salary: 5200 }).save()
   */
  edit(values?: WriteValues<M, N>): EntityDraft<M, N> {
    return new EntityDraft(this.dataClass, this, values)
  }

  /**
   * Deletes this entity if it is still this version (else StampChanged, 1263); `{ force: true }`
   * deletes whatever version is current (4D's `dk force drop if stamp changed`).
   *
   * @throws DatastoreError EntityNotFound (1542) if it was deleted already.
   */
  drop(options: { readonly force?: boolean } = {}): void {
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
   * longer exists; 4 if the owner is a closed session.
   *
   * @example const r = ds.Employee.get(3)!.lock(); if (!r.success) console.log(r.statusText)
   */
  lock(options?: LockOptions): LockResult {
    return lockEntity(this.#self, options)
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
        return new EntitySelection(
          target,
          target.restrictFunction === undefined ? rows : restrictedRows(target, rows),
        )
      }
      case 'calculated':
        return attr.compute ? (attr.compute(this) ?? null) : null
      case 'alias':
        return this.#follow(attr.path)
    }
  }

  // An alias path is a chain of relatedEntity steps ending on any attribute; a missing link gives null.
  #follow(path: readonly string[]): unknown {
    let current: unknown = this
    for (const step of path) {
      if (!(current instanceof Entity)) return null
      current = current.get(step)
    }
    return current
  }
}
