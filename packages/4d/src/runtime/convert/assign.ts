/**
 * @module What a variable, parameter or result declared with a type holds, and what a value
 * becomes when assigned to it (docs/Concepts/data-types.md "Default values",
 * dt_null_undefined.md):
 * - a new variable holds its type's default: 0, "", False, the null date, `?00:00:00?`, Null for an
 *   Object or a Collection, Undefined for a Variant;
 * - Undefined assigned (or passed to a parameter) clears it to that default (`CLEAR VARIABLE`);
 * - an Integer takes a number rounded to a long (numbers.ts), a Real any number, both a Time's
 *   seconds; a Time takes a number of seconds (an object stores a time so); a Date takes an ISO
 *   date text (an object stores a date so with the ISO setting); a Blob takes a BLOB or a 4D.Blob's
 *   bytes (dt_blob.md "Automatic conversion"), its default is an empty BLOB;
 * - anything else raises "Argument types are incompatible" (Null into a Text, operators.md:
 *   "you cannot assign NULL to a Text variable").
 */
import { parseDate } from '@entistore/core'
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { blobBytes } from '../values/blob-object.js'
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import { kindOf, typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { TimeValue } from '../values/time-value.js'

/** The types a variable can be declared with (`var $x : Integer`, `C_LONGINT($x)`). */
export type DeclaredType =
  | 'Integer'
  | 'Real'
  | 'Text'
  | 'Boolean'
  | 'Date'
  | 'Time'
  | 'Object'
  | 'Collection'
  | 'Variant'
  | 'Picture'
  | 'Blob'
  | 'Pointer'

/** A new variable's value. */
export function defaultValue(type: DeclaredType): unknown {
  switch (type) {
    case 'Integer':
    case 'Real':
      return 0
    case 'Text':
      return ''
    case 'Boolean':
      return false
    case 'Date':
      return DateValue.NULL
    case 'Time':
      return TimeValue.ZERO
    case 'Variant':
      return undefined
    case 'Blob':
      return EMPTY_BLOB
    default:
      return null
  }
}

/** The empty BLOB every new Blob variable holds (a BLOB is never changed in place: values/blob-object.ts). */
export const EMPTY_BLOB = new Uint8Array(0)

const mismatch = (type: DeclaredType, v: unknown): never =>
  raise('IncompatibleTypes', { left: type, operator: ':=', right: typeName(v) })

/** `$i:=v` for `$i` declared Integer. */
export function asInteger(v: unknown): number {
  if (typeof v === 'number') return toInteger(v)
  if (v instanceof TimeValue) return v.seconds
  return v === undefined ? 0 : mismatch('Integer', v)
}

/** `$r:=v` for `$r` declared Real. */
export function asReal(v: unknown): number {
  if (typeof v === 'number') return v
  if (v instanceof TimeValue) return v.seconds
  return v === undefined ? 0 : mismatch('Real', v)
}

/** `$t:=v` for `$t` declared Text. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v
  return v === undefined ? '' : mismatch('Text', v)
}

/** `$b:=v` for `$b` declared Boolean. */
export function asBoolean(v: unknown): boolean {
  if (typeof v === 'boolean') return v
  return v === undefined ? false : mismatch('Boolean', v)
}

/** `$d:=v` for `$d` declared Date. */
export function asDate(v: unknown): DateValue {
  if (v instanceof DateValue) return v
  if (v === undefined) return DateValue.NULL
  if (typeof v === 'string') {
    const iso = parseDate(v, true)
    if (iso !== undefined) return DateValue.fromISO(iso)
  }
  return mismatch('Date', v)
}

/** `$h:=v` for `$h` declared Time. */
export function asTime(v: unknown): TimeValue {
  if (v instanceof TimeValue) return v
  if (typeof v === 'number') return TimeValue.of(v)
  return v === undefined ? TimeValue.ZERO : mismatch('Time', v)
}

/** `$o:=v` for `$o` declared Object: an object or Null. */
export function asObject(v: unknown): object | null {
  // An object of the host first (an entity For each reaches, a relation read): one load, where
  // kindOf's three instanceof would walk its prototype chain three times at each pass.
  if (typeof v === 'object' && v !== null && (v as Partial<MemberHost>)[GET_MEMBER] !== undefined)
    return v
  if (v === undefined || v === null) return null
  return kindOf(v) === 'object' ? (v as object) : mismatch('Object', v)
}

/** `$c:=v` for `$c` declared Collection: a collection or Null. */
export function asCollection(v: unknown): Collection | null {
  if (v === undefined || v === null) return null
  return v instanceof Collection ? v : mismatch('Collection', v)
}

/** `$b:=v` for `$b` declared Blob: a BLOB, a 4D.Blob's bytes, Undefined the empty BLOB. */
export function asBlob(v: unknown): Uint8Array {
  if (v === undefined) return EMPTY_BLOB
  return blobBytes(v) ?? mismatch('Blob', v)
}

// Pictures and pointers are the host's values: held as given, Undefined as Null.
const asHostValue = (v: unknown): unknown => (v === undefined ? null : v)

const ASSIGN: Readonly<Record<DeclaredType, (v: unknown) => unknown>> = {
  Integer: asInteger,
  Real: asReal,
  Text: asText,
  Boolean: asBoolean,
  Date: asDate,
  Time: asTime,
  Object: asObject,
  Collection: asCollection,
  Variant: (v) => v,
  Picture: asHostValue,
  Blob: asBlob,
  Pointer: asHostValue,
}

/** `v` as a variable of `type` holds it (the compiled code calls the typed functions directly). */
export const assignTo = (type: DeclaredType, v: unknown): unknown => ASSIGN[type](v)
