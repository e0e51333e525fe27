/**
 * @module The collection functions that order elements (docs/API/CollectionClass.md): `.sort()`
 * (in place), `.orderBy()` and `.orderByMethod()` (a new collection, shared when the collection
 * is), `.multiSort()` (this collection and others in step). Without a callback, values follow
 * order.ts (4D's order of mixed types); a callback receives `$1.value` and `$1.value2` and returns
 * True when the first comes before the second. Every sort is stable.
 *
 * `.orderBy()` takes nothing, `ck ascending`/`ck descending`, a text of property paths each
 * followed by `asc` or `desc` and separated by commas (`"value desc, id"`), or a collection of
 * `{propertyPath; descending}` objects. A path missing from an element orders as Null.
 *
 * `.multiSort(colsToSort)` sorts this collection and moves the elements of each collection of
 * `colsToSort` as its own move; each of them, in turn, also orders the elements this collection
 * finds equal — ascending, or as its `{collection; order}` object says (the docs' example 2 shows
 * the plain ones breaking ties too, compat.md).
 *
 * Each comparison is a pass of the budget's (context/budget.ts): a sort of millions of elements,
 * which takes seconds, ends at the budget with 9410, the collection left as it was. Each sort is
 * steps (values/sort-steps.ts), which a call in slices goes into, a callback's own steps too: it
 * stops inside the sort, and the sorted elements are put in place at its last step.
 */
import { collectionArg, invalid, textArg, wrongType } from '../../arguments/arguments.js'
import type { Runtime } from '../../context/runtime.js'
import { get } from '../../ops/members.js'
import { Collection } from '../../values/collection.js'
import { isPlainObject } from '../../values/kinds.js'
import { likeSource } from '../../values/shared.js'
import { sortSteps, type SortCompare } from '../../values/sort-steps.js'
import type { Work } from '../../values/work.js'
import { callbackOf, steppedOver } from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { byLevels, reversed, valueOrder } from './sort-order.js'
import { pathSteps, readPath } from './paths.js'

const DESCENDING = 1

/**
 * The order a callback gives, True when `a` comes before `b`: -1 then, else 0, which is all that
 * sortSteps asks (whether a later element goes before an earlier one), one call a comparison.
 * Asked `bothWays` (`.multiSort()`, whose ties other collections break), a callback that says
 * `a` does not come before `b` is asked again the other way: 1 when `b` comes before `a`, 0 for a
 * tie. In a call in slices (`inSlices`), a callback that has steps (4D code, or a formula reading
 * members of `items` that have work to run for a member read: callbacks.ts `steppedOver`) is
 * gone into; any other is called at once (a generator a comparison would cost it for nothing).
 */
function callbackOrder(
  rt: Runtime,
  fn: string,
  [formula, ...extra]: unknown[],
  items: readonly unknown[],
  inSlices: boolean,
  bothWays = false,
): SortCompare<unknown> {
  const cb = callbackOf(rt, `.${fn}()`, formula, extra)
  const before = (a: unknown, b: unknown): boolean => cb.call(cb.pair(a, b)) === true
  if (!inSlices || !steppedOver(cb, items))
    return (a, b) => (before(a, b) ? -1 : bothWays && before(b, a) ? 1 : 0)
  function* beforeSteps(a: unknown, b: unknown): Work<boolean> {
    return (yield* cb.callSteps(cb.pair(a, b))) === true
  }
  return function* (a, b) {
    return (yield* beforeSteps(a, b)) ? -1 : bothWays && (yield* beforeSteps(b, a)) ? 1 : 0
  }
}

/** `items` given the order of `sorted` (the same elements): the sort's last step. */
function putInPlace(items: unknown[], sorted: readonly unknown[]): void {
  for (let i = 0; i < sorted.length; i++) items[i] = sorted[i]
}

/** `.sort()`: the collection sorted in place, by 4D's order or a callback's. */
function* sortInPlace(
  rt: Runtime,
  self: Collection,
  args: unknown[],
  inSlices = false,
): Work<Collection> {
  const compare =
    args[0] === undefined ? valueOrder(rt) : callbackOrder(rt, 'sort', args, self.items, inSlices)
  putInPlace(self.items, yield* sortSteps(rt, self.items, compare))
  return self
}

/** `.orderByMethod()`: a new collection sorted by a callback's order. */
function* orderByMethod(
  rt: Runtime,
  self: Collection,
  args: unknown[],
  inSlices = false,
): Work<Collection> {
  const compare = callbackOrder(rt, 'orderByMethod', args, self.items, inSlices)
  return likeSource(self, new Collection(yield* sortSteps(rt, self.items, compare)))
}

interface Criterion {
  readonly steps: readonly string[]
  readonly descending: boolean
}

/** `"value desc, id asc"`. */
function textCriteria(text: string): Criterion[] {
  return text.split(',').map((part) => {
    const words = part.trim().split(/\s+/)
    let descending = false
    const last = words.length > 1 ? words[words.length - 1]!.toLowerCase() : ''
    if (last === 'desc' || last === 'asc') {
      descending = last === 'desc'
      words.pop()
    }
    if (words.length !== 1 || words[0] === '')
      return invalid('.orderBy()', 'pathStrings', `"${text}" is not "path {asc|desc}, …"`)
    return { steps: pathSteps(words[0]!), descending }
  })
}

