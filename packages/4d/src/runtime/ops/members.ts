/**
 * @module Object notation: `obj.name`, `obj["name"]`, `col[i]`, and their assignment. Reads never
 * reach what JavaScript would inherit (`constructor`, `__proto__`): a plain object shows its own
 * properties only, an object of the host what it answers through GET_MEMBER (host.ts).
 *
 * - Reading a property of Undefined or of Null gives Undefined, `length` 0: every example of
 *   dt_object.md and dt_null_undefined.md reads `$o.a` of a `var $o : Object` never assigned (it
 *   holds Null) without an error (`$val:=$o.a`, `If($o.a)`, `String($o.a.b)`), though a sentence
 *   of each page says an error; calling a member of Null stays an error (nothing to call), and so
 *   does assigning one (AssignToNothing).
 * - A collection index past either end reads Undefined; an object of the host read by a number
 *   (an entity selection's `$sel[0]`) answers through GET_INDEX; assigning past the end grows the
 *   collection with nulls.
 * - Assigning Undefined to an existing property clears it by its type (Null, False, "", 0, the null
 *   date), and to a missing one does nothing (dt_null_undefined.md). A Time is stored as its
 *   seconds (an object holds no Time: "Times inside objects", in seconds by default), a scalar
 *   BLOB as a 4D.Blob, Undefined in a collection as Null.
 */
import { blobObject } from '../values/blob-object.js'
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { GET_INDEX, GET_MEMBER, SET_MEMBER, isIndexHost, isMemberHost } from '../values/host.js'
import type { MemberHost } from '../values/host.js'
import { typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { joinGroup, openUses } from '../values/shared.js'
import { TimeValue } from '../values/time-value.js'

/** `target.key` or `target[key]`. */
export function get(target: unknown, key: string | number): unknown {
  if (typeof target === 'object' && target !== null) {
    if (typeof key === 'string') {
      // An object of the host first, its reader loaded once (an entity's attribute, read at
      // every pass of a loop); no collection, date or time is one.
      const member = (target as Partial<MemberHost>)[GET_MEMBER]
      if (member !== undefined) return member.call(target, key)
      if (target instanceof Collection) return key === 'length' ? target.length : undefined
      if (target instanceof DateValue || target instanceof TimeValue)
        return notAnObject(target, key)
      return Object.hasOwn(target, key) ? (target as Record<string, unknown>)[key] : undefined
    }
    if (target instanceof Collection) return collectionMember(target, key)
    return isIndexHost(target)
      ? target[GET_INDEX](indexOf(key))
      : raise('InvalidIndex', { index: String(key) })
  }
  if (target === undefined || target === null) return key === 'length' ? 0 : undefined
  // A function of the host (a formula) shows what it answers, never a JavaScript function's own
  // `name` or `length`.
  if (typeof target === 'function')
    return isMemberHost(target) && typeof key === 'string' ? target[GET_MEMBER](key) : undefined
  return notAnObject(target, key)
}

function collectionMember(c: Collection, key: string | number): unknown {
  if (typeof key === 'number') return c.at(indexOf(key))
  return key === 'length' ? c.length : undefined
}

const notAnObject = (target: unknown, key: string | number): never =>
  raise('NotAnObject', { type: typeName(target), property: String(key) })

function indexOf(key: number): number {
  if (!Number.isFinite(key)) return raise('InvalidIndex', { index: String(key) })
  return toInteger(key)
}

/**
 * The value as an object or a collection holds it: a Time as its seconds, a scalar BLOB as a
 * 4D.Blob (dt_blob.md: a scalar BLOB is not shareable in objects, 4D converts it).
 */
export function stored(value: unknown): unknown {
  if (value instanceof TimeValue) return value.seconds
  return value instanceof Uint8Array ? blobObject(value) : value
}

/** `target.key:=value` or `target[key]:=value`. */
export function set(target: unknown, key: string | number, value: unknown): void {
  if (typeof target !== 'object' || target === null) {
    if (target === null || target === undefined)
      return raise('AssignToNothing', { property: String(key), value: typeName(target) })
    if (typeof target === 'function') return hostSet(target, String(key), value)
    return notAnObject(target, key)
  }
  // A shared value put in a shared one joins its group, which `Use` locks (values/shared.ts).
  if (openUses > 0 && typeof value === 'object' && value !== null) joinGroup(target, value)
  if (target instanceof Collection) return setElement(target, key, value)
  if (typeof key !== 'string') return raise('InvalidIndex', { index: String(key) })
  if (isMemberHost(target)) return hostSet(target, key, value)
  if (target instanceof DateValue || target instanceof TimeValue) return notAnObject(target, key)
  setOwn(target as Record<string, unknown>, key, value)
}

/**
 * Assigns an own property of an object as 4D does (Undefined clears an existing one by its type,
 * a Time is stored as seconds): for plain objects, and for the hosts whose data are own
 * properties (a class instance).
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) {
    if (Object.hasOwn(record, key)) put(record, key, cleared(record[key]))
    return
  }
  put(record, key, stored(value))
}

function hostSet(target: object, key: string, value: unknown): void {
  const setter = isMemberHost(target) ? target[SET_MEMBER] : undefined
  if (setter === undefined) return raise('ReadOnlyMember', { property: key })
  setter.call(target, key, stored(value))
}

function setElement(c: Collection, key: string | number, value: unknown): void {
  if (typeof key !== 'number') return raise('InvalidIndex', { index: JSON.stringify(key) })
  const index = indexOf(key)
  if (index < 0) return raise('InvalidIndex', { index: String(index) })
  c.set(index, value === undefined ? null : stored(value))
}

// Writes one property; `__proto__` on an object that has a prototype is written as a property,
// never as the prototype.
function put(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__' && Object.getPrototypeOf(record) !== null)
    Object.defineProperty(record, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    })
  else record[key] = value
}

/** What Undefined assigned to a property leaves there, by the type of what it held. */
function cleared(current: unknown): unknown {
  switch (typeof current) {
    case 'boolean':
      return false
    case 'string':
      return ''
    case 'number':
      return 0
    case 'undefined':
      return undefined
    default:
      if (current === null) return null
      if (current instanceof DateValue) return DateValue.NULL
      return null
  }
}
