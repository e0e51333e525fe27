/**
 * @module A read as work in steps: what code that runs in steps (a 4D function's generator in a
 * REST call) makes of a read that core runs plain (a query, an aggregate), so that its heavy work
 * (a filter over many rows, a getter called for each) stops between its steps rather than running
 * in one piece. It is the REST handler's way with a GET (slices.ts), for one call: the read runs
 * in a scope of its own; where its heavy work does not end at once, the scope keeps it and the
 * read unwinds (QuerySuspended); the work goes on a step at a time, a yield between two, and the
 * read runs again and finds its result kept, brought up to date with the writes made meanwhile.
 * So the read must only read: it may run more than once.
 *
 * Its work never parks on a worker pool: the caller may run it in one piece (`finish`), where
 * nothing can wait for a pool (its loops then run here, in steps).
 */
import { DatastoreError } from '../errors/datastore-error.js'
import { currentBudget } from './budget.js'
import { currentScope, type SliceScope, type Work } from './slices.js'

/** What makes the scope: the datastore (`sliceScope`). */
export interface ScopeMaker {
  sliceScope(timeUp: () => boolean): SliceScope
}

// Each step of the work is a step of the caller's: it decides when its slice ends.
const EACH_STEP = (): boolean => true

/**
 * `read()`'s value, its heavy work run in steps (see the module note); each of its runs and slices
 * inside `around` (what the caller's code must be told around core's: a 4D runner, that the
 * getters called there may give their steps).
 */
export function* readInSteps<T>(
  ds: ScopeMaker,
  read: () => T,
  around: <R>(fn: () => R) => R = (fn) => fn(),
): Work<T> {
  const scope = ds.sliceScope(EACH_STEP)
  const drive = (): boolean | Promise<void> => scope.drive()
  scope.parallel = undefined
  // The code the read calls (a getter) belongs to the request it runs for, not to a new one.
  scope.request = currentScope()?.request ?? currentBudget() ?? scope
  try {
    for (;;) {
      try {
        return around(() => scope.run(read))
      } catch (error) {
        if (!(DatastoreError.is(error) && error.name === 'QuerySuspended')) throw error
      }
      while (around(drive) !== true) yield
    }
  } finally {
    scope.close()
  }
}