/** `[{propertyPath: "value"; descending: True}; …]`. */
function objectCriteria(c: Collection): Criterion[] {
  return c.items.map((item) => {
    if (!isPlainObject(item)) return wrongType('.orderBy()', 'pathObjects', 'Object', item)
    const path = textArg('.orderBy()', 'propertyPath', get(item, 'propertyPath'))
    return { steps: pathSteps(path), descending: get(item, 'descending') === true }
  })
}

/**
 * `items` sorted by the values at the criteria's paths. Each element's values are read once, a
 * pass each, and the sort orders their positions: read at each comparison, two paths a level, the
 * reads were nearly half of a sort of 100,000 objects (some 1.7 million comparisons).
 */
function* byCriteria(
  rt: Runtime,
  items: readonly unknown[],
  criteria: readonly Criterion[],
): Work<unknown[]> {
  const values = criteria.map(() => new Array<unknown>(items.length))
  for (let i = 0; i < items.length; i++) {
    if (--rt.ticks < 0) {
      rt.tick()
      yield
    }
    for (let k = 0; k < criteria.length; k++) values[k]![i] = readPath(items[i], criteria[k]!.steps)
  }
  const order = valueOrder(rt)
  const compare = byLevels<number>(criteria.length, (k, i, j) => {
    const c = order(values[k]![i], values[k]![j])
    return criteria[k]!.descending ? reversed(c) : c
  })
  const sorted = yield* sortSteps(
    rt,
    items.map((_, i) => i),
    compare,
  )
  return sorted.map((i) => items[i])
}

/** `.orderBy()`'s sort of `items`: by 4D's order, either way, or by property paths. */
function orderBySteps(rt: Runtime, items: readonly unknown[], arg: unknown): Work<unknown[]> {
  if (arg === undefined) return sortSteps(rt, items, valueOrder(rt))
  if (typeof arg === 'number') {
    const order = valueOrder(rt)
    return sortSteps(rt, items, arg === DESCENDING ? (a, b) => order(b, a) : order)
  }
  if (typeof arg === 'string') return byCriteria(rt, items, textCriteria(arg))
  if (arg instanceof Collection) return byCriteria(rt, items, objectCriteria(arg))
  return wrongType('.orderBy()', 'criteria', 'Text, Collection or Integer', arg)
}

/**
 * `.multiSort()`: sorts `self` and the collections of `cols` in step, by 4D's order, or first by
 * `callback`'s (`callbackOrder` asked both ways: 0 is a tie).
 */
function* multiSort(
  rt: Runtime,
  self: Collection,
  cols: unknown,
  callback?: SortCompare<unknown>,
): Work<Collection> {
  const levels: { items: unknown[]; descending: boolean; target: Collection }[] = []
  for (const entry of collectionArg('.multiSort()', 'colsToSort', cols).items) {
    let target: Collection
    let descending = false
    if (entry instanceof Collection) target = entry
    else if (isPlainObject(entry)) {
      target = collectionArg('.multiSort()', 'collection', get(entry, 'collection'))
      descending = get(entry, 'order') === DESCENDING
    } else return wrongType('.multiSort()', 'colsToSort', 'Collection or Object', entry)
    if (target.length !== self.length)
      return invalid('.multiSort()', 'colsToSort', 'every collection must have as many elements')
    levels.push({ items: [...target.items], descending, target })
  }
  const own = [...self.items]
  const values = valueOrder(rt)
  // This collection's order (or the callback's), then, for the elements it finds equal, the
  // collections of `cols` in turn. A callback that answers at once is a plain comparison: with a
  // generator a comparison, made for its steps alone, the plain call over 100,000 elements took
  // 1.6 to 1.9 times as long.
  const first = callback ?? values
  const compare = byLevels<number>(levels.length + 1, (k, i, j) => {
    if (k === 0) return first(own[i], own[j])
    const { items, descending } = levels[k - 1]!
    const d = values(items[i], items[j])
    return descending ? reversed(d) : d
  })
  const order = yield* sortSteps(
    rt,
    own.map((_, i) => i),
    compare,
  )
  order.forEach((from, to) => {
    self.items[to] = own[from]
    for (const { items, target } of levels) target.items[to] = items[from]
  })
  return self
}

export const SORTING: readonly CollectionFunctionSpec[] = [
  {
    name: 'sort',
    signature: '(formula?: any; ...extraParams: any): Collection',
    steps: sortInPlace,
  },
  {
    name: 'orderBy',
    signature: '(criteria?: any): Collection',
    *steps(rt, self, [criteria]) {
      const sorted = yield* orderBySteps(rt, self.items, criteria)
      return likeSource(self, new Collection(sorted))
    },
  },
  {
    name: 'orderByMethod',
    signature: '(formula: any; ...extraParams: any): Collection',
    steps: orderByMethod,
  },
  {
    name: 'multiSort',
    signature: '(formulaOrCols?: any; colsToSort?: Collection): Collection',
    steps: multiSortOf,
  },
]

/** `.multiSort()` with what it is given: nothing, collections, or a callback and collections. */
function multiSortOf(
  rt: Runtime,
  self: Collection,
  args: unknown[],
  inSlices = false,
): Work<Collection> {
  if (args.length === 0) return sortInPlace(rt, self, [], inSlices)
  if (args[0] instanceof Collection) return multiSort(rt, self, args[0])
  return multiSort(
    rt,
    self,
    args[1],
    callbackOrder(rt, 'multiSort', [args[0]], self.items, inSlices, true),
  )
}
