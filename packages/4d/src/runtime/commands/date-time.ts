/**
 * @module `Current date` and `Current time` (docs/commands-legacy/current-date.md,
 * current-time.md): the host's local date and time, read from the injectable clock.
 */
import { DateValue } from '../values/date-value.js'
import { TimeValue } from '../values/time-value.js'
import type { CommandSpec } from './table.js'

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
]
