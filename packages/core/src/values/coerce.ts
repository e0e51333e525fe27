/**
 * @module Coercion of incoming values to an attribute's type. Every value that enters the store (data
 * files, TS API writes, REST bodies) passes here, so the store only ever holds the canonical form:
 *
 * | type | stored as |
 * |---|---|
 * | bool | boolean |
 * | byte, word, long, long64 | integer number within the type's range |
 * | number | finite number |
 * | duration | milliseconds (number); `HH:MM:SS[.mmm]` text is accepted |
 * | string | string (numbers and booleans are converted) |
 * | uuid | 32 uppercase hex digits, no dashes (4D's form) |
 * | date | `YYYY-MM-DD`, or ISO date-time when the attribute is not date-only |
 * | object | a frozen deep copy of a JSON object or array |
 * | object restricted to 4D.Vector | Vector (an array of numbers is accepted) |
 * | image, blob | BinaryValue |
 *
 * `null` and `undefined` become null. Conversions follow 4D: a numeric string is a number.
 */
import type { ValueType } from './value-types.js'
import {
  binaryValue,
  decodeBase64,
  isBinaryValue,
  sniffImageType,
  type BinaryValue,
} from './binary.js'
import { parseDate } from './dates.js'
import { toVector, Vector, VectorError } from './vector.js'

export type StoredValue =
  | null
  | boolean
  | number
  | string
  | BinaryValue
  | Vector
  | Readonly<JsonObject>
  | readonly JsonValue[]
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject
export interface JsonObject {
  [key: string]: JsonValue
}

/** Why a value was refused; the caller adds where (dataclass, attribute, row). */
export class CoercionError extends Error {
  override readonly name = 'CoercionError'
}

function refuse(why: string): never {
  throw new CoercionError(why)
}

const INTEGER_RANGES: Readonly<Partial<Record<ValueType, readonly [number, number]>>> = {
  byte: [-128, 127],
  word: [-32768, 32767],
  long: [-2147483648, 2147483647],
  long64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
}

const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const UUID_TEXT =
  /^\{?([0-9a-fA-F]{8})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{4})-?([0-9a-fA-F]{12})\}?$/
const DURATION_TEXT = /^(\d+):([0-5]\d):([0-5]\d)(\.\d{1,3})?$/

function toNumber(raw: unknown): number {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) refuse('not a finite number')
    return raw
  }
  if (typeof raw === 'string' && NUMERIC_TEXT.test(raw.trim())) {
    // "1e999" or a thousand digits are numeric text but no finite number.
    const n = Number(raw.trim())
    return Number.isFinite(n) ? n : refuse('not a finite number')
  }
  return refuse('not a number')
}

/** Normalises any accepted uuid spelling to 32 uppercase hex digits, or undefined. */
export function normalizeUuid(raw: string): string | undefined {
  const m = UUID_TEXT.exec(raw.trim())
  return m ? m.slice(1).join('').toUpperCase() : undefined
}

/** A deep copy of a JSON value, frozen; refuses functions, symbols, bigints, cycles and non-plain objects. */
function copyJson(raw: unknown, depth = 0): JsonValue {
  if (depth > 256) refuse('the object is nested too deeply (more than 256 levels)')
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean') return raw
  // JSON has no -0 (it writes 0), so an object keeps 0: the value read back from a journal,
  // a snapshot or a REST answer is then the value stored, as for number attributes.
  if (typeof raw === 'number')
    return Number.isFinite(raw)
      ? raw === 0
        ? 0
        : raw
      : refuse('an object value holds a non-finite number')
  if (Array.isArray(raw))
    return Object.freeze(
      raw.map((x) => copyJson(x === undefined ? null : x, depth + 1)),
    ) as JsonValue[]
  if (typeof raw === 'object') {
    const proto = Object.getPrototypeOf(raw)
    if (proto !== Object.prototype && proto !== null)
      refuse('an object value holds a non-plain object')
    // Object.fromEntries creates own data properties, so a "__proto__" key stays a plain key.
    const out = Object.fromEntries(
      Object.entries(raw)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, copyJson(v, depth + 1)]),
    )
    return Object.freeze(out) as JsonObject
  }
  return refuse(`a ${typeof raw} cannot be stored in an object attribute`)
}

function toBinary(raw: unknown, image: boolean): BinaryValue {
  let bytes: Uint8Array | undefined
  let type: string | undefined
  if (isBinaryValue(raw)) return raw
  if (raw instanceof Uint8Array) bytes = raw.slice()
  else if (raw instanceof ArrayBuffer) bytes = new Uint8Array(raw.slice(0))
  else if (
    typeof raw === 'object' &&
    raw !== null &&
    typeof (raw as { $base64?: unknown }).$base64 === 'string'
  ) {
    bytes = decodeBase64((raw as { $base64: string }).$base64)
    if (!bytes) refuse('"$base64" is not valid base64')
    const t = (raw as { type?: unknown }).type
    if (t !== undefined && typeof t !== 'string') refuse('"type" must be a media type string')
    type = t as string | undefined
  } else {
    refuse('expected {"$base64": "...", "type": "..."} or bytes')
  }
  const sniffed = image ? sniffImageType(bytes!) : undefined
  if (image && type === undefined && sniffed === undefined && bytes!.length > 0)
    refuse('unknown image format: give its "type"')
  return binaryValue(bytes!, type ?? sniffed ?? 'application/octet-stream')
}

