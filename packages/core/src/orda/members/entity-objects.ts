/**
 * @module 4D's Entity members that read or fill an entity as a plain object: `toObject()` (on an
 * Entity and on a draft), `fromObject()` (a draft's), `diff()` and `touchedAttributes()`.
 *
 * An Entity is compared and rendered as stored; a draft as it would save: its pending values
 * over its base's, a relation given as a key, `{ __KEY }` or an Entity read as the entity it
 * names. The classes call these with what they hold (a draft passes its pending values): this
 * file imports them as types only and stays out of orda's run-time import circle.
 */
import type { AttributeDef, RelatedEntityAttributeDef } from '../../schema/definitions.js'
import type { KeyValue } from '../../store/entity-record.js'
import { relatedKeyOf } from '../../store/related-key.js'
import { toKey } from '../../store/keys.js'
import { GLOBAL_STAMP } from '../../schema/change-tracking.js'
import { isBinaryValue } from '../../values/binary.js'
import { DatastoreError, fail } from '../../errors/datastore-error.js'
import type {
  AttributeName,
  Computed,
  DataClassName,
  ModelTypes,
  RelatedEntities,
  RelatedEntity,
} from '../../schema/typed-model.js'
import type { MemberClass, MemberEntity } from './member-class.js'

// ---- types ----

/**
 * What `toObject()` gives for dataclass `N` without a filter: each storage attribute's value, each
 * relatedEntity as `{ __KEY }` or null; no relatedEntities, calculated or alias attribute. A filter
 * picks and nests (`"employer.*"`), so its result is typed as a part of it.
 */
export type EntityObject<M extends ModelTypes, N extends DataClassName<M>> = {
  -readonly [
    K in keyof M[N] as [M[N][K]] extends [Computed<unknown> | RelatedEntities<string>] ? never : K
  ]: [M[N][K]] extends [RelatedEntity<string>] ? { __KEY: KeyValue } | null : M[N][K]
}

/** `toObject()`'s options: 4D's `dk with primary key` and `dk with stamp`. */
export interface ToObjectOptions {
  /** Add `__KEY` first. @default false */
  readonly withKey?: boolean
  /** Add `__STAMP`. @default false */
  readonly withStamp?: boolean
}

/**
 * One difference `diff()` finds: the attribute, its value here and in the other entity. `Name` is
 * the dataclass's attribute names (`AttributeName<M, N>`), a parameter of its own so that the
 * entities of a typed dataclass stay assignable to the untyped ones.
 */
export interface AttributeDifference<Name extends string = string> {
  readonly attributeName: Name
  /** The value in the entity `diff` was called on: a relatedEntity's as its Entity, or null. */
  readonly value: unknown
  /** The value in the entity compared with. */
  readonly otherValue: unknown
}

/**
 * What `toObject` reads an entity through: an Entity, or a draft's view of the values it would
 * save (draftReader), a relatedEntity read as its Entity or null. Here, below the selections'
 * projections that render it (selections/selection-projections.ts).
 */
export interface EntityReader {
  readonly dataClass: MemberClass
  get(name: string): unknown
  getKey(): unknown
  getStamp(): number
}

// ---- what an entity or a draft holds, slot by slot ----

/**
 * An Entity or a draft as `diff` reads it: its dataclass, and the stored value of each slot (a
 * storage attribute, or a relation's key slot) it holds or would save.
 */
export interface SlotReader {
  readonly dataClass: MemberClass
  slot(name: string): unknown
}

/** What `diff` compares of an Entity (its stored slots) or a draft (what it would save). */
export function slotsOf(
  x: MemberEntity | { slots(): SlotReader } | null | undefined,
): SlotReader | null {
  if (!x) return null
  if ('slots' in x) return x.slots()
  return { dataClass: x.dataClass, slot: (name) => x.values[name] ?? null }
}

/**
 * The slots a draft would save: each pending value in its stored form (a storage value coerced, a
 * relation's key), over `base`'s. A pending value the save would refuse reads as given.
 */
