/**
 * A call in slices counts the time of its slices against its request's budget, not the turns it
 * waits between them (issue 78): a call beside busy clients must not be stopped sooner than alone.
 * Calls at once wait in core's line of slices: one slice of any of them a turn of the event loop.
 */
import { currentBudget, sliceLine, withQueryBudget, type Clock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime/context/runtime.js'
import type { CodeBudget } from '../runtime/context/budget.js'
import { slice, slicesLeft, type SlicedCall } from './sliced-call.js'

describe('a call in slices', () => {
  it('is given, at each slice, what its last slice left of the budget', async () => {
    // A clock 1 ms later at each reading, and 1 s later between two slices (turns spent waiting).
    let t = 0
    const clock: Clock = { now: () => ++t }
    const left: number[] = []
    const given: CodeBudget[] = []
    function* code(): Generator<void, string, void> {
      for (let i = 0; i < 40; i++) {
        left.push(currentBudget()!.deadline - t)
        yield
      }
      return 'done'
    }
    const rt = { run: <T>(fn: () => T): T => fn(), useBudget: (b: CodeBudget) => given.push(b) }
    const budget = { deadline: clock.now() + 200, clock, ms: 200 }
    const call: SlicedCall = {
      rt: rt as unknown as Runtime,
      g: code(),
      clock,
      budget,
      own: 0,
      left: 0,
      deadline: budget.deadline,
    }
    const first = withQueryBudget(budget, () => slice(call))
    expect(first.done).toBe(false)
    const waiting = <T>(fn: () => T): T => {
      const r = fn()
      t += 1_000
      return r
    }
    const value = await slicesLeft(
      call,
      waiting,
      (v) => v,
      (e) => e,
    )
    expect(value).toBe('done')
    // 40 steps of a few readings each, over many slices and 1 s waits: never past the budget.
    expect(given.length).toBeGreaterThan(5)
    expect(Math.min(...left)).toBeGreaterThan(0)
    for (let i = 1; i < left.length; i++) expect(left[i]).toBeLessThanOrEqual(left[i - 1]!)
    // Each slice's budget for the 4D code (its `ticks`) is the one core's work sees.
    expect(given.at(-1)!.deadline - given.at(-1)!.clock.now()).toBeLessThan(200)
  })

  it('waits in core’s line: two calls at once run one slice a turn between them', async () => {
    // A clock 1 ms later at each reading, and a slice of 5 ms: a step or two a slice.
    let t = 0
    const clock: Clock = { now: () => ++t }
    const rt = { run: <T>(fn: () => T): T => fn(), useBudget: () => undefined }
    function* code(): Generator<void, number, void> {
      for (let i = 0; i < 12; i++) yield
      return 12
    }
    const started = (): SlicedCall => {
      const call = {
        rt: rt as unknown as Runtime,
        g: code(),
        clock,
        budget: undefined,
        own: 0,
        left: 0,
        deadline: Infinity,
      }
      expect(slice(call).done).toBe(false)
      return call
    }
    const calls = [started(), started()].map((call) =>
      slicesLeft(
        call,
        (fn) => fn(),
        (v) => v,
        (e) => e,
      ),
    )
    expect(sliceLine.waiting).toBe(2)
    for (let i = 0; i < 3; i++) {
      const before = sliceLine.ran
      // This test's immediate, queued after the line's turn, runs in the same turn.
      await new Promise<void>((resolve) => setImmediate(resolve))
      expect(sliceLine.ran - before).toBe(1)
    }
    expect(await Promise.all(calls)).toEqual([12, 12])
  })
})

describe('a runtime in slices', () => {
  // A loop of 10,240 passes: a stop each 4,096 passes run plain, each 1,024 in slices, so that a
  // loop whose passes are heavy (an object, a text, a push: 7 to 26 ms for 4,096) stops within a
  // slice of a few milliseconds.
  const stops = async (inSlices: boolean): Promise<number> => {
    const { compileMethod } = await import('../compile/compile-method.js')
    const { Runtime } = await import('../runtime/index.js')
    const { budgetOf } = await import('../runtime/context/budget.js')
    const method = compileMethod(
      'var $i; $n : Integer\nFor ($i; 1; 10240)\n$n:=$n+1\nEnd for\nreturn $n',
    )
    const rt = new Runtime({ budget: budgetOf(60_000, { now: () => 0 }) })
    if (inSlices) rt.inSlices()
    return rt.run(() => {
      const g = method.fn.steps(rt, undefined, [])!
      let n = 0
      while (g.next().done !== true) n++
      return n
    })
  }
  it('stops every 1,024 passes, where plain code reads the clock every 4,096', async () => {
    // The ticks go below 0 once each refill is spent: a stop each 1,025 (4,097) passes and calls.
    expect(await stops(false)).toBe(2)
    expect(await stops(true)).toBe(9)
  })
})
