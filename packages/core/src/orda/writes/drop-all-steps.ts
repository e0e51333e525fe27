/**
 * @module A selection's drop as work in steps: what a transport runs in slices inside a
 * transaction open across its turns (transaction-steps.ts), so that a `validateDrop` or
 * `dropping` event that loops holds no other client. Two kinds, as the plain drops (writes.ts):
 *
 * - `dropAllSteps`, `dropEntities` without `refused` (the REST interface's
 *   `$method=delete&$filter`): the first refusal is thrown, and the transaction around it,
 *   cancelled, drops nothing;
 * - `dropKeptSteps`, `dropKept` (4D's `entitySelection.drop()` in a REST call's code): a refused
 *   entity is kept and the others go on (up to the first with `stopOnFirstError`); it opens its
 *   own transaction level.
 *
 * One gone meanwhile is passed over, as is, for `dropAllSteps`, one hidden by the session's
 * `restrict` (`dropKeptSteps` keeps it, as `dropKept` does). Each one's events before its drop run
 * in steps (`beforeDropSteps`), its drop and `afterDrop` as `dropSteps` gives them
 * (`dropWritten`): the after-events at the transaction's validation.
 */
import type { Work } from '../../query/slices.js'
import { isWriteRefusal } from '../../txn/save-status.js'
import { DatastoreError } from '../../errors/datastore-error.js'
import { openTransaction } from '../calls/owners.js'
import { needDrop } from '../restrict/access-checks.js'
import { restrictionReady, visible } from '../restrict/restrict.js'
import { beforeDropSteps, eventsOf } from './entity-events.js'
import { transactionSteps, writesMayStop } from './transaction-steps.js'
import type { WrittenClass, WrittenEntity } from './written-class.js'
import { currentVersion, dropKept, dropWritten } from './writes.js'

/**
 * Drops every entity of `entities` that still exists, each in turn, in the transaction the
 * caller opened (`transactionSteps`); returns how many were dropped. A step between two drops,
 * and the events' own. Outside a transaction, a TypeError: each drop would commit on its own,
 * and a refusal would leave the drops before it done.
 */
export function* dropAllSteps(
  dc: WrittenClass,
  entities: Iterable<WrittenEntity | null>,
): Work<number> {
  // Asked at its first step: the caller makes the work, then opens the transaction around it.
  if (openTransaction(dc.datastore) === undefined)
    throw new TypeError('dropAllSteps runs inside a transaction (transactionSteps)')
  return yield* dropEach(dc, entities)
}

/**
 * `dropKept` (4D's `entitySelection.drop(mode?)`) as work in steps: the row ids of the entities a
 * refusal kept (a lock, an event, the session's restrict), up to the first with
 * `stopOnFirstError`; the others dropped, in a transaction level of its own validated at the end.
 * Refused as a whole (no permission), nothing is dropped: every entity's row. The budget's end
 * (or any other error) is no refusal of one entity: it cancels them all, and goes on. Where no
 * event or restrict of `dc` may stop, or inside a transaction that ends within its caller's step
 * (`ds.transaction(fn)`), the plain `dropKept`, at once.
 */
export function* dropKeptSteps(
  dc: WrittenClass,
  entities: Iterable<WrittenEntity>,
  stopOnFirstError: boolean,
): Work<number[]> {
  if (!writesMayStop(dc) || openTransaction(dc.datastore)?.acrossAwaits === false)
    return dropKept(dc, entities, stopOnFirstError)
  const kept: number[] = []
  const refused = (e: WrittenEntity): boolean => {
    kept.push(e.rowId)
    return !stopOnFirstError
  }
  try {
    yield* transactionSteps(dc.datastore, dropEach(dc, entities, refused))
  } catch (error) {
    if (!refusal(error)) throw error
    return Array.from(entities, (e) => e.rowId)
  }
  return kept
}

// A refusal of a write (writes.ts `isWriteRefusal`), but not the budget's end: in a call in steps,
// that ends the call, and a drop it stopped is cancelled whole.
const refusal = (error: unknown): boolean =>
  isWriteRefusal(error) && !(DatastoreError.is(error) && error.name === 'QueryBudgetExceeded')

/**
 * The live entities of `entities` dropped in turn in the open transaction, a step between two:
 * `refused` told of each one a refusal keeps (the entity hidden by the restrict included), and
 * false from it stops; without it, the first refusal is thrown and the hidden are passed over.
 */
function* dropEach(
  dc: WrittenClass,
  entities: Iterable<WrittenEntity | null>,
  refused?: (entity: WrittenEntity) => boolean,
): Work<number> {
  needDrop(dc)
  yield* restrictionReady(dc)
  const events = eventsOf(dc)
  const restricted = dc.restrictFunction !== undefined
  let n = 0
  let tried = 0
  for (const e of entities) {
    const live = e && currentVersion(dc, e.key)
    if (!live) continue
    if (restricted && !visible(dc, live.rowId)) {
      if (refused && !refused(live)) break
      continue
    }
    if (tried++ > 0) yield
    try {
      if (events) yield* beforeDropSteps(events, dc, live)
      dropWritten(dc, live.key, undefined, events, live)
    } catch (error) {
      // A refused drop stages nothing of its own: the transaction goes on with the others.
      if (!refused || !refusal(error)) throw error
      if (!refused(live)) break
      continue
    }
    n++
  }
  return n
}
