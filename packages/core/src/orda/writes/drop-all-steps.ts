/**
 * @module A selection's drop as work in steps: what a transport runs in slices inside a
 * transaction open across its turns (transaction-steps.ts: the REST interface's
 * `$method=delete&$filter`), so that a `validateDrop` or `dropping` event that loops holds no
 * other client. Each entity is dropped as `dropEntities` drops it without `refused` (writes.ts):
 * one gone meanwhile, or hidden by the session's `restrict`, is passed over; the first refusal is
 * thrown, and the transaction around it, cancelled, drops nothing. Each one's events before its
 * drop run in steps (`beforeDropSteps`), its drop and `afterDrop` as `dropSteps` gives them
 * (`dropWritten`): the after-events at the transaction's validation.
 */
import type { Work } from '../../query/slices.js'
import { openTransaction } from '../calls/owners.js'
import { needDrop } from '../restrict/access-checks.js'
import { restrictionReady, visible } from '../restrict/restrict.js'
import { beforeDropSteps, eventsOf } from './entity-events.js'
import type { WrittenClass, WrittenEntity } from './written-class.js'
import { currentVersion, dropWritten } from './writes.js'

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
  if (openTransaction(dc.datastore) === undefined)
    throw new TypeError('dropAllSteps runs inside a transaction (transactionSteps)')
  needDrop(dc)
  yield* restrictionReady(dc)
  const events = eventsOf(dc)
  const restricted = dc.restrictFunction !== undefined
  let n = 0
  for (const e of entities) {
    const live = e && currentVersion(dc, e.key)
    if (!live || (restricted && !visible(dc, live.rowId))) continue
    if (n > 0) yield
    if (events) yield* beforeDropSteps(events, dc, live)
    dropWritten(dc, live.key, undefined, events, live)
    n++
  }
  return n
}
