/**
 * @module The functions of 4D's Collection class as code calls them (`$c.push(1)`,
 * docs/API/CollectionClass.md), by name: `rt.call` looks a collection's member function up here.
 * Each receives the running context, the collection and the parameters. The collection and
 * object commands fill this table theme by theme; it holds what the compiler's own tests need.
 */
import { stored } from '../ops/members.js'
import type { Collection } from '../values/collection.js'
import type { Runtime } from '../context/runtime.js'

export type CollectionFunction = (rt: Runtime, self: Collection, args: unknown[]) => unknown

/** `.push(value {; …})`: appends the values, returns the collection. */
const push: CollectionFunction = (_rt, self, args) => {
  for (const v of args) self.items.push(v === undefined ? null : stored(v))
  return self
}

export const COLLECTION_FUNCTIONS: ReadonlyMap<string, CollectionFunction> = new Map([
  ['push', push],
])
