/** @module For tests: the DatastoreError a call throws (a fixture: not part of the built package). */
import { DatastoreError } from './datastore-error.js'

/** The error `fn` throws, which must be a DatastoreError; fails the test if it throws none. */
export function thrown(fn: () => unknown): DatastoreError {
  try {
    fn()
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw e
  }
  throw new Error('expected a DatastoreError')
}
