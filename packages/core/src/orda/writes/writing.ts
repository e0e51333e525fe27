/**
 * @module The datastore of the write being made now. Code core calls inside a write that has no
 * entity to ask (a computed attribute's set function for a create, whose `this` is null: a 4D
 * project's setter, which runs on its datastore's project state) finds it here, whoever acts: a
 * REST request of a project without roles writes as no actor. A write runs in one synchronous
 * piece, so one slot, given back on return or throw, follows it.
 */
let writing: object | undefined

/** Runs `fn` as a write of `ds` (see the module note). */
export function writingOn<T>(ds: object, fn: () => T): T {
  const before = writing
  writing = ds
  try {
    return fn()
  } finally {
    writing = before
  }
}

/** @internal The datastore of the write being made now, if any. */
export const writingDatastore = (): object | undefined => writing
