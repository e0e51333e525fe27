/**
 * @module `String(date; format {; addTime})` and `String(time; format)` with the constants of the
 * "Date Display Formats" and "Time Display Formats" themes (docs/commands/string.md), in English
 * and the US order of the docs' examples. `Blank if null date` (and `… time`) added to a format
 * gives "" for the null date (or `?00:00:00?`); without it the null date is "00/00/00". `ISO date
 * GMT` and `Date RFC 1123` write the local date and time of the host (midnight without `addTime`)
 * in GMT, as 4D does. A text format is a pattern (pattern-format.ts).
 */
import { DateValue } from '../../values/date-value.js'
import { TimeValue } from '../../values/time-value.js'
import { invalid } from '../../arguments/arguments.js'
import { DAYS, MONTHS, localDate, pad } from './calendar-names.js'

const BLANK = 100

/** The weekday of a date, 0 for Sunday. */
export const weekday = (d: DateValue): number => (((d.days + 4) % 7) + 7) % 7

const usShort = (d: DateValue): string => `${pad(d.month)}/${pad(d.day)}/${pad(d.year, 4)}`
const long = (d: DateValue): string => `${MONTHS[d.month - 1]} ${d.day}, ${d.year}`
const abbreviated = (d: DateValue): string =>
  `${MONTHS[d.month - 1]!.slice(0, 3)} ${d.day}, ${d.year}`

function gmt(d: DateValue, seconds: number): Date {
  return localDate(d.year, d.month, d.day, seconds)
}

export function formatDate(d: DateValue, format: number, addTime: TimeValue | undefined): string {
  const blank = format >= BLANK
  const kind = blank ? format - BLANK : format
  if (d.isNull) return blank ? '' : '00/00/00'
  const seconds = addTime?.seconds ?? 0
  switch (kind) {
    case 0:
    case 1:
    case 7:
      return usShort(d)
    case 2:
      return `${DAYS[weekday(d)]!.slice(0, 3)}, ${abbreviated(d)}`
    case 3:
      return `${DAYS[weekday(d)]}, ${long(d)}`
    case 4:
      return d.year >= 1930 && d.year < 2030
        ? `${pad(d.month)}/${pad(d.day)}/${pad(d.year % 100)}`
        : usShort(d)
    case 5:
      return long(d)
    case 6:
      return abbreviated(d)
    case 8:
      return `${d.toISO()}T${TimeValue.of(seconds).toString()}`
    case 9:
      return `${gmt(d, seconds).toISOString().slice(0, 19)}Z`
    case 10:
      return gmt(d, seconds).toUTCString()
    default:
      return invalid('String', 'format', `${format} is not a date format`)
  }
}

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`

export function formatTime(t: TimeValue, format: number): string {
  const blank = format >= BLANK
  const kind = blank ? format - BLANK : format
  if (blank && t.seconds === 0) return ''
  const s = Math.abs(t.seconds)
  const sign = t.seconds < 0 ? '-' : ''
  const h = Math.floor(s / 3600)
  const m = Math.floor(s / 60) % 60
  const sec = s % 60
  const h12 = h % 12 === 0 ? 12 : h % 12
  const ampm = h % 24 < 12 ? 'AM' : 'PM'
  switch (kind) {
    case 0:
    case 1:
    case 9:
      return t.toString()
    case 2:
      return `${sign}${pad(h)}:${pad(m)}`
    case 3:
      return `${sign}${plural(h, 'hour')} ${plural(m, 'minute')} ${plural(sec, 'second')}`
    case 4:
      return `${sign}${plural(h, 'hour')} ${plural(m, 'minute')}`
    case 5:
      return `${sign}${h12}:${pad(m)} ${ampm}`
    case 6:
      return `${sign}${pad(Math.floor(s / 60))}:${pad(sec)}`
    case 7:
      return `${sign}${plural(Math.floor(s / 60), 'minute')} ${plural(sec, 'second')}`
    case 8:
      return `0000-00-00T${t.toString()}`
    case 10:
    case 11:
      return `${sign}${h12}:${pad(m)}:${pad(sec)} ${ampm}`
    default:
      return invalid('String', 'format', `${format} is not a time format`)
  }
}
