/**
 * @module For the tests of the commands and class functions: 4D code run at once (`run4d`), its
 * result made plain JavaScript so that a doc example's `//$c2=[…]` compares with `toEqual`:
 * collections as arrays, 4D objects as objects, dates as `YYYY-MM-DD` texts, times as
 * `HH:MM:SS` texts; a 4D error is thrown as it is.
 */
import { expect, it } from 'vitest'
import { run4d, type Run4dOptions } from '../../compile/run4d.js'
import { budgetOf, type CodeBudget } from '../context/budget.js'
import { objectOf } from '../ops/literals.js'
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

/**
 * `n` numbers from 0 to 100,002 in no order (a stride of the prime 7,919), so that a sort or a
 * search has work to do on every element.
 */
export function numbers(n: number): Collection {
  return new Collection(Array.from({ length: n }, (_, i) => (i * 7919) % 100_003))
}

/** `n` texts `Élan <number>`, with the numbers of `numbers(n)`. */
export function texts(n: number): Collection {
  return new Collection(numbers(n).items.map((v) => `Élan ${v}`))
}

/** `n` objects `{v: <number>; t: "t<number>"}`, with the numbers of `numbers(n)`. */
export function objects(n: number): Collection {
  return new Collection(numbers(n).items.map((v) => objectOf('v', v, 't', `t${v}`)))
}

/**
 * A case of `budgetTests`: its name in the tests, the 4D code, and what the code gets as `$1`,
 * `$2`… for a size `n` (the options' `args` when there is none).
 */
export type BudgetCase = [name: string, code: string, args?: (n: number) => unknown[]]

export interface BudgetOptions {
  /** A size that is past a budget of 5 ms on a stepping clock: 100,000 unless said. */
  readonly large?: number
  /** A size that runs to its end, the clock read on the way: 10,000 unless said. */
  readonly small?: number
  /** What the sizes count, for the tests' names: `elements` unless said. */
  readonly unit?: string
  /** The arguments of the cases that have none of their own. */
  readonly args?: (n: number) => unknown[]
}

/**
 * The two tests that each long builtin gets: at the large size, a budget of 5 ms ends it with
 * 9410; at the small size, a budget too large to end it gives what no budget gives, which is a
 * value. Each file calls it in its `describe('the budget')` with its own cases, so that the
 * tests stay beside the functions they test.
 */
export function budgetTests(cases: readonly BudgetCase[], options: BudgetOptions = {}): void {
  const { large = 100_000, small = 10_000, unit = 'elements' } = options
  const argsOf = (args: BudgetCase[2], n: number): unknown[] => {
    const make = args ?? options.args
    if (make === undefined) throw new Error('a budget case without arguments, and no options.args')
    return make(n)
  }
  const count = (n: number): string => n.toLocaleString('en-US')

  it.each(cases)(
    `%s over ${count(large)} ${unit} ends at the budget with 9410`,
    (_, code, args) => {
      // A budget of 5 ms on a clock that moves 1 ms a reading (one reading each 4,096 passes):
      // about 24,000 passes, and the large size takes more.
      expect(underBudget(code, argsOf(args, large), 5)).toEqual({ errCode: 9410 })
    },
  )

  it.each(cases)('%s gives what it gives without a budget', (_, code, args) => {
    // The clock is read on the way, but the deadline is far: the budget must not change what the
    // code gives, and the code must give a value rather than an error.
    const unbounded = underBudget(code, argsOf(args, small))
    expect(underBudget(code, argsOf(args, small), 1e9)).toEqual(unbounded)
    expect(unbounded).toHaveProperty('value')
  })
}

/**
 * What `code` gives with `args` as a call in slices runs it (its generator, driven to its end
 * under a budget too large to end it), made plain, and how many times it stopped, where a slice
 * may end; `options.methods`, the project methods beside it, compiled as steps too.
 */
export function inSteps(
  code: string,
  args: readonly unknown[],
  options: Pick<Run4dOptions, 'methods'> = {},
): { value: unknown; stops: number } {
  let stops = 0
  const value = run4d(code, args, {
    ...options,
    emit: { steps: true, budget: true, lines: false },
    runtime: { budget: steppingBudget(1e9) },
    stopped: () => stops++,
  })
  return { value: plain(value), stops }
}

/**
 * The test that each builtin written as steps (values/work.ts) gets, over the cases of its
 * `budgetTests`: at the large size, a call in slices stops inside the builtin's own work (the
 * cases run no loop of 4D code around it), and gives what the plain call gives. Each run has
 * arguments of its own, so that a builtin that changes its argument (`DELETE FROM ARRAY($1; …)`)
 * gives the same.
 */
export function stepsTests(cases: readonly BudgetCase[], options: BudgetOptions = {}): void {
  const { large = 100_000 } = options
  it.each(cases)('%s stops inside its work in a call in slices', (_, code, args) => {
    const given = (): unknown[] => (args ?? options.args)!(large)
    const { value, stops } = inSteps(code, given())
    // A stop each 4,096 passes: about 24 at 100,000 elements; 5 tells them from the unit's own.
    expect(stops).toBeGreaterThanOrEqual(5)
    expect({ value }).toEqual(underBudget(code, given(), 1e9))
  })
}
