/**
 * @module The Arrays theme (docs/commands/theme/Arrays.md) on 4D's arrays (arrays/four-d-array.ts):
 * `ARRAY TEXT/LONGINT/INTEGER/REAL/BOOLEAN/DATE/TIME/OBJECT ($a; size {; size2})` create the array
 * in the variable, or resize the one it holds (new elements take the type's default, elements past
 * the new size are lost); `Size of array`, `APPEND TO ARRAY`, `INSERT IN ARRAY`,
 * `DELETE FROM ARRAY`, `Find in array`, `Count in array` (4D's `=`, so `@` is a wildcard in a
 * text), `Find in sorted array`, `SORT ARRAY` (the other arrays follow the first one's order),
 * `COPY ARRAY`, `COLLECTION TO ARRAY` and `ARRAY TO COLLECTION` (elements converted to the array's
 * type; a Null to its default). Pointer, picture and BLOB arrays do not run here.
 *
 * The commands that go through an array count each element (and `SORT ARRAY` each comparison) as
 * a pass of the budget's (context/budget.ts): one call over millions of elements ends at the
 * budget with 9410.
 */
import { toBool, toDate, toNum, toText, toTime } from '../convert/conversions.js'
import { countedCompare, spend, type Passes } from '../values/passes.js'
import { FourDError } from '../errors/fourd-error.js'
import { eq, gt, lt } from '../ops/compare.js'
import { newObject } from '../values/kinds.js'
import { Collection } from '../values/collection.js'
import { withinLimit } from '../values/limits.js'
import { arrayOf, FourDArray, type ArrayType } from '../arrays/four-d-array.js'
import {
  collectionArg,
  integerArg,
  invalid,
  optionalInteger,
  textArg,
} from '../arguments/arguments.js'
import { outArg } from '../arguments/out-parameter.js'
import { SYMBOLS } from '../arguments/symbols.js'
import type { CommandSpec } from './table.js'

/** `ARRAY <TYPE>(array; size {; size2})`: a new array in the variable, or the one it holds resized. */
const declare = (number: number, type: ArrayType, suffix = type.toUpperCase()): CommandSpec => {
  const name = `ARRAY ${suffix}`
  return {
    number,
    name,
    signature: '(arrayName: any; size: Integer; size2?: Integer)',
    writes: [0],
    impl: (rt, variable, size, size2) => {
      const out = outArg(name, 'arrayName', variable)
      const rows = integerArg(name, 'size', size)
      const columns = size2 === undefined ? undefined : integerArg(name, 'size2', size2)
      // The elements of all the rows are the array's.
      if (columns !== undefined) withinLimit('elements', 'An array', rows * columns)
      const current = out.get()
      if (current instanceof FourDArray && current.type === type && current.columns === columns) {
        current.resize(rows, rt)
        if (columns !== undefined)
          for (const row of current.items) (row as FourDArray).resize(columns, rt)
      } else {
        const made = new FourDArray(type, columns, 0)
        made.resize(rows, rt)
        out.set(made)
      }
    },
  }
}

/** The 4D array an argument must be, named in the error. */
const array = (command: string, v: unknown): FourDArray => arrayOf(v, command)

/** What a collection element becomes in an array of `type` (Null its default). */
function fromCollection(a: FourDArray, v: unknown): unknown {
  if (v === null || v === undefined) return a.blank()
  try {
    return a.convert(v)
  } catch (e) {
    if (!FourDError.is(e)) throw e
    switch (a.type) {
      case 'Text':
        return toText(v)
      case 'Integer':
      case 'Longint':
      case 'Real':
        return a.convert(toNum(v))
      case 'Boolean':
        return toBool(v)
      case 'Date':
        return toDate(v)
      case 'Time':
        return toTime(v)
      default:
        throw e
    }
  }
}

/** The `array; propertyName` pairs after a collection (`propertyName` optional for one array). */
function pairs(command: string, rest: unknown[]): { array: FourDArray; property?: string }[] {
  if (rest.length === 1) return [{ array: array(command, rest[0]) }]
  if (rest.length % 2 !== 0)
    return invalid(command, 'propertyName', 'each array needs its property name')
  const out: { array: FourDArray; property: string }[] = []
  for (let i = 0; i < rest.length; i += 2)
    out.push({
      array: array(command, rest[i]),
      property: textArg(command, 'propertyName', rest[i + 1]),
    })
  return out
}

