/**
 * @module For tests: timers that fire only when the test says so (a `Schedule`), so that a time
 * limit is reached without waiting for it, whatever the machine's load.
 */
import type { Schedule } from './call-limits.js'

export interface ManualSchedule {
  readonly schedule: Schedule
  /** The delays of the timers set and neither fired nor cancelled, in the order they were set. */
  readonly pending: readonly number[]
  /** Resolves once at least `n` timers are pending. */
  until(n: number): Promise<void>
  /** Fires every pending timer, as if their time had passed; returns how many fired. */
  fireAll(): number
}

export function manualSchedule(): ManualSchedule {
  const timers: { fn: () => void; ms: number }[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  const wake = (): void => {
    for (const w of waiters.filter((w) => timers.length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1)
      w.resolve()
    }
  }
  return {
    schedule: (fn, ms) => {
      const timer = { fn, ms }
      timers.push(timer)
      wake()
      return () => {
        const at = timers.indexOf(timer)
        if (at >= 0) timers.splice(at, 1)
      }
    },
    get pending() {
      return timers.map((t) => t.ms)
    },
    until: (n) =>
      timers.length >= n
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ n, resolve })),
    fireAll() {
      const due = timers.splice(0)
      for (const timer of due) timer.fn()
      return due.length
    },
  }
}
