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
 * at the budget with 9410. Each function is written as steps (values/work.ts): a call in slices
 * stops inside it, between two blocks of elements, two comparisons, two values, or inside a
 * callback that is 4D code (`.reduce()`), and inside the JSON of an object `.join()` writes.
 */
import { fold } from '@entistore/core'
import { optionalInteger, textArg } from '../../arguments/arguments.js'
import { toText } from '../../convert/conversions.js'
import { stringifySteps } from '../../convert/json.js'
import { BLOCK, spend, type Passes } from '../../values/passes.js'
import type { Runtime } from '../../context/runtime.js'
import { objectOf } from '../../ops/literals.js'
import { Collection } from '../../values/collection.js'
import { isReference } from '../../values/kinds.js'
import { DateValue } from '../../values/date-value.js'
import { sortSteps } from '../../values/sort-steps.js'
import { finish, type Work } from '../../values/work.js'
import { byBlocks } from '../../values/resumable.js'
import { callbackOf, elementParam, steppedOver, stopped } from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { equalSteps } from './equality.js'
import { compareValues } from './order.js'
import { pathSteps, readPath } from './paths.js'

const IGNORE_NULL_OR_EMPTY = 1
const DIACRITICAL = 8
const COUNT_VALUES = 32

/**
 * An aggregate of the values of the elements, or of their values at the path its first argument
 * gives: `block` goes through a block of values from `start()`'s value, `result` gives the
 * function's value from what the blocks made. Its steps read the values and then go through them
 * a block at a time. The plain call does a collection of a block at most at once, counted, with
 * no generator made (a small collection is most calls, and the generators were most of their
 * time: `.sum()` of 10 elements took 6 times as long); a larger one runs the steps to their end.
 */
function aggregate<A>(
  fn: string,
  start: () => A,
  block: (values: readonly unknown[], from: number, to: number, made: A) => A,
  result: (made: A) => unknown,
): Pick<CollectionFunctionSpec, 'impl' | 'steps'> {
  function* steps(rt: Passes, self: Collection, [path]: unknown[]): Work<unknown> {
    const values = yield* valuesAt(rt, self, fn, path)
    let made = start()
    yield* byBlocks(rt, 0, values.length, (i, end) => {
      made = block(values, i, end, made)
      return -1
    })
    return result(made)
  }
  return {
    steps,
    impl(rt, self, args) {
      const n = self.length
      if (n > BLOCK) return finish(steps(rt, self, args))
      const path = args[0]
      const values = path === undefined ? self.items : new Array<unknown>(n)
      // Each value read, then each value gone through.
      spend(rt, path === undefined ? n : 2 * n)
      if (path !== undefined) readValues(self.items, stepsOf(fn, path), values, 0, n)
      return result(block(values, 0, n, start()))
    },
  }
}

const stepsOf = (fn: string, path: unknown): readonly string[] =>
  pathSteps(textArg(`.${fn}()`, 'propertyPath', path))

/** The values of the elements, or at `path` when one is given (each read a pass). */
function* valuesAt(
  rt: Passes,
  self: Collection,
  fn: string,
  path: unknown,
): Work<readonly unknown[]> {
  const items = self.items
  if (path === undefined) return items
  const steps = stepsOf(fn, path)
  const values = new Array<unknown>(items.length)
  yield* byBlocks(rt, 0, items.length, (i, end) => readValues(items, steps, values, i, end))
  return values
}

/** The values at `steps` of `items[from, to)` put in `values`: -1, for `byBlocks`. */
function readValues(
  items: readonly unknown[],
  steps: readonly string[],
  values: unknown[],
  from: number,
  to: number,
): number {
  for (let i = from; i < to; i++) values[i] = readPath(items[i], steps)
  return -1
}

/** The sum of some numbers, and how many they are. */
class Total {
  sum = 0
  count = 0
}

/**
 * `sum` plus the numbers of `values[from, to)`, in order: `.sum()`'s block, which does not count
 * them (a loop that counted them too, the count kept for nothing, ran it 10 % slower).
 */
