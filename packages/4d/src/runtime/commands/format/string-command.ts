/**
 * @module `String(expression {; format {; addTime}})` and `String(number; base)`
 * (docs/commands/string.md): without a format as convert/conversions.ts writes values; a number
 * with a number format or a base, a date or a time with a display format constant or a pattern.
 * A text, a Boolean, Undefined and Null ignore the format.
 */
import { toText } from '../../convert/conversions.js'
import { DateValue } from '../../values/date-value.js'
import { TimeValue } from '../../values/time-value.js'
import { integerArg, timeArg, wrongType } from '../../arguments/arguments.js'
import { formatDate, formatTime } from './date-time-format.js'
import { formatNumber, numberInBase } from './number-format.js'
import { formatPattern } from './pattern-format.js'

export function stringOf(v: unknown, format: unknown, addTime: unknown): string {
  if (format === undefined) return toText(v)
  if (typeof v === 'number') {
    if (typeof format === 'string') return formatNumber(v, format)
    return numberInBase(v, integerArg('String', 'base', format))
  }
  if (v instanceof DateValue) {
    const time = addTime === undefined ? undefined : timeArg('String', 'addTime', addTime)
    if (typeof format === 'string') return formatPattern(v, time?.seconds ?? 0, format)
    return formatDate(v, integerArg('String', 'format', format), time)
  }
  if (v instanceof TimeValue) {
    if (typeof format === 'string') return formatPattern(DateValue.NULL, v.seconds, format)
    return formatTime(v, integerArg('String', 'format', format))
  }
  if (typeof format !== 'string' && typeof format !== 'number')
    return wrongType('String', 'format', 'Text or Integer', format)
  return toText(v)
}
