/**
 * @module The one shape of every loop of the engine over rows, as work (slices.ts `Work`): steps
 * of BUDGET_STEP rows counted against the query budget, a stop after each, fewer rows between
 * stops where rows run user code, gone into where that code runs in steps; and a column made in
 * steps before a scan reads it.
 */
import type { Table } from '../store/table.js'
import { BUDGET_STEP, codeRunCount, spend } from './budget.js'
import { drivingScope, type Work } from './slices.js'
import { RowAnswers, runRows, stepOutsideRows } from '../schema/getter-calls.js'

/**
 * Runs `step(from, to)` over [0, length) in steps of BUDGET_STEP rows (fewer, `size`, where a row
 * costs more), each counted against the query budget first, stopping after each: the one shape of
 * every loop over rows, as work. `rowsRunCode`: its rows may call user code (see codeStep);
 * `stepped`: a getter with steps among it, whose call is gone into.
 */
export function* steps(
  length: number,
  step: (from: number, to: number) => void,
  size = BUDGET_STEP,
  rowsRunCode = false,
  stepped = false,
): Work<void> {
  for (let from = 0; from < length; from += size) {
    const to = Math.min(length, from + size)
    spend(to - from)
    if (rowsRunCode) yield* codeStep(from, to, step, stepped)
    else step(from, to)
    // Only between steps: a loop of one step (a small table) never stops.
    if (to < length) yield
  }
}

/** Rows between two stops of a step whose rows call user code (a computed attribute's getter). */
const CODE_ROWS = 8

/**
 * One step of a loop whose rows may call user code (`rowsRunCode`: a filter's or an ordering's
 * test of each row, which a computed attribute's getter may be), in runs: CODE_ROWS rows, then,
 * while a run calls no code, runs twice as long; a run that called code is followed by a stop
 * and a run of CODE_ROWS again. A getter that loops at each row could take a millisecond a row,
 * 4 s a step of 4,096, and the slice is measured only between stops. The rows of such a loop are
 * tested each on its own, so where it is cut changes nothing of the answer.
 *
 * Driven by a scope (its slices), the rows of a loop that calls a getter with steps (`stepped`: a
 * 4D project's, which its caller knows from its tests, keys or path) are run alone, one after the
 * other, so that one getter call stops too: it is gone into, and its row run again with the value
 * kept (schema/getter-calls.ts). A row alone costs a call of `step` (some 15 ns: a scan of 200,000
 * rows took 1.2–1.9× its time so): a loop whose rows call no such getter, and work run in one
 * piece, run a run in one call.
 */
function* codeStep(
  from: number,
  to: number,
  step: (from: number, to: number) => void,
  stepped: boolean,
): Work<void> {
  const alone = stepped && drivingScope() !== undefined ? new RowAnswers() : undefined
  let run = CODE_ROWS
  for (let at = from; at < to;) {
    const before = codeRunCount()
    const end = Math.min(to, at + run)
    if (alone === undefined) stepOutsideRows(step, at, end)
    else yield* rowsAlone(alone, step, at, end)
    at = end
    if (codeRunCount() === before) run *= 2
    else {
      run = CODE_ROWS
      if (at < to) yield
    }
  }
}

/**
 * Rows [from, to) of `step`, each run alone: the rest of a getter call in steps that stopped one
 * is run as work here (the slices stop inside its code), then the row runs again and finds its
 * value.
 */
function* rowsAlone(
  answers: RowAnswers,
  step: (from: number, to: number) => void,
  from: number,
  to: number,
): Work<void> {
  for (let at = from; at < to;) {
    at = runRows(answers, step, at, to)
    const call = answers.waiting
    answers.waiting = undefined
    if (call !== undefined) {
      // The call stopped once in its first step: a stop of the slice's, then the rest. Closed at
      // that stop (the read's work is dropped), it closes the call, whose `finally` blocks run
      // at once (a `Use` it is inside lets go of its lock); inside `yield*`, the close goes on.
      let going = false
      try {
        yield
        going = true
      } finally {
        if (!going) call.work.return(undefined)
      }
      call.keep(yield* call.work)
    }
  }
}

/**
 * The numeric or folded column of `name` (Table.numericColumn, foldedColumn) made in steps if it is
 * not made yet: a first scan of 10M rows otherwise made it in one piece, 200 ms and more. Outside
 * the query budget, as an index built on first use is (budget.ts): the next query would not pay it.
 */
export function* columnReady(table: Table, name: string, kind: 'numeric' | 'folded'): Work<void> {
  for (const _ of table.columnSteps(name, kind, BUDGET_STEP)) yield
}
