/**
 * @module The collection functions that look for elements (docs/API/CollectionClass.md):
 * `.at()`, `.first()`, `.last()`, `.indexOf()`, `.lastIndexOf()`, `.includes()`, `.find()`,
 * `.findIndex()`, `.every()`, `.some()`, `.count()`, `.countValues()`. None modifies the
 * collection. A `startFrom` past the end searches nothing; a negative one counts from the end and
 * the search still goes left to right (`.lastIndexOf()` right to left, its own rules).
 *
 * Each element looked at is a pass of the budget's (context/budget.ts), counted a block at a time
 * (values/resumable.ts), so that a search through millions of elements ends at the budget with 9410; a
 * callback counts its own calls. The searches are written as steps (values/work.ts): a call in
 * slices stops between two blocks, or between two calls of a callback, and goes into a
 * callback's own steps.
 */
import { textArg } from '../../arguments/arguments.js'
import type { Runtime } from '../../context/runtime.js'
import type { Collection } from '../../values/collection.js'
import type { Passes } from '../../values/passes.js'
import { finish, type Work } from '../../values/work.js'
import { atOnce, byBlocks } from '../../values/resumable.js'
import {
  callbackOf,
  eachElement,
  eachNow,
  startAndCallback,
  type Callback,
  type Ended,
  type Take,
} from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { sameElement } from './equality.js'
import { pathSteps, readPath } from './paths.js'
import { fromStart, indexArg } from './positions.js'

// Each search is a block's loop (a plain function), the plain call's of a small collection at
// once (values/resumable.ts `atOnce`), the steps' a block at a time.

/** Where `.indexOf()` or `.includes()` starts. */
const startOf = (self: Collection, fn: string, start: unknown): number =>
  start === undefined ? 0 : fromStart(indexArg(fn, 'startFrom', start), self.length)

/** The first index of `search` among the elements from `i` to `end` (not included), or -1. */
function firstIn(items: readonly unknown[], search: unknown, i: number, end: number): number {
  for (; i < end; i++) if (sameElement(items[i], search)) return i
  return -1
}

const indexSteps = (rt: Passes, self: Collection, search: unknown, from: number): Work<number> =>
  byBlocks(rt, from, self.length, (i, end) => firstIn(self.items, search, i, end))

/** The first index of `search` from `from`, or -1. */
function indexOf(rt: Passes, self: Collection, search: unknown, from: number): number {
  const n = self.length
  return atOnce(rt, n - from)
    ? firstIn(self.items, search, from, n)
    : finish(indexSteps(rt, self, search, from))
}

/** Where `.lastIndexOf()` starts, going back: -1 for nowhere. */
function lastStart(self: Collection, start: unknown): number {
  const n = self.length
  let from = start === undefined ? n - 1 : indexArg('lastIndexOf', 'startFrom', start)
  if (from < 0) from += n
  // startFrom = 0 searches nothing (CollectionClass.md); past the end, the whole collection.
  return from < 0 || (start !== undefined && from === 0) ? -1 : Math.min(from, n - 1)
}

/**
 * The last index of `search` from `top` back, among the elements `k` to `end` (not included)
 * counted from `top` down, or -1.
 */
function lastIn(
  items: readonly unknown[],
  search: unknown,
  top: number,
  k: number,
  end: number,
): number {
  for (; k < end; k++) if (sameElement(items[top - k], search)) return top - k
  return -1
}

const lastSteps = (rt: Passes, self: Collection, search: unknown, top: number): Work<number> =>
  byBlocks(rt, 0, top + 1, (k, end) => lastIn(self.items, search, top, k, end))

/**
 * What `.count()` and `.countValues()` count: the elements (their values at a path) it is true
 * of, with the value looked for.
 */
type Test = (v: unknown, value: unknown) => boolean

/** The elements from `i` to `end` (not included) that `test` is true of, at `steps` in each. */
function countIn(
  items: readonly unknown[],
  steps: readonly string[] | undefined,
  test: Test,
  value: unknown,
  i: number,
  end: number,
): number {
  let n = 0
  for (; i < end; i++)
    if (test(steps === undefined ? items[i] : readPath(items[i], steps), value)) n++
  return n
}

/** The count of `.count()` or `.countValues()`, a block at a time. */
function* countSteps(
  rt: Passes,
  self: Collection,
  steps: readonly string[] | undefined,
  test: Test,
  value?: unknown,
): Work<number> {
  let n = 0
  yield* byBlocks(rt, 0, self.length, (i, end) => {
    n += countIn(self.items, steps, test, value, i, end)
    return -1
  })
  return n
}

/** The path of `.count()` or `.countValues()` (`command`), in steps. */
const pathOf = (command: string, path: unknown): readonly string[] | undefined =>
  path === undefined ? undefined : pathSteps(textArg(command, 'propertyPath', path))

/** The count of `.count()` or `.countValues()`, for the plain call. */
function countOf(
  rt: Passes,
  self: Collection,
  command: string,
  path: unknown,
  test: Test,
  value?: unknown,
): number {
  const steps = pathOf(command, path)
  return atOnce(rt, self.length)
    ? countIn(self.items, steps, test, value, 0, self.length)
    : finish(countSteps(rt, self, steps, test, value))
}

const present: Test = (v) => v !== null && v !== undefined

