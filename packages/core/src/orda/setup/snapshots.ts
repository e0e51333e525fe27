/**
 * @module `ds.restore(snapshot)`: the store's data put back (store/data-snapshot.ts), and what
 * refers to rows by row id or to entities by key cleared with it. Entity sets go, since row ids run
 * again from the snapshot's and would name other entities; locks go, since the entities they
 * guard may be gone or be other versions. Sessions stay: they are not data (the test fixture
 * closes them itself).
 */
import type { DataSnapshot } from '../../store/data-snapshot.js'
import type { Store } from '../../store/store.js'
import type { CallDatastore } from '../calls/call-datastore.js'
import { openTransaction } from '../calls/owners.js'

/**
 * What a restore clears of a datastore: named by these members, which the Datastore has, and not
 * by its class, which restores through this file.
 */
export interface RestoredDatastore extends CallDatastore {
  readonly store: Store
  readonly entitySets: CallDatastore['entitySets'] & { clear(): void }
  readonly locks: { clear(): void }
  readonly processes: CallDatastore['processes'] & { restored(): void }
}

export function restoreSnapshot(ds: RestoredDatastore, snapshot: DataSnapshot): void {
  // Inside a transaction, staged writes name row ids and stamps the restore would pull away.
  if (openTransaction(ds))
    throw new Error('ds.restore: a transaction is open (restore outside of any transaction)')
  ds.store.restore(snapshot)
  ds.entitySets.clear()
  ds.locks.clear()
  // Another process's open transaction staged writes over data that is gone: it cannot validate.
  ds.processes.restored()
}
