/**
 * @module The collection functions that modify the collection (docs/API/CollectionClass.md):
 * `.push()`, `.pop()`, `.shift()`, `.unshift()`, `.insert()`, `.remove()`, `.clear()`, `.fill()`,
 * `.resize()`, `.combine()`. Each stores values as an assignment does (a Time as its seconds,
 * Undefined as Null) and returns the collection, except `.pop()` and `.shift()`, which return
 * the element taken (Undefined from an empty collection).
 *
 * The budget (context/budget.ts): what changes many elements counts them as passes of the
 * budget's before it changes anything, then makes its change in one piece: `.fill()` and
 * `.resize()` the elements they write, a block at a time; `.unshift()`, `.insert()`,
 * `.combine()` and `.remove()` the elements they move (hundreds of milliseconds at the bound of
 * elements), at once. A call the budget ends has changed nothing. As steps (values/work.ts), a
 * call in slices stops where the count runs its ticks out, before the change: a collection is
 * never seen half changed between two slices.
 */
import { collectionArg } from '../../arguments/arguments.js'
import { spend } from '../../values/passes.js'
import { stored } from '../../ops/members.js'
import { withinLimit } from '../../values/limits.js'
import type { Collection } from '../../values/collection.js'
import { byBlocks, countNow, NOTHING } from '../../values/resumable.js'
import type { CollectionFunctionSpec, CollectionSteps } from './define.js'
import { clampIndex, fromStart, indexArg, toEnd } from './positions.js'

// Refuses `by` more elements past the bound (values/limits.ts) before any is added.
const grown = (items: readonly unknown[], by: number): void => {
  withinLimit('elements', 'A collection', items.length + by)
}

/** A value as a collection element holds it. */
export const element = (v: unknown): unknown => (v === undefined ? null : stored(v))

/**
 * A change of the collection in place: `passes` checks the parameters and gives the elements the
 * change counts, before `change` makes it in one piece. A plain call (`impl`) counts them at once
 * (the elements moved) or a block at a time (the elements written, as a loop that writes them
 * would); it makes no generator and no closure (`.insert()` is called in loops, on small
 * collections).
 */
interface InPlace {
  passes(self: Collection, args: unknown[]): number
  change(self: Collection, args: unknown[]): Collection
}

/**
 * The steps of a change in place: its elements counted, `blocks` a block at a time with a stop
 * where the ticks run out, or at once with a stop after where they run out; then the change.
 */
function inPlaceSteps({ passes, change }: InPlace, blocks: boolean): CollectionSteps {
  return function* (rt, self, args) {
    const n = passes(self, args)
    if (blocks) yield* byBlocks(rt, 0, n, NOTHING)
    else if ((rt.ticks -= n) < 0) {
      rt.tick()
      yield
    }
    return change(self, args)
  }
}

/** Where `.insert()` inserts. */
const insertion = (self: Collection, index: unknown): number =>
  clampIndex(indexArg('insert', 'index', index), self.length)

const INSERT: InPlace = {
  passes(self, [index]) {
    const at = insertion(self, index)
    grown(self.items, 1)
    return self.length - at
  },
  change(self, [index, value]) {
    self.items.splice(insertion(self, index), 0, element(value))
    return self
  },
}

const UNSHIFT: InPlace = {
  passes(self, values) {
    grown(self.items, values.length)
    return self.length
  },
  change(self, values) {
    self.items.unshift(...values.map(element))
    return self
  },
}

/** Where `.remove()` removes. */
const removal = (self: Collection, index: unknown): number =>
  clampIndex(indexArg('remove', 'index', index), self.length)

/** How many `.remove()` removes. */
const removed = (howMany: unknown): number =>
  howMany === undefined ? 1 : indexArg('remove', 'howMany', howMany)

