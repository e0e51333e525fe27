/**
 * @module Work that runs in slices on its own: its first slice now, then one a turn of the event
 * loop in the process's line (slice-line.ts: after the turn's I/O, one slice of any work a turn,
 * so a read by key that came in meanwhile is answered between two slices). What a save whose entity events run in steps is (the REST
 * interface's `$method=update`, writes.ts `saveSteps`): a write cannot be run again from the
 * start as a read in slices is (slices.ts), so its work keeps its place and goes on.
 *
 * Each slice runs under what the last one left of the budget current when the work began: the
 * turns it waits for are not its time, as a read's are not. The async context (the caller's view,
 * its promoted privileges, its process and transaction: access/async-scope.ts) is the one the
 * line keeps for each slice, the caller's.
 */
import type { Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'
import { currentBudget, withBudget } from './budget.js'
import { sliceLine } from './slice-line.js'
import type { Work } from './slices.js'

/** The time a slice runs, on the clock given (the reads' slices run 5 ms too). */
export const WORK_SLICE_MS = 5

/**
 * `work`'s result: at once when it ends within its first slice (most do: no Promise), else a
 * Promise of it, its other slices one a turn. An error it throws is thrown, or rejects.
 */
export function workInTurns<T>(
  work: Work<T>,
  clock: Clock,
  sliceMs = WORK_SLICE_MS,
): T | Promise<T> {
  const budget = currentBudget()
  // The running slice's deadline, and what the last slice left of the budget.
  let deadline = budget?.deadline ?? Infinity
  let left = Infinity
  const slice = (): IteratorResult<unknown, T> => {
    const until = clock.now() + sliceMs
    try {
      for (;;) {
        const r = work.next()
        if (r.done === true || r.value !== undefined || clock.now() >= until) return r
      }
    } finally {
      left = deadline - clock.now()
    }
  }
  const first = slice()
  if (first.done === true) return first.value
  parkedRefused(work, first.value)
  return new Promise<T>((resolve, reject) => {
    const next = (): void => {
      try {
        deadline = clock.now() + left
        const r = withBudget(
          budget === undefined ? undefined : { deadline, clock, ms: budget.ms },
          slice,
        )
        if (r.done === true) return resolve(r.value)
        parkedRefused(work, r.value)
        sliceLine.later(next)
      } catch (error) {
        reject(error)
      }
    }
    sliceLine.later(next)
  })
}

// Nothing drives this work as a read's scope does: a step that waits outside the thread (a worker
// pool's run) is a bug of its caller.
function parkedRefused(work: Work<unknown>, value: unknown): void {
  if (value === undefined) return
  ;(value as Promise<void>).catch(() => undefined)
  work.return(undefined as never)
  fail('Internal', ['a work parked where it runs in turns (workInTurns)'])
}
