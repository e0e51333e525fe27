/**
 * @module When an element is the value searched (`.indexOf()`, `.includes()`, `.countValues()`:
 * "the same rules as for the equality operator of the data type"), and when two collections are
 * equal (`.equal()`, a deep comparison).
 *
 * An element matches a value of its own type by 4D's `=` (texts folded, the searched text's `@` a
 * wildcard: `.indexOf("al@")` finds "Albert"; numbers within the epsilon; dates by day), Null
 * matches Null, objects and collections by reference; values of different types never match
 * (no error, as the search just goes on).
 */
import { fold } from '@entistore/core'
import type { Passes } from '../../values/passes.js'
import { Collection } from '../../values/collection.js'
import { DateValue } from '../../values/date-value.js'
import { isReference } from '../../values/kinds.js'
import { numbersEqual } from '../../values/numbers.js'
import { textEquals } from '../../values/text-compare.js'

export function sameElement(element: unknown, search: unknown): boolean {
  switch (typeof search) {
    case 'string':
      return typeof element === 'string' && textEquals(element, search)
    case 'number':
      return typeof element === 'number' && numbersEqual(element, search)
    case 'boolean':
      return element === search
    case 'undefined':
      return element === undefined || element === null
    default:
      if (search === null) return element === null || element === undefined
      if (search instanceof DateValue) return element instanceof DateValue && element.equals(search)
      return element === search
  }
}

/**
 * `.equal()`: the same elements in the same order, compared deeply; texts equal when they fold
 * alike (no wildcard), or exactly with `diacritical`. A Null property is not an Undefined one.
 * Each pair of values compared is a pass of `rt`'s budget (context/budget.ts).
 */
export function deepEqual(a: unknown, b: unknown, diacritical: boolean, rt: Passes): boolean {
  if (--rt.ticks < 0) rt.tick()
  if (a === b) return true
  if (typeof a === 'string' && typeof b === 'string')
    return diacritical ? false : fold(a) === fold(b)
  if (typeof a === 'number' && typeof b === 'number') return numbersEqual(a, b)
  if (a instanceof DateValue && b instanceof DateValue) return a.equals(b)
  if (a instanceof Collection && b instanceof Collection)
    return (
      a.length === b.length && a.items.every((x, i) => deepEqual(x, b.items[i], diacritical, rt))
    )
  if (a instanceof Collection || b instanceof Collection) return false
  if (!isReference(a) || !isReference(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) &&
      deepEqual(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        diacritical,
        rt,
      ),
  )
}
