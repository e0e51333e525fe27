/**
 * @module Which datastore a folder keeps: `persistenceOf(ds)`, alone in its module so that a server
 * asks it without loading the journal, the snapshots and their frames (persist.ts and the modules
 * under it), which a start without `--persist` never uses: every module is start-up time.
 */
import type { Datastore } from '@entistore/core'
import type { Persistence } from './persist.js'

const persistences = new WeakMap<Datastore, Persistence>()

/**
 * The persistence of a datastore made with `persist`: its folder, what start-up found
 * (`recovery`), `snapshot()`, `flush()`, `close()`. Undefined for an in-memory datastore.
 */
export function persistenceOf(ds: Datastore): Persistence | undefined {
  return persistences.get(ds)
}

/** Notes that `persistence` keeps `ds` (persistDatastore, once it is open). */
export function notePersistence(ds: Datastore, persistence: Persistence): void {
  persistences.set(ds, persistence)
}
