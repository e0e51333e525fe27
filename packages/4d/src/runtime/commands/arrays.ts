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
 * budget with 9410. They are written as steps (values/work.ts): a call in slices stops inside
 * them, and one that changes an array makes the new elements aside and puts them in place at its
 * last step, so that no other request sees it half done, and a call the budget ends leaves it as
 * it was.
 */
import { toBool, toDate, toNum, toText, toTime } from '../convert/conversions.js'
import { spend } from '../values/passes.js'
import { sortSteps } from '../values/sort-steps.js'
import { finish } from '../values/work.js'
import { FourDError } from '../errors/fourd-error.js'
import { gt, lt } from '../ops/compare.js'
import { newObject } from '../values/kinds.js'
import { Collection } from '../values/collection.js'
import { withinLimit } from '../values/limits.js'
import { arrayOf, FourDArray, resizing, type ArrayType } from '../arrays/four-d-array.js'
import {
  collectionArg,
  integerArg,
  invalid,
  optionalInteger,
  textArg,
} from '../arguments/arguments.js'
import { outArg } from '../arguments/out-parameter.js'
import { SYMBOLS } from '../arguments/symbols.js'
import {
  atOnce,
  countNow,
  joinedPieces,
  runSteps,
  scanSteps,
  type Scan,
} from '../values/resumable.js'
import { countIn, countSteps, findArgs, findIn, findSorted, findSteps } from './array-scans.js'
import { scanning } from './plain-forms.js'
import type { CommandSpec } from './table.js'

/**
 * `ARRAY <TYPE>(array; size {; size2})`: a new array in the variable, or the one it holds resized
 * (arrays/four-d-array.ts `resize`; as steps, `resizing`: the array held changed at the last
 * step, a new one filled a block at a time and put in the variable then).
 */
