/**
 * @module The query engine's Visibility (query/visibility.ts) over the dataclasses' `restrict`
 * events (restrict.ts): what the acting session may see of each dataclass, wherever a query, an
 * ordering or a query path reaches it through a relation.
 */
import type { Visibility } from '../../query/visibility.js'
import type { RestrictedDatastore } from './restricted-class.js'
import { restriction } from './restrict.js'

/**
 * The Visibility of `ds`, or undefined when none of its dataclasses has a `restrict` (its functions
 * are fixed when it is made): queries then ask nothing and pay nothing.
 */
export function restrictVisibility(ds: RestrictedDatastore): Visibility | undefined {
  if (!ds.restricting) return undefined
  return {
    rowsOf(name) {
      const dc = ds.findDataClass(name)
      return dc?.restrictFunction === undefined ? undefined : restriction(dc)
    },
  }
}
