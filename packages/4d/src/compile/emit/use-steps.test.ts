/**
 * `Use … End use` and `Try(…)` in a unit's generator (issue 78): the code inside stops at its
 * budget's checks as any other, and `Use` holds the lock of its object's shared group for the
 * call (runtime/context/use-lock.ts), so that two calls in slices driven in turns never run two
 * `Use` blocks of one group at once.
 */
import type { Clock } from '@entistore/core'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { budgetOf } from '../../runtime/context/budget.js'
import { ClassStore } from '../../runtime/context/class-store.js'
import { Runtime } from '../../runtime/index.js'
import { FourDError } from '../../runtime/errors/fourd-error.js'
import { callDepth, setCallDepth } from '../../runtime/ops/call-depth.js'
import { markShared } from '../../runtime/values/shared.js'
import { newObject } from '../../runtime/values/kinds.js'
import { compileClass } from '../compile-class.js'
import { compileMethod } from '../compile-method.js'
import { compileFormulaText } from '../formula-text.js'

const STEPS = { budget: true, lines: false, steps: true } as const

/** A call in slices of `text`: its generator and its running context (`Storage` given). */
interface Call {
  readonly rt: Runtime
  readonly g: Generator<void, unknown, void>
  stops: number
  /** The levels of calls its code holds while it waits (sliced-call.ts takes them out too). */
  own: number
  done: boolean
  value?: unknown
  error?: unknown
}

function call(
  text: string,
  storage: object,
  args: unknown[] = [],
  // Ample, but never endless: a waiter that is never let in ends (the clock is read at each try).
  budget = budgetOf(1_000_000, new Ticking()),
  classes?: ClassStore,
): Call {
  const m = compileMethod(text, { emit: STEPS, file: 'Project/Sources/Methods/m.4dm' })
  const rt = new Runtime({ storage, budget, classes, compileFormula: compileFormulaText })
  return { rt, g: m.fn.steps(rt, undefined, args)!, stops: 0, own: 0, done: false }
}

// One step of `c` (to its next stop), as a slice's driver runs it: the levels of calls its code
// holds counted while it runs and taken out after, so that a call left waiting (or dropped) leaves
// no level to the next test's code.
function step(c: Call): void {
  if (c.done) return
  const base = callDepth()
  setCallDepth(base + c.own)
  try {
    const r = c.rt.run(() => c.g.next())
    if (r.done === true) {
      c.done = true
      c.value = r.value
    } else c.stops++
  } catch (error) {
    c.done = true
    c.error = error
  } finally {
    c.own = callDepth() - base
    setCallDepth(base)
  }
}

// `calls` a step each in turn until each ends; the order they ended in.
function inTurns(...calls: Call[]): Call[] {
  const ended: Call[] = []
  while (ended.length < calls.length)
    for (const c of calls) {
      if (c.done) continue
      step(c)
      if (c.done) ended.push(c)
    }
  return ended
}

const errCode = (e: unknown): number | undefined => (FourDError.is(e) ? e.errCode : undefined)

// A `Use` of `Storage` that reads a counter, loops past many stops, then writes it one more: two
// calls whose blocks ran at once would both read the same value, and one increment be lost.
const INCREMENT = `Use (Storage)
  $n:=Num(Storage.n)
  For ($i; 1; 100000)
  End for
  Storage.n:=$n+1
End use
return Storage.n`

