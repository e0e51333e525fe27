/**
 * @module A call of a project's function run in slices, as 4D runs a request's code in a process
 * of its own: a long call, or one that never ends, holds no other client. Its code is the
 * function's generator (compile/emit/context.ts `steps`), which stops at its budget's checks
 * (every 4,096 loop passes and calls); a slice runs it for core's WORK_SLICE_MS (5 ms) on the
 * datastore's clock, the first at once (most calls end in it, answered with no Promise), the
 * others in core's line of
 * slices (`sliceLine`: one slice of any work a turn of the event loop, after the turn's I/O, so a
 * read by key that came in meanwhile is answered between two slices, however many calls run).
 *
 * What the code's context is made of is set again around each slice: the running context (its
 * variables, `Last errors`), the project's bounds, the request's budget, the levels of calls the
 * code holds (ops/call-depth.ts: taken out while it waits, so that another request does not count
 * them). Core's own (the caller's session and view, its privileges promoted, its process and
 * transaction) follow the slices by themselves: they are the async context's, which the line keeps
 * for each slice (core's access/async-scope.ts).
 */
import {
  sliceLine,
  withQueryBudget,
  WORK_SLICE_MS,
  type Clock,
  type QueryBudget,
} from '@entistore/core'
import type { Runtime } from '../runtime/context/runtime.js'
import { callDepth, setCallDepth } from '../runtime/ops/call-depth.js'

/** A call between two slices. */
export interface SlicedCall {
  readonly rt: Runtime
  readonly g: Generator<void, unknown, void>
  readonly clock: Clock
  /** The request's budget, for its first slice; each later one gets the time it left (`left`). */
  readonly budget: QueryBudget | undefined
  /** The levels of calls its code holds while it waits. */
  own: number
  /** The budget's time left when the last slice ended: the turns it waits are not counted. */
  left: number
  /** The deadline of the running slice's budget. */
  deadline: number
}

type Sliced = { readonly done: true; readonly value: unknown } | { readonly done: false }

/**
 * One step of `call` (up to its generator's next stop), or, `close`, its generator closed where it
 * stopped (its `finally` blocks run: a `Use` it is inside lets go of its lock), the levels of
 * calls its code holds counted while it runs and taken out after, where its context is current
 * (the caller sets the rest).
 */
export function step(
  call: Pick<SlicedCall, 'rt' | 'g' | 'own'>,
  close = false,
): IteratorResult<void, unknown> {
  const base = callDepth()
  setCallDepth(base + call.own)
  try {
    return call.rt.run(() => (close ? call.g.return(undefined) : call.g.next()))
  } finally {
    call.own = callDepth() - base
    setCallDepth(base)
  }
}

/**
 * One slice of `call`: steps for core's WORK_SLICE_MS (a save's work in turns runs as long), where
 * its context is current (the caller sets the rest).
 */
export function slice(call: SlicedCall): Sliced {
  const until = call.clock.now() + WORK_SLICE_MS
  try {
    for (;;) {
      const r = step(call)
      if (r.done === true) return { done: true, value: r.value }
      if (call.clock.now() >= until) return { done: false }
    }
  } finally {
    call.left = call.deadline - call.clock.now()
  }
}

/**
 * The rest of `call` (its first slice ran, and did not end it), one slice a turn, each run by
 * `within` (the project's bounds, the runner's context) under what is left of the request's
 * budget, counted from the slice's start: the turns the call waits between its slices are not
 * its time, as a read's in slices are not (core's budget.ts). `end` makes the answer of its
 * value, `failed` the error of what it threw.
 */
export function slicesLeft(
  call: SlicedCall,
  within: <T>(fn: () => T) => T,
  end: (value: unknown) => unknown,
  failed: (error: unknown) => unknown,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const next = (): void => {
      try {
        const budget = budgetLeft(call)
        if (budget !== undefined) call.rt.useBudget(budget)
        const r = withQueryBudget(budget, () => within(() => slice(call)))
        if (!r.done) return void sliceLine.later(next)
        resolve(withQueryBudget(budget, () => within(() => end(r.value))))
      } catch (error) {
        reject(failed(error))
      }
    }
    sliceLine.later(next)
  })
}

// The request's budget from now on: what its last slice left of it.
function budgetLeft(call: SlicedCall): QueryBudget | undefined {
  const budget = call.budget
  if (budget === undefined) return undefined
  call.deadline = call.clock.now() + call.left
  return { deadline: call.deadline, clock: call.clock, ms: budget.ms }
}
