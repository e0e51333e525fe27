/**
 * @module The collection functions that make a new collection from this one
 * (docs/API/CollectionClass.md): `.filter()`, `.map()`, `.flatMap()`, `.flat()`, `.slice()`,
 * `.concat()`, `.reverse()`, `.copy()`, `.extract()`. None modifies the collection. `.filter()`
 * and `.slice()` give a shallow copy, shared when the collection is; `.reverse()` and `.copy()` a
 * deep one.
 *
 * `.flat()`, `.extract()`, `.copy()` and `.reverse()` count each element (each value copied) as a
 * pass of the budget's (context/budget.ts): one call over millions of elements ends at the
 * budget with 9410. A callback counts its own calls.
 */
import { integerArg, optionalInteger, textArg } from '../../arguments/arguments.js'
import { spend, type Passes } from '../../values/passes.js'
import type { Runtime } from '../../context/runtime.js'
import { Collection } from '../../values/collection.js'
import { limits, withinLimit } from '../../values/limits.js'
import { newObject } from '../../values/kinds.js'
import { deepCopy } from '../../context/deep-copy.js'
import { likeSource } from '../../values/shared.js'
import { callbackOf, stopped } from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { element } from './mutating.js'
import { pathSteps, readPath, writePath } from './paths.js'
import { fromStart, indexArg, toEnd } from './positions.js'

const KEEP_NULL = 1
const SHARED = 2

/** Calls the callback on each element, in order, until the end or a `$1.stop`. */
function each(
  rt: Runtime,
  self: Collection,
  fn: string,
  args: readonly unknown[],
  use: (result: unknown, value: unknown) => void,
): void {
  const cb = callbackOf(rt, `.${fn}()`, args[0], args.slice(1))
  for (const value of self.items) {
    const param = cb.element(value)
    use(cb.call(param), value)
    if (stopped(param)) return
  }
}

// A collection may hold itself: flattened deep, it doubles at each level, so the bound is
// checked as it grows, before V8's array would.
function flatten(
  rt: Passes,
  items: readonly unknown[],
  depth: number,
  into: unknown[],
  max = limits().elements,
): unknown[] {
  for (const item of items) {
    if (--rt.ticks < 0) rt.tick()
    if (item instanceof Collection && depth > 0) flatten(rt, item.items, depth - 1, into, max)
    else if (into.push(item) > max) withinLimit('elements', 'A collection', into.length)
  }
  return into
}

export const TRANSFORMING: readonly CollectionFunctionSpec[] = [
  {
    name: 'filter',
    signature: '(formula: any; ...params: any): Collection',
    impl: (rt, self, args) => {
      const kept: unknown[] = []
      each(rt, self, 'filter', args, (result, value) => {
        if (result === true) kept.push(value)
      })
      return likeSource(self, new Collection(kept))
    },
  },
  {
    name: 'map',
    signature: '(formula: any; ...params: any): Collection',
    impl: (rt, self, args) => {
      // Its own loop into an array of the collection's length: grown by push, the array was
      // copied at each growth, a third of the call's time (the 4d-language bench's map over 100k,
      // 3.05× → 2.15× TypeScript); `each`'s callback was a call more an element.
      const cb = callbackOf(rt, '.map()', args[0], args.slice(1))
      const items = self.items
      const made: unknown[] = new Array(items.length)
      let i = 0
      while (i < items.length) {
        const param = cb.element(items[i])
        made[i++] = element(cb.call(param))
        if (stopped(param)) break
      }
      made.length = i
      return new Collection(made)
    },
  },
  {
    name: 'flatMap',
    signature: '(formula: any; ...params: any): Collection',
    impl: (rt, self, args) => {
      const made: unknown[] = []
      each(rt, self, 'flatMap', args, (result) => made.push(element(result)))
      return new Collection(flatten(rt, made, 1, []))
    },
  },
  {
    name: 'flat',
    signature: '(depth?: Integer): Collection',
    impl: (rt, self, [depth]) =>
      new Collection(flatten(rt, self.items, optionalInteger('.flat()', 'depth', depth, 1), [])),
  },
  {
    name: 'slice',
    signature: '(startFrom: Integer; end?: Integer): Collection',
    impl: (_rt, self, [startFrom, end]) => {
      const n = self.length
      const from = fromStart(indexArg('slice', 'startFrom', startFrom), n)
      const to = end === undefined ? n : toEnd(indexArg('slice', 'end', end), n)
      return likeSource(self, new Collection(self.items.slice(from, Math.max(from, to))))
    },
  },
  {
    name: 'concat',
    signature: '(value: any; ...values: any): Collection',
    impl: (rt, self, args) => {
      let size = self.length
      for (const v of args) size += v instanceof Collection ? v.length : 1
      withinLimit('elements', 'A collection', size)
      // One native copy of this collection, counted first; the others element by element (a
      // spread of one into `push` overflows the stack past some 120,000 elements).
      spend(rt, self.length)
      const items = self.items.slice()
      for (const v of args)
        if (v instanceof Collection)
          for (const item of v.items) {
            if (--rt.ticks < 0) rt.tick()
            items.push(item)
          }
        else items.push(element(v))
      return new Collection(items)
    },
  },
  {
    name: 'reverse',
    signature: '(): Collection',
    impl: (rt, self) => {
      const copy = deepCopy(self, self.shared, rt) as Collection
      copy.items.reverse()
      return copy
    },
  },
  {
    name: 'copy',
    signature: '(option?: Integer; groupWith?: any): Collection',
    impl: (rt, self, [option]) =>
      deepCopy(self, (optionalInteger('.copy()', 'option', option, 0) & SHARED) !== 0, rt),
  },
  {
    name: 'extract',
    signature: '(propertyPath: Text; ...optionOrTargetPaths: any): Collection',
    impl: (rt, self, [path, ...rest]) => {
      const steps = pathSteps(textArg('.extract()', 'propertyPath', path))
      if (rest.length === 0 || typeof rest[0] === 'number') {
        const keepNull = (integerArg('.extract()', 'option', rest[0]) & KEEP_NULL) !== 0
        const values: unknown[] = []
        for (const item of self.items) {
          if (--rt.ticks < 0) rt.tick()
          const v = readPath(item, steps)
          if (v !== null && v !== undefined) values.push(v)
          else if (keepNull) values.push(null)
        }
        return new Collection(values)
      }
      // propertyPath; targetPath {; propertyPath2; targetPath2…}: one object an element.
      const pairs: { steps: readonly string[]; target: readonly string[] }[] = []
      const all = [path, ...rest]
      for (let i = 0; i + 1 < all.length; i += 2)
        pairs.push({
          steps: pathSteps(textArg('.extract()', 'propertyPath', all[i])),
          target: pathSteps(textArg('.extract()', 'targetPath', all[i + 1])),
        })
      return new Collection(
        self.items.map((item) => {
          if (--rt.ticks < 0) rt.tick()
          const o = newObject()
          for (const { steps: s, target } of pairs) {
            const v = readPath(item, s)
            if (v !== undefined) writePath(o, target, v)
          }
          return o
        }),
      )
    },
  },
]