/** A test callback's loop: the callback, and the index it starts at. */
function tested(rt: Runtime, self: Collection, fn: string, args: readonly unknown[]): Tested {
  const { start, fn: callback, extra } = startAndCallback(args)
  const cb = callbackOf(rt, `.${fn}()`, callback, extra)
  const from = start === undefined ? 0 : fromStart(indexArg(fn, 'startFrom', start), self.length)
  return { cb, from }
}

interface Tested {
  readonly cb: Callback
  readonly from: number
}

/**
 * Runs a test callback from `startFrom` until `decide` says the test is over (a `$1.stop`, or the
 * element `decide` was looking for): where it ended, and the last result.
 */
function scan(
  rt: Runtime,
  self: Collection,
  fn: string,
  args: readonly unknown[],
  decide: Take,
): Ended {
  const { cb, from } = tested(rt, self, fn, args)
  return eachNow(cb, self.items, from, decide)
}

/** `scan` as steps, for a call in slices. */
function scanSteps(
  rt: Runtime,
  self: Collection,
  fn: string,
  args: readonly unknown[],
  decide: Take,
): Work<Ended> {
  const { cb, from } = tested(rt, self, fn, args)
  return eachElement(rt, cb, self.items, from, decide)
}

// What each test gives from where its loop ended.
const foundElement = (self: Collection, { index, last }: Ended): unknown =>
  index >= 0 && last === true ? self.items[index] : undefined
const foundIndex = ({ index, last }: Ended): number => (last === true ? index : -1)
const all = ({ index, last }: Ended): boolean => index < 0 || last === true
const any = ({ index, last }: Ended): boolean => index >= 0 && last === true

/** `.every()` from a `startFrom` past the end: False, with no callback. */
function pastEnd(self: Collection, args: readonly unknown[]): boolean {
  const { start } = startAndCallback(args)
  return start !== undefined && fromStart(start, self.length) >= self.length
}

const isNotTrue = (v: unknown): boolean => v !== true
const isTrue = (v: unknown): boolean => v === true

export const SEARCHING: readonly CollectionFunctionSpec[] = [
  {
    name: 'at',
    signature: '(index: Integer): any',
    impl: (_rt, self, [index]) => {
      const i = indexArg('at', 'index', index)
      return self.at(i < 0 ? i + self.length : i)
    },
  },
  { name: 'first', signature: '(): any', impl: (_rt, self) => self.at(0) },
  { name: 'last', signature: '(): any', impl: (_rt, self) => self.at(self.length - 1) },
  {
    name: 'indexOf',
    signature: '(toSearch: any; startFrom?: Integer): Integer',
    impl: (rt, self, [search, start]) => indexOf(rt, self, search, startOf(self, 'indexOf', start)),
    steps: (rt, self, [search, start]) =>
      indexSteps(rt, self, search, startOf(self, 'indexOf', start)),
  },
  {
    name: 'includes',
    signature: '(toSearch: any; startFrom?: Integer): Boolean',
    impl: (rt, self, [search, start]) =>
      indexOf(rt, self, search, startOf(self, 'includes', start)) >= 0,
    *steps(rt, self, [search, start]) {
      return (yield* indexSteps(rt, self, search, startOf(self, 'includes', start))) >= 0
    },
  },
  {
    name: 'lastIndexOf',
    signature: '(toSearch: any; startFrom?: Integer): Integer',
    impl: (rt, self, [search, start]) => {
      const top = lastStart(self, start)
      return atOnce(rt, top + 1)
        ? lastIn(self.items, search, top, 0, top + 1)
        : finish(lastSteps(rt, self, search, top))
    },
    steps: (rt, self, [search, start]) => lastSteps(rt, self, search, lastStart(self, start)),
  },
  {
    name: 'find',
    signature: '(...startFromFormulaAndParams: any): any',
    impl: (rt, self, args) => foundElement(self, scan(rt, self, 'find', args, isTrue)),
    *steps(rt, self, args) {
      return foundElement(self, yield* scanSteps(rt, self, 'find', args, isTrue))
    },
  },
  {
    name: 'findIndex',
    signature: '(...startFromFormulaAndParams: any): Integer',
    impl: (rt, self, args) => foundIndex(scan(rt, self, 'findIndex', args, isTrue)),
    *steps(rt, self, args) {
      return foundIndex(yield* scanSteps(rt, self, 'findIndex', args, isTrue))
    },
  },
  {
    name: 'every',
    signature: '(...startFromFormulaAndParams: any): Boolean',
    impl: (rt, self, args) => !pastEnd(self, args) && all(scan(rt, self, 'every', args, isNotTrue)),
    *steps(rt, self, args) {
      return !pastEnd(self, args) && all(yield* scanSteps(rt, self, 'every', args, isNotTrue))
    },
  },
  {
    name: 'some',
    signature: '(...startFromFormulaAndParams: any): Boolean',
    impl: (rt, self, args) => any(scan(rt, self, 'some', args, isTrue)),
    *steps(rt, self, args) {
      return any(yield* scanSteps(rt, self, 'some', args, isTrue))
    },
  },
  {
    name: 'count',
    signature: '(propertyPath?: Text): Real',
    impl: (rt, self, [path]) => countOf(rt, self, '.count()', path, present),
    steps: (rt, self, [path]) => countSteps(rt, self, pathOf('.count()', path), present),
  },
  {
    name: 'countValues',
    signature: '(value: any; propertyPath?: Text): Real',
    impl: (rt, self, [value, path]) =>
      countOf(rt, self, '.countValues()', path, sameElement, value),
    steps: (rt, self, [value, path]) =>
      countSteps(rt, self, pathOf('.countValues()', path), sameElement, value),
  },
]
