/**
 * @module Timers as a value: the REST interface's time limits (a function's call, a body that
 * stops arriving) and entistore's chaos and shutdown run on a `Schedule`, so that a test decides
 * when time has passed (schedule.fixture.ts) instead of waiting for it.
 */

/** Runs `fn` after `ms` milliseconds; returns the function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void

/** `setTimeout`, as a Schedule. */
export const realSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms)
  return () => clearTimeout(timer)
}

/** `setTimeout`, as a Schedule whose timers keep no process alive (a test, a CLI that is done). */
export const unrefSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms)
  // Timers are objects in Node, numbers in some runtimes of the fetch handler.
  if (typeof timer === 'object') timer.unref()
  return () => clearTimeout(timer)
}