describe('a Use block in a generator', () => {
  it('stops inside at its checks, and is not a stop of the generated code itself', () => {
    const storage = markShared(newObject())
    const c = call(INCREMENT, storage)
    inTurns(c)
    // 100,000 passes, a check every 4,096.
    expect(c.stops).toBeGreaterThanOrEqual(20)
    expect(c.value).toBe(1)
  })

  it('makes a second call wait until the first End use, and see its writes whole', () => {
    const storage = markShared(newObject())
    const first = call(INCREMENT, storage)
    const second = call(INCREMENT, storage)
    step(first)
    expect(first.done).toBe(false)
    const ended = inTurns(first, second)
    expect(ended).toEqual([first, second])
    expect([first.value, second.value]).toEqual([1, 2])
    // The second waited in steps, as many as the first's loop took.
    expect(second.stops).toBeGreaterThanOrEqual(20)
  })

  it('locks the group: an object put in a shared one waits with it; another does not', () => {
    const storage = markShared(newObject())
    const made = call(
      `$a:=New shared object
$b:=New shared object
Use ($a)
  $a.b:=$b
End use
return New object("a"; $a; "b"; $b; "c"; New shared object)`,
      storage,
    )
    inTurns(made)
    const { a, b, c } = made.value as Record<string, object>
    const holding = `Use ($1)
  For ($i; 1; 100000)
  End for
  $1.done:=True
End use`
    const writing = `Use ($1)
  $1.seen:=Bool($2.done)
End use
return $1.seen`
    for (const [other, waits] of [
      [b, true],
      [c, false],
    ] as const) {
      const holder = call(holding, storage, [a])
      const waiter = call(writing, storage, [other, a])
      step(holder)
      const ended = inTurns(holder, waiter)
      expect(ended[0]).toBe(waits ? holder : waiter)
      expect(waiter.value).toBe(waits)
      delete (a as Record<string, unknown>).done
    }
  })

  it('locks nothing for an object that is not shared, plain or in steps', () => {
    const storage = markShared(newObject())
    const text = 'Use ($1)\n  $1.n:=1\nEnd use\nreturn $1.n'
    const c = call(text, storage, [newObject()])
    inTurns(c)
    expect(c.value).toBe(1)
    expect(c.stops).toBe(0)
    const rt = new Runtime({ storage, compileFormula: compileFormulaText })
    expect(compileMethod(text).call(rt, [newObject()])).toBe(1)
  })

  it('is entered again by its own call: nested Use of one group', () => {
    const storage = markShared(newObject())
    const nested = call(
      `Use (Storage)
  Use (Storage)
    For ($i; 1; 50000)
    End for
    Storage.inner:=1
  End use
  For ($i; 1; 50000)
  End for
  Storage.outer:=1
End use
return "nested"`,
      storage,
    )
    const reader = call(
      'Use (Storage)\n  return String(Storage.inner)+String(Storage.outer)\nEnd use',
      storage,
    )
    step(nested)
    const ended = inTurns(nested, reader)
    expect(ended).toEqual([nested, reader])
    expect(nested.value).toBe('nested')
    // Waited past the inner End use, until the outer one.
    expect(reader.value).toBe('11')
  })

  it('is let go when the block throws, and when the budget ends it (9410)', () => {
    const storage = markShared(newObject())
    const reader = 'Use (Storage)\n  return Num(Storage.t)\nEnd use'
    const throwing = call(
      'Use (Storage)\n  For ($i; 1; 50000)\n  End for\n  Storage.t:=1\n  throw(7; "out")\nEnd use',
      storage,
    )
    const after = call(reader, storage)
    step(throwing)
    expect(inTurns(throwing, after)).toEqual([throwing, after])
    expect(errCode(throwing.error)).toBe(7)
    expect(after.value).toBe(1)

    const endless = call(
      'Use (Storage)\n  Storage.t:=2\n  While (True)\n  End while\nEnd use',
      storage,
      [],
      budgetOf(50, new Ticking()),
    )
    const next = call(reader, storage)
    step(endless)
    expect(inTurns(endless, next)).toEqual([endless, next])
    expect(errCode(endless.error)).toBe(9410)
    expect(next.value).toBe(2)
  })

  it('ends a call waiting for a holder that never lets go with its budget (9410)', () => {
    const storage = markShared(newObject())
    const holder = call(INCREMENT, storage)
    step(holder)
    const waiter = call(INCREMENT, storage, [], budgetOf(50, new Ticking()))
    inTurns(waiter)
    expect(errCode(waiter.error)).toBe(9410)
    expect(waiter.stops).toBeGreaterThan(0)
    // The holder goes on, and ends as alone.
    inTurns(holder)
    expect(holder.value).toBe(1)
  })

  it('refuses code that cannot wait with 9441, which Try catches', () => {
    const storage = markShared(newObject())
    const holder = call(INCREMENT, storage)
    step(holder)
    const plain = (text: string): unknown =>
      compileMethod(text).call(new Runtime({ storage, compileFormula: compileFormulaText }))
    expect(() => plain('Use (Storage)\n  Storage.n:=10\nEnd use')).toThrow(
      expect.objectContaining({ errCode: 9441 }),
    )
    expect(
      plain('Try\n  Use (Storage)\n  End use\nCatch\n  return Last errors[0].errCode\nEnd try'),
    ).toBe(9441)
    // Reading needs no Use (4D's other processes read a shared object in use).
    expect(plain('return Num(Storage.n)')).toBe(0)
    inTurns(holder)
    expect(holder.value).toBe(1)
    expect(plain('Use (Storage)\n  Storage.n:=10\nEnd use\nreturn Storage.n')).toBe(10)
  })
})

