/**
 * @module Errors of what an application's function answered (a computed attribute's `query`,
 * `orderBy` or `set`): the error keeps its code, and its message says which function the answer
 * came from, so that a refusal of what the answer reads or writes names both.
 */
import { DatastoreError } from './datastore-error.js'

/**
 * Runs `fn` (parsing, binding or checking what `where`, a function, returned): a DatastoreError it
 * throws keeps its code and ends `(in what <where> returned)`.
 */
export function fromFunction<T>(where: string, fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    if (!DatastoreError.is(e) || e.message.includes(where)) throw e
    throw new DatastoreError(e.name, `${e.message} (in what ${where} returned)`, {
      details: e.details,
    })
  }
}