function addNumbers(values: readonly unknown[], from: number, to: number, sum: number): number {
  for (let i = from; i < to; i++) {
    const v = values[i]
    if (typeof v === 'number') sum += v
  }
  return sum
}

/** The numbers of `values[from, to)` added to `total`, in order, and counted. */
function addAndCount(values: readonly unknown[], from: number, to: number, total: Total): Total {
  let { sum, count } = total
  for (let i = from; i < to; i++) {
    const v = values[i]
    if (typeof v === 'number') {
      sum += v
      count++
    }
  }
  total.sum = sum
  total.count = count
  return total
}

/** `.min()`'s block: the first of `best` and the values of `values[from, to)` in 4D's order. */
const first = (values: readonly unknown[], from: number, to: number, best: unknown): unknown =>
  extremeOf(values, from, to, best, false)

/** `.max()`'s block: the last of them. */
const last = (values: readonly unknown[], from: number, to: number, best: unknown): unknown =>
  extremeOf(values, from, to, best, true)

/** The first (`last`: the last) of `best` and of `values[from, to)`, Null values left out. */
function extremeOf(
  values: readonly unknown[],
  from: number,
  to: number,
  best: unknown,
  last: boolean,
): unknown {
  for (let i = from; i < to; i++) {
    const v = values[i]
    if (v === null || v === undefined) continue
    if (best === undefined) best = v
    else {
      const c = compareValues(v, best)
      if (last ? c >= 0 : c < 0) best = v
    }
  }
  return best
}

const nothing = (): undefined => undefined
const same = <T>(v: T): T => v

/**
 * `.reduce()` (from the right with `right`). The callback counts its own calls; in a call in
 * slices (`inSlices`), one that has steps is gone into.
 */
