/**
 * @module For tests: timers that run when the test says time has passed (`advance(ms)`), for the
 * options that take a `Schedule` (`scheduleBodyTimeout`). No test then waits for a real timeout,
 * and none fires early on a busy machine.
 */
import type { Schedule } from './bodies-in-flight.js'

export interface ManualSchedule {
  readonly schedule: Schedule
  /** Moves time on by `ms`: the timers due by then run, earliest first. */
  advance(ms: number): void
  /** Timers set and not yet run or cancelled. */
  readonly pending: number
}

export function manualSchedule(): ManualSchedule {
  let now = 0
  const timers = new Set<{ at: number; fn: () => void }>()
  return {
    schedule: (fn, ms) => {
      const timer = { at: now + ms, fn }
      timers.add(timer)
      return () => timers.delete(timer)
    },
    advance(ms) {
      now += ms
      const due = [...timers].filter((t) => t.at <= now).sort((a, b) => a.at - b.at)
      // A timer cancelled by an earlier one's run does not run.
      for (const timer of due) if (timers.delete(timer)) timer.fn()
    },
    get pending() {
      return timers.size
    },
  }
}