describe('a shared function', () => {
  it('locks the group of its This as Use does: a second call waits in steps', () => {
    const classes = new ClassStore()
    compileClass(
      `shared Class constructor()
  This.n:=0

shared Function slowInc() : Integer
  var $n; $i : Integer
  $n:=This.n
  For ($i; 1; 100000)
  End for
  This.n:=$n+1
  return This.n`,
      classes,
      { emit: STEPS, file: 'Project/Sources/Classes/Counter.4dm', name: 'Counter' },
    )
    const storage = markShared(newObject())
    const made = call('return cs.Counter.new()', storage, [], undefined, classes)
    inTurns(made)
    const counter = made.value
    const first = call('return $1.slowInc()', storage, [counter], undefined, classes)
    const second = call('return $1.slowInc()', storage, [counter], undefined, classes)
    step(first)
    expect(inTurns(first, second)).toEqual([first, second])
    expect([first.value, second.value]).toEqual([1, 2])
    expect(first.stops).toBeGreaterThanOrEqual(20)
  })
})

describe('a Use block of a generator dropped without being closed', () => {
  it('lets go of its lock once the generator is collected', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const storage = markShared(newObject())
    const write = (): unknown =>
      compileMethod('Use (Storage)\n  Storage.n:=5\nEnd use\nreturn Storage.n').call(
        new Runtime({ storage, compileFormula: compileFormulaText }),
      )
    // A read's work left by its driver inside a `Use`: nothing closes its generator.
    ;(() => step(call(INCREMENT, storage)))()
    expect(write).toThrow(expect.objectContaining({ errCode: 9441 }))
    let value: unknown
    for (let i = 0; i < 20 && value === undefined; i++) {
      gc()
      await new Promise((resolve) => setTimeout(resolve, 0))
      try {
        value = write()
      } catch (e) {
        expect(errCode(e)).toBe(9441)
      }
    }
    expect(value).toBe(5)
  })
})

describe('Try(…) in a generator', () => {
  it('stops inside the expression, and catches as before', () => {
    const storage = markShared(newObject())
    const c = call(
      `$x:=Try(loop(100000))
$y:=Try(throwing())
return String($x)+"/"+String($y)+"/"+String(Last errors[0].errCode)`,
      storage,
    )
    const methods = c.rt.methods
    const method = (text: string, name: string) =>
      compileMethod(text, { emit: STEPS, file: `Project/Sources/Methods/${name}.4dm` }).fn
    methods.define(
      'loop',
      method('#DECLARE($n : Integer) : Integer\nFor ($i; 1; $n)\nEnd for\nreturn $n', 'loop'),
    )
    methods.define('throwing', method('throw(12; "no")', 'throwing'))
    inTurns(c)
    expect(c.value).toBe('100000//12')
    expect(c.stops).toBeGreaterThanOrEqual(20)
  })

  it('stops inside a Try … Catch block too', () => {
    const c = call(
      'Try\n  For ($i; 1; 100000)\n  End for\n  throw(3; "x")\nCatch\n  return Last errors[0].errCode\nEnd try',
      markShared(newObject()),
    )
    inTurns(c)
    expect(c.value).toBe(3)
    expect(c.stops).toBeGreaterThanOrEqual(20)
  })
})

// A clock one millisecond later at each reading: a budget counts readings.
class Ticking implements Clock {
  #t = 0
  now(): number {
    return this.#t++
  }
}
