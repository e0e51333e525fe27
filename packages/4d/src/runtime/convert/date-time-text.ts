/**
 * @module Texts to dates and times, as 4D's `Date` and `Time` commands read them:
 * - `Date(text)` (docs/commands-legacy/date.md): an ISO date or date-time
 *   ("2013-11-20T10:20:00", the day as written, read by the core's `parseDate`), else a short date
 *   in the system's order, month/day/year with `/`, space, `.`, `,` or `-` between, a two-digit
 *   year in 19xx from 30 and in 20xx below; the first three numbers of the text count
 *   (`"It was the 6/30, we were in 2016"` is 06/30/16). Anything else is the null date.
 * - `Time(text)` (docs/commands-legacy/time.md): `HH:MM:SS` or `HH:MM`; anything else is
 *   `?00:00:00?`.
 */
import { parseDate } from '@entistore/core'
import { DateValue } from '../values/date-value.js'
import { TimeValue } from '../values/time-value.js'

/** The year from which a two-digit year is in the 20th century (`SET DEFAULT CENTURY`'s default). */
export const CENTURY_PIVOT = 30

export function textToDate(text: string): DateValue {
  const iso = parseDate(text, true)
  if (iso !== undefined) return DateValue.fromISO(iso)
  const numbers = text.match(/\d+/g)
  if (numbers === null || numbers.length < 3) return DateValue.NULL
  const [month, day, year] = numbers.slice(0, 3).map(Number) as [number, number, number]
  const digits = numbers[2]!.length
  const fullYear = digits <= 2 ? year + (year >= CENTURY_PIVOT ? 1900 : 2000) : year
  return DateValue.of(fullYear, month, day)
}

export function textToTime(text: string): TimeValue {
  const m = /^\s*(-)?(\d+):(\d{1,2})(?::(\d{1,2}))?\s*$/.exec(text)
  if (!m) return TimeValue.ZERO
  const [, sign, h, mi, s] = m
  if (Number(mi) > 59 || Number(s ?? 0) > 59) return TimeValue.ZERO
  const seconds = Number(h) * 3600 + Number(mi) * 60 + Number(s ?? 0)
  return TimeValue.of(sign ? -seconds : seconds)
}
