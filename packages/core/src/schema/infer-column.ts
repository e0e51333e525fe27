/**
 * @module The type of one attribute inferred from its values across the rows of a collection
 * (infer-model.ts). A type is chosen only where every value loads and reads back as it was given:
 *
 * | values | type |
 * |---|---|
 * | true, false | bool |
 * | integers of 32 bits | long |
 * | integers past 32 bits, up to 2^53 | long64 |
 * | other numbers (fractions, integers past 2^53, which JSON already rounded) | number |
 * | strings, whatever they look like | string |
 * | objects, arrays, or both | object |
 * | only null, or missing | string |
 *
 * A string that looks like a date stays a string: a date attribute answers `!!2024-01-05!!` over
 * REST (4D's form of a date-only value) and normalises date-times, so the value given would not
 * come back. Numbers of different widths widen to the widest. Any other mix (a number beside a
 * string, true beside an object) has no type that serves both unchanged: a conflict.
 */
import type { ValueType } from './model-json.js'

/** What a value is, finer than its type: the words of a conflict's message. */
export type ValueKind = 'bool' | 'long' | 'long64' | 'number' | 'string' | 'object' | 'array'

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647

/** The kind of `v`; null for null and undefined (no value); undefined for what JSON cannot hold. */
export function kindOf(v: unknown): ValueKind | null | undefined {
  switch (typeof v) {
    case 'undefined':
      return null
    case 'boolean':
      return 'bool'
    case 'string':
      return 'string'
    case 'number':
      if (!Number.isFinite(v)) return undefined
      if (!Number.isInteger(v)) return 'number'
      if (v >= INT32_MIN && v <= INT32_MAX) return 'long'
      return Number.isSafeInteger(v) ? 'long64' : 'number'
    case 'object': {
      if (v === null) return null
      if (Array.isArray(v)) return 'array'
      const proto = Object.getPrototypeOf(v)
      return proto === Object.prototype || proto === null ? 'object' : undefined
    }
    default:
      return undefined
  }
}

/** How a kind is named in a message: `a string`, `an integer`. */
export const KIND_WORDS: Readonly<Record<ValueKind, string>> = {
  bool: 'true or false',
  long: 'an integer',
  long64: 'an integer',
  number: 'a number',
  string: 'a string',
  object: 'an object',
  array: 'an array',
}

/** Kinds one type holds unchanged; a column whose kinds are all in one family has its type. */
const FAMILY: Readonly<Record<ValueKind, 'bool' | 'numeric' | 'string' | 'json'>> = {
  bool: 'bool',
  long: 'numeric',
  long64: 'numeric',
  number: 'numeric',
  string: 'string',
  object: 'json',
  array: 'json',
}

// Narrowest first: a column of numbers takes the widest its values need.
const NUMERIC: readonly ValueType[] = ['long', 'long64', 'number']

/** One attribute's values as seen so far: which kinds, first met where, and how many values. */
export class Column {
  /** The row of the first value of each kind, in the order the kinds were met. */
  readonly firstRow = new Map<ValueKind, number>()
  /** Rows with a value (neither null nor missing). */
  present = 0

  constructor(readonly name: string) {}

  observe(kind: ValueKind, row: number): void {
    this.present++
    if (!this.firstRow.has(kind)) this.firstRow.set(kind, row)
  }
}

/** What a column's values call for: a type, or two kinds no one type holds unchanged. */
export type ColumnType =
  | { readonly type: ValueType }
  | {
      readonly conflict: {
        readonly first: ValueKind
        readonly firstRow: number
        readonly other: ValueKind
        readonly otherRow: number
      }
      /** The type a model to edit takes: object when objects or arrays are among the values, else string. */
      readonly widened: ValueType
    }

export function columnType(column: Column): ColumnType {
  const kinds = [...column.firstRow.keys()]
  if (kinds.length === 0) return { type: 'string' }
  const family = FAMILY[kinds[0]!]
  const other = kinds.find((k) => FAMILY[k] !== family)
  if (other !== undefined) {
    return {
      conflict: {
        first: kinds[0]!,
        firstRow: column.firstRow.get(kinds[0]!)!,
        other,
        otherRow: column.firstRow.get(other)!,
      },
      widened: kinds.some((k) => FAMILY[k] === 'json') ? 'object' : 'string',
    }
  }
  switch (family) {
    case 'bool':
      return { type: 'bool' }
    case 'string':
      return { type: 'string' }
    case 'json':
      return { type: 'object' }
    case 'numeric':
      return { type: NUMERIC[Math.max(...kinds.map((k) => NUMERIC.indexOf(k as ValueType)))]! }
  }
}
