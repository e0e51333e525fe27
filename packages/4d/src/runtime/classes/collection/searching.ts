/**
 * @module The collection functions that look for elements (docs/API/CollectionClass.md):
 * `.at()`, `.first()`, `.last()`, `.indexOf()`, `.lastIndexOf()`, `.includes()`, `.find()`,
 * `.findIndex()`, `.every()`, `.some()`, `.count()`, `.countValues()`. None modifies the
 * collection. A `startFrom` past the end searches nothing; a negative one counts from the end and
 * the search still goes left to right (`.lastIndexOf()` right to left, its own rules).
 *
 * Each element looked at is a pass of the budget's (context/budget.ts), so that a search through
 * millions of elements ends at the budget with 9410; a callback counts its own calls.
 */
import { textArg } from '../../arguments/arguments.js'
import type { Runtime } from '../../context/runtime.js'
import { BLOCK, spend } from '../../values/passes.js'
import type { Collection } from '../../values/collection.js'
import { callbackOf, startAndCallback, stopped, type CallbackParam } from './callbacks.js'
import type { CollectionFunctionSpec } from './define.js'
import { sameElement } from './equality.js'
import { pathSteps, readPath } from './paths.js'
import { fromStart, indexArg } from './positions.js'

/** The first index of `search` from `start`, or -1. */
function indexOf(rt: Runtime, self: Collection, search: unknown, start: number): number {
  const items = self.items
  const n = items.length
  for (let i = fromStart(start, n); i < n;) {
    const end = Math.min(n, i + BLOCK)
    spend(rt, end - i)
    for (; i < end; i++) if (sameElement(items[i], search)) return i
  }
  return -1
}

/**
 * Runs a test callback from `startFrom` until `decide` says the test is over: the index where it
 * stopped (a `$1.stop`, or the element `decide` was looking for), or -1 when it went through.
 */
function scan(
  rt: Runtime,
  self: Collection,
  fn: string,
  args: readonly unknown[],
  decide: (result: unknown) => boolean,
): { index: number; last: unknown } {
  const { start, fn: callback, extra } = startAndCallback(args)
  const cb = callbackOf(rt, `.${fn}()`, callback, extra)
  const items = self.items
  let last: unknown = undefined
  const from = start === undefined ? 0 : fromStart(indexArg(fn, 'startFrom', start), items.length)
  for (let i = from; i < items.length; i++) {
    const param: CallbackParam = cb.element(items[i])
    last = cb.call(param)
    if (decide(last) || stopped(param)) return { index: i, last }
  }
  return { index: -1, last }
}

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
    impl: (rt, self, [search, start]) =>
      indexOf(rt, self, search, start === undefined ? 0 : indexArg('indexOf', 'startFrom', start)),
  },
  {
    name: 'includes',
    signature: '(toSearch: any; startFrom?: Integer): Boolean',
    impl: (rt, self, [search, start]) =>
      indexOf(
        rt,
        self,
        search,
        start === undefined ? 0 : indexArg('includes', 'startFrom', start),
      ) >= 0,
  },
  {
    name: 'lastIndexOf',
    signature: '(toSearch: any; startFrom?: Integer): Integer',
    impl: (rt, self, [search, start]) => {
      const n = self.length
      let from = start === undefined ? n - 1 : indexArg('lastIndexOf', 'startFrom', start)
      if (from < 0) from += n
      // startFrom = 0 searches nothing (CollectionClass.md); past the end, the whole collection.
      if (from < 0 || (start !== undefined && from === 0)) return -1
      for (let i = Math.min(from, n - 1); i >= 0;) {
        const end = Math.max(-1, i - BLOCK)
        spend(rt, i - end)
        for (; i > end; i--) if (sameElement(self.items[i], search)) return i
      }
      return -1
    },
  },
  {
    name: 'find',
    signature: '(...startFromFormulaAndParams: any): any',
    impl: (rt, self, args) => {
      const { index, last } = scan(rt, self, 'find', args, isTrue)
      return index >= 0 && last === true ? self.items[index] : undefined
    },
  },
  {
    name: 'findIndex',
    signature: '(...startFromFormulaAndParams: any): Integer',
    impl: (rt, self, args) => {
      const { index, last } = scan(rt, self, 'findIndex', args, isTrue)
      return last === true ? index : -1
    },
  },
  {
    name: 'every',
    signature: '(...startFromFormulaAndParams: any): Boolean',
    impl: (rt, self, args) => {
      const { start } = startAndCallback(args)
      if (start !== undefined && fromStart(start, self.length) >= self.length) return false
      const { index, last } = scan(rt, self, 'every', args, (r) => r !== true)
      return index < 0 ? true : last === true
    },
  },
  {
    name: 'some',
    signature: '(...startFromFormulaAndParams: any): Boolean',
    impl: (rt, self, args) => {
      const { last, index } = scan(rt, self, 'some', args, isTrue)
      return index >= 0 && last === true
    },
  },
  {
    name: 'count',
    signature: '(propertyPath?: Text): Real',
    impl: (rt, self, [path]) => {
      const steps =
        path === undefined ? undefined : pathSteps(textArg('.count()', 'propertyPath', path))
      const items = self.items
      let n = 0
      for (let i = 0; i < items.length;) {
        const end = Math.min(items.length, i + BLOCK)
        spend(rt, end - i)
        for (; i < end; i++) {
          const v = steps === undefined ? items[i] : readPath(items[i], steps)
          if (v !== null && v !== undefined) n++
        }
      }
      return n
    },
  },
  {
    name: 'countValues',
    signature: '(value: any; propertyPath?: Text): Real',
    impl: (rt, self, [value, path]) => {
      const steps =
        path === undefined ? undefined : pathSteps(textArg('.countValues()', 'propertyPath', path))
      let n = 0
      for (const item of self.items) {
        if (--rt.ticks < 0) rt.tick()
        if (sameElement(steps === undefined ? item : readPath(item, steps), value)) n++
      }
      return n
    },
  },
]
