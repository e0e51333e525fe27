/**
 * @module For tests: timers that run only when the test says time has passed (`advance(ms)`) or
 * fires them (`fireAll`), for the options that take a `Schedule`. No test then waits for a real
 * time limit, and none fires early on a busy machine.
 */
import type { Schedule } from './schedule.js'

export interface ManualSchedule {
  readonly schedule: Schedule
  /** Moves time on by `ms`: the timers due by then run, earliest first. */
  advance(ms: number): void
  /** Fires every pending timer, as if their time had passed; returns how many fired. */
  fireAll(): number
  /** The delays of the timers set and neither run nor cancelled, in the order they were set. */
  readonly pending: readonly number[]
  /** Resolves once at least `n` timers are pending. */
  until(n: number): Promise<void>
}

export function manualSchedule(): ManualSchedule {
  let now = 0
  const timers: { at: number; ms: number; fn: () => void }[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  const take = (timer: (typeof timers)[number]): boolean => {
    const at = timers.indexOf(timer)
    if (at < 0) return false
    timers.splice(at, 1)
    return true
  }
  // A timer cancelled by an earlier one's run does not run.
  const run = (due: typeof timers): number => {
    let ran = 0
    for (const timer of due) if (take(timer)) (timer.fn(), ran++)
    return ran
  }
  return {
    schedule: (fn, ms) => {
      const timer = { at: now + ms, ms, fn }
      timers.push(timer)
      for (const w of waiters.filter((w) => timers.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
      return () => void take(timer)
    },
    advance(ms) {
      now += ms
      run(timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at))
    },
    fireAll: () => run([...timers]),
    get pending() {
      return timers.map((t) => t.ms)
    },
    until: (n) =>
      timers.length >= n
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ n, resolve })),
  }
}

/**
 * Resolves at the end of the current turn of the event loop, after its I/O callbacks: where the
 * body timeout gives its verdict once its timer has fired (body/bodies-in-flight.ts).
 */
export const turnEnd = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
