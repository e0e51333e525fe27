/**
 * @module The collection functions that modify the collection (docs/API/CollectionClass.md):
 * `.push()`, `.pop()`, `.shift()`, `.unshift()`, `.insert()`, `.remove()`, `.clear()`, `.fill()`,
 * `.resize()`, `.combine()`. Each stores values as an assignment does (a Time as its seconds,
 * Undefined as Null) and returns the collection, except `.pop()` and `.shift()`, which return
 * the element taken (Undefined from an empty collection).
 *
 * The budget (context/budget.ts): `.fill()` and `.resize()` count each element they write as a
 * pass of the budget's (one the budget ended leaves the collection partly filled or grown, each
 * element whole); `.unshift()`, `.insert()` and `.combine()`, which move the elements after the
 * place (hundreds of milliseconds at the bound of elements), count them before, then move them in
 * one piece.
 */
import { collectionArg } from '../../arguments/arguments.js'
import { BLOCK, spend } from '../../values/passes.js'
import { stored } from '../../ops/members.js'
import { withinLimit } from '../../values/limits.js'
import type { CollectionFunctionSpec } from './define.js'
import { clampIndex, fromStart, indexArg, toEnd } from './positions.js'

// Refuses `by` more elements past the bound (values/limits.ts) before any is added.
const grown = (items: readonly unknown[], by: number): void => {
  withinLimit('elements', 'A collection', items.length + by)
}

/** A value as a collection element holds it. */
export const element = (v: unknown): unknown => (v === undefined ? null : stored(v))

export const MUTATING: readonly CollectionFunctionSpec[] = [
  {
    name: 'push',
    signature: '(...elements: any): Collection',
    impl: (_rt, self, args) => {
      grown(self.items, args.length)
      for (const v of args) self.items.push(element(v))
      return self
    },
  },
  {
    name: 'pop',
    signature: '(): any',
    impl: (_rt, self) => self.items.pop(),
  },
  {
    name: 'shift',
    signature: '(): any',
    impl: (_rt, self) => self.items.shift(),
  },
  {
    name: 'unshift',
    signature: '(...values: any): Collection',
    impl: (rt, self, args) => {
      grown(self.items, args.length)
      spend(rt, self.length)
      self.items.unshift(...args.map(element))
      return self
    },
  },
  {
    name: 'insert',
    signature: '(index: Integer; element: any): Collection',
    impl: (rt, self, [index, value]) => {
      const at = clampIndex(indexArg('insert', 'index', index), self.length)
      grown(self.items, 1)
      spend(rt, self.length - at)
      self.items.splice(at, 0, element(value))
      return self
    },
  },
  {
    name: 'remove',
    signature: '(index: Integer; howMany?: Integer): Collection',
    impl: (_rt, self, [index, howMany]) => {
      const at = clampIndex(indexArg('remove', 'index', index), self.length)
      const n = howMany === undefined ? 1 : indexArg('remove', 'howMany', howMany)
      if (n > 0) self.items.splice(at, n)
      return self
    },
  },
  {
    name: 'clear',
    signature: '(): Collection',
    impl: (_rt, self) => {
      self.items.length = 0
      return self
    },
  },
  {
    name: 'fill',
    signature: '(value: any; startFrom?: Integer; end?: Integer): Collection',
    impl: (rt, self, [value, startFrom, end]) => {
      const n = self.length
      const from =
        startFrom === undefined ? 0 : fromStart(indexArg('fill', 'startFrom', startFrom), n)
      const to = end === undefined ? n : toEnd(indexArg('fill', 'end', end), n)
      const v = element(value)
      for (let i = from; i < to;) {
        const stop = Math.min(to, i + BLOCK)
        spend(rt, stop - i)
        for (; i < stop; i++) self.items[i] = v
      }
      return self
    },
  },
  {
    name: 'resize',
    signature: '(size: Integer; defaultValue?: any): Collection',
    impl: (rt, self, [size, defaultValue]) => {
      const n = withinLimit(
        'elements',
        'A collection',
        Math.max(0, indexArg('resize', 'size', size)),
      )
      const v = element(defaultValue)
      if (n < self.length) self.items.length = n
      while (self.items.length < n) {
        if (--rt.ticks < 0) rt.tick()
        self.items.push(v)
      }
      return self
    },
  },
  {
    name: 'combine',
    signature: '(col2: Collection; index?: Integer): Collection',
    impl: (rt, self, [col2, index]) => {
      const other = collectionArg('.combine()', 'col2', col2)
      const at =
        index === undefined
          ? self.length
          : clampIndex(indexArg('combine', 'index', index), self.length)
      grown(self.items, other.length)
      // Counted before, then done in one piece: a collection is never left half combined. Not
      // spread into `splice`, which overflows the stack past some 120,000 elements.
      const items = self.items
      spend(rt, other.length + items.length - at)
      const added = other === self ? items.slice() : other.items
      const tail = items.splice(at)
      for (const v of added) items.push(v)
      for (const v of tail) items.push(v)
      return self
    },
  },
]
