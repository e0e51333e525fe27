/**
 * @module The budget (research §8.11): a runaway loop or recursion stops with BudgetExceeded (9410)
 * at its file and line, which `Try` does not catch; the clock is read once every 4,096 ticks, not
 * at each pass. Time is a clock that moves one millisecond at each reading, so nothing here
 * depends on the machine's speed.
 */
import { describe, expect, test } from 'vitest'
import type { Clock } from '@entistore/core'
import { TICKS_BETWEEN_READS, budgetOf } from '../runtime/context/budget.js'
import { Runtime } from '../runtime/index.js'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { compileMethod } from './compile-method.js'
import { run4d } from './run4d.js'

/** A clock that moves 1 ms each time it is read, and counts the readings. */
function steppingClock(): Clock & { reads: number } {
  let now = 1_000
  const clock = {
    reads: 0,
    now: () => {
      clock.reads++
      return now++
    },
  }
  return clock
}

function budgetError(text: string, ms = 10, methods?: Record<string, string>): FourDError {
  const clock = steppingClock()
  try {
    run4d(text, [], { methods, runtime: { budget: budgetOf(ms, clock) } })
  } catch (e) {
    if (FourDError.is(e)) return e
    throw e
  }
  throw new Error('the code ended')
}

describe('a runaway loop stops at the budget', () => {
  // The error names the line of the loop that ran away.
  test.each([
    ['While', 'var $i : Integer\nWhile (True)\n\t$i:=$i+1\nEnd while', 2],
    ['Repeat', 'Repeat\n\t$x:=1\nUntil (False)', 1],
    ['For', 'For ($i; 1; 1; 0)\n\t$x:=$i\nEnd for', 1],
    [
      'For each',
      '$c:=[1]\nFor each ($v; $c)\n\t$c.push($v)\n\tWhile (True)\n\tEnd while\nEnd for each',
      4,
    ],
  ])('%s', (_name, text, line) => {
    const err = budgetError(text)
    expect([err.errCode, err.componentSignature, err.line]).toEqual([9410, 'enti', line])
    expect(err.file).toBe('Project/Sources/Methods/run4d.4dm')
  })

  test('an endless recursion stops with a 4D error at the bound of call depth', () => {
    // Thousands of calls deep, before the clock is read past the deadline.
    const err = budgetError('recurse', 10, { recurse: 'If (True)\n\trecurse\nEnd if' })
    expect([err.errCode, err.method, err.line]).toEqual([9438, 'recurse', 2])
    expect(err.message).toContain('The stack is full: 1000 calls are nested')
  })

  test('Try and Try/Catch do not catch it', () => {
    expect(budgetError('Try\n\tWhile (True)\n\tEnd while\nCatch\n\t$x:=1\nEnd try').errCode).toBe(
      9410,
    )
    expect(budgetError('$x:=Try(loop)', 10, { loop: 'While (True)\nEnd while' }).errCode).toBe(9410)
  })

  test('the clock is read once every 4,096 passes', () => {
    const clock = steppingClock()
    const rt = new Runtime({ budget: budgetOf(1_000_000, clock) })
    const method = compileMethod('For ($i; 1; $1)\nEnd for')
    clock.reads = 0
    method.call(rt, [TICKS_BETWEEN_READS * 10])
    // One tick a pass (and one for the call): read about once every 4,096, not 40,960 times.
    expect(clock.reads).toBeGreaterThanOrEqual(9)
    expect(clock.reads).toBeLessThanOrEqual(10)
  })

  test('without a budget the code runs to its end', () => {
    const rt = new Runtime()
    expect(compileMethod('For ($i; 1; 100000)\nEnd for\nreturn $i').call(rt)).toBe(100001)
    expect(rt.ticks).toBe(Infinity)
  })
})
