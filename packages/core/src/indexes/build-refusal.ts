/**
 * @module Builds refused in one piece: where a read runs inside `refusingBuilds` or `withoutUnbuilt`,
 * an index (or a table's key order) too large to build at once is not built there: the read throws
 * IndexBuilding (9143) and waits for the build in slices, or reads as if the index were absent.
 */
import { fail } from '../errors/datastore-error.js'

// How deep the callers are that refuse builds in one piece (`refusingBuilds`).
export let refusing = 0

/**
 * Runs `fn` where a query that needs an unbuilt index throws IndexBuilding (9143) rather than
 * building it in one piece (`of`): the caller waits for the build in slices (`IndexSet.step`,
 * driven by the datastore) and runs `fn` again. Only for work that may run twice (reads). A
 * table of up to 16k row ids is still built at once (about 10 ms): a wait would cost more.
 */
/** Whether the work running now refuses builds in one piece (inside `refusingBuilds`). */
export const buildsRefused = (): boolean => refusing > 0

/**
 * Throws IndexBuilding (9143) for the index of `dataClass`.`attribute` (the key: the rows' key
 * order), with what the waiting caller needs in its details.
 */
export function refuseBuild(dataClass: string, attribute: string): never {
  return fail('IndexBuilding', [dataClass, attribute], {
    details: { retryAfter: 1, dataClass, attribute },
  })
}

export function refusingBuilds<T>(fn: () => T): T {
  refusing++
  try {
    return fn()
  } finally {
    refusing--
  }
}

// Inside `withoutUnbuilt`: told of each unbuilt index asked for, which then reads as absent.
export let onUnbuilt: ((dataClass: string, attribute: string) => void) | undefined

/**
 * Runs `fn` where an index not yet built (of a table too large to build at once) is as if it were
 * not declared: a query scans instead (in slices, where a slice scope runs it), an ordering sorts,
 * and `unbuilt(dataClass, attribute)` is told, so that the build is put first. Only for reads.
 */
export function withoutUnbuilt<T>(
  unbuilt: (dataClass: string, attribute: string) => void,
  fn: () => T,
): T {
  const previous = onUnbuilt
  onUnbuilt = unbuilt
  refusing++
  try {
    return fn()
  } finally {
    refusing--
    onUnbuilt = previous
  }
}
