/**
 * @module An expression as the code generator carries it: its JavaScript, what is known of its
 * type where the code is written (to inline the number fast path, research §8.7), and whether it
 * may be written twice (a variable or a literal, which no evaluation changes).
 */
import type { DeclaredType } from '../../runtime/convert/assign.js'

/**
 * - `int`: a number with no fraction (an Integer variable, `12`, the sum of two such);
 * - `num`: a number;
 * - `text`, `bool`;
 * - `any`: anything, known at run time only.
 */
export type StaticType = 'int' | 'num' | 'text' | 'bool' | 'any'

export interface Emitted {
  readonly code: string
  readonly type: StaticType
  /** Free of effects and cheap: may be written twice. */
  readonly pure: boolean
}

export const emitted = (code: string, type: StaticType = 'any', pure = false): Emitted => ({
  code,
  type,
  pure,
})

export const isNumber = (e: Emitted): boolean => e.type === 'int' || e.type === 'num'

/** What a variable of a declared type holds, as far as the code generator can rely on it. */
export function staticTypeOf(type: DeclaredType | undefined): StaticType {
  switch (type) {
    case 'Integer':
      return 'int'
    case 'Real':
      return 'num'
    case 'Text':
      return 'text'
    case 'Boolean':
      return 'bool'
    default:
      return 'any'
  }
}

/**
 * The code that makes a value what a variable of `type` holds (research §8.6): Integer variables
 * keep 32-bit integers (assign.ts), Text ones refuse other types… Nothing where the value already
 * fits (an `int` into an Integer: `| 0` keeps 32 bits, as 4D's long does).
 */
export function converted(type: DeclaredType | undefined, e: Emitted): string {
  switch (type) {
    case undefined:
    case 'Variant':
      return e.code
    case 'Integer':
      return e.type === 'int'
        ? isLong(e.code)
          ? e.code
          : `(${e.code} | 0)`
        : e.type === 'num'
          ? `rt.toInteger(${e.code})`
          : `rt.asInteger(${e.code})`
    case 'Real':
      return isNumber(e) ? e.code : `rt.asReal(${e.code})`
    case 'Text':
      return e.type === 'text' ? e.code : `rt.asText(${e.code})`
    case 'Boolean':
      return e.type === 'bool' ? e.code : `rt.asBoolean(${e.code})`
    case 'Date':
      return `rt.asDate(${e.code})`
    case 'Time':
      return `rt.asTime(${e.code})`
    case 'Object':
      return `rt.asObject(${e.code})`
    case 'Collection':
      return `rt.asCollection(${e.code})`
    default:
      return `rt.assignTo(${JSON.stringify(type)}, ${e.code})`
  }
}

/** Whether code is an integer literal a long holds as it is. */
function isLong(code: string): boolean {
  const n = /^\(?-?\d+\)?$/.test(code) ? Number(code.replace(/[()]/g, '')) : NaN
  return n >= -0x80000000 && n <= 0x7fffffff
}

/** A new variable's value by its declared type, as code (nothing for a Variant: Undefined). */
export function defaultCode(type: DeclaredType | undefined): string | undefined {
  switch (type) {
    case 'Integer':
    case 'Real':
      return '0'
    case 'Text':
      return '""'
    case 'Boolean':
      return 'false'
    case 'Date':
      return 'rt.DateValue.NULL'
    case 'Time':
      return 'rt.TimeValue.ZERO'
    case 'Blob':
      return 'rt.EMPTY_BLOB'
    case undefined:
    case 'Variant':
      return undefined
    default:
      return 'null'
  }
}
