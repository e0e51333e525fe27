// detached(): code that runs later on its own, as a 4D worker's job, carries nothing of the code
// that scheduled it: not its Actor, not its call, not its transaction.
import { describe, expect, it } from 'vitest'
import { actingNow, runActor } from '../../access/acting.js'
import type { Actor } from '../../access/actor.js'
import { storeFixture } from '../objects/datastore.fixture.js'
import { detached } from './detached.js'

describe('detached', () => {
  it('runs outside the Actor and the transaction of the code around it', async () => {
    const { ds } = storeFixture()
    const actor = { scope: ds } as unknown as Actor
    let seen: unknown[] = []
    let later: Promise<unknown[]> = Promise.resolve([])
    runActor(actor, () => {
      ds.startTransaction()
      seen = [actingNow() === actor, ds.transactionLevel()]
      const inside = detached(() => [actingNow(), ds.transactionLevel()])
      // What it schedules is detached too: a timer made inside, as a worker's drain is.
      later = new Promise((resolve) =>
        detached(() => setTimeout(() => resolve([actingNow(), ds.transactionLevel()]), 0)),
      )
      seen.push(...inside)
      ds.cancelTransaction()
    })
    expect(seen).toEqual([true, 1, undefined, 0])
    expect(await later).toEqual([undefined, 0])
  })
})
