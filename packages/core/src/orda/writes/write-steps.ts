/**
 * @module Writes as work in steps: what a transport runs in slices (core's `workInTurns`: the REST
 * interface's saves and drops), so that a restrict or an entity event that loops holds no other
 * client. The code of a `restrict` and of the events before a write (`validateSave`, `saving`,
 * `validateDrop`, `dropping`) runs in steps where it can (code compiled from 4D: their `steps`),
 * and the work gives the write, to run once they are done, in one piece. The entity's stamp is
 * checked when the write runs: another write of it between two steps refuses this one
 * (StampChanged) when it is checked, as in any optimistic save; one unchecked writes its values
 * over the entity as it is then. The `constructor` and `touched` events, run while the draft is
 * made, go in steps as well; the after-events (`afterSave`, `afterDrop`) run once the write has
 * committed, in steps when the caller runs the write with `writeInSteps` (after-commit.ts), at
 * once otherwise. The setters of the computed attributes a write names (`Function set`) are
 * called in steps last, before the write, which finds their answers (setter-steps.ts). Inside a
 * transaction that ends within its caller's step (`ds.transaction(fn)`), nothing waits: the write
 * is the plain one. Inside one that stays open across awaits (4D's `startTransaction()`, an
 * `$atomic` batch: transaction-steps.ts) the events go in steps too: the transaction is its
 * process's own, the others read the committed data between two steps and are refused what it
 * wrote (EntityLocked).
 */
import type { KeyValue } from '../../store/entity-record.js'
import type { Assignments, WriteCheck } from '../../txn/transaction.js'
import type { Work } from '../../query/slices.js'
import { attemptWrite, type WriteResult } from '../../txn/save-status.js'
import { openTransaction } from '../calls/owners.js'
import { needDrop, needWrite } from '../restrict/access-checks.js'
import { restrictionReady } from '../restrict/restrict.js'
import { beforeDropSteps, eventsOf } from './entity-events.js'
import { writeInSteps } from './after-commit.js'
import { namesSetterSteps, settersAhead } from './setter-steps.js'
import type { WrittenClass, WrittenEntity } from './written-class.js'
import { createEntity, dropEntity, dropWritten, updateEntity, writeTarget } from './writes.js'

/**
 * A create (`key` undefined) or an update of `dc` as work in steps: the restrict an update asks
 * and the events before the write in steps, then the write it gives (its check included), with
 * `afterSave` once committed. Without events, the plain write.
 */
export function* saveSteps(
  dc: WrittenClass,
  key: KeyValue | undefined,
  values: Assignments,
  check?: WriteCheck,
): Work<() => WrittenEntity> {
  // The restrict an update asks first (outside it, 1542), its answer made ahead in steps, once
  // the write is known to be allowed (as updateEntity asks, a refusal comes first).
  if (key !== undefined && dc.restrictFunction?.steps !== undefined) {
    needWrite(dc, values, false)
    yield* restrictionReady(dc)
  }
  const plain =
    key === undefined ? () => createEntity(dc, values) : () => updateEntity(dc, key, values, check)
  if (openTransaction(dc.datastore)?.acrossAwaits === false) return plain
  const events = eventsOf(dc)
  if (events === undefined && !namesSetterSteps(dc.def, values)) return plain
  // As createEntity and updateEntity ask, before any event or setter runs.
  needWrite(dc, values, key === undefined)
  const base = key === undefined ? null : writeTarget(dc, key, true)
  // No such entity: the write answers it (1542).
  if (base === undefined) return plain
  if (events === undefined) {
    // A stamp the write refuses (1263) is answered before any setter runs, as the write answers it.
    const stale = base !== null && check?.stamp !== undefined && base.stamp !== check.stamp
    return stale ? plain : yield* settersAhead(dc, values, base, plain)
  }
  // The draft made `later`: its constructor and touched events in steps too.
  const draft = yield* dc.draft(base, undefined, true).madeSteps(values)
  // Its setters in steps last (entity-draft.ts `prepareSave`).
  return yield* draft.prepareSave(key === undefined ? undefined : check)
}

/**
 * `dropEntity` as work in steps, as `saveSteps`: `validateDrop` and `dropping` in steps where
 * they can, then the drop it gives (and `afterDrop`), in one piece.
 */
export function* dropSteps(dc: WrittenClass, key: KeyValue, check?: WriteCheck): Work<() => void> {
  needDrop(dc)
  yield* restrictionReady(dc)
  const events = eventsOf(dc)
  const entity =
    events === undefined || openTransaction(dc.datastore)?.acrossAwaits === false
      ? undefined
      : writeTarget(dc, key, true)
  // No events, or no such entity (the drop answers it: 1542).
  if (entity === undefined) return () => dropEntity(dc, key, check)
  yield* beforeDropSteps(events!, dc, entity)
  return () => dropWritten(dc, key, check, events, entity)
}

/**
 * `attemptWrite` of work in steps that gives its write: a refusal, met in a step (an event's) or
 * by the write, answers as the plain write's does (a WriteResult); anything else is thrown. The
 * write's after-events then run in steps (`writeInSteps`).
 */
export function* attemptWriteSteps(work: Work<() => unknown>): Work<WriteResult> {
  let write: () => unknown
  try {
    write = yield* work
  } catch (error) {
    return attemptWrite(() => {
      throw error
    })
  }
  return yield* writeInSteps(() => attemptWrite(write))
}
