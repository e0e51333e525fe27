/**
 * @module The kinds of 4D values as the runtime holds them, and the names 4D gives them in
 * messages. Scalars are JavaScript primitives (numbers, strings, booleans) and the two immutable
 * classes DateValue and TimeValue; Null is `null`, Undefined `undefined`; a Collection is its
 * class; a scalar BLOB is a Uint8Array (values/blob-object.ts: never changed in place, so held as a
 * value); every other object is an Object, by reference: a plain 4D object (null prototype, as
 * `{}` and `New object` make it), or an object of the host (an entity, a class instance, a
 * Formula).
 */
import { Collection } from './collection.js'
import { DateValue } from './date-value.js'
import { TimeValue } from './time-value.js'

export type Kind =
  | 'number'
  | 'text'
  | 'boolean'
  | 'date'
  | 'time'
  | 'null'
  | 'undefined'
  | 'collection'
  | 'blob'
  | 'object'

export function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case 'number':
      return 'number'
    case 'string':
      return 'text'
    case 'boolean':
      return 'boolean'
    case 'undefined':
      return 'undefined'
    case 'object':
      if (v === null) return 'null'
      if (v instanceof DateValue) return 'date'
      if (v instanceof TimeValue) return 'time'
      if (v instanceof Collection) return 'collection'
      if (v instanceof Uint8Array) return 'blob'
      return 'object'
    default:
      // A JavaScript function or bigint reaching 4D code is an object of the host.
      return 'object'
  }
}

const NAMES: Record<Kind, string> = {
  number: 'Number',
  text: 'Text',
  boolean: 'Boolean',
  date: 'Date',
  time: 'Time',
  null: 'Null',
  undefined: 'Undefined',
  collection: 'Collection',
  blob: 'BLOB',
  object: 'Object',
}

/** The 4D name of a value's type, for messages ("Text", "Date", "Null"…). */
export const typeName = (v: unknown): string => NAMES[kindOf(v)]

/** A new empty 4D object (`{}`, `New object`): no prototype, so no inherited member can be read. */
export const newObject = (): Record<string, unknown> =>
  Object.create(null) as Record<string, unknown>

/**
 * Whether `v` is a plain 4D object, one whose properties are all its own: a null prototype, or a
 * JavaScript object literal's (what JSON and the host's records give).
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false
  const proto = Object.getPrototypeOf(v) as unknown
  return proto === null || proto === Object.prototype
}

/** Whether `v` is an Object or a Collection: a value 4D handles by reference. */
export const isReference = (v: unknown): v is object =>
  (typeof v === 'object' &&
    v !== null &&
    !(v instanceof DateValue) &&
    !(v instanceof TimeValue) &&
    !(v instanceof Uint8Array)) ||
  typeof v === 'function'
