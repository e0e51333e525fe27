/**
 * @module 4D's arithmetic operators, each type pair as the operator tables of 4D's docs define it
 * (dt_number.md, dt_string.md, dt_date.md, dt_time.md, operators.md "Compound assignment"):
 *
 * | operator | operands → result |
 * |---|---|
 * | `+` | Number+Number, Text+Text (concatenation), Date+Number → Date (days), Time+Time → Time, Time+Number → Number |
 * | `-` | Number, Date-Date → Number (days), Date-Number → Date, Time-Time → Time, Time-Number → Number |
 * | `*` | Number, Text*Number → Text (repetition), Time*Number → Number, Time*Time → Time |
 * | `/` | Number (÷0 gives ±INF, as `String(1/0)` is "INF"), Time/Number → Number, Time/Time → Time |
 * | `\` | Number (`Int(a/b)`, rounded down), Time\Number → Number |
 * | `%` | Number (on longs), Time%Time → Time, Time%Number → Number, Text%Text → keyword (text-compare.ts) |
 * | `^` | Number |
 *
 * A Number before a Time takes the time as its seconds (a time "can be treated as a number").
 * Any other pair raises "Argument types are incompatible", Null and Undefined included. Each
 * function tries numbers first: the compiled code calls them in its loops.
 */
import { raise } from '../errors/fourd-error.js'
import { DateValue } from '../values/date-value.js'
import { toInteger } from '../values/numbers.js'
import { containsKeyword } from '../values/text-compare.js'
import { TimeValue } from '../values/time-value.js'
import { typeName } from '../values/kinds.js'
import { withinLimit } from '../values/limits.js'

/** Raises 4D's error for operands an operator does not take. */
export function incompatible(operator: string, left: unknown, right: unknown): never {
  return raise('IncompatibleTypes', { operator, left: typeName(left), right: typeName(right) })
}

/** `a + b`. */
export function add(a: unknown, b: unknown): unknown {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a + b
    if (b instanceof TimeValue) return a + b.seconds
  } else if (typeof a === 'string') {
    if (typeof b === 'string') return a + b
  } else if (a instanceof TimeValue) {
    if (b instanceof TimeValue) return TimeValue.of(a.seconds + b.seconds)
    if (typeof b === 'number') return a.seconds + b
  } else if (a instanceof DateValue) {
    if (typeof b === 'number') return a.addDays(toInteger(b))
  }
  return incompatible('+', a, b)
}

/** `a - b`. */
export function sub(a: unknown, b: unknown): unknown {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a - b
    if (b instanceof TimeValue) return a - b.seconds
  } else if (a instanceof TimeValue) {
    if (b instanceof TimeValue) return TimeValue.of(a.seconds - b.seconds)
    if (typeof b === 'number') return a.seconds - b
  } else if (a instanceof DateValue) {
    if (b instanceof DateValue) return a.daysSince(b)
    if (typeof b === 'number') return a.addDays(-toInteger(b))
  }
  return incompatible('-', a, b)
}

/** `a * b`. */
export function mul(a: unknown, b: unknown): unknown {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a * b
    if (b instanceof TimeValue) return a * b.seconds
  } else if (typeof a === 'string') {
    if (typeof b === 'number') {
      const n = Math.max(0, toInteger(b))
      withinLimit('textLength', 'A text', a.length * n)
      return a.repeat(n)
    }
  } else if (a instanceof TimeValue) {
    if (b instanceof TimeValue) return TimeValue.of(a.seconds * b.seconds)
    if (typeof b === 'number') return a.seconds * b
  }
  return incompatible('*', a, b)
}

/** `a / b`: a real division; by zero it gives an infinite number (or not a number for 0/0). */
export function div(a: unknown, b: unknown): unknown {
  if (typeof a === 'number') {
    if (typeof b === 'number') return a / b
    if (b instanceof TimeValue) return a / b.seconds
  } else if (a instanceof TimeValue) {
    if (b instanceof TimeValue) {
      if (b.seconds === 0)
        return raise('DivisionByZero', { left: 'Time', operator: '/', right: 'Time' })
      return TimeValue.of(a.seconds / b.seconds)
    }
    if (typeof b === 'number') return a.seconds / b
  }
  return incompatible('/', a, b)
}

/** `a \ b`: the integer part of the quotient, rounded down as `Int` does (`-7\2` is -4). */
export function idiv(a: unknown, b: unknown): number {
  const x = a instanceof TimeValue ? a.seconds : typeof a === 'number' ? a : undefined
  if (x === undefined || typeof b !== 'number') return incompatible('\\', a, b)
  if (b === 0)
    return raise('DivisionByZero', { left: typeName(a), operator: '\\', right: 'Number' })
  return Math.floor(x / b)
}

/**
 * `a % b`: on numbers, the remainder of two longs (each rounded as an Integer is, the sign of the
 * dividend: `-7 % 3` is -1); a Time modulo a Time is a Time; a Text `%` a Text finds a keyword.
 */
export function mod(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return remainder(a, b, a)
  if (typeof a === 'string' && typeof b === 'string') return containsKeyword(a, b)
  if (a instanceof TimeValue) {
    if (b instanceof TimeValue) return TimeValue.of(remainder(a.seconds, b.seconds, a))
    if (typeof b === 'number') return remainder(a.seconds, b, a)
  }
  return incompatible('%', a, b)
}

function remainder(x: number, y: number, left: unknown): number {
  const d = toInteger(y)
  if (d === 0)
    return raise('DivisionByZero', { left: typeName(left), operator: '%', right: 'Number' })
  return (toInteger(x) % d) | 0
}

/** `a ^ b`. */
export function pow(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a ** b
  return incompatible('^', a, b)
}

/** `-a`: a number's opposite; a Time's is a Time. */
export function neg(a: unknown): unknown {
  if (typeof a === 'number') return -a
  if (a instanceof TimeValue) return TimeValue.of(-a.seconds)
  return raise('IncompatibleTypes', { operator: '-', left: '', right: typeName(a) })
}
