/**
 * @module The datastores this package makes, in memory: the core's `createDatastore` with the
 * approximate vector index (HNSW, when hnswlib-node is installed). Alone in its module, apart
 * from create-datastore.ts's `persist`, so that a start without a folder loads none of the
 * journal and snapshots: every module a start loads is start-up time.
 */
import {
  createDatastore,
  type DatastoreOptions,
  type DatastoreWith,
  type ModelSource,
} from '@entistore/core'
import { hnswIndexes } from '../vector-index/hnsw-index.js'

/** The core's `createDatastore`, with HNSW for the vector searches that ask for approximation. */
export function inMemoryDatastore(
  model: ModelSource,
  options: DatastoreOptions = {},
): DatastoreWith<string> {
  return createDatastore(model, { ...options, nearestIndex: options.nearestIndex ?? hnswIndexes() })
}
