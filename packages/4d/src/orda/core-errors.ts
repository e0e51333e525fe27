/**
 * @module The errors of core met by 4D code: a DatastoreError (an unknown attribute, a query that
 * does not parse, a read the session's privileges refuse) becomes a 4D error with the same
 * `errCode`, `componentSignature` and message, so that `Try`/`Catch`, `Last errors` and the REST
 * error stack see 4D's codes (core's table uses 4D's where 4D documents them: 1500, 1557, 1607…).
 */
import { DatastoreError } from '@entistore/core'
import { FourDError } from '../runtime/errors/fourd-error.js'

/** `e` as 4D code sees it: a DatastoreError as a FourDError, anything else as it is. */
export function fromCoreError(e: unknown): unknown {
  if (!DatastoreError.is(e)) return e
  // Core's read in slices unwinding to run again (core's read-in-steps.ts, a GET's): no error of
  // the code, and its driver must know it.
  if (e.name === 'QuerySuspended') return e
  return new FourDError(e.errCode, e.message, e.componentSignature, { cause: e })
}

/** Runs a call of core's API for 4D code: what core throws is thrown as a 4D error. */
export function viaCore<T>(fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    throw fromCoreError(e)
  }
}
