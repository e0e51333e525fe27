/**
 * @module The collection functions that make a new collection from this one
 * (docs/API/CollectionClass.md): `.filter()`, `.map()`, `.flatMap()`, `.flat()`, `.slice()`,
 * `.concat()`, `.reverse()`, `.copy()`, `.extract()`. None modifies the collection. `.filter()`
 * and `.slice()` give a shallow copy, shared when the collection is; `.reverse()` and `.copy()` a
 * deep one.
 *
 * `.flat()`, `.copy()` and `.reverse()` count each element (each value copied) as a pass of the
 * budget's (context/budget.ts), `.extract()`, `.concat()` and `.slice()` their elements a block at
 * a time (values/resumable.ts): one call over millions of elements ends at the budget with 9410. A
 * callback counts its own calls.
 *
 * Each has steps (values/work.ts), which a call in slices goes into; the plain call keeps a plain
 * loop, and goes through a small collection with no generator. `.copy()` and `.reverse()` are the
 * deep copy's steps (context/deep-copy.ts).
 */
import { integerArg, optionalInteger, textArg } from '../../arguments/arguments.js'
import type { Passes } from '../../values/passes.js'
import type { Runtime } from '../../context/runtime.js'
import { Collection } from '../../values/collection.js'
import { limits, withinLimit } from '../../values/limits.js'
import { newObject } from '../../values/kinds.js'
import { copySteps, deepCopy } from '../../context/deep-copy.js'
import { likeSource } from '../../values/shared.js'
import {
  atOnce,
  byBlocks,
  byBlocksNow,
  madeAll,
  madeSteps,
  countNow,
  joinedPieces,
  scanSteps,
  type Block,
  type Made,
  type Resumable,
  type Scan,
} from '../../values/resumable.js'
import { finish, type Work } from '../../values/work.js'
import { callbackOf, eachElement, stopped, type Take } from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { element } from './mutating.js'
import { pathSteps, readPath, writePath } from './paths.js'
import { fromStart, indexArg, toEnd } from './positions.js'

const KEEP_NULL = 1
const SHARED = 2

/**
 * The callback of `command` called on each element, in order, until the end or a `$1.stop`,
 * giving `take` each result, as steps (callbacks.ts `eachElement`): the number of elements it was
 * called on.
 */
function* each(
  rt: Runtime,
  self: Collection,
  command: string,
  args: readonly unknown[],
  take: Take,
): Work<number> {
  const cb = callbackOf(rt, command, args[0], args.slice(1))
  const { index } = yield* eachElement(rt, cb, self.items, 0, take)
  return index < 0 ? self.length : index + 1
}

/**
 * `.map()` (and `.flatMap()` before it flattens), the plain call's own loop into an array of the
 * collection's length: grown by push, the array was copied at each growth, a third of the call's
 * time (the 4d-language bench's map over 100k, 3.05× → 2.15× TypeScript); through `each`'s
 * callback, the map took a quarter more.
 */
function mapped(rt: Runtime, self: Collection, command: string, args: unknown[]): unknown[] {
  // The command's name as it is, not made from the function's at each call (a map of three
  // elements in a loop took a third more).
  const cb = callbackOf(rt, command, args[0], args.slice(1))
  const items = self.items
  const made: unknown[] = new Array(items.length)
  let i = 0
  while (i < items.length) {
    const param = cb.element(items[i])
    made[i++] = element(cb.call(param))
    if (stopped(param)) break
  }
  made.length = i
  return made
}

/** `mapped` as steps. */
function* mappedSteps(
  rt: Runtime,
  self: Collection,
  command: string,
  args: unknown[],
): Work<unknown[]> {
  const made: unknown[] = new Array(self.length)
  made.length = yield* each(rt, self, command, args, (result, i) => {
    made[i] = element(result)
  })
  return made
}

/**
 * `items` flattened `depth` levels deep, each element gone through a pass, as work that gives way
 * when the ticks run out (values/resumable.ts): a plain loop run at once or as steps, no generator
 * made for the plain call (`.flat()` of three elements took six times as long with one). A
 * collection may hold itself: flattened deep, it doubles at each level, so the bound is checked
 * as it grows, before V8's array would. The collections being gone through are a stack of their
 * own, not a recursion.
 */
