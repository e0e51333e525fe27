/**
 * @module 4D's cast commands without a format, as far as the operators and the other commands need
 * them: `String`, `Num`, `Bool`, `Date` and `Time` (docs/commands/string.md, num.md, and
 * commands-legacy/bool.md, date.md, time.md). Each gives its type's empty value for Undefined, so
 * that `String($o.a.b)` is "" when the path is missing (dt_null_undefined.md's tip). A type the
 * command does not take (an object for `String`) raises a wrong parameter type.
 */
import { raise } from '../errors/fourd-error.js'
import { DateValue } from '../values/date-value.js'
import { typeName } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'
import { textToDate, textToTime } from './date-time-text.js'
import { numberToText, textToNumber } from './num-text.js'

const refuse = (command: string, expected: string, v: unknown): never =>
  raise('WrongParameterType', { parameter: 'expression', command, expected, actual: typeName(v) })

/**
 * `String(v)`: a number with 13 significant digits, "True"/"False", a date as `MM/DD/YYYY`
 * (`00/00/00` for the null date), a time as `HH:MM:SS`, "" for Undefined and "null" for Null.
 */
export function toText(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v
    case 'number':
      return numberToText(v)
    case 'boolean':
      return v ? 'True' : 'False'
    case 'undefined':
      return ''
    default:
      if (v === null) return 'null'
      if (v instanceof DateValue || v instanceof TimeValue) return v.toString()
      return refuse('String', 'a Number, Text, Date, Time, Boolean, Undefined or Null', v)
  }
}

/** `Num(v {; separator})`: a text read as num-text.ts says, a Boolean 1 or 0, a Time its seconds. */
export function toNum(v: unknown, separator?: string): number {
  switch (typeof v) {
    case 'number':
      return v
    case 'string':
      return textToNumber(v, separator)
    case 'boolean':
      return v ? 1 : 0
    case 'undefined':
      return 0
    default:
      if (v === null) return 0
      if (v instanceof TimeValue) return v.seconds
      return refuse('Num', 'a Text, Number, Boolean or Time', v)
  }
}

/** `Bool(v)`: a Boolean as it is, a number True unless 0, anything else False. */
export function toBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v
  if (typeof v === 'number') return v !== 0
  return false
}

/** `Date(v)`: a date as it is, a text read as date-time-text.ts says, Undefined and Null the null date. */
export function toDate(v: unknown): DateValue {
  if (v instanceof DateValue) return v
  if (typeof v === 'string') return textToDate(v)
  if (v === undefined || v === null) return DateValue.NULL
  return refuse('Date', 'a Text or a Date', v)
}

/** `Time(v)`: a time as it is, a number of seconds, a text `HH:MM:SS`; Undefined and Null `?00:00:00?`. */
export function toTime(v: unknown): TimeValue {
  if (v instanceof TimeValue) return v
  if (typeof v === 'number') return TimeValue.of(v)
  if (typeof v === 'string') return textToTime(v)
  if (v === undefined || v === null) return TimeValue.ZERO
  return refuse('Time', 'a Text, a Number or a Time', v)
}
