/**
 * @module A transaction level as work in steps: what a transport runs in slices when the writes
 * inside it run code that stops (the REST interface's `$atomic` batch, whose entity events are 4D
 * code compiled to steps), so that an event that loops holds no other client there either.
 *
 * Its first level is one that stays open across awaits, as 4D's `startTransaction()` opens (txn/
 * transaction.ts, `id`): its process's own (processes.ts), so that between two of its steps the
 * other clients read the committed data; each entity it updates or drops is locked under it until
 * it ends (another's write is refused with EntityLocked, 9070, 4D's status 3); the row ids and
 * sequence values its new entities take are taken from the tables at once; and its validation
 * checks its writes again if anything was committed meanwhile (TransactionConflict, 9071). The
 * writes inside (write-steps.ts) see that it may stay open and run their events in steps.
 *
 * It ends whole either way: validated when the work ends (the after-events of its writes then
 * run in steps, after-commit.ts), cancelled when the work throws (a refused write, the request's
 * budget, 9410) or is stopped unfinished (`return()`), nothing of it applied. A request that ends
 * while it is still open has it cancelled too (its process ends).
 */
import type { EventHandlers } from '../../functions/registry.js'
import type { Work } from '../../query/slices.js'
import { writeInSteps } from './after-commit.js'
import { eventsOf } from './entity-events.js'
import { hasSetterSteps } from './setter-steps.js'
import type { WriteDatastore, WrittenClass } from './written-class.js'
import { newTransaction } from './writes.js'

/**
 * Runs `work` as one transaction level of the current process (nested in its open one, if any),
 * as `ds.transaction(fn)` runs `fn`: validated when it ends, cancelled if it throws or is left
 * unfinished, the error going on; the work must leave the levels as it found them (else a
 * TypeError, everything it opened cancelled). With `acrossAwaits` (the default) a first level
 * stays open between the work's steps (see the module note); without, it is `ds.transaction`'s
 * kind, whose writes do not stop, and the caller runs the work to its end at once.
 */
export function* transactionSteps<T>(
  ds: WriteDatastore,
  work: Work<T>,
  acrossAwaits = true,
): Work<T> {
  // The process is the async context's: the same at every step of a work run in turns.
  const state = ds.processes.current()
  const level = state.level
  state.start((id) => newTransaction(ds, id), acrossAwaits)
  let ended = false
  try {
    const result = yield* work
    ended = true
    // Validated; the after-events of its writes then run, in steps as a write's do.
    yield* writeInSteps(() => state.leave(level, 'a transaction in steps'))
    return result
  } finally {
    if (!ended) state.cancelTo(level)
  }
}

/**
 * Whether a write of `dc` runs code that may stop between steps: an entity event or a restrict
 * with `steps` (4D code's), or a computed attribute's setter with a steps form. A batch of writes of a dataclass without is one piece anyway, and
 * runs as `ds.transaction` runs it (what its cancellation gives back, sequence values included,
 * stays as it was).
 */
export function writesMayStop(dc: WrittenClass): boolean {
  if (dc.restrictFunction?.steps !== undefined || hasSetterSteps(dc.def)) return true
  const events = eventsOf(dc)
  if (events === undefined) return false
  return stops(events.entity) || [...events.attributes.values()].some(stops)
}

const stops = (handlers: EventHandlers | undefined): boolean =>
  handlers !== undefined && Object.values(handlers).some((fn) => fn?.steps !== undefined)