function flattening(
  items: readonly unknown[],
  depth: number,
): readonly [Made<unknown[]>, Resumable] {
  const max = limits().elements
  const made = { value: [] as unknown[] }
  const into = made.value
  const open = [{ items, at: 0, depth }]
  const work: Resumable = (rt) => {
    while (open.length > 0) {
      const top = open[open.length - 1]!
      if (top.at === top.items.length) {
        open.pop()
        continue
      }
      const item = top.items[top.at++]
      if (item instanceof Collection && top.depth > 0)
        open.push({ items: item.items, at: 0, depth: top.depth - 1 })
      else if (into.push(item) > max) withinLimit('elements', 'A collection', into.length)
      // Counted once gone through, so that the element the work gave way after is not again.
      if (--rt.ticks < 0) return false
    }
    return true
  }
  return [made, work]
}

/** `.reverse()`'s deep copy, reversed (nobody sees it before it is whole). */
function reversed(copy: unknown): Collection {
  const c = copy as Collection
  c.items.reverse()
  return c
}

/** Whether `.copy()` makes a shared copy. */
const sharedCopy = (option: unknown): boolean =>
  (optionalInteger('.copy()', 'option', option, 0) & SHARED) !== 0

/** The levels `.flat()` flattens. */
const levelsOf = (depth: unknown): number => optionalInteger('.flat()', 'depth', depth, 1)

/**
 * `.concat()`'s parts: this collection's elements, then each value's, a collection's elements in
 * its place; and their number.
 */
function parts(self: Collection, values: readonly unknown[]): [(readonly unknown[])[], number] {
  const sources = [self.items]
  let size = self.length
  for (const v of values) {
    const items = v instanceof Collection ? v.items : [element(v)]
    sources.push(items)
    size += items.length
  }
  return [sources, withinLimit('elements', 'A collection', size)]
}

/**
 * `.concat()`'s parts copied into an array of the result's length a block at a time, as steps (a
 * spread of one collection into `push` overflows the stack past some 120,000 elements).
 */
function* joined(rt: Passes, [sources, size]: [(readonly unknown[])[], number]): Work<Collection> {
  const made: unknown[] = new Array(size)
  let k = 0
  for (const from of sources)
    yield* byBlocks(rt, 0, from.length, (i, end) => {
      while (i < end) made[k++] = from[i++]
      return -1
    })
  return new Collection(made)
}

/** Where `.slice()` starts. */
const sliceStart = (self: Collection, startFrom: unknown): number =>
  fromStart(indexArg('slice', 'startFrom', startFrom), self.length)

/** Where `.slice()` starting at `from` ends (not included). */
function sliceEnd(self: Collection, from: number, end: unknown): number {
  const n = self.length
  return Math.max(from, end === undefined ? n : toEnd(indexArg('slice', 'end', end), n))
}

/** `.slice()`'s collection of the elements copied: shared when this one is. */
const sliced = (self: Collection, copy: unknown[]): Collection =>
  likeSource(self, new Collection(copy))

/**
 * `.slice()`'s copy as a scan (values/resumable.ts): native slices a block at a time, joined at
 * its last step.
 */
function slicing(self: Collection, [startFrom, end]: unknown[]): Scan<Collection> {
  const items = self.items
  const from = sliceStart(self, startFrom)
  const to = sliceEnd(self, from, end)
  const pieces: unknown[][] = []
  const block = (i: number, last: number): number => {
    pieces.push(items.slice(i, last))
    return -1
  }
  return { from, to, block, done: () => sliced(self, joinedPieces(pieces)) }
}

/**
 * `.extract()`'s loop, a block at a time, into `values`: the values at `path`; with target paths,
 * one object an element, the values at each property path written at its target path.
 */
function extraction(
  self: Collection,
  [path, ...rest]: unknown[],
): { readonly block: Block; readonly values: unknown[] } {
  const steps = pathSteps(textArg('.extract()', 'propertyPath', path))
  const items = self.items
  const values: unknown[] = []
  if (rest.length === 0 || typeof rest[0] === 'number') {
    const keepNull = (integerArg('.extract()', 'option', rest[0]) & KEEP_NULL) !== 0
    const block: Block = (i, end) => {
      for (; i < end; i++) {
        const v = readPath(items[i], steps)
        if (v !== null && v !== undefined) values.push(v)
        else if (keepNull) values.push(null)
      }
      return -1
    }
    return { block, values }
  }
  // propertyPath; targetPath {; propertyPath2; targetPath2…}.
  const pairs: { steps: readonly string[]; target: readonly string[] }[] = []
  const all = [path, ...rest]
  for (let i = 0; i + 1 < all.length; i += 2)
    pairs.push({
      steps: pathSteps(textArg('.extract()', 'propertyPath', all[i])),
      target: pathSteps(textArg('.extract()', 'targetPath', all[i + 1])),
    })
  const block: Block = (i, end) => {
    for (; i < end; i++) {
      const o = newObject()
      for (const { steps: s, target } of pairs) {
        const v = readPath(items[i], s)
        if (v !== undefined) writePath(o, target, v)
      }
      values.push(o)
    }
    return -1
  }
  return { block, values }
}