export function draftSlots(
  dc: MemberClass,
  base: MemberEntity | null,
  changes: Readonly<Record<string, unknown>>,
): SlotReader {
  const pending = new Map<string, unknown>()
  for (const name of Object.keys(changes)) {
    const attr = dc.def.attributesByName.get(name)
    if (attr?.kind === 'storage') pending.set(name, storedOrRaw(dc, attr, changes[name]))
    else if (attr?.kind === 'relatedEntity')
      pending.set(attr.foreignKey, relatedKey(dc, attr, changes[name]))
  }
  return {
    dataClass: dc,
    slot: (name) => (pending.has(name) ? pending.get(name) : (base?.values[name] ?? null)),
  }
}

function storedOrRaw(dc: MemberClass, attr: AttributeDef & { kind: 'storage' }, raw: unknown) {
  try {
    return dc.coerce(attr, raw)
  } catch (e) {
    if (DatastoreError.is(e)) return raw
    throw e
  }
}

/** The key a relation value names (an Entity, a key, `{ __KEY }`, null), coerced when it can be. */
function relatedKey(dc: MemberClass, attr: RelatedEntityAttributeDef, raw: unknown): unknown {
  const given = isEntity(raw) ? raw.key : relatedKeyOf(raw)
  if (given === null || given === undefined) return null
  try {
    return toKey(dc.datastore.dataClass(attr.target).def, given)
  } catch (e) {
    if (DatastoreError.is(e)) return given
    throw e
  }
}

const isEntity = (v: unknown): v is MemberEntity =>
  typeof v === 'object' && v !== null && 'rowId' in v && 'dataClass' in v

/** The entity a relation's key slot names, read as `get` reads it; null for none (or no key at all). */
function relatedEntity(dc: MemberClass, attr: RelatedEntityAttributeDef, key: unknown): unknown {
  if (key === null || key === undefined) return null
  try {
    return dc.datastore.dataClass(attr.target).get(key)
  } catch (e) {
    if (DatastoreError.is(e) && e.name === 'InvalidKey') return null
    throw e
  }
}

/** The key of the entity a relation value names, if that entity exists; undefined otherwise. */
function existingKey(dc: MemberClass, attr: RelatedEntityAttributeDef, raw: unknown): unknown {
  const key = relatedKey(dc, attr, raw)
  return relatedEntity(dc, attr, key) === null ? undefined : key
}

/**
 * A draft as `toObject` reads it: `read(name)` gives the value it would save (the pending one,
 * else the base's as `entity.get` reads it); a relation given as a key or `{ __KEY }` is read as
 * the entity it names.
 */
export function draftReader(
  dc: MemberClass,
  read: (name: string) => unknown,
  key: () => unknown,
  stamp: () => number,
): EntityReader {
  return {
    dataClass: dc,
    get(name) {
      const value = read(name)
      const attr = dc.def.attributesByName.get(name)
      if (attr?.kind !== 'relatedEntity' || value === null || isEntity(value)) return value
      return relatedEntity(dc, attr, relatedKey(dc, attr, value))
    },
    getKey: key,
    getStamp: stamp,
  }
}

// ---- diff ----

/**
 * 4D's `entity.diff(other, attributes?)`: each storage attribute (model order) whose values differ,
 * and each relatedEntity whose key does (after its key attribute, when the model names one), with
 * the related entities as values; only `attributes` when given. A null `other` is an error.
 */
