/**
 * @module 4D code given as text at run time (`Formula from string`, `EXECUTE FORMULA`): compiled
 * once a text, by the compiler of method files, so that the text reaches JavaScript only through
 * it (the security tests' rule: the generated code names nothing but the compiler's names), and
 * its code counts against the run's budget.
 */
import { describe, expect, test } from 'vitest'
import type { Clock } from '@entistore/core'
import { budgetOf } from '../runtime/context/budget.js'
import { Runtime } from '../runtime/index.js'
import { FourDFunction } from '../runtime/context/function-object.js'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { compileFormulaText, emitFormula } from './formula-text.js'
import { problemsOf } from './identifiers.fixture.js'
import { run4d } from './run4d.js'

describe('compileFormulaText', () => {
  test('a text compiled once: the same function for the same text and kind', () => {
    const first = compileFormulaText('$1*3', 'expression')
    expect(compileFormulaText('$1*3', 'expression')).toBe(first)
    expect(compileFormulaText('$1*3', 'statement')).not.toBe(first)
  })

  test.each([
    ['JavaScript in a string', '"x\\"); process.exit(1); (\\""', 'expression'],
    ['JavaScript names', 'process.exit(1)+globalThis.constructor', 'expression'],
    ['a statement', 'gX:=constructor.__proto__', 'statement'],
    ['U+2028 in a string', '"a\u2028b"', 'expression'],
  ] as const)("%s: the generated code names only the compiler's names", (_name, text, kind) => {
    expect(problemsOf(emitFormula(text, kind).source)).toEqual([])
  })

  test('JavaScript in the text stays 4D: a string is a string, a name a 4D name', () => {
    expect(
      run4d('return Formula from string("\\"x\\\\\\"); process.exit(1); (\\\\\\"\\"").call()'),
    ).toBe('x"); process.exit(1); ("')
    expect(() => run4d('return Formula from string("process.exit(1)").call()')).toThrow(FourDError)
  })

  test("the formula's code reads the run's budget: it stops past the deadline", () => {
    let now = 0
    const clock: Clock = { now: () => (now += 100) }
    const rt = new Runtime({ budget: budgetOf(10, clock) })
    const fn = new FourDFunction('Formula', compileFormulaText('1+1', 'expression'))
    rt.ticks = 0 // the next tick reads the clock
    let error: unknown
    try {
      rt.invoke(fn, undefined, [])
    } catch (e) {
      error = e
    }
    expect((error as FourDError).errCode).toBe(9410)
  })
})
