/**
 * @module Property paths of the collection functions (`"phones.p1"` in `.orderBy()`, `.sum()`,
 * `.extract()`…): a path reads through objects, as object notation does, and gives Undefined
 * where a step is missing or is not an object, instead of the error `$o.a.b` raises on Null.
 */
import { get, set } from '../../ops/members.js'
import { Collection } from '../../values/collection.js'
import { isReference, newObject } from '../../values/kinds.js'

/** The steps of a path written with dots. */
export const pathSteps = (path: string): readonly string[] => path.split('.')

/** The value at `steps` from `v`, or Undefined. */
export function readPath(v: unknown, steps: readonly string[]): unknown {
  let cur = v
  for (const step of steps) {
    if (cur instanceof Collection) {
      if (step !== 'length') return undefined
      cur = cur.length
    } else if (isReference(cur)) cur = get(cur, step)
    else return undefined
  }
  return cur
}

/** Writes `value` at `steps` in `o`, making the objects of the path that are missing. */
export function writePath(
  o: Record<string, unknown>,
  steps: readonly string[],
  value: unknown,
): void {
  let cur = o
  for (const step of steps.slice(0, -1)) {
    let next = get(cur, step)
    if (!isReference(next) || next instanceof Collection) {
      next = newObject()
      set(cur, step, next)
    }
    cur = next as Record<string, unknown>
  }
  set(cur, steps[steps.length - 1]!, value)
}
