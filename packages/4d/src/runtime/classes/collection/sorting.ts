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
 * Each comparison is a pass of the budget's (context/budget.ts), a callback's as any call: a sort
 * of millions of elements, which takes seconds, ends at the budget with 9410, the collection left
 * as it was.
 */
import { collectionArg, invalid, textArg, wrongType } from '../../arguments/arguments.js'
import { countedCompare } from '../../values/passes.js'
import type { Runtime } from '../../context/runtime.js'
import { get } from '../../ops/members.js'
import { Collection } from '../../values/collection.js'
import { isPlainObject } from '../../values/kinds.js'
import { likeSource } from '../../values/shared.js'
import { callbackOf } from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { compareValues } from './order.js'
import { pathSteps, readPath } from './paths.js'

type Compare = (a: unknown, b: unknown) => number

const DESCENDING = 1

/** The order a callback gives: True when `a` comes before `b`. */
function callbackOrder(rt: Runtime, fn: string, formula: unknown, extra: unknown[]): Compare {
  const cb = callbackOf(rt, `.${fn}()`, formula, extra)
  const less = (a: unknown, b: unknown): boolean => cb.call(cb.pair(a, b)) === true
  return (a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0)
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

function byCriteria(criteria: readonly Criterion[]): Compare {
  return (a, b) => {
    for (const { steps, descending } of criteria) {
      const c = compareValues(readPath(a, steps), readPath(b, steps))
      if (c !== 0) return descending ? -c : c
    }
    return 0
  }
}

function orderByCompare(arg: unknown): Compare {
  if (arg === undefined) return (a, b) => compareValues(a, b)
  if (typeof arg === 'number')
    return arg === DESCENDING ? (a, b) => compareValues(b, a) : (a, b) => compareValues(a, b)
  if (typeof arg === 'string') return byCriteria(textCriteria(arg))
  if (arg instanceof Collection) return byCriteria(objectCriteria(arg))
  return wrongType('.orderBy()', 'criteria', 'Text, Collection or Integer', arg)
}

/** `.multiSort()`: sorts `self` and the collections of `cols` in step. */
function multiSort(rt: Runtime, self: Collection, first: Compare, cols: unknown): Collection {
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
  const order = own.map((_, i) => i)
  order.sort(
    countedCompare(rt, (i: number, j: number) => {
      const c = first(own[i], own[j])
      if (c !== 0) return c
      for (const { items, descending } of levels) {
        const d = compareValues(items[i], items[j])
        if (d !== 0) return descending ? -d : d
      }
      return 0
    }),
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
    impl: (rt, self, [formula, ...extra]) => {
      // A callback counts its own calls.
      if (formula !== undefined) self.items.sort(callbackOrder(rt, 'sort', formula, extra))
      else self.items.sort(countedCompare(rt, orderByCompare(undefined)))
      return self
    },
  },
  {
    name: 'orderBy',
    signature: '(criteria?: any): Collection',
    impl: (rt, self, [criteria]) =>
      likeSource(
        self,
        new Collection([...self.items].sort(countedCompare(rt, orderByCompare(criteria)))),
      ),
  },
  {
    name: 'orderByMethod',
    signature: '(formula: any; ...extraParams: any): Collection',
    impl: (rt, self, [formula, ...extra]) => {
      // A callback counts its own calls.
      const compare = callbackOrder(rt, 'orderByMethod', formula, extra)
      return likeSource(self, new Collection([...self.items].sort(compare)))
    },
  },
  {
    name: 'multiSort',
    signature: '(formulaOrCols?: any; colsToSort?: Collection): Collection',
    impl: (rt, self, args) => {
      if (args.length === 0)
        return self.items.sort(countedCompare(rt, (a, b) => compareValues(a, b))) && self
      if (args[0] instanceof Collection)
        return multiSort(rt, self, (a, b) => compareValues(a, b), args[0])
      return multiSort(rt, self, callbackOrder(rt, 'multiSort', args[0], []), args[1])
    },
  },
]
