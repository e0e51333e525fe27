/**
 * @module `GET SYSTEM FORMAT(format; value)` (get-system-format.md): the regional settings 4D reads
 * from the system, here those of one fixed locale, US English (en-US), whatever the server's own:
 * the one the String command writes already (format/date-time-format.ts: `System date short` is
 * "MM/dd/yyyy", `System time long` "h:mm:ss AM"), so that code building a format from these gets
 * what `String` gives with the system formats, and the same on every server. The patterns are
 * ICU's (docs/Project/date-time-formats.md), which `String(date; pattern)` takes: each is the
 * pattern of the String format of its length (short, medium as "abbreviated", long). An unknown
 * format number raises 9415; `value` must be a variable (9415 otherwise).
 */
import { integerArg, invalid } from '../arguments/arguments.js'
import { outArg } from '../arguments/out-parameter.js'
import type { CommandSpec } from './table.js'

/** The values of en-US by the constants of the System Format theme. */
const EN_US: ReadonlyMap<number, string> = new Map([
  [0, '.'], // Decimal separator
  [1, ','], // Thousand separator
  [2, '$'], // Currency symbol
  [3, 'HH:mm:ss'], // System time short pattern (String's `System time short`: 14:05:09)
  [4, 'h:mm:ss a'], // System time medium pattern (`System time long abbreviated`: 2:05:09 PM)
  [5, 'h:mm:ss a'], // System time long pattern (`System time long`: 2:05:09 PM)
  [6, 'MM/dd/yyyy'], // System date short pattern (`System date short`: 01/05/2024)
  [7, 'EEE, MMM d, y'], // System date medium pattern (`System date abbreviated`)
  [8, 'EEEE, MMMM d, y'], // System date long pattern (`System date long`)
  [13, '/'], // Date separator
  [14, ':'], // Time separator
  [15, '2'], // Short date day position: month/day/year, the middle
  [16, '1'], // Short date month position: the left
  [17, '3'], // Short date year position: the right
  [18, 'AM'], // System time AM label
  [19, 'PM'], // System time PM label
])

export const SYSTEM_FORMAT_COMMANDS: readonly CommandSpec[] = [
  {
    number: 994,
    name: 'GET SYSTEM FORMAT',
    signature: '(format: Integer; value: any)',
    writes: [1],
    impl: (_rt, format, value) => {
      const out = outArg('GET SYSTEM FORMAT', 'value', value)
      const n = integerArg('GET SYSTEM FORMAT', 'format', format)
      const text = EN_US.get(n)
      if (text === undefined)
        return invalid('GET SYSTEM FORMAT', 'format', `${n} is not a System Format constant`)
      out.set(text)
    },
  },
]