export const TRANSFORMING: readonly CollectionFunctionSpec[] = [
  {
    name: 'filter',
    signature: '(formula: any; ...params: any): Collection',
    // The plain call's own loop: through `each`, the bench's filter over 100k took a quarter more.
    impl: (rt, self, args) => {
      const cb = callbackOf(rt, '.filter()', args[0], args.slice(1))
      const items = self.items
      const kept: unknown[] = []
      for (let i = 0; i < items.length; i++) {
        const param = cb.element(items[i])
        if (cb.call(param) === true) kept.push(items[i])
        if (stopped(param)) break
      }
      return likeSource(self, new Collection(kept))
    },
    *steps(rt, self, args) {
      const items = self.items
      const kept: unknown[] = []
      yield* each(rt, self, '.filter()', args, (result, i) => {
        if (result === true) kept.push(items[i])
      })
      return likeSource(self, new Collection(kept))
    },
  },
  {
    name: 'map',
    signature: '(formula: any; ...params: any): Collection',
    impl: (rt, self, args) => new Collection(mapped(rt, self, '.map()', args)),
    *steps(rt, self, args) {
      return new Collection(yield* mappedSteps(rt, self, '.map()', args))
    },
  },
  {
    // The elements `.map()` makes, each flattened one level.
    name: 'flatMap',
    signature: '(formula: any; ...params: any): Collection',
    impl: (rt, self, args) =>
      new Collection(madeAll(flattening(mapped(rt, self, '.flatMap()', args), 1), rt)),
    *steps(rt, self, args) {
      const made = yield* mappedSteps(rt, self, '.flatMap()', args)
      return new Collection(yield* madeSteps(flattening(made, 1), rt))
    },
  },
  {
    name: 'flat',
    signature: '(depth?: Integer): Collection',
    impl: (rt, self, [depth]) =>
      new Collection(madeAll(flattening(self.items, levelsOf(depth)), rt)),
    *steps(rt, self, [depth]) {
      return new Collection(yield* madeSteps(flattening(self.items, levelsOf(depth)), rt))
    },
  },
  {
    name: 'slice',
    signature: '(startFrom: Integer; end?: Integer): Collection',
    // The plain call counts the elements a block at a time, then copies them in one native
    // slice: the slices of the steps, joined, took twice as long on a million elements.
    impl: (rt, self, [startFrom, end]) => {
      const from = sliceStart(self, startFrom)
      const to = sliceEnd(self, from, end)
      countNow(rt, to - from)
      return sliced(self, self.items.slice(from, to))
    },
    steps: (rt, self, args) => scanSteps(rt, slicing(self, args)),
  },
  {
    name: 'concat',
    signature: '(value: any; ...values: any): Collection',
    // The plain call of a block or less at once, with no generator.
    impl: (rt, self, values) => {
      const all = parts(self, values)
      if (!atOnce(rt, all[1])) return finish(joined(rt, all))
      const made: unknown[] = []
      for (const from of all[0]) for (const v of from) made.push(v)
      return new Collection(made)
    },
    steps: (rt, self, values) => joined(rt, parts(self, values)),
  },
  {
    name: 'reverse',
    signature: '(): Collection',
    impl: (rt, self) => reversed(deepCopy(self, self.shared, rt)),
    *steps(rt, self) {
      return reversed(yield* copySteps(self, self.shared, rt))
    },
  },
  {
    name: 'copy',
    signature: '(option?: Integer; groupWith?: any): Collection',
    impl: (rt, self, [option]) => deepCopy(self, sharedCopy(option), rt),
    steps: (rt, self, [option]) => copySteps(self, sharedCopy(option), rt),
  },
  {
    name: 'extract',
    signature: '(propertyPath: Text; ...optionOrTargetPaths: any): Collection',
    impl: (rt, self, args) => {
      const { block, values } = extraction(self, args)
      byBlocksNow(rt, 0, self.length, block)
      return new Collection(values)
    },
    *steps(rt, self, args) {
      const { block, values } = extraction(self, args)
      yield* byBlocks(rt, 0, self.length, block)
      return new Collection(values)
    },
  },
]