/**
 * `raw` as `coerceToType(type, raw)` stores it, when `raw` is already of the stored form and needs
 * no conversion nor check beyond its type (a text for a string attribute, a 32-bit integer for a
 * long, a finite number for a number); undefined for anything else, which takes the general path.
 * A data file's values nearly all are: this is what a load checks them with, a call instead of four.
 */
export function coerceExact(type: ValueType, raw: unknown): StoredValue | undefined {
  switch (type) {
    case 'string':
      return typeof raw === 'string' ? raw : undefined
    case 'long':
      // `| 0` is the value itself for a 32-bit integer, and 0 for -0 (no -0 keys).
      return typeof raw === 'number' && (raw | 0) === raw ? raw | 0 : undefined
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? (raw === 0 ? 0 : raw) : undefined
    default:
      return undefined
  }
}

/** Coerces `raw` to the canonical stored form for `type`; throws CoercionError with the reason. */
export function coerceToType(type: ValueType, raw: unknown, dateOnly = true): StoredValue {
  if (raw === null || raw === undefined) return null
  switch (type) {
    case 'bool':
      if (typeof raw === 'boolean') return raw
      if (raw === 0 || raw === 1) return raw === 1
      if (raw === 'true' || raw === 'false') return raw === 'true'
      return refuse('not a boolean')
    case 'byte':
    case 'word':
    case 'long':
    case 'long64': {
      const n = toNumber(raw)
      if (!Number.isInteger(n)) refuse('not an integer')
      const [min, max] = INTEGER_RANGES[type]!
      if (n < min || n > max) refuse(`out of range for ${type} (${min} to ${max})`)
      return n === 0 ? 0 : n // no -0 keys
    }
    case 'number': {
      const n = toNumber(raw)
      return n === 0 ? 0 : n
    }
    case 'duration': {
      if (typeof raw === 'string') {
        const m = DURATION_TEXT.exec(raw.trim())
        if (m)
          return (
            ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 +
            Math.round(Number(m[4] ?? 0) * 1000)
          )
      }
      return toNumber(raw)
    }
    case 'string':
      if (typeof raw === 'string') return raw
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw)
      return refuse('not a string')
    case 'uuid':
      return (typeof raw === 'string' && normalizeUuid(raw)) || refuse('not a uuid (32 hex digits)')
    case 'date':
      return parseDate(raw, dateOnly) ?? refuse('not a date (YYYY-MM-DD or ISO 8601)')
    case 'object':
      if (typeof raw !== 'object') refuse('not an object')
      return copyJson(raw) as StoredValue
    case 'image':
    case 'blob':
      return toBinary(raw, type === 'image')
  }
}

/** What coercion needs to know of a storage attribute (the schema's StorageAttributeDef is one). */
export interface CoercionTarget {
  readonly type: ValueType
  readonly dateOnly: boolean
  readonly notNull: boolean
  /** An object attribute restricted to 4D.Vector (its catalog `classID`). */
  readonly vector?: boolean
  /** For a string: the most characters (code points) a value may have. */
  readonly maxLength?: number
  /** 4D's "Map NULL values to blank values": null is stored as `blankValue(type)`. */
  readonly neverNull?: boolean
}

/**
 * The blank value 4D stores for a null in a field that maps null to blank: the empty text, 0 for
 * numbers and times, false. Null for the other types: a date's blank is 4D's null date, which
 * Entistore stores as null (JSON's form of it), and 4D has no blank for UUID, object, picture or
 * BLOB fields here (see docs/compat.md).
 */
export function blankValue(type: ValueType): StoredValue {
  switch (type) {
    case 'string':
      return ''
    case 'bool':
      return false
    case 'byte':
    case 'word':
    case 'long':
    case 'long64':
    case 'number':
    case 'duration':
      return 0
    default:
      return null
  }
}

/**
 * Whether a storage attribute may read null: not when it refuses null (`notNull`), nor when it
 * stores a blank for it (`neverNull` on a type with a blank). The key, never null, is the
 * caller's to know.
 */
export const readsNull = (attr: CoercionTarget): boolean =>
  !attr.notNull && !(attr.neverNull === true && blankValue(attr.type) !== null)

/** Coerces a value for a storage attribute, also enforcing not-null, blank for null and length. */
export function coerceForAttribute(attr: CoercionTarget, raw: unknown): StoredValue {
  let v = attr.vector ? coerceVector(raw) : coerceToType(attr.type, raw, attr.dateOnly)
  if (v === null) {
    if (attr.neverNull) v = blankValue(attr.type)
    if (v === null && attr.notNull) refuse('the attribute does not accept null')
  } else if (attr.maxLength !== undefined && typeof v === 'string') checkLength(v, attr.maxLength)
  return v
}

function checkLength(v: string, max: number): void {
  // Characters as 4D counts them (code points); .length, counting UTF-16 units, is never fewer.
  if (v.length <= max) return
  let n = 0
  for (const _ of v) if (++n > max) refuse(`longer than the attribute's ${max} characters`)
}

function coerceVector(raw: unknown): Vector | null {
  if (raw === null || raw === undefined) return null
  try {
    return toVector(raw)
  } catch (e) {
    if (e instanceof VectorError) refuse(`not a vector: ${e.message}`)
    throw e
  }
}

/** How a value is shown inside an error message: short, quoted when text. */
export function describeValue(raw: unknown): string {
  if (typeof raw === 'string') return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)
  if (raw === undefined) return 'undefined'
  if (typeof raw === 'object' && raw !== null) return Array.isArray(raw) ? 'an array' : 'an object'
  return String(raw)
}
