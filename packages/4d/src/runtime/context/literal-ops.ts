/**
 * @module The values compiled code asks the running context for because the compiler cannot write
 * them as literals (a date, a time), a `For` loop's bound and `For each`'s passes: methods of
 * every Runtime (runtime.ts merges them into its prototype, as it merges the operators).
 */
import { raise } from '../errors/fourd-error.js'
import { DateValue } from '../values/date-value.js'
import { typeName } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'
import { iterate, type Iteration } from './iterate.js'

export const literalOps = {
  dateOf(year: number, month: number, day: number): DateValue {
    return year === 0 && month === 0 && day === 0 ? DateValue.NULL : DateValue.of(year, month, day)
  },

  timeOf(seconds: number): TimeValue {
    return TimeValue.of(seconds)
  },

  /** A bound of `For`: a number (a Time as its seconds), evaluated once when the loop starts. */
  forBound(v: unknown): number {
    if (typeof v === 'number') return v
    if (v instanceof TimeValue) return v.seconds
    return raise('IncompatibleTypes', { left: 'For', operator: ':=', right: typeName(v) })
  },

  /** `For each`'s passes. */
  iterate(source: unknown, begin?: unknown, end?: unknown): Iteration {
    return iterate(source, begin, end)
  },
}
