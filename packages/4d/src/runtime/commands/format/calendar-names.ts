/**
 * @module The English names of months and days, as 4D writes them with a US system (the
 * examples of docs/commands/string.md), and a local date-time's offset from GMT.
 */

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

export const DAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const

export const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

/** A local date and time of the host (its time zone), as a JavaScript Date. */
export const localDate = (y: number, m: number, d: number, seconds: number): Date =>
  new Date(y, m - 1, d, 0, 0, seconds)

/** The host's offset from GMT at that moment, in minutes east (+60 for GMT+1). */
export const offsetMinutes = (at: Date): number => -at.getTimezoneOffset()
