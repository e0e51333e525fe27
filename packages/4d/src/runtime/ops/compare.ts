/**
 * @module 4D's comparison operators `=`, `#`, `<`, `>`, `<=`, `>=`:
 * - numbers equal within the real comparison epsilon (numbers.ts); a Time against a Number
 *   compares its seconds;
 * - texts folded, with `@` wildcards (text-compare.ts); dates by day, the null date first; times
 *   by seconds; booleans by `=` and `#` only;
 * - objects and collections by reference, with `=` and `#` only (dt_object.md, dt_collection.md
 *   "operators");
 * - Null and Undefined (dt_null_undefined.md): they equal each other and nothing else; Undefined
 *   against a Text, Number, Date or Time makes every ordering False; any other ordering with Null
 *   or Undefined is an error;
 * - any other pair (`1="1"`) raises "Argument types are incompatible".
 *
 * `#` is the negation of `=` (`"abc"#"a@"` is False); `<=` and `>=` agree with `=` (a pair equal
 * within the epsilon is `<=`).
 */
import { DateValue } from '../values/date-value.js'
import { compareNumbers, numbersEqual } from '../values/numbers.js'
import { compareTexts, textEquals } from '../values/text-compare.js'
import { TimeValue } from '../values/time-value.js'
import { isReference } from '../values/kinds.js'
import { incompatible } from './arithmetic.js'

/** `a = b`. */
export function eq(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || numbersEqual(a, b)
  if (typeof a === 'string' && typeof b === 'string') return textEquals(a, b)
  return equalsOther(a, b, '=')
}

/** `a # b`. */
export function ne(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return !numbersEqual(a, b)
  if (typeof a === 'string' && typeof b === 'string') return !textEquals(a, b)
  return !equalsOther(a, b, '#')
}

function equalsOther(a: unknown, b: unknown, operator: string): boolean {
  if (a === null || a === undefined || b === null || b === undefined)
    return (a === null || a === undefined) && (b === null || b === undefined)
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b
  if (a instanceof DateValue && b instanceof DateValue) return a.equals(b)
  const x = timeOrNumber(a)
  const y = timeOrNumber(b)
  if (x !== undefined && y !== undefined) return numbersEqual(x, y)
  if (isReference(a) && isReference(b)) return a === b
  return incompatible(operator, a, b)
}

// A Time's seconds, or a number; undefined for anything else.
const timeOrNumber = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : v instanceof TimeValue ? v.seconds : undefined

// What an ordering answers when it has no order to give (Undefined against a text, a number…).
const UNORDERED = Symbol('unordered')

function order(a: unknown, b: unknown, operator: string): number | typeof UNORDERED {
  if (typeof a === 'string' && typeof b === 'string') return compareTexts(a, b)
  const x = timeOrNumber(a)
  const y = timeOrNumber(b)
  if (x !== undefined && y !== undefined) return compareNumbers(x, y)
  if (a instanceof DateValue && b instanceof DateValue) return a.compare(b)
  if (a === undefined && isOrderedScalar(b)) return UNORDERED
  if (b === undefined && isOrderedScalar(a)) return UNORDERED
  return incompatible(operator, a, b)
}

const isOrderedScalar = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'number' || v instanceof DateValue || v instanceof TimeValue

/** `a < b`. */
export function lt(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a < b && !numbersEqual(a, b)
  const c = order(a, b, '<')
  return c !== UNORDERED && c < 0
}

/** `a > b`. */
export function gt(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a > b && !numbersEqual(a, b)
  const c = order(a, b, '>')
  return c !== UNORDERED && c > 0
}

/** `a <= b`. */
export function le(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a <= b || numbersEqual(a, b)
  const c = order(a, b, '<=')
  return c !== UNORDERED && c <= 0
}

/** `a >= b`. */
export function ge(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a >= b || numbersEqual(a, b)
  const c = order(a, b, '>=')
  return c !== UNORDERED && c >= 0
}
