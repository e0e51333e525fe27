/**
 * @module Dates as the core stores them: `YYYY-MM-DD` for date-only attributes (4D's default) and a
 * full ISO 8601 UTC string (`YYYY-MM-DDTHH:mm:ss.sssZ`) otherwise. Both forms sort as text in time
 * order, so indexes and comparisons need no conversion.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const BANG_ISO = /^!!(\d{4})-(\d{2})-(\d{2})!!$/ // how the real server writes date-only values
const BANG_DMY = /^(\d{1,2})!(\d{1,2})!(\d{4})$/ // the legacy form 4D also accepts on writes
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/
// The stored form of a date-time itself (toISOString's), as every `__TIMESTAMP` of a REST read or
// a saved data file is written.
const STORED_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Whether day `d` of month `m` of year `y` exists (proleptic Gregorian calendar). */
function exists(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  return d <= (m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1]!)
}

function day(y: string, m: string, d: string): string | undefined {
  if (!exists(Number(y), Number(m), Number(d))) return undefined
  return `${y.padStart(4, '0')}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`
}

/**
 * Parses a date written as `YYYY-MM-DD`, `!!YYYY-MM-DD!!`, `dd!mm!yyyy`, an ISO date-time, a `Date`
 * or epoch milliseconds. Date-only results drop the time as written (`2010-10-05T23:00:00Z` is the
 * 5th: the day the client wrote, not a day shifted by a time zone). Returns undefined if invalid.
 */
export function parseDate(input: unknown, dateOnly: boolean): string | undefined {
  if (input instanceof Date) return fromEpoch(input.getTime(), dateOnly)
  if (typeof input === 'number')
    return Number.isFinite(input) ? fromEpoch(input, dateOnly) : undefined
  if (typeof input !== 'string') return undefined
  const text = input.trim()
  let m = DAY.exec(text)
  // Already in the stored form (the usual case): the text itself, no new string.
  if (m && dateOnly) return exists(Number(m[1]), Number(m[2]), Number(m[3])) ? text : undefined
  // A date-time in the stored form, valid, is the text itself too: going through Date.parse and
  // toISOString, the `__TIMESTAMP` of each row was a fifth of a clone's time (2 µs a row, twice).
  if (!m && !dateOnly && text.length === 24) {
    const t = STORED_DATE_TIME.exec(text)
    if (
      t &&
      exists(Number(t[1]), Number(t[2]), Number(t[3])) &&
      Number(t[4]) < 24 &&
      Number(t[5]) < 60 &&
      Number(t[6]) < 60
    )
      return text
  }
  m ??= BANG_ISO.exec(text)
  if (m) {
    const d = day(m[1]!, m[2]!, m[3]!)
    return d === undefined || dateOnly ? d : `${d}T00:00:00.000Z`
  }
  m = BANG_DMY.exec(text)
  if (m) {
    const d = day(m[3]!, m[2]!, m[1]!)
    return d === undefined || dateOnly ? d : `${d}T00:00:00.000Z`
  }
  m = DATE_TIME.exec(text)
  if (!m) return undefined
  const d = day(m[1]!, m[2]!, m[3]!)
  if (d === undefined) return undefined
  // Parsed even for date-only attributes: the time is dropped, but an impossible one (25:00,
  // 23:60) still makes the text invalid rather than a valid day.
  const ms = Date.parse(m[8] === undefined ? `${text}Z` : text)
  if (Number.isNaN(ms)) return undefined
  return dateOnly ? d : new Date(ms).toISOString()
}

function fromEpoch(ms: number, dateOnly: boolean): string | undefined {
  const date = new Date(ms)
  if (Number.isNaN(date.getTime())) return undefined
  // toISOString writes years outside 0–9999 as "+010000-…" or "-000001-…": not the stored forms,
  // and they would not sort as text.
  const year = date.getUTCFullYear()
  if (year < 0 || year > 9999) return undefined
  const iso = date.toISOString()
  return dateOnly ? iso.slice(0, 10) : iso
}

// A date as 4D's `Date` command reads a text (date.md): the year first (`2025/01/31`,
// `2025.01.31`), or the system's short form, which Entistore takes as the US one (`01/31/2025`),
// as the 4D language package reads date literals.
const YEAR_FIRST = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/
const US_SHORT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/

/** `YYYY-MM-DD` of a date written as 4D reads a text as a date, or undefined. */
export function textDate(text: string): string | undefined {
  const t = text.trim()
  const y = YEAR_FIRST.exec(t)
  if (y) return day(y[1]!, y[2]!, y[3]!)
  const us = US_SHORT.exec(t)
  return us ? day(us[3]!, us[1]!, us[2]!) : undefined
}