const declare = (number: number, type: ArrayType, suffix = type.toUpperCase()): CommandSpec => {
  const name = `ARRAY ${suffix}`
  // The array the declaration resizes, to `rows` (rows of `columns`), and its last step.
  const declared = (variable: unknown, size: unknown, size2: unknown) => {
    const out = outArg(name, 'arrayName', variable)
    const rows = integerArg(name, 'size', size)
    const columns = size2 === undefined ? undefined : integerArg(name, 'size2', size2)
    // The elements of all the rows are the array's.
    if (columns !== undefined) withinLimit('elements', 'An array', rows * columns)
    const current = out.get()
    if (current instanceof FourDArray && current.type === type && current.columns === columns)
      return { array: current, rows, columns, fresh: false, done: () => undefined }
    const array = new FourDArray(type, columns, 0)
    return { array, rows, columns, fresh: true, done: () => out.set(array) }
  }
  return {
    number,
    name,
    signature: '(arrayName: any; size: Integer; size2?: Integer)',
    writes: [0],
    impl: (rt, ...args) => {
      const { array, rows, columns, done } = declared(args[0], args[1], args[2])
      array.resize(rows, rt, columns)
      done()
    },
    *steps(rt, ...args) {
      const { array, rows, columns, fresh, done } = declared(args[0], args[1], args[2])
      yield* runSteps(resizing(array, rows, columns, fresh), rt)
      done()
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
    ...scanning((_rt, [a, where, howMany]) => {
      const target = array('INSERT IN ARRAY', a)
      const n = optionalInteger('INSERT IN ARRAY', 'howMany', howMany, 1)
      // Past the end, the new elements are added at the end (insert-in-array.md).
      const at = Math.min(
        Math.max(1, integerArg('INSERT IN ARRAY', 'where', where)),
        target.size + 1,
      )
      if (n <= 0) return undefined
      withinLimit('elements', 'An array', target.size + n)
      // Made anew, each element a pass of the budget's, then put in place at once: an array the
      // budget ended is as it was. (A spread into `splice` overflows the stack past some 120,000.)
      const items = target.items
      // The elements before `at`, the new ones, the ones after: those of each block.
      const made: unknown[] = []
      const block = (k: number, end: number): number => {
        for (let i = k, last = Math.min(end, at); i < last; i++) made.push(items[i])
        for (let i = Math.max(k, at), last = Math.min(end, at + n); i < last; i++)
          made.push(target.blank())
        for (let i = Math.max(k, at + n); i < end; i++) made.push(items[i - n])
        return -1
      }
      return {
        from: 0,
        to: items.length + n,
        block,
        done: () => {
          target.items = made
        },
      }
    }),
  },
  {
    number: 228,
    name: 'DELETE FROM ARRAY',
    signature: '(array: any; where: Integer; howMany?: Integer)',
    // The plain call counts the elements kept, a block at a time, then deletes at once: one
    // native move, where the copy that the steps make aside (so that no other request sees the
    // array half changed between two slices) took 14 times as long on a million elements (18 ms
    // against 1.3).
    impl: (rt, a, where, howMany) => {
      const d = deletion(a, where, howMany)
      if (d === undefined) return
      countNow(rt, d.target.items.length - d.n)
      d.target.items.splice(d.at, d.n)
    },
    *steps(rt, a, where, howMany) {
      const d = deletion(a, where, howMany)
      if (d !== undefined) yield* scanSteps(rt, deleting(d))
    },
  },
  {
    number: 230,
    name: 'Find in array',
    signature: '(array: any; value: any; start?: Integer): Integer',
    impl: (rt, a, value, start) => {
      const [items, from] = findArgs(a, start)
      if (atOnce(rt, items.length - from)) return findIn(items, value, from, items.length)
      return finish(findSteps(rt, items, from, value))
    },
    steps: (rt, a, value, start) => findSteps(rt, ...findArgs(a, start), value),
  },
  {
    number: 907,
    name: 'Count in array',
    signature: '(array: any; value: any): Integer',
    impl: (rt, a, value) => {
      const items = array('Count in array', a).items
      if (atOnce(rt, items.length - 1)) return countIn(items, value, 1, items.length)
      return finish(countSteps(rt, items, value))
    },
    steps: (rt, a, value) => countSteps(rt, array('Count in array', a).items, value),
  },
  {
    number: 1333,
    name: 'Find in sorted array',
    signature:
      '(array: any; value: any; order: any; posFirst?: Integer; posLast?: Integer): Boolean',
    writes: [3, 4],
    ...scanning((_rt, [a, value, order, posFirst, posLast]) =>
      findSorted(
        array('Find in sorted array', a),
        value,
        order === SYMBOLS['<'],
        (found, first, last) => {
          if (posFirst !== undefined)
            outArg('Find in sorted array', 'posFirst', posFirst).set(first)
          if (posLast !== undefined) outArg('Find in sorted array', 'posLast', posLast).set(last)
          return found
        },
      ),
    ),
  },
  {
    number: 229,
    name: 'SORT ARRAY',
    signature: '(...arrays: any)',
    *steps(rt, ...args) {
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
      const sign = descending ? -1 : 1
      const compare = (x: unknown, y: unknown): number => (lt(x, y) ? -1 : gt(x, y) ? 1 : 0)
      const order = yield* sortSteps(
        rt,
        keys.map((_, i) => i),
        (i, j) => sign * compare(keys[i], keys[j]),
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
    ...scanning((rt, [source, destination]) => {
      const out = outArg('COPY ARRAY', 'destination', destination)
      const a = array('COPY ARRAY', source)
      const items = a.items
      // In pieces a block at a time; a row of a two-dimensional array copied whole, its elements
      // counted. (A piece is a native slice: a loop of pushes took twice as long.)
      const pieces: unknown[][] = []
      const block = (i: number, end: number): number => {
        const piece = items.slice(i, end)
        if (a.columns !== undefined)
          for (let k = 0; k < piece.length; k++) {
            const row = piece[k]
            if (!(row instanceof FourDArray)) continue
            spend(rt, row.items.length)
            piece[k] = copyOfRow(row)
          }
        pieces.push(piece)
        return -1
      }
      return {
        from: 0,
        to: items.length,
        block,
        done: () => {
          const copy = new FourDArray(a.type, a.columns, 0)
          copy.items = joinedPieces(pieces)
          out.set(copy)
        },
      }
    }),
  },
  {
    number: 1562,
    name: 'COLLECTION TO ARRAY',
    signature: '(collection: Collection; array: any; ...more: any)',
    ...scanning((_rt, [c, ...rest]) => {
      const items = collectionArg('COLLECTION TO ARRAY', 'collection', c).items
      const list = pairs('COLLECTION TO ARRAY', rest)
      // Each array's elements made aside (an array after the other), then all put in place.
      const made = list.map(({ array: a }) => [a.items[0]])
      const n = items.length
      // The positions go through the pairs in turn: `n` a pair.
      const block = (k: number, end: number): number => {
        for (let p = Math.floor(k / n); p * n < end; p++) {
          const { array: a, property } = list[p]!
          const values = made[p]!
          for (let i = Math.max(k, p * n) - p * n, last = Math.min(end - p * n, n); i < last; i++) {
            const item = items[i]
            const v =
              property === undefined || property === ''
                ? item
                : typeof item === 'object' && item !== null && !(item instanceof Collection)
                  ? (item as Record<string, unknown>)[property]
                  : undefined
            values.push(fromCollection(a, v))
          }
        }
        return -1
      }
      return {
        from: 0,
        to: n * list.length,
        block,
        done: () => list.forEach(({ array: a }, p) => (a.items = made[p]!)),
      }
    }),
  },
  {
    number: 1563,
    name: 'ARRAY TO COLLECTION',
    signature: '(collection: Collection; array: any; ...more: any)',
    ...scanning((_rt, [c, ...rest]) => {
      const collection = collectionArg('ARRAY TO COLLECTION', 'collection', c)
      const list = pairs('ARRAY TO COLLECTION', rest)
      const length = Math.max(...list.map((p) => p.array.size))
      const items: unknown[] = []
      const block = (i: number, end: number): number => {
        for (; i < end; i++) {
          if (list.length === 1 && list[0]!.property === undefined) {
            items.push(list[0]!.array.items[i] ?? null)
            continue
          }
          const o = newObject()
          for (const { array: a, property } of list)
            if (i <= a.size) o[property ?? ''] = a.items[i] ?? null
          items.push(o)
        }
        return -1
      }
      // Replaced once all are made (a spread into `push` overflows the stack on a large array).
      const done = (): void => {
        collection.items.length = 0
        for (const v of items) collection.items.push(v)
      }
      return { from: 1, to: length + 1, block, done }
    }),
  },
]

/** What `DELETE FROM ARRAY` deletes: `n` elements from `at` (undefined: none). */
interface Deletion {
  readonly target: FourDArray
  readonly at: number
  readonly n: number
}

function deletion(a: unknown, where: unknown, howMany: unknown): Deletion | undefined {
  const target = array('DELETE FROM ARRAY', a)
  const asked = optionalInteger('DELETE FROM ARRAY', 'howMany', howMany, 1)
  const at = integerArg('DELETE FROM ARRAY', 'where', where)
  if (at < 1 || at > target.size || asked <= 0) return undefined
  return { target, at, n: Math.min(asked, target.items.length - at) }
}

/**
 * A deletion as a scan (values/resumable.ts): the array made anew, in slices of the elements it
 * keeps (those before `at`, those after the deleted ones), each a pass of the budget's, then put in
 * place at once: an array the budget ended is as it was.
 */
function deleting({ target, at, n }: Deletion): Scan {
  const items = target.items
  const pieces: unknown[][] = []
  const block = (k: number, end: number): number => {
    if (k < at) pieces.push(items.slice(k, Math.min(end, at)))
    if (end > at) pieces.push(items.slice(Math.max(k, at) + n, end + n))
    return -1
  }
  const done = (): void => {
    target.items = joinedPieces(pieces)
  }
  return { from: 0, to: items.length - n, block, done }
}

/** A row of a two-dimensional array copied. */
function copyOfRow(row: FourDArray): FourDArray {
  const copy = new FourDArray(row.type, row.columns, 0)
  copy.items = row.items.slice()
  return copy
}
