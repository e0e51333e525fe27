/**
 * @module The time budget of queries. The REST interface answers each request synchronously, so a
 * long scan holds every other client until it ends: a budget bounds it. While a budget is set
 * (`withBudget`, which the datastore's `ds.withBudget(ms, fn)` calls), the query engine reports
 * its work in rows (`spend`): scans, filters of candidates, orderings and aggregates every
 * `BUDGET_STEP` rows, a calculated attribute (user code) per row. Every `BUDGET_STEP` units the
 * budget's clock is read once, and past the deadline the work stops with QueryBudgetExceeded
 * (9090). Without a budget, `spend` is one test of a variable.
 *
 * The budget is a module-level "current budget" rather than an argument: the orderings and
 * aggregates that do the work are reached through selections made long before, and a request's
 * whole run (query, ordering, the first page) shares one deadline. JavaScript runs one call stack
 * at a time, so a synchronous `fn` is all the budget applies to; `withBudget` always restores the
 * previous one, on return and on throw.
 *
 * Queries only read: a budget error leaves nothing half-done. A write that selects first (a delete
 * by filter) runs its query before its transaction; an ordering read inside a transaction throws
 * before `commit`, which cancels the transaction whole.
 */
import type { Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'

/** Units of work (rows) between two readings of the clock. */
export const BUDGET_STEP = 4096

/** What one call of a calculated attribute (user code) counts for, in rows. */
export const CALCULATED_COST = 64

// Calls of user code made by query work since the process started (slices.ts cuts the steps
// whose rows call it).
let codeRuns = 0

/** Counts a call of a calculated attribute's getter (user code) made for a row. */
export function spendOnCode(): void {
  codeRuns++
  spend(CALCULATED_COST)
}

/** How many calls of user code query work has made so far. */
export function codeRunCount(): number {
  return codeRuns
}

export interface QueryBudget {
  /** The time, on `clock`, past which query work stops. */
  readonly deadline: number
  readonly clock: Clock
  /** The budget's length, for the error message. */
  readonly ms: number
}

interface Running {
  readonly budget: QueryBudget
  /** Units left before the clock is read again. */
  left: number
  /** `paused` when this budget started: the pauses since then do not count against it. */
  readonly pausedBefore: number
}

let current: Running | undefined
// Time spent outside every budget (`outsideBudget`) since the process started, on the clock of
// the budget that was current then.
let paused = 0

/**
 * Runs `fn` with `budget` as the current query budget, then restores the previous one (also when
 * `fn` throws). Nested budgets never lengthen an outer one: the earlier deadline applies.
 * `undefined` adds no budget (an outer one still applies). `expired` (the caller read the clock
 * past the deadline already) makes the first `spend` read the clock, so that a query stops before
 * its first rows rather than after 4,096; work that spends nothing (a read by key) still runs.
 */
export function withBudget<T>(budget: QueryBudget | undefined, fn: () => T, expired = false): T {
  const previous = current
  if (
    budget !== undefined &&
    (previous === undefined || budget.deadline < previous.budget.deadline)
  )
    current = { budget, left: expired ? 0 : BUDGET_STEP, pausedBefore: paused }
  try {
    return fn()
  } finally {
    current = previous
  }
}

/** The current budget, if any. */
export function currentBudget(): QueryBudget | undefined {
  return current?.budget
}

/**
 * Counts `units` rows of work against the current budget; reads the clock every `BUDGET_STEP`
 * units and throws QueryBudgetExceeded (9090) past the deadline.
 */
export function spend(units: number): void {
  const c = current
  if (c === undefined) return
  c.left -= units
  if (c.left > 0) return
  c.left = BUDGET_STEP
  const now = c.budget.clock.now() - (paused - c.pausedBefore)
  if (now > c.budget.deadline) fail('QueryBudgetExceeded', [c.budget.ms])
}

/**
 * Runs `fn` outside the current budget: its work is not counted and its time is added to every
 * deadline in force. What the store passes its indexes for a build on first use: the query that
 * happens to need an index first must not be stopped for the time its build took (the next one
 * would not have paid it).
 */
export function outsideBudget(fn: () => void): void {
  const c = current
  if (c === undefined) return fn()
  const started = c.budget.clock.now()
  current = undefined
  try {
    fn()
  } finally {
    current = c
    paused += c.budget.clock.now() - started
  }
}
