/**
 * @module The deep copy of `OB Copy` (docs/commands/ob-copy.md) and `.copy()`
 * (docs/API/CollectionClass.md): objects and collections inside are copied, so the copy shares no
 * reference with the original. A class instance is copied as a plain object of its own
 * properties (it "loses its class", as JSON does); a Formula is kept as it is (a function object
 * cannot change); any other object of the host — an entity, a selection, a datastore — is Null
 * ("Datastore, dataclass, and entity objects are not copiable. If .copy() is called with them,
 * Null values are returned"). With `shared`, every object and collection of the copy is shared.
 * An object that contains itself is copied once, the copy pointing to its own copy.
 *
 * It lives with the function and class objects (context/): it keeps a function object as it is,
 * and a class copies a shared property's value with it when it constructs.
 *
 * Each value copied is a pass of the budget's (budget.ts) when the caller gives its running
 * context: the copy of a collection of millions of objects ends at the budget with 9410.
 */
import { Collection } from '../values/collection.js'
import { isPlainObject, kindOf, newObject } from '../values/kinds.js'
import { BlobObject } from '../values/blob-object.js'
import { FourDFunction } from './function-object.js'
import { isClassInstance } from './instance-mark.js'
import { markShared } from '../values/shared.js'
import { UNCOUNTED, type Passes } from '../values/passes.js'

export function deepCopy(v: unknown, shared = false, rt: Passes = UNCOUNTED): unknown {
  return copyOf(v, shared, new Map(), rt)
}

function copyOf(v: unknown, shared: boolean, seen: Map<object, unknown>, rt: Passes): unknown {
  if (--rt.ticks < 0) rt.tick()
  if (typeof v !== 'object' || v === null) return v
  const done = seen.get(v)
  if (done !== undefined) return done
  if (v instanceof Collection) {
    const c = new Collection([])
    seen.set(v, c)
    for (const item of v.items) c.items.push(copyOf(item, shared, seen, rt))
    return shared ? markShared(c) : c
  }
  if (kindOf(v) !== 'object') return v // a date or a time: immutable
  // A function, and a 4D.Blob (not alterable: the copy may share it).
  if (v instanceof FourDFunction || v instanceof BlobObject) return v
  if (!isPlainObject(v) && !isClassInstance(v)) return null
  const o = newObject()
  seen.set(v, o)
  for (const key of Object.keys(v)) {
    const item = copyOf((v as Record<string, unknown>)[key], shared, seen, rt)
    if (key === '__proto__')
      Object.defineProperty(o, key, {
        value: item,
        writable: true,
        enumerable: true,
        configurable: true,
      })
    else o[key] = item
  }
  return shared ? markShared(o) : o
}