// A text with `@` elsewhere than at its end matches elements that need not be together.
const scattered = (v: unknown): boolean => typeof v === 'string' && /@(?!$)/.test(v)

/** `Find in sorted array`: found or not, and the first and last positions (or where to insert). */
function findSorted(
  rt: Passes,
  a: FourDArray,
  value: unknown,
  descending: boolean,
): [boolean, number, number] {
  const items = a.items
  let first = -1
  let last = -1
  for (let i = 1; i < items.length; i++) {
    if (--rt.ticks < 0) rt.tick()
    if (eq(items[i], value)) {
      if (first < 0) first = i
      last = i
    }
  }
  if (first > 0) return [true, first, last]
  if (a.type === 'Boolean' || a.type === 'Object' || scattered(value)) return [false, -1, -1]
  let at = 1
  while (at < items.length && (descending ? gt(items[at], value) : lt(items[at], value))) {
    if (--rt.ticks < 0) rt.tick()
    at++
  }
  return [false, at, at]
}

export const ARRAY_COMMANDS: readonly CommandSpec[] = [
  declare(222, 'Text'),
  declare(221, 'Longint'),
  declare(220, 'Integer'),
  declare(219, 'Real'),
  declare(223, 'Boolean'),
  declare(224, 'Date'),
  declare(1223, 'Time'),
  declare(1221, 'Object'),
  { number: 280, name: 'ARRAY POINTER', notRunnable: 'pointers' },
  { number: 279, name: 'ARRAY PICTURE', notRunnable: 'pictures' },
  { number: 1222, name: 'ARRAY BLOB', notRunnable: 'BLOBs' },
  {
    number: 274,
    name: 'Size of array',
    signature: '(array: any): Integer',
    impl: (_rt, a) => array('Size of array', a).size,
  },
  {
    number: 911,
    name: 'APPEND TO ARRAY',
    signature: '(array: any; value: any)',
    impl: (_rt, a, v) => {
      const target = array('APPEND TO ARRAY', a)
      withinLimit('elements', 'An array', target.size + 1)
      target.items.push(target.convert(v))
    },
  },
  {
    number: 227,
    name: 'INSERT IN ARRAY',
    signature: '(array: any; where: Integer; howMany?: Integer)',
    impl: (rt, a, where, howMany) => {
      const target = array('INSERT IN ARRAY', a)
      const n = optionalInteger('INSERT IN ARRAY', 'howMany', howMany, 1)
      // Past the end, the new elements are added at the end (insert-in-array.md).
      const at = Math.min(
        Math.max(1, integerArg('INSERT IN ARRAY', 'where', where)),
        target.size + 1,
      )
      if (n <= 0) return
      withinLimit('elements', 'An array', target.size + n)
      // Made anew, each element a pass of the budget's, then put in place at once: an array the
      // budget ended is as it was. (A spread into `splice` overflows the stack past some 120,000.)
      const items = target.items
      spend(rt, at)
      const made = items.slice(0, at)
      for (let i = 0; i < n; i++) {
        if (--rt.ticks < 0) rt.tick()
        made.push(target.blank())
      }
      for (let i = at; i < items.length; i++) {
        if (--rt.ticks < 0) rt.tick()
        made.push(items[i])
      }
      target.items = made
    },
  },
  {
    number: 228,
    name: 'DELETE FROM ARRAY',
    signature: '(array: any; where: Integer; howMany?: Integer)',
    impl: (_rt, a, where, howMany) => {
      const target = array('DELETE FROM ARRAY', a)
      const n = optionalInteger('DELETE FROM ARRAY', 'howMany', howMany, 1)
      const at = integerArg('DELETE FROM ARRAY', 'where', where)
      if (at >= 1 && at <= target.size && n > 0) target.items.splice(at, n)
    },
  },
  {
    number: 230,
    name: 'Find in array',
    signature: '(array: any; value: any; start?: Integer): Integer',
    impl: (rt, a, value, start) => {
      const items = array('Find in array', a).items
      const from = Math.max(1, optionalInteger('Find in array', 'start', start, 1))
      for (let i = from; i < items.length; i++) {
        if (--rt.ticks < 0) rt.tick()
        if (eq(items[i], value)) return i
      }
      return -1
    },
  },
  {
    number: 907,
    name: 'Count in array',
    signature: '(array: any; value: any): Integer',
    impl: (rt, a, value) => {
      const items = array('Count in array', a).items
      let n = 0
      for (let i = 1; i < items.length; i++) {
        if (--rt.ticks < 0) rt.tick()
        if (eq(items[i], value)) n++
      }
      return n
    },
  },
  {
    number: 1333,
    name: 'Find in sorted array',
    signature:
      '(array: any; value: any; order: any; posFirst?: Integer; posLast?: Integer): Boolean',
    writes: [3, 4],
    impl: (rt, a, value, order, posFirst, posLast) => {
      const [found, first, last] = findSorted(
        rt,
        array('Find in sorted array', a),
        value,
        order === SYMBOLS['<'],
      )
      if (posFirst !== undefined) outArg('Find in sorted array', 'posFirst', posFirst).set(first)
      if (posLast !== undefined) outArg('Find in sorted array', 'posLast', posLast).set(last)
      return found
    },
  },
  {
    number: 229,
    name: 'SORT ARRAY',
    signature: '(...arrays: any)',
    impl: (rt, ...args) => {
      const last = args.at(-1)
      const descending = last === SYMBOLS['<']
      const arrays = (
        last === SYMBOLS['<'] || last === SYMBOLS['>'] ? args.slice(0, -1) : args
      ).map((a) => array('SORT ARRAY', a))
      const first = arrays[0]
      if (first === undefined) return invalid('SORT ARRAY', 'array', 'an array is needed')
      if (first.columns !== undefined)
        return invalid('SORT ARRAY', 'array', 'a two-dimensional array cannot be sorted')
      const keys = first.items.slice(1)
      const order = keys.map((_, i) => i)
      const compare = (x: unknown, y: unknown): number => (lt(x, y) ? -1 : gt(x, y) ? 1 : 0)
      order.sort(
        countedCompare(
          rt,
          (i: number, j: number) => (descending ? -1 : 1) * compare(keys[i], keys[j]),
        ),
      )
      for (const a of arrays) {
        const items = a.items.slice(1)
        a.items = [a.items[0], ...order.map((i) => items[i] ?? a.blank())]
      }
    },
  },
  {
    number: 226,
    name: 'COPY ARRAY',
    signature: '(source: any; destination: any)',
    writes: [1],
    impl: (rt, source, destination) => {
      outArg('COPY ARRAY', 'destination', destination).set(copyOf(rt, array('COPY ARRAY', source)))
    },
  },
  {
    number: 1562,
    name: 'COLLECTION TO ARRAY',
    signature: '(collection: Collection; array: any; ...more: any)',
    impl: (rt, c, ...rest) => {
      const items = collectionArg('COLLECTION TO ARRAY', 'collection', c).items
      for (const { array: a, property } of pairs('COLLECTION TO ARRAY', rest)) {
        a.resize(0)
        for (const item of items) {
          if (--rt.ticks < 0) rt.tick()
          const v =
            property === undefined || property === ''
              ? item
              : typeof item === 'object' && item !== null && !(item instanceof Collection)
                ? (item as Record<string, unknown>)[property]
                : undefined
          a.items.push(fromCollection(a, v))
        }
      }
    },
  },
  {
    number: 1563,
    name: 'ARRAY TO COLLECTION',
    signature: '(collection: Collection; array: any; ...more: any)',
    impl: (rt, c, ...rest) => {
      const collection = collectionArg('ARRAY TO COLLECTION', 'collection', c)
      const list = pairs('ARRAY TO COLLECTION', rest)
      const length = Math.max(...list.map((p) => p.array.size))
      const items: unknown[] = []
      for (let i = 1; i <= length; i++) {
        if (--rt.ticks < 0) rt.tick()
        if (list.length === 1 && list[0]!.property === undefined) {
          items.push(list[0]!.array.items[i] ?? null)
          continue
        }
        const o = newObject()
        for (const { array: a, property } of list)
          if (i <= a.size) o[property ?? ''] = a.items[i] ?? null
        items.push(o)
      }
      // Replaced once all are made (a spread into `push` overflows the stack on a large array).
      collection.items.length = 0
      for (const v of items) collection.items.push(v)
    },
  },
]

/** A new array with the same elements (the rows of a two-dimensional one copied too). */
function copyOf(rt: Passes, a: FourDArray): FourDArray {
  const copy = new FourDArray(a.type, a.columns, 0)
  copy.items = a.items.map((v) => {
    if (--rt.ticks < 0) rt.tick()
    return v instanceof FourDArray ? copyOf(rt, v) : v
  })
  return copy
}
