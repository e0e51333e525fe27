/**
 * @module 4D's `dataClass.fromCollection(objectCol)`: each object of the collection creates or
 * updates one entity, in the collection's order, each saved on its own (a failure leaves the ones
 * before it saved, as 4D's example 6 shows; inside a transaction they go with it).
 *
 * Which entity an object names (4D's "create or update mode"):
 * - without `__NEW: true`: the entity whose primary key the object gives, as the key attribute
 *   (`ID: 668`) or as `__KEY` (`__KEY: 1720`), is updated; with none, or a key given as is that no
 *   entity has, a new entity is created (with that key). A `__KEY` no entity has is ignored.
 * - with `__NEW: true`: always a creation; a key given as is that is taken fails (DuplicateKey,
 *   1545) and `__KEY` is ignored.
 * - `__STAMP`: an update is refused unless the entity still has that stamp (StampChanged, 1263).
 *
 * What is written: the properties named as attributes, each only if its value is of the
 * attribute's type (4D: "their types do not match, the entity's attribute is not filled"); other
 * properties, and attributes no write may name (read-only, alias, 1→N relations), are ignored. A
 * relation takes an object with `__KEY` or the related dataclass's key attribute (`{ ID: 121 }`),
 * an Entity, or the key itself; an object without a key is ignored (the related entity is never
 * created or changed through it). Writes go through `dataClass.create` / `update`: permissions,
 * entity events and every check of a write apply.
 */
import { fail } from '../../errors/datastore-error.js'
import type { AttributeDef } from '../../schema/definitions.js'
import { isBinaryValue } from '../../values/binary.js'
import { describeValue } from '../../values/coerce.js'
import type { ValueType } from '../../values/value-types.js'
import type { MemberClass, MemberEntity } from './member-class.js'

/** 4D's `settings` of `fromCollection`: `context` is taken and ignored (no client/server cache). */
export interface FromCollectionSettings {
  readonly context?: string
}

/** The row ids of the entities the objects created or updated, in the collection's order. */
export function fromCollectionRows(dc: MemberClass, objects: readonly object[]): number[] {
  const rows: number[] = []
  for (const object of collectionObjects(objects)) {
    const write = objectWrite(dc, object)
    rows.push(
      (write.kind === 'create'
        ? dc.create(write.values)
        : write.kind === 'update'
          ? dc.update(write.entity.key, write.values, write.check)
          : write.entity
      ).rowId,
    )
  }
  return rows
}

/** The objects of `fromCollection`'s collection; anything else is refused. */
export function collectionObjects(objects: unknown): readonly unknown[] {
  if (!Array.isArray(objects))
    fail('InvalidParameter', ['fromCollection', describeValue(objects), 'a collection of objects'])
  return objects
}

/**
 * What one object of the collection writes: a creation, an update (its stamp checked when given),
 * or nothing (the entity as it is: a save with no change writes nothing in 4D, its stamp still
 * checked here). What the plain member and its steps (data-class-steps.ts) each run.
 */
export type ObjectWrite =
  | { readonly kind: 'create'; readonly values: Record<string, unknown> }
  | {
      readonly kind: 'update'
      readonly entity: MemberEntity
      readonly values: Record<string, unknown>
      readonly check: { readonly stamp: number } | undefined
    }
  | { readonly kind: 'same'; readonly entity: MemberEntity }

/** The write of `object` (see the module note). */
export function objectWrite(dc: MemberClass, object: unknown): ObjectWrite {
  if (typeof object !== 'object' || object === null || Array.isArray(object))
    fail('InvalidParameter', ['fromCollection', describeValue(object), 'an object'])
  const given = object as Readonly<Record<string, unknown>>
  const values = fillable(dc, given)
  const keyName = dc.def.key.name
  if (given['__NEW'] !== true) {
    const asIs = values[keyName]
    const found =
      (asIs !== undefined && asIs !== null ? dc.get(asIs) : null) ??
      (given['__KEY'] !== undefined && given['__KEY'] !== null ? dc.get(given['__KEY']) : null)
    if (found) {
      // The key stays; a key given as is that differs from the one found by `__KEY` is refused by
      // the update (a primary key cannot change).
      if (asIs === found.key) delete values[keyName]
      return updateOf(dc, found, values, given['__STAMP'])
    }
  }
  return { kind: 'create', values }
}

function updateOf(
  dc: MemberClass,
  entity: MemberEntity,
  values: Record<string, unknown>,
  stamp: unknown,
): ObjectWrite {
  const check = typeof stamp === 'number' ? { stamp } : undefined
  if (Object.keys(values).length > 0) return { kind: 'update', entity, values, check }
  if (check && check.stamp !== entity.stamp)
    fail('StampChanged', [entity.rowId, dc.name], {
      details: { dataClass: dc.name, key: entity.key, stamp: entity.stamp, given: check.stamp },
    })
  return { kind: 'same', entity }
}

/** The properties of `given` to write: attributes a write may name, with values of their type. */
function fillable(
  dc: MemberClass,
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const name of Object.keys(given)) {
    const attr = dc.def.attributesByName.get(name)
    const raw = given[name]
    if (!attr || raw === undefined || !writable(attr)) continue
    const value = raw === null ? null : matching(dc, attr, raw)
    if (value !== undefined) values[name] = value
  }
  return values
}

// What a write may name: storage attributes, N→1 relations, computed attributes with a setter.
const writable = (attr: AttributeDef): boolean =>
  !attr.readOnly && attr.kind !== 'alias' && attr.kind !== 'relatedEntities'

/** `raw` as the write takes it if it is of `attr`'s type, else undefined (not filled). */
function matching(dc: MemberClass, attr: AttributeDef, raw: unknown): unknown {
  if (attr.kind === 'relatedEntity') return relatedValue(dc, attr.target, raw)
  if (attr.kind === 'storage' || attr.kind === 'calculated')
    return ofType(attr.type, raw) ? raw : undefined
  return undefined
}

/** A relation's value: the related key (from `__KEY` or the key attribute), or an Entity. */
function relatedValue(dc: MemberClass, target: string, raw: unknown): unknown {
  if (typeof raw === 'string' || typeof raw === 'number') return raw
  if (typeof raw !== 'object' || raw === null) return undefined
  if (isEntity(raw)) return raw
  const o = raw as Readonly<Record<string, unknown>>
  const key = o['__KEY'] ?? o[dc.datastore.dataClass(target).def.key.name]
  return key === undefined || key === null ? undefined : { __KEY: key }
}

// An Entity given for a relation (the class itself is not imported: see the module note).
const isEntity = (v: object): boolean =>
  typeof (v as { getKey?: unknown }).getKey === 'function' && 'dataClass' in v

const isBinaryInput = (v: unknown): boolean =>
  isBinaryValue(v) ||
  v instanceof Uint8Array ||
  v instanceof ArrayBuffer ||
  (typeof v === 'object' && v !== null && typeof (v as { $base64?: unknown }).$base64 === 'string')

/** Whether `v` is of the value type `type`, as 4D matches a property with an attribute. */
function ofType(type: ValueType, v: unknown): boolean {
  switch (type) {
    case 'string':
    case 'uuid':
      return typeof v === 'string'
    case 'bool':
      return typeof v === 'boolean'
    case 'date':
      return typeof v === 'string' || v instanceof Date
    case 'blob':
    case 'image':
      return isBinaryInput(v)
    case 'object':
      return typeof v === 'object' && !(v instanceof Date) && !isBinaryInput(v)
    default:
      return typeof v === 'number'
  }
}
