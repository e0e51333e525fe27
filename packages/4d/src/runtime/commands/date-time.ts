/**
 * @module The Date and Time theme (docs/commands/theme/Date_and_Time.md): `Current date`,
 * `Current time`, `Date`, `Time`, `Add to date`, `Day of`, `Month of`, `Year of`, `Day number`,
 * `Time string`, `Milliseconds`, `Tickcount`, `Timestamp`.
 *
 * The clock is the running context's (the injectable one), read in the host's time zone.
 * `Add to date` adds the months first, the years as twelve months, then the days; a day the month
 * does not have goes on into the next month (January 31 plus one month is March 2 or 3), as a
 * calendar normalizes it (compat.md). On the null date, `Day of`, `Month of` and `Year of` give
 * 0, `Day number` 2 (its page says so) and `Add to date` the null date. `Milliseconds` and `Tickcount` count from the
 * epoch (4D counts from the machine's start: only differences mean something). `Timestamp` is
 * the ISO date and time in GMT with milliseconds.
 */
import { toDate, toTime } from '../convert/conversions.js'
import { DateValue } from '../values/date-value.js'
import { TimeValue } from '../values/time-value.js'
import { dateArg, integerArg, timeArg } from '../arguments/arguments.js'
import { weekday } from './format/date-time-format.js'
import type { CommandSpec } from './table.js'

export function addToDate(d: DateValue, years: number, months: number, days: number): DateValue {
  if (d.isNull) return d
  const total = d.year * 12 + (d.month - 1) + years * 12 + months
  const y = Math.floor(total / 12)
  const m = total - y * 12 + 1
  const first = DateValue.of(y, m, 1)
  if (first.isNull) return first
  return first.addDays(d.day - 1 + days)
}

const part = (
  number: number,
  name: string,
  read: (d: DateValue) => number,
  ofNull = 0,
): CommandSpec => ({
  number,
  name,
  signature: '(date: Date): Integer',
  impl: (_rt, v) => {
    const d = dateArg(name, 'date', v)
    return d.isNull ? ofNull : read(d)
  },
})

export const DATE_TIME_COMMANDS: readonly CommandSpec[] = [
  {
    number: 33,
    name: 'Current date',
    signature: '(star?: any): Date',
    impl: (rt) => {
      const now = new Date(rt.now())
      return DateValue.of(now.getFullYear(), now.getMonth() + 1, now.getDate())
    },
  },
  {
    number: 178,
    name: 'Current time',
    signature: '(star?: any): Time',
    impl: (rt) => {
      const now = new Date(rt.now())
      return TimeValue.hms(now.getHours(), now.getMinutes(), now.getSeconds())
    },
  },
  {
    number: 102,
    name: 'Date',
    signature: '(expression: any): Date',
    impl: (_rt, v) => toDate(v),
  },
  {
    number: 179,
    name: 'Time',
    signature: '(timeValue: any): Time',
    impl: (_rt, v) => toTime(v),
  },
  {
    number: 393,
    name: 'Add to date',
    signature: '(date: Date; years: Integer; months: Integer; days: Integer): Date',
    impl: (_rt, d, years, months, days) =>
      addToDate(
        dateArg('Add to date', 'date', d),
        integerArg('Add to date', 'years', years),
        integerArg('Add to date', 'months', months),
        integerArg('Add to date', 'days', days),
      ),
  },
  part(23, 'Day of', (d) => d.day),
  part(24, 'Month of', (d) => d.month),
  part(25, 'Year of', (d) => d.year),
  // day-number.md: "Day number returns 2 for null dates".
  part(114, 'Day number', (d) => weekday(d) + 1, 2),
  {
    number: 180,
    name: 'Time string',
    signature: '(seconds: any): Text',
    impl: (_rt, v) => timeArg('Time string', 'seconds', v).toString(),
  },
  {
    number: 459,
    name: 'Milliseconds',
    signature: '(): Real',
    impl: (rt) => rt.now(),
  },
  {
    number: 458,
    name: 'Tickcount',
    signature: '(): Real',
    impl: (rt) => Math.floor((rt.now() * 60) / 1000),
  },
  {
    number: 1445,
    name: 'Timestamp',
    signature: '(): Text',
    impl: (rt) => new Date(rt.now()).toISOString(),
  },
  { number: 392, name: 'SET DEFAULT CENTURY', notRunnable: 'not yet' },
]
