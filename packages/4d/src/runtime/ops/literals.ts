/**
 * @module Object and collection literals (`{a: 1; b: $x}`, `[1; 2; $x]`, dt_object.md and
 * dt_collection.md): each value stored as an assignment stores it (members.ts), so a Time becomes
 * its seconds, an Undefined property is not created and an Undefined element is Null.
 */
import { Collection } from '../values/collection.js'
import { newObject } from '../values/kinds.js'
import { set, stored } from './members.js'

/** `{name1: value1; name2: value2…}`, the names and values alternating. */
export function objectOf(...pairs: unknown[]): Record<string, unknown> {
  const o = newObject()
  for (let i = 0; i + 1 < pairs.length; i += 2) set(o, String(pairs[i]), pairs[i + 1])
  return o
}

/** `[value1; value2…]`. */
export function collectionOf(...items: unknown[]): Collection {
  return new Collection(items.map((v) => (v === undefined ? null : stored(v))))
}
