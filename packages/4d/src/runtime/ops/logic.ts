/**
 * @module Truth in 4D (docs/Concepts/operators.md "Truthy and falsy", dt_boolean.md,
 * dt_null_undefined.md) and the operators `&` and `|`: on Booleans the logical AND and OR, both
 * operands evaluated; on numbers the bitwise ones (dt_number.md "Bitwise operators"), with `^|`,
 * `<<`, `>>`, `?+`, `?-` and `??` on longs.
 */
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { isPlainObject, typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { incompatible } from './arithmetic.js'

/**
 * Whether a value is truthy, as `&&`, `||` and `? :` see it. Falsy: False, Null, Undefined, the
 * null date, `""`, an empty collection and an empty plain object (`{}`); everything else is truthy,
 * 0 included. An object of the host (an entity, a class instance) is truthy.
 */
export function truthy(v: unknown): boolean {
  switch (typeof v) {
    case 'boolean':
      return v
    case 'string':
      return v !== ''
    case 'number':
      return true
    case 'undefined':
      return false
    case 'object':
      if (v === null) return false
      if (v instanceof Collection) return v.length > 0
      if (v instanceof DateValue) return !v.isNull
      if (isPlainObject(v)) {
        for (const _ in v) return true
        return false
      }
      return true
    default:
      return true
  }
}

/**
 * The condition of `If`, `Case of`, `While`, `Repeat…Until` and `For each…While/Until`: a
 * Boolean; Undefined is False (dt_null_undefined.md: "automatically converted to false"), and so
 * is Null; any other value raises an error.
 */
export function cond(v: unknown): boolean {
  if (v === true || v === false) return v
  if (v === undefined || v === null) return false
  return raise('BooleanExpected', { type: typeName(v) })
}

/** `a & b`: logical AND of two Booleans, bitwise AND of two longs. */
export function band(a: unknown, b: unknown): unknown {
  if (typeof a === 'boolean' && typeof b === 'boolean') return a && b
  if (typeof a === 'number' && typeof b === 'number') return toInteger(a) & toInteger(b)
  return incompatible('&', a, b)
}

/** `a | b`: logical OR of two Booleans, bitwise (inclusive) OR of two longs. */
export function bor(a: unknown, b: unknown): unknown {
  if (typeof a === 'boolean' && typeof b === 'boolean') return a || b
  if (typeof a === 'number' && typeof b === 'number') return toInteger(a) | toInteger(b)
  return incompatible('|', a, b)
}

// The two longs of a bitwise operator, or its error.
function longs(operator: string, a: unknown, b: unknown): [number, number] {
  if (typeof a !== 'number' || typeof b !== 'number') return incompatible(operator, a, b)
  return [toInteger(a), toInteger(b)]
}

/** `a ^| b`: bitwise exclusive OR. */
export function bxor(a: unknown, b: unknown): number {
  const [x, y] = longs('^|', a, b)
  return x ^ y
}

/** `a << n`: shifted left; by more than 31 bits (or fewer than 0) every bit is lost. */
export function shl(a: unknown, n: unknown): number {
  const [x, k] = longs('<<', a, n)
  return k < 0 || k > 31 ? 0 : x << k
}

/** `a >> n`: shifted right, the new bits on the left 0 (dt_number.md). */
export function shr(a: unknown, n: unknown): number {
  const [x, k] = longs('>>', a, n)
  return k < 0 || k > 31 ? 0 : (x >>> k) | 0
}

/** `a ?+ n`: bit `n` set (a bit outside 0–31 leaves `a` as it is). */
export function bitSet(a: unknown, n: unknown): number {
  const [x, k] = longs('?+', a, n)
  return k < 0 || k > 31 ? x : x | (1 << k)
}

/** `a ?- n`: bit `n` cleared. */
export function bitClear(a: unknown, n: unknown): number {
  const [x, k] = longs('?-', a, n)
  return k < 0 || k > 31 ? x : x & ~(1 << k)
}

/** `a ?? n`: whether bit `n` is set. */
export function bitTest(a: unknown, n: unknown): boolean {
  const [x, k] = longs('??', a, n)
  return k >= 0 && k <= 31 && (x & (1 << k)) !== 0
}