const REMOVE: InPlace = {
  passes(self, [index, howMany]) {
    const at = removal(self, index)
    const n = removed(howMany)
    return n > 0 ? Math.max(0, self.length - at - n) : 0
  },
  change(self, [index, howMany]) {
    const at = removal(self, index)
    const n = removed(howMany)
    if (n > 0) self.items.splice(at, n)
    return self
  },
}

/** Where `.combine()` puts the elements of `col2`. */
const combination = (self: Collection, index: unknown): number =>
  index === undefined ? self.length : clampIndex(indexArg('combine', 'index', index), self.length)

const COMBINE: InPlace = {
  passes(self, [col2, index]) {
    const other = collectionArg('.combine()', 'col2', col2)
    const at = combination(self, index)
    grown(self.items, other.length)
    return other.length + self.length - at
  },
  // Not spread into `splice`, which overflows the stack past some 120,000 elements.
  change(self, [col2, index]) {
    const items = self.items
    const other = col2 as Collection
    const added = other === self ? items.slice() : other.items
    const tail = items.splice(combination(self, index))
    for (const v of added) items.push(v)
    for (const v of tail) items.push(v)
    return self
  },
}

/** Where `.fill()` starts. */
const fillFrom = (self: Collection, startFrom: unknown): number =>
  startFrom === undefined ? 0 : fromStart(indexArg('fill', 'startFrom', startFrom), self.length)

/** Where `.fill()` ends (not included). */
const fillTo = (self: Collection, end: unknown): number =>
  end === undefined ? self.length : toEnd(indexArg('fill', 'end', end), self.length)

const FILL: InPlace = {
  passes: (self, [, startFrom, end]) => Math.max(0, fillTo(self, end) - fillFrom(self, startFrom)),
  change(self, [value, startFrom, end]) {
    const v = element(value)
    const items = self.items
    for (let i = fillFrom(self, startFrom), to = fillTo(self, end); i < to; i++) items[i] = v
    return self
  },
}

/** The size `.resize()` gives. */
const resized = (size: unknown): number =>
  withinLimit('elements', 'A collection', Math.max(0, indexArg('resize', 'size', size)))

const RESIZE: InPlace = {
  passes: (self, [size]) => Math.max(0, resized(size) - self.length),
  change(self, [size, defaultValue]) {
    const n = resized(size)
    const v = element(defaultValue)
    const items = self.items
    if (n < items.length) items.length = n
    while (items.length < n) items.push(v)
    return self
  },
}

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
      spend(rt, UNSHIFT.passes(self, args))
      return UNSHIFT.change(self, args)
    },
    steps: inPlaceSteps(UNSHIFT, false),
  },
  {
    name: 'insert',
    signature: '(index: Integer; element: any): Collection',
    impl: (rt, self, args) => {
      spend(rt, INSERT.passes(self, args))
      return INSERT.change(self, args)
    },
    steps: inPlaceSteps(INSERT, false),
  },
  {
    name: 'remove',
    signature: '(index: Integer; howMany?: Integer): Collection',
    impl: (rt, self, args) => {
      spend(rt, REMOVE.passes(self, args))
      return REMOVE.change(self, args)
    },
    steps: inPlaceSteps(REMOVE, false),
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
    impl: (rt, self, args) => {
      countNow(rt, FILL.passes(self, args))
      return FILL.change(self, args)
    },
    steps: inPlaceSteps(FILL, true),
  },
  {
    name: 'resize',
    signature: '(size: Integer; defaultValue?: any): Collection',
    impl: (rt, self, args) => {
      countNow(rt, RESIZE.passes(self, args))
      return RESIZE.change(self, args)
    },
    steps: inPlaceSteps(RESIZE, true),
  },
  {
    name: 'combine',
    signature: '(col2: Collection; index?: Integer): Collection',
    impl: (rt, self, args) => {
      spend(rt, COMBINE.passes(self, args))
      return COMBINE.change(self, args)
    },
    steps: inPlaceSteps(COMBINE, false),
  },
]
