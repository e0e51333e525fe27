/**
 * @module The `entistore` package's `createDatastore`: the core's, plus `persist`, which keeps the
 * datastore in a folder (persist.ts). It shadows the core's in this package's exports, so that
 * `import { createDatastore } from 'entistore'` takes the option; without it, the two are the same.
 */
import {
  type BuiltModel,
  type DataClassName,
  type Datastore,
  type DatastoreOf,
  type DatastoreOptions,
  type DatastoreWith,
  type ModelJson,
  type ModelSource,
  type ModelTypes,
  type ModelTypesOf,
} from '@entistore/core'
import { Persistence } from './persist.js'
import type { PersistOptions } from './persist-options.js'
import { inMemoryDatastore } from './in-memory-datastore.js'
import { notePersistence } from './persistences.js'

export { persistenceOf } from './persistences.js'

export interface PersistentDatastoreOptions extends DatastoreOptions {
  /**
   * Keep the data in this folder: a journal of every commit, flushed before the commit returns,
   * and snapshots (docs/durability.md). When the folder holds data, it is loaded and `data` is
   * not; when it holds none, `data` is loaded and written as its first snapshot. A folder or
   * `{ dir, fsync, batchMs, snapshotEvery, … }`. @default none: in memory only
   */
  readonly persist?: string | PersistOptions
}

/**
 * The core's `createDatastore` (same overloads, same types), with the `persist` option.
 * @example
 * const ds = createDatastore(model, { data, persist: './data' })   // survives a restart, and kill -9
 * persistenceOf(ds)?.close()
 * @throws FileError for a persistence folder damaged in a way a crash cannot explain.
 */
export function createDatastore<M extends ModelTypes>(
  model: BuiltModel<M>,
  options?: PersistentDatastoreOptions,
): DatastoreOf<M>
export function createDatastore<J extends ModelJson>(
  model: J & (string extends DataClassName<ModelTypesOf<J>> ? never : unknown),
  options?: PersistentDatastoreOptions,
): DatastoreOf<ModelTypesOf<J>>
export function createDatastore<Names extends string = string>(
  model: ModelSource,
  options?: PersistentDatastoreOptions,
): DatastoreWith<Names>
export function createDatastore<M extends ModelTypes>(
  model: ModelSource,
  options?: PersistentDatastoreOptions,
): DatastoreOf<M>
export function createDatastore(
  model: ModelSource,
  options: PersistentDatastoreOptions = {},
): DatastoreWith<string> {
  const { persist, data, ...rest } = options
  if (persist === undefined) return inMemoryDatastore(model, options)
  const ds = inMemoryDatastore(model, rest)
  persistDatastore(ds, persist, data === undefined ? undefined : (d) => void d.loadData(data))
  return ds
}

/**
 * Keeps `ds`, new and empty, in the folder `persist`: what the folder holds is loaded into it, or
 * `initial(ds)` runs when it holds nothing (the data file's load). `persistenceOf(ds)` finds it.
 */
export function persistDatastore(
  ds: Datastore,
  persist: string | PersistOptions,
  initial?: (ds: Datastore) => void,
): Persistence {
  const persistence = Persistence.open(
    ds,
    typeof persist === 'string' ? { dir: persist } : persist,
    initial,
  )
  notePersistence(ds, persistence)
  // 4D's flushAndLock() flushes the datastore's cache: here, the journal's batch window.
  ds.onFlush(() => {
    if (persistence.state === 'open') persistence.flush()
  })
  return persistence
}
