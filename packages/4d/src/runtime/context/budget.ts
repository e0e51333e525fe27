/**
 * @module The budget of running 4D code: a runaway loop stops with a 4D error instead of holding
 * the server. Compiled code decrements `rt.ticks` at each loop pass and each call
 * (`if (--rt.ticks < 0) rt.tick()`), a test of a number; every TICKS_BETWEEN_READS ticks the clock
 * is read once (reading it at every pass cost 34 times the loop itself), and past the deadline
 * the code stops with BudgetExceeded (9410), which `Try`/`Catch` does not catch. A builtin that
 * goes through much data counts its own passes (values/passes.ts).
 */
import type { Clock } from '@entistore/core'

/** Loop passes and calls between two readings of the clock. */
export const TICKS_BETWEEN_READS = 4096

/**
 * The same in a call in slices (`Runtime.inSlices`), where each reading is also a stop at which
 * the slice may end: 4,096 passes of a loop that makes an object, a text and a push at each ran
 * 7 to 26 ms between two stops, past the slice of 5 ms (core's WORK_SLICE_MS) that a GET by key
 * beside it waits for. A reading and a stop cost about 0.2 µs.
 */
export const SLICED_TICKS = 1024

export interface CodeBudget {
  /** The time, on `clock`, past which the code stops. */
  readonly deadline: number
  readonly clock: Clock
  /** The budget's length, for the error message. */
  readonly ms: number
}

/** A budget of `ms` milliseconds from now on `clock`. */
export const budgetOf = (ms: number, clock: Clock): CodeBudget => ({
  deadline: clock.now() + ms,
  clock,
  ms,
})
