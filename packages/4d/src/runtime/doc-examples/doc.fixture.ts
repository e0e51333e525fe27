/**
 * @module The checks written from 4D's documentation pages (docs/API/*.md, docs/Concepts/*.md,
 * docs/commands*), one file a page or theme: each check is a documented example's code and the
 * result the page states for it, run through the compiler and the runtime at once (`run`).
 *
 * A page's example often shows several results in a row (`$c.fill(…) // $c=[…]` then another
 * line on the same collection): `steps` makes one check a documented result, each running the
 * lines before it, so that one wrong answer names its own line.
 */
import { ManualClock } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Run4dOptions } from '../../compile/run4d.js'
import { errorOf, run } from '../commands/run.fixture.js'

export interface Check {
  readonly name: string
  /** 4D code ending with `return <what the page shows>`. */
  readonly code: string
  /** The documented result, made plain (run.fixture.ts: dates as `YYYY-MM-DD`, times `HH:MM:SS`). */
  readonly expected?: unknown
  /** Instead of a result: the 4D error the code raises, and a text its message contains. */
  readonly error?: { readonly errCode: number; readonly contains?: string }
  /** Compared to `expected` within this many decimal places (reals the page rounds). */
  readonly digits?: number
  readonly options?: Run4dOptions
  /**
   * Why the check fails today (a gap outside the runtime: the grammar…): it runs as `it.fails`,
   * so that the day it passes, the suite says so and the mark is removed.
   */
  readonly fails?: string
}

/** One check a documented result: after `setup`, each step's lines run in order, and its
 * expression is compared with what the page says at that line. */
export function steps(
  name: string,
  setup: string,
  lines: readonly (readonly [line: string, result: string, expected: unknown])[],
): Check[] {
  const checks: Check[] = []
  let code = setup
  for (const [line, result, expected] of lines) {
    code = line === '' ? code : `${code}\n${line}`
    checks.push({
      name: `${name}: ${line || result} → ${result}`,
      code: `${code}\nreturn ${result}`,
      expected,
    })
  }
  return checks
}

/** The checks of one page as a `describe` of one `it` a check. */
export function page(title: string, checks: readonly (Check | readonly Check[])[]): void {
  describe(title, () => {
    for (const check of checks.flat()) {
      const test = check.fails === undefined ? it : it.fails
      test(check.fails === undefined ? check.name : `${check.name} (fails: ${check.fails})`, () => {
        if (check.error !== undefined) {
          const { errCode, message } = errorOf(check.code, check.options)
          expect(errCode).toBe(check.error.errCode)
          if (check.error.contains !== undefined) expect(message).toContain(check.error.contains)
          return
        }
        const value = run(check.code, check.options)
        if (check.digits !== undefined)
          expect(value).toBeCloseTo(check.expected as number, check.digits)
        else expect(value).toEqual(check.expected)
      })
    }
  })
}

/** A check of `return <expression>` alone. */
export const expr = (expression: string, expected: unknown, name = expression): Check => ({
  name,
  code: `return ${expression}`,
  expected,
})

/** The pages' "in French timezone" results: the file's tests run with TZ Europe/Paris. */
export function inParisTime(): void {
  let zone: string | undefined
  beforeAll(() => {
    zone = process.env.TZ
    process.env.TZ = 'Europe/Paris'
  })
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ
    else process.env.TZ = zone
  })
}

/** A table of `[expression, documented result]` rows, a check each. */
export const rows = (table: readonly (readonly [string, unknown])[]): Check[] =>
  table.map(([e, v]) => expr(e, v))

/** The pages' now: 2010-09-13 16:11:53 in Paris (14:11:53 GMT), a Monday. */
export const PARIS_CLOCK = {
  runtime: { clock: new ManualClock(Date.UTC(2010, 8, 13, 14, 11, 53)) },
}
