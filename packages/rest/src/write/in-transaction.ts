/**
 * @module How a write request that runs in one transaction (an `$atomic` batch, an `$atomic`
 * delete, a `$refresh`) is driven: in turns when the dataclass's writes run code that may stop
 * (4D's entity events, a restrict in steps), so that an event that loops holds no other client,
 * its transaction one that stays open across the turns (core's `transactionInSteps`: the
 * request's own; the other clients read the committed data meanwhile and are refused what it
 * wrote); else at once, its transaction `ds.transaction`'s kind, as before.
 */
import { finishWork, workInTurns, writesMayStop, type DataClass, type Work } from '@entistore/core'
import type { Answer, Reply } from '../reply.js'

/**
 * The reply of `steps(acrossTurns)`, work that runs its writes in `transactionInSteps(ds, …,
 * acrossTurns)`: in turns when `acrossTurns`, else to its end now.
 */
export function inTransaction(dc: DataClass, steps: (acrossTurns: boolean) => Work<Reply>): Answer {
  const acrossTurns = writesMayStop(dc)
  const work = steps(acrossTurns)
  return acrossTurns ? workInTurns(work, dc.datastore.clock) : finishWork(work)
}