export function differences(
  mine: SlotReader,
  other: SlotReader | null | undefined,
  attributes?: readonly string[],
): { attributeName: string; value: unknown; otherValue: unknown }[] {
  if (!other) return fail('InvalidParameter', ['diff', String(other), 'an entity to compare'])
  const dc = mine.dataClass
  if (other.dataClass !== dc) fail('IncompatibleDataClass', [other.dataClass.name, dc.name])
  const wanted = attributes ? new Set(attributes) : undefined
  const out: { attributeName: string; value: unknown; otherValue: unknown }[] = []
  for (const attr of dc.def.attributes) {
    if (wanted && !wanted.has(attr.name)) continue
    if (attr.kind !== 'storage' && attr.kind !== 'relatedEntity') continue
    const slot = attr.kind === 'storage' ? attr.name : attr.foreignKey
    const a = mine.slot(slot)
    const b = other.slot(slot)
    if (sameValue(a, b)) continue
    out.push(
      attr.kind === 'storage'
        ? { attributeName: attr.name, value: a, otherValue: b }
        : {
            attributeName: attr.name,
            value: relatedEntity(dc, attr, a),
            otherValue: relatedEntity(dc, attr, b),
          },
    )
  }
  return out
}

/** Whether two stored values are the same: binaries by bytes and type, objects by content. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (isBinaryValue(a) || isBinaryValue(b)) {
    if (!isBinaryValue(a) || !isBinaryValue(b)) return false
    return (
      a.type === b.type &&
      a.bytes.length === b.bytes.length &&
      a.bytes.every((x, i) => x === b.bytes[i])
    )
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) &&
      sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  )
}

// ---- touched attributes ----

/**
 * 4D's `touchedAttributes()` of a draft that set `names`: each once, in the order set, and with a
 * relation its key attribute, or with a key attribute its relation (4D lists both).
 */
export function touchedNames(dc: MemberClass, names: readonly string[]): string[] {
  const out = new Set<string>()
  for (const name of names) {
    out.add(name)
    for (const attr of dc.def.attributes) {
      if (attr.kind !== 'relatedEntity' || attr.foreignKey === attr.name) continue
      if (attr.name === name) out.add(attr.foreignKey)
      else if (attr.foreignKey === name) out.add(attr.name)
    }
  }
  return [...out]
}

// ---- fromObject ----

/**
 * What 4D's `fromObject(filler)` sets on a draft, as `[attribute, value]` pairs: each property
 * named as a storage attribute or a relatedEntity, a value of another type converted when it can
 * be and left out when it cannot; a relation (or its key attribute) given as a key, `{ __KEY }` or
 * an Entity, left out when the entity it names does not exist. The primary key (as itself or as
 * `__KEY`) is taken by a new entity only (null: generated at save); other properties are ignored.
 */
export function fillerValues(
  dc: MemberClass,
  isNew: boolean,
  filler: Readonly<Record<string, unknown>>,
): [string, unknown][] {
  const out: [string, unknown][] = []
  const relationOfKey = new Map<string, RelatedEntityAttributeDef>()
  for (const attr of dc.def.attributes)
    if (attr.kind === 'relatedEntity' && attr.foreignKey !== attr.name)
      relationOfKey.set(attr.foreignKey, attr)
  const keyName = dc.def.key.name
  for (const name of Object.keys(filler)) {
    const raw = filler[name]
    if (raw === undefined) continue
    const attr = dc.def.attributesByName.get(name === '__KEY' ? keyName : name)
    if (!attr) continue
    if (attr === dc.def.key) {
      if (isNew && (raw === null || converts(dc, attr, raw))) out.push([keyName, raw])
      continue
    }
    if (attr.kind === 'storage') {
      if (attr.name === GLOBAL_STAMP || !converts(dc, attr, raw)) continue
      const relation = relationOfKey.get(attr.name)
      if (relation && raw !== null && existingKey(dc, relation, raw) === undefined) continue
      out.push([name, raw])
    } else if (attr.kind === 'relatedEntity') {
      const key = raw === null ? null : existingKey(dc, attr, raw)
      if (key !== undefined) out.push([name, key])
    }
  }
  return out
}

// Whether `raw` can be stored in `attr` (4D converts what it can and leaves the rest untouched).
function converts(
  dc: MemberClass,
  attr: AttributeDef & { kind: 'storage' },
  raw: unknown,
): boolean {
  try {
    dc.coerce(attr, raw)
    return true
  } catch (e) {
    if (DatastoreError.is(e)) return false
    throw e
  }
}
