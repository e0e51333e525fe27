/**
 * @module For the tests of the commands and class functions: 4D code run at once (`run4d`), its
 * result made plain JavaScript so that a doc example's `//$c2=[…]` compares with `toEqual`:
 * collections as arrays, 4D objects as objects, dates as `YYYY-MM-DD` texts, times as
 * `HH:MM:SS` texts; a 4D error is thrown as it is.
 */
import { run4d, type Run4dOptions } from '../../compile/run4d.js'
import { budgetOf, type CodeBudget } from '../context/budget.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { isPlainObject } from '../values/kinds.js'
import { TimeValue } from '../values/time-value.js'

export function plain(v: unknown): unknown {
  if (v instanceof Collection) return v.items.map(plain)
  if (v instanceof DateValue) return v.isNull ? '0000-00-00' : v.toISO()
  if (v instanceof TimeValue) return v.toString()
  if (isPlainObject(v)) {
    const o: Record<string, unknown> = {}
    for (const k of Object.keys(v)) o[k] = plain(v[k])
    return o
  }
  return v
}

/** The value of `return <expression>` after the lines before it, made plain. */
export function run(code: string, options?: Run4dOptions): unknown {
  return plain(run4d(code, [], options))
}

/** The 4D error the code raises (its `errCode`), or a failure when it raises none. */
export function errorOf(
  code: string,
  options?: Run4dOptions,
): { errCode: number; message: string } {
  try {
    run4d(code, [], options)
  } catch (e) {
    const err = e as { errCode?: number; message: string }
    if (typeof err.errCode === 'number') return { errCode: err.errCode, message: err.message }
    throw e
  }
  throw new Error(`no error from: ${code}`)
}

/**
 * A budget of `ms` milliseconds on a clock that moves one millisecond each time it is read: the
 * budget ends after about `ms` readings (one every 4,096 passes), on any machine.
 */
export function steppingBudget(ms: number): CodeBudget {
  let now = 1_000
  return budgetOf(ms, { now: () => now++ })
}

/**
 * What `code` gives with `args` as `$1`, `$2`… under a budget of `ms` on a stepping clock (none
 * when `ms` is undefined): what it returns, made plain, or the code of the 4D error that ended it.
 */
export function underBudget(
  code: string,
  args: readonly unknown[],
  ms?: number,
): { value: unknown } | { errCode: number } {
  const runtime = ms === undefined ? {} : { budget: steppingBudget(ms) }
  try {
    return { value: plain(run4d(code, args, { runtime })) }
  } catch (e) {
    const err = e as { errCode?: number }
    if (typeof err.errCode === 'number') return { errCode: err.errCode }
    throw e
  }
}
