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
 * context: the copy of a collection of millions of objects ends at the budget with 9410. Written
 * as steps too (`copySteps`, values/work.ts): a call in slices may stop between two values, the
 * copy seen by nobody before it is whole.
 */
import { Collection } from '../values/collection.js'
import { isPlainObject, kindOf, newObject } from '../values/kinds.js'
import { BlobObject } from '../values/blob-object.js'
import { FourDFunction } from './function-object.js'
import { isClassInstance } from './instance-mark.js'
import { markShared } from '../values/shared.js'
import { UNCOUNTED, type Passes } from '../values/passes.js'
import type { Work } from '../values/work.js'
import { rebuild, rebuildSteps, type Open } from '../values/rebuild.js'

export function deepCopy(v: unknown, shared = false, rt: Passes = UNCOUNTED): unknown {
  const seen = new Map<object, unknown>()
  return rebuild(v, rt, (x, open) => copied(x, shared, seen, open))
}

/**
 * `deepCopy` as steps (values/work.ts), each value a pass of the budget's and a place to stop
 * (values/rebuild.ts). An object or collection met again is given its copy.
 */
export function copySteps(v: unknown, shared = false, rt: Passes = UNCOUNTED): Work<unknown> {
  const seen = new Map<object, unknown>()
  return rebuildSteps(v, rt, (x, open) => copied(x, shared, seen, open))
}

/**
 * The copy of `v`: itself when it cannot change, an object or collection met before its copy, a
 * new one made empty (its members to copy opened), or Null for an object of the host.
 */
function copied(v: unknown, shared: boolean, seen: Map<object, unknown>, open: Open): unknown {
  if (typeof v !== 'object' || v === null) return v
  const done = seen.get(v)
  if (done !== undefined) return done
  if (v instanceof Collection) {
    const c = new Collection([])
    seen.set(v, c)
    open(v.items, undefined, c)
    return shared ? markShared(c) : c
  }
  if (kindOf(v) !== 'object') return v // a date or a time: immutable
  // A function, and a 4D.Blob (not alterable: the copy may share it).
  if (v instanceof FourDFunction || v instanceof BlobObject) return v
  if (!isPlainObject(v) && !isClassInstance(v)) return null
  const o = newObject()
  seen.set(v, o)
  open(v as Record<string, unknown>, Object.keys(v), o)
  return shared ? markShared(o) : o
}
