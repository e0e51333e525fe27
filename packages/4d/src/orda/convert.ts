/**
 * @module Values between core and 4D code. Core holds a date as ISO text ('YYYY-MM-DD', or a date
 * and time for an attribute that is not date-only), a list as an array, an object as a plain
 * JavaScript object; 4D code holds a Date, a Collection, a 4D object (no prototype). An entity,
 * a selection, a dataclass, the datastore and the session become the ORDA bridge's objects.
 * Converting back gives core what it takes: a Date as its ISO day (the null date as null), a Time
 * as its seconds, a 4D.Blob as its bytes (a Blob attribute's bytes are read as a 4D.Blob), a
 * Collection as an array, an object or a class instance as a plain object of its
 * own properties, an ORDA object as the object of core behind it.
 */
import {
  DataClass,
  Datastore,
  Entity,
  EntityDraft,
  EntitySelection,
  IncomingMessage,
  isBinaryValue,
  WebSession,
  type AttributeDef,
} from '@entistore/core'
import { BlobObject, blobObject } from '../runtime/values/blob-object.js'
import { FourDFunction } from '../runtime/context/function-object.js'
import { FourDIncomingMessage } from '../runtime/classes/incoming-message.js'
import { classOf } from '../runtime/context/class-object.js'
import { Collection } from '../runtime/values/collection.js'
import { isJsonHost, TO_JSON } from '../runtime/values/host.js'
import { DateValue } from '../runtime/values/date-value.js'
import { newObject } from '../runtime/values/kinds.js'
import { TimeValue } from '../runtime/values/time-value.js'
import { EntityHandle } from './handles/entity-handle.js'
import { OrdaHandle } from './handles/handle.js'
import { SelectionHandle } from './handles/selection-handle.js'
import type { World } from './world-shape.js'

/** Whether a type name (core's `date`, 4D's `Date`) is a date's. */
const isDateType = (type: string | undefined): boolean => type?.toLowerCase() === 'date'

/** A date as core stores it, as a 4D Date (a date and time gives its day). */
export function dateOf(text: string): DateValue {
  return DateValue.fromISO(text.slice(0, 10))
}

/** A value of core as 4D code sees it; `type` (core's or 4D's name) makes a text a Date. */
export function toFourD(world: World, v: unknown, type?: string): unknown {
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'string' && isDateType(type)) return dateOf(v)
    return v
  }
  if (v instanceof Entity) return new EntityHandle(world, v, null)
  if (v instanceof EntityDraft) return new EntityHandle(world, v.base, v)
  if (v instanceof EntitySelection) return new SelectionHandle(world, v)
  if (v instanceof DataClass) return world.dataClass(v)
  if (v instanceof Datastore) return v === world.datastore ? world.ds : v
  if (v instanceof WebSession) return world.session(v)
  // An HTTP request handler's request: read-only members for 4D code.
  if (IncomingMessage.is(v)) return new FourDIncomingMessage(v)
  // A Blob attribute's value (core's bytes and media type): a 4D.Blob, as an object's value; a
  // picture's stay core's (there are no pictures here).
  if (isBinaryValue(v)) return type === 'image' ? v : blobObject(v.bytes)
  if (v instanceof Uint8Array) return blobObject(v)
  if (Array.isArray(v))
    return new Collection(v.map((x: unknown) => (x === undefined ? null : toFourD(world, x))))
  // A JavaScript object (JSON's, core's records) becomes a 4D object; a 4D object is one already.
  if (Object.getPrototypeOf(v) !== Object.prototype) return v
  return plainToFourD(world, v)
}

/**
 * A plain JavaScript object as a 4D object, its values converted: toFourD's last case, for a
 * caller that knows it has one (a save's status, core's object literal): `$e.save()` at each pass
 * of a loop went through the ten tests of toFourD's other cases first.
 */
export function plainToFourD(world: World, v: object): Record<string, unknown> {
  const out = newObject()
  for (const key of Object.keys(v)) out[key] = toFourD(world, (v as Record<string, unknown>)[key])
  return out
}

/**
 * A 4D value as core takes it (see the module's comment). With `pending` (a function's result),
 * an entity changed and not saved is core's draft of it, which REST writes with its changes;
 * without (a value for core's calls: a relation, a selection's operand), its stored version.
 */
export function fromFourD(v: unknown, pending = false): unknown {
  if (typeof v !== 'object' || v === null) return v
  if (pending && v instanceof EntityHandle && v.draft !== null) return v.draft
  if (v instanceof OrdaHandle) return v.core()
  if (v instanceof DateValue) return v.isNull ? null : v.toISO()
  if (v instanceof TimeValue) return v.seconds
  if (v instanceof BlobObject) return v.bytes
  if (v instanceof Collection) return v.items.map((x) => fromFourD(x, pending))
  if (v instanceof FourDFunction) return undefined
  // A host object with a JSON form (`Session.storage`, an object read from it): that form, as
  // `JSON Stringify` writes it, never the host with the datastore it reaches.
  if (isJsonHost(v) && classOf(v) === undefined) return fromFourD(v[TO_JSON](), pending)
  const proto = Object.getPrototypeOf(v) as unknown
  if (proto !== null && proto !== Object.prototype && classOf(v) === undefined) return v
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(v)) {
    const value = fromFourD((v as Record<string, unknown>)[key], pending)
    if (value === undefined) continue
    // `__proto__` as a property of its own, never the prototype.
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  }
  return out
}

/** The value core reads for the attribute `attr` (`entity.get`), as 4D code sees it. */
export function attributeToFourD(world: World, attr: AttributeDef, raw: unknown): unknown {
  // Most reads: a number, a boolean, a text that is not a date, null, as they are.
  if (raw === null || (typeof raw !== 'object' && attr.kind === 'storage'))
    return typeof raw === 'string' && attr.type === 'date' ? dateOf(raw) : raw
  if (attr.kind === 'relatedEntity' && raw !== null && !(raw instanceof Entity)) {
    // A draft's relation set by key: the entity it names.
    const target = world.datastore.dataClass(attr.target)
    return toFourD(world, target.get(raw))
  }
  if (attr.kind === 'storage' || attr.kind === 'calculated' || attr.kind === 'alias')
    return toFourD(world, raw, 'type' in attr ? attr.type : undefined)
  return toFourD(world, raw)
}

/** A selection's projection through `attr` (`$sel.attr`), as 4D code sees it. */
export function projectionToFourD(world: World, attr: AttributeDef, raw: unknown): unknown {
  if (!Array.isArray(raw)) return toFourD(world, raw)
  const type = 'type' in attr ? attr.type : undefined
  return new Collection(raw.map((x: unknown) => toFourD(world, x, type)))
}

/**
 * An object of core's `toObject`/`toCollection` of dataclass `dc` as 4D code sees it: a Date
 * attribute as a Date, a related entity's object and related entities' collection likewise.
 */
export function recordToFourD(world: World, dc: DataClass, record: unknown): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return toFourD(world, record)
  const out = newObject()
  for (const [key, value] of Object.entries(record)) {
    const attr = dc.def.attributesByName.get(key)
    if (attr === undefined) out[key] = toFourD(world, value)
    else if (attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities') {
      const target = world.datastore.dataClass(attr.target)
      out[key] = Array.isArray(value)
        ? new Collection(value.map((o: unknown) => recordToFourD(world, target, o)))
        : recordToFourD(world, target, value)
    } else out[key] = toFourD(world, value, 'type' in attr ? attr.type : undefined)
  }
  return out
}
