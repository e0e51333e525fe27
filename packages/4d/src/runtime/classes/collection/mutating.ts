/**
 * @module The collection functions that modify the collection (docs/API/CollectionClass.md):
 * `.push()`, `.pop()`, `.shift()`, `.unshift()`, `.insert()`, `.remove()`, `.clear()`, `.fill()`,
 * `.resize()`, `.combine()`. Each stores values as an assignment does (a Time as its seconds,
 * Undefined as Null) and returns the collection, except `.pop()` and `.shift()`, which return
 * the element taken (Undefined from an empty collection).
 */
import { collectionArg } from '../../arguments/arguments.js'
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
    impl: (_rt, self, args) => {
      grown(self.items, args.length)
      self.items.unshift(...args.map(element))
      return self
    },
  },
  {
    name: 'insert',
    signature: '(index: Integer; element: any): Collection',
    impl: (_rt, self, [index, value]) => {
      const at = clampIndex(indexArg('insert', 'index', index), self.length)
      grown(self.items, 1)
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
    impl: (_rt, self, [value, startFrom, end]) => {
      const n = self.length
      const from =
        startFrom === undefined ? 0 : fromStart(indexArg('fill', 'startFrom', startFrom), n)
      const to = end === undefined ? n : toEnd(indexArg('fill', 'end', end), n)
      const v = element(value)
      for (let i = from; i < to; i++) self.items[i] = v
      return self
    },
  },
  {
    name: 'resize',
    signature: '(size: Integer; defaultValue?: any): Collection',
    impl: (_rt, self, [size, defaultValue]) => {
      const n = withinLimit(
        'elements',
        'A collection',
        Math.max(0, indexArg('resize', 'size', size)),
      )
      const v = element(defaultValue)
      if (n < self.length) self.items.length = n
      while (self.items.length < n) self.items.push(v)
      return self
    },
  },
  {
    name: 'combine',
    signature: '(col2: Collection; index?: Integer): Collection',
    impl: (_rt, self, [col2, index]) => {
      const other = collectionArg('.combine()', 'col2', col2)
      const at =
        index === undefined
          ? self.length
          : clampIndex(indexArg('combine', 'index', index), self.length)
      grown(self.items, other.length)
      self.items.splice(at, 0, ...other.items)
      return self
    },
  },
]
