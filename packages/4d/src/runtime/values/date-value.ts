/**
 * @module 4D's Date (docs/Concepts/dt_date.md): a day of the proleptic Gregorian calendar from
 * 1/1/100 to 12/31/32767, or the null date `!00-00-00!` (falsy, before every other date). An
 * immutable value compared by its day, never a JavaScript Date: no time of day and no time zone to
 * shift it. Day arithmetic counts days through the civil calendar (days since 1970-01-01).
 */

/** The first and last days 4D's dates reach (dt_date.md). */
export const MIN_YEAR = 100
export const MAX_YEAR = 32767

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)

/** Whether day `d` of month `m` of year `y` exists. */
export function dayExists(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false
  if (m < 1 || m > 12 || d < 1) return false
  return d <= (m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1]!)
}

// Days from 1970-01-01 to a civil date and back (H. Hinnant's algorithms, exact integers).
function daysFromCivil(year: number, m: number, d: number): number {
  const y = m <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  )
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d]
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0')

export class DateValue {
  /** The null date `!00-00-00!`. */
  static readonly NULL: DateValue = new DateValue(0, 0, 0, Number.NaN)

  private constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
    /** Days since 1970-01-01; not a number for the null date. */
    readonly days: number,
  ) {
    Object.freeze(this)
  }

  /**
   * The date `year-month-day`; the null date for 0/0/0 or for a day that does not exist or lies
   * outside 4D's range (as `Date("40/40/94")` is `00/00/00`).
   */
  static of(year: number, month: number, day: number): DateValue {
    if (!dayExists(year, month, day) || year < MIN_YEAR || year > MAX_YEAR) return DateValue.NULL
    return new DateValue(year, month, day, daysFromCivil(year, month, day))
  }

  /** The date `days` after 1970-01-01; the null date outside 4D's range. */
  static fromDays(days: number): DateValue {
    if (!Number.isFinite(days)) return DateValue.NULL
    const [y, m, d] = civilFromDays(Math.trunc(days))
    if (y < MIN_YEAR || y > MAX_YEAR) return DateValue.NULL
    return new DateValue(y, m, d, Math.trunc(days))
  }

  /** The date of an ISO `YYYY-MM-DD` text; the null date for `0000-00-00` or an invalid text. */
  static fromISO(text: string): DateValue {
    const m = /^(\d{4,5})-(\d{2})-(\d{2})$/.exec(text)
    return m ? DateValue.of(Number(m[1]), Number(m[2]), Number(m[3])) : DateValue.NULL
  }

  get isNull(): boolean {
    return this.year === 0
  }

  /** This date `n` days later (earlier when negative). The null date stays null. */
  addDays(n: number): DateValue {
    return this.isNull ? this : DateValue.fromDays(this.days + n)
  }

  /** Days from `other` to this date; 0 if either is the null date. */
  daysSince(other: DateValue): number {
    return this.isNull || other.isNull ? 0 : this.days - other.days
  }

  /** Order: the null date first, then by day. */
  compare(other: DateValue): number {
    if (this.isNull || other.isNull) return this.isNull === other.isNull ? 0 : this.isNull ? -1 : 1
    return this.days < other.days ? -1 : this.days > other.days ? 1 : 0
  }

  equals(other: DateValue): boolean {
    return this.compare(other) === 0
  }

  /** `YYYY-MM-DD`, as 4D writes a date in JSON with its date type setting; `0000-00-00` if null. */
  toISO(): string {
    return `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`
  }

  /** `MM/DD/YYYY`, the system short format of String's examples; `00/00/00` for the null date. */
  toString(): string {
    return this.isNull
      ? '00/00/00'
      : `${pad(this.month, 2)}/${pad(this.day, 2)}/${pad(this.year, 4)}`
  }
}
