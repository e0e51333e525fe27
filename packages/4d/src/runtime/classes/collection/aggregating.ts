/**
 * @module The collection functions that reduce a collection to a value
 * (docs/API/CollectionClass.md): `.sum()`, `.average()`, `.min()`, `.max()`, `.reduce()`,
 * `.reduceRight()`, `.join()`, `.distinct()`, `.equal()`.
 *
 * - `.sum()` and `.average()` count the numbers only (of the elements, or at `propertyPath`);
 *   with none, `.sum()` is 0 and `.average()` Undefined.
 * - `.min()` and `.max()` are the first and the last value in `.sort()`'s order; Null values (and
 *   elements without the property) are left out, Undefined for an empty collection.
 * - `.join()` writes each element as `String` does (Null as "null"), an object or a collection as
 *   its JSON; `ck ignore null or empty` leaves out Null and "".
 * - `.distinct()` keeps the first of each group of equal values (texts folded, or exactly with
 *   `ck diacritical`; numbers and dates by value), sorted in `.sort()`'s order, Null left out;
 *   objects and collections are distinct by reference. `ck count values` gives `{value; count}` objects.
 *
 * Each element gone through, each comparison of `.distinct()`'s sort and each value `.equal()`
 * compares is a pass of the budget's (context/budget.ts): one call over millions of elements ends
 * at the budget with 9410.
 */
import { fold } from '@entistore/core'
import { optionalInteger, textArg } from '../../arguments/arguments.js'
import { toText } from '../../convert/conversions.js'
import { stringify } from '../../convert/json.js'
import { BLOCK, countedCompare, spend, type Passes } from '../../values/passes.js'
import type { Runtime } from '../../context/runtime.js'
import { objectOf } from '../../ops/literals.js'
import { Collection } from '../../values/collection.js'
import { isReference } from '../../values/kinds.js'
import { DateValue } from '../../values/date-value.js'
import { callbackOf, elementParam, stopped } from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { deepEqual } from './equality.js'
import { compareValues } from './order.js'
import { pathSteps, readPath } from './paths.js'

const IGNORE_NULL_OR_EMPTY = 1
const DIACRITICAL = 8
const COUNT_VALUES = 32

/** The values of the elements, or at `path` when one is given. */
function valuesAt(rt: Passes, self: Collection, fn: string, path: unknown): readonly unknown[] {
  if (path === undefined) return self.items
  const steps = pathSteps(textArg(`.${fn}()`, 'propertyPath', path))
  return self.items.map((item) => {
    if (--rt.ticks < 0) rt.tick()
    return readPath(item, steps)
  })
}

/** The sum of the numbers among `values` and how many there are (no array of them made). */
function sumOfNumbers(rt: Passes, values: readonly unknown[]): { sum: number; count: number } {
  let sum = 0
  let count = 0
  const n = values.length
  for (let i = 0; i < n;) {
    const end = Math.min(n, i + BLOCK)
    spend(rt, end - i)
    for (; i < end; i++) {
      const v = values[i]
      if (typeof v === 'number') {
        sum += v
        count++
      }
    }
  }
  return { sum, count }
}

function extreme(rt: Passes, values: readonly unknown[], last: boolean): unknown {
  let best: unknown = undefined
  for (const v of values) {
    if (--rt.ticks < 0) rt.tick()
    if (v === null || v === undefined) continue
    if (best === undefined) best = v
    else {
      const c = compareValues(v, best)
      if (last ? c >= 0 : c < 0) best = v
    }
  }
  return best
}

function reduce(
  rt: Runtime,
  self: Collection,
  fn: string,
  args: unknown[],
  right: boolean,
): unknown {
  const [formula, initValue, ...extra] = args
  const cb = callbackOf(rt, `.${fn}()`, formula, extra)
  let accumulator = initValue
  const items = self.items
  for (let k = 0; k < items.length; k++) {
    const param = elementParam(items[right ? items.length - 1 - k : k])
    if (accumulator !== undefined) param.accumulator = accumulator
    // A formula's value is the new accumulator; a method sets $1.accumulator.
    const returned = cb.returned(param)
    accumulator = returned !== undefined ? returned : param.accumulator
    if (stopped(param)) break
  }
  return accumulator
}