function* reduce(
  rt: Runtime,
  self: Collection,
  fn: string,
  args: unknown[],
  right: boolean,
  inSlices = false,
): Work<unknown> {
  const [formula, initValue, ...extra] = args
  const cb = callbackOf(rt, `.${fn}()`, formula, extra)
  const steps = inSlices && steppedOver(cb, self.items)
  let accumulator = initValue
  const items = self.items
  for (let k = 0; k < items.length; k++) {
    const param = elementParam(items[right ? items.length - 1 - k : k])
    if (accumulator !== undefined) param.accumulator = accumulator
    const ticks = rt.ticks
    // A formula's value is the new accumulator; a method sets $1.accumulator.
    const returned = steps ? yield* cb.returnedSteps(param) : cb.returned(param)
    accumulator = returned !== undefined ? returned : param.accumulator
    if (stopped(param)) break
    // The call read the clock (its ticks ran out and were given again): a slice may end here.
    if (rt.ticks > ticks) yield
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

/** `.join()`: each element as `String` writes it, an object or a collection as its JSON. */
function* join(rt: Passes, self: Collection, [delimiter, option]: unknown[]): Work<string> {
  const sep = textArg('.join()', 'delimiter', delimiter)
  const ignore = (optionalInteger('.join()', 'option', option, 0) & IGNORE_NULL_OR_EMPTY) !== 0
  const items = self.items
  const parts: string[] = []
  for (let i = 0; i < items.length;) {
    const v = items[i]
    if (isReference(v)) {
      // JSON Stringify's steps count the values of an object or a collection, and stop among them.
      if (--rt.ticks < 0) {
        rt.tick()
        yield
      }
      parts.push(yield* stringifySteps(v, false, rt))
      i++
      continue
    }
    // The other elements, up to a block of them, to the next object or collection: counted once
    // gone through (a block that ends early would count elements it did not reach).
    const end = joinTexts(items, i, Math.min(items.length, i + BLOCK), ignore, parts)
    if ((rt.ticks -= end - i) < 0) {
      rt.tick()
      yield
    }
    i = end
  }
  return parts.join(sep)
}

/**
 * The texts of `items[from, to)` pushed on `parts` (Null and "" left out with `ignore`), up to the
 * first object or collection: its index, or `to`.
 */
function joinTexts(
  items: readonly unknown[],
  from: number,
  to: number,
  ignore: boolean,
  parts: string[],
): number {
  for (let i = from; i < to; i++) {
    const v = items[i]
    if (ignore && (v === null || v === undefined || v === '')) continue
    if (isReference(v)) return i
    parts.push(toText(v))
  }
  return to
}

/** The groups of equal values of `.distinct()`, by their key: the first value, and how many. */
type Groups = Map<unknown, { value: unknown; count: number }>

/** The values of `values[from, to)` put in their groups (Null left out): -1, for `byBlocks`. */
function group(
  values: readonly unknown[],
  from: number,
  to: number,
  diacritical: boolean,
  byKey: Groups,
): number {
  for (let i = from; i < to; i++) {
    const v = values[i]
    if (v === null || v === undefined) continue
    const key = distinctKey(v, diacritical)
    const group = byKey.get(key)
    if (group === undefined) byKey.set(key, { value: v, count: 1 })
    else group.count++
  }
  return -1
}

/** `.distinct()`: the first of each group of equal values, sorted, Null left out. */
function* distinct(rt: Passes, self: Collection, args: unknown[]): Work<Collection> {
  const path = typeof args[0] === 'string' ? args[0] : undefined
  const options = optionalInteger(
    '.distinct()',
    'options',
    path === undefined ? args[0] : args[1],
    0,
  )
  const diacritical = (options & DIACRITICAL) !== 0
  const byKey: Groups = new Map()
  const values = yield* valuesAt(rt, self, 'distinct', path)
  yield* byBlocks(rt, 0, values.length, (i, end) => group(values, i, end, diacritical, byKey))
  const groups = yield* sortSteps(rt, [...byKey.values()], (a, b) =>
    compareValues(a.value, b.value, diacritical),
  )
  if ((options & COUNT_VALUES) === 0) return new Collection(groups.map((g) => g.value))
  return new Collection(groups.map((g) => objectOf('value', g.value, 'count', g.count)))
}

export const AGGREGATING: readonly CollectionFunctionSpec[] = [
  {
    name: 'sum',
    signature: '(propertyPath?: Text): Real',
    ...aggregate('sum', () => 0, addNumbers, same),
  },
  {
    name: 'average',
    signature: '(propertyPath?: Text): Real',
    ...aggregate(
      'average',
      () => new Total(),
      addAndCount,
      ({ sum, count }) => (count === 0 ? undefined : sum / count),
    ),
  },
  {
    name: 'min',
    signature: '(propertyPath?: Text): any',
    ...aggregate('min', nothing, first, same),
  },
  {
    name: 'max',
    signature: '(propertyPath?: Text): any',
    ...aggregate('max', nothing, last, same),
  },
  {
    name: 'reduce',
    signature: '(formula: any; initValue?: any; ...params: any): any',
    steps: (rt, self, args, inSlices) => reduce(rt, self, 'reduce', args, false, inSlices),
  },
  {
    name: 'reduceRight',
    signature: '(formula: any; initValue?: any; ...params: any): any',
    steps: (rt, self, args, inSlices) => reduce(rt, self, 'reduceRight', args, true, inSlices),
  },
  {
    name: 'join',
    signature: '(delimiter: Text; option?: Integer): Text',
    steps: join,
  },
  {
    name: 'distinct',
    signature: '(propertyPathOrOptions?: any; options?: Integer): Collection',
    steps: distinct,
  },
  {
    name: 'equal',
    signature: '(collection2: Collection; option?: Integer): Boolean',
    *steps(rt, self, [other, option]) {
      if (!(other instanceof Collection)) return false
      const diacritical = (optionalInteger('.equal()', 'option', option, 0) & DIACRITICAL) !== 0
      return yield* equalSteps(rt, self, other, diacritical)
    },
  },
]
