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
import type { Work } from '../../values/work.js'
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
 * `.equal()` as steps (values/work.ts): the same elements in the same order, compared deeply;
 * texts equal when they fold alike (no wildcard), or exactly with `diacritical`. A Null property
 * is not an Undefined one. Each pair of values compared is a pass of `rt`'s budget
 * (context/budget.ts), with a stop where the ticks run out.
 *
 * The pairs are gone through in one loop, the collections and objects being compared kept on a
 * stack (a generator a level cost `.equal()` of many small objects twice the time). A value that
 * holds itself would be gone into without end: past DEPTH levels it fails as the call stack's
 * overflow of a recursive comparison did.
 */
export function* equalSteps(
  rt: Passes,
  a: unknown,
  b: unknown,
  diacritical: boolean,
): Work<boolean> {
  const levels: Level[] = []
  let x = a
  let y = b
  for (;;) {
    if (--rt.ticks < 0) {
      rt.tick()
      yield
    }
    const same = sameValue(x, y, diacritical)
    if (same === false) return false
    if (same === undefined) {
      const level = levelOf(x, y)
      if (level === undefined) return false
      if (levels.length === DEPTH) throw new RangeError('Maximum call stack size exceeded')
      levels.push(level)
    }
    // The next pair: of the innermost level not gone through.
    let top = levels[levels.length - 1]
    while (top !== undefined && top.at === top.length) {
      levels.pop()
      top = levels[levels.length - 1]
    }
    if (top === undefined) return true
    const k = top.keys === undefined ? top.at : top.keys[top.at]!
    top.at++
    x = (top.x as Record<string | number, unknown>)[k]
    y = (top.y as Record<string | number, unknown>)[k]
  }
}

// Levels of collections and objects nested in one another that `.equal()` goes into.
const DEPTH = 10_000

/** Two collections, or two objects, whose members are being compared: the next at `at`. */
interface Level {
  readonly x: unknown
  readonly y: unknown
  /** An object's keys; a collection's members are its elements. */
  readonly keys: readonly string[] | undefined
  readonly length: number
  at: number
}

/**
 * The level of two collections or two objects; undefined when their members differ in number
 * or keys.
 */
function levelOf(a: unknown, b: unknown): Level | undefined {
  if (a instanceof Collection) {
    const x = a.items
    const y = (b as Collection).items
    return x.length === y.length ? { x, y, keys: undefined, length: x.length, at: 0 } : undefined
  }
  const y = b as Record<string, unknown>
  const keys = Object.keys(a as Record<string, unknown>)
  if (keys.length !== Object.keys(y).length || !keys.every((k) => Object.hasOwn(y, k)))
    return undefined
  return { x: a, y, keys, length: keys.length, at: 0 }
}

/**
 * Whether two values are equal, when that is known without looking into them: undefined for two
 * collections, or two objects, whose members must be compared.
 */
function sameValue(a: unknown, b: unknown, diacritical: boolean): boolean | undefined {
  if (a === b) return true
  if (typeof a === 'string' && typeof b === 'string')
    return diacritical ? false : fold(a) === fold(b)
  if (typeof a === 'number' && typeof b === 'number') return numbersEqual(a, b)
  if (a instanceof DateValue && b instanceof DateValue) return a.equals(b)
  if (a instanceof Collection && b instanceof Collection) return undefined
  if (a instanceof Collection || b instanceof Collection) return false
  if (!isReference(a) || !isReference(b)) return false
  return undefined
}