/** What makes two values the same for `.distinct()`: a key a Map compares. */
function distinctKey(v: unknown, diacritical: boolean): unknown {
  if (typeof v === 'string') return `t${diacritical ? v : fold(v)}`
  if (typeof v === 'number') return v === 0 ? 0 : v
  if (v instanceof DateValue) return `d${v.days}`
  return v
}

function joinText(rt: Passes, v: unknown): string {
  if (isReference(v)) return stringify(v, false, rt)
  return toText(v)
}

export const AGGREGATING: readonly CollectionFunctionSpec[] = [
  {
    name: 'sum',
    signature: '(propertyPath?: Text): Real',
    impl: (rt, self, [path]) => sumOfNumbers(rt, valuesAt(rt, self, 'sum', path)).sum,
  },
  {
    name: 'average',
    signature: '(propertyPath?: Text): Real',
    impl: (rt, self, [path]) => {
      const { sum, count } = sumOfNumbers(rt, valuesAt(rt, self, 'average', path))
      return count === 0 ? undefined : sum / count
    },
  },
  {
    name: 'min',
    signature: '(propertyPath?: Text): any',
    impl: (rt, self, [path]) => extreme(rt, valuesAt(rt, self, 'min', path), false),
  },
  {
    name: 'max',
    signature: '(propertyPath?: Text): any',
    impl: (rt, self, [path]) => extreme(rt, valuesAt(rt, self, 'max', path), true),
  },
  {
    name: 'reduce',
    signature: '(formula: any; initValue?: any; ...params: any): any',
    impl: (rt, self, args) => reduce(rt, self, 'reduce', args, false),
  },
  {
    name: 'reduceRight',
    signature: '(formula: any; initValue?: any; ...params: any): any',
    impl: (rt, self, args) => reduce(rt, self, 'reduceRight', args, true),
  },
  {
    name: 'join',
    signature: '(delimiter: Text; option?: Integer): Text',
    impl: (rt, self, [delimiter, option]) => {
      const sep = textArg('.join()', 'delimiter', delimiter)
      const ignore = (optionalInteger('.join()', 'option', option, 0) & IGNORE_NULL_OR_EMPTY) !== 0
      const items = self.items
      const parts: string[] = []
      for (let i = 0; i < items.length;) {
        const end = Math.min(items.length, i + BLOCK)
        spend(rt, end - i)
        for (; i < end; i++) {
          const v = items[i]
          if (ignore && (v === null || v === undefined || v === '')) continue
          parts.push(joinText(rt, v))
        }
      }
      return parts.join(sep)
    },
  },
  {
    name: 'distinct',
    signature: '(propertyPathOrOptions?: any; options?: Integer): Collection',
    impl: (rt, self, args) => {
      const path = typeof args[0] === 'string' ? args[0] : undefined
      const options = optionalInteger(
        '.distinct()',
        'options',
        path === undefined ? args[0] : args[1],
        0,
      )
      const diacritical = (options & DIACRITICAL) !== 0
      const byKey = new Map<unknown, { value: unknown; count: number }>()
      const values = valuesAt(rt, self, 'distinct', path)
      for (let i = 0; i < values.length;) {
        const end = Math.min(values.length, i + BLOCK)
        spend(rt, end - i)
        for (; i < end; i++) {
          const v = values[i]
          if (v === null || v === undefined) continue
          const key = distinctKey(v, diacritical)
          const group = byKey.get(key)
          if (group === undefined) byKey.set(key, { value: v, count: 1 })
          else group.count++
        }
      }
      const groups = [...byKey.values()]
      groups.sort(countedCompare(rt, (a, b) => compareValues(a.value, b.value, diacritical)))
      if ((options & COUNT_VALUES) === 0) return new Collection(groups.map((g) => g.value))
      return new Collection(groups.map((g) => objectOf('value', g.value, 'count', g.count)))
    },
  },
  {
    name: 'equal',
    signature: '(collection2: Collection; option?: Integer): Boolean',
    impl: (rt, self, [other, option]) => {
      if (!(other instanceof Collection)) return false
      const diacritical = (optionalInteger('.equal()', 'option', option, 0) & DIACRITICAL) !== 0
      return deepEqual(self, other, diacritical, rt)
    },
  },
]
