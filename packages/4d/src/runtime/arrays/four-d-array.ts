/**
 * @module 4D's arrays (docs/Concepts/arrays.md): an ordered series of variables of one type,
 * numbered from 1 to its size, with an element zero besides. `ARRAY TEXT($a; 5)` puts a
 * FourDArray in the variable `$a`; `$a{i}` reads and writes an element, converted to the array's
 * type as an assignment to a variable of that type is (an Integer array keeps 2 bytes, a Longint
 * array 4). A two-dimensional array is an array of rows, each a one-dimensional array of the
 * same type (`$a{2}{3}`). The commands of the Array theme are commands/arrays.ts.
 */
import {
  asBoolean,
  asCollection,
  asDate,
  asInteger,
  asObject,
  asReal,
  asText,
  asTime,
  defaultValue,
  type DeclaredType,
} from '../convert/assign.js'
import { raise } from '../errors/fourd-error.js'
import { typeName } from '../values/kinds.js'
import { toInteger } from '../values/numbers.js'
import { withinLimit } from '../values/limits.js'
import { UNCOUNTED, type Passes } from '../values/passes.js'
import {
  andThen,
  countNow,
  DONE,
  inBlocks,
  inPieces,
  joinedPieces,
  NOTHING,
  type Resumable,
} from '../values/resumable.js'

/** The element types of the `ARRAY …` commands that run here. */
export type ArrayType =
  'Text' | 'Integer' | 'Longint' | 'Real' | 'Boolean' | 'Date' | 'Time' | 'Object' | 'Collection'

// ARRAY INTEGER holds 2-byte integers (array-integer.md): the Integer rule, then 16 bits.
const asShort = (v: unknown): number => (asInteger(v) << 16) >> 16

const CONVERT: Readonly<Record<ArrayType, (v: unknown) => unknown>> = {
  Text: asText,
  Integer: asShort,
  Longint: asInteger,
  Real: asReal,
  Boolean: asBoolean,
  Date: asDate,
  Time: asTime,
  Object: asObject,
  Collection: asCollection,
}

/** The variable type an element behaves as (for its default value). */
const VARIABLE_TYPE: Readonly<Record<ArrayType, DeclaredType>> = {
  Text: 'Text',
  Integer: 'Integer',
  Longint: 'Integer',
  Real: 'Real',
  Boolean: 'Boolean',
  Date: 'Date',
  Time: 'Time',
  Object: 'Object',
  Collection: 'Collection',
}

export class FourDArray {
  /** Element 0 first, then elements 1 to the size; rows (FourDArray) in a two-dimensional one. */
  items: unknown[]

  constructor(
    readonly type: ArrayType,
    /** The number of columns of each row, for a two-dimensional array; undefined for one. */
    readonly columns: number | undefined,
    size: number,
  ) {
    this.items = [this.blank()]
    if (size > 0) this.resize(size)
  }

  get size(): number {
    return this.items.length - 1
  }

  /** A new element: the type's default, or an empty row of a two-dimensional array. */
  blank(): unknown {
    return this.columns === undefined
      ? defaultValue(VARIABLE_TYPE[this.type])
      : new FourDArray(this.type, undefined, this.columns)
  }

  /** A value made the array's element type, as an assignment to an element makes it. */
  convert(v: unknown): unknown {
    if (this.columns !== undefined)
      return raise('NotSupported', { construct: 'Assigning a row of a two-dimensional array' })
    return CONVERT[this.type](v)
  }

  /**
   * Enlarged with new default elements, or reduced to its first `size` elements, and, with `rows`
   * (a two-dimensional array's), each row it keeps to `rows` elements; each element made (each of
   * a row's) a pass of `rt`'s budget (context/budget.ts), counted a block at a time before the
   * array changes, in place. `resizing` is the same as steps.
   */
  resize(size: number, rt: Passes = UNCOUNTED, rows?: number): void {
    const n = withinLimit('elements', 'An array', Math.max(0, size))
    const kept = keptRows(this, n, rows)
    const grows = Math.max(0, n - this.size)
    countNow(rt, rowsGain(kept, rows) + grows * (1 + (this.columns ?? 0)))
    for (const row of kept) fit(row, rows!)
    fit(this, n)
  }
}

/** The rows of `a` resized to `size` that are resized to `rows` (element 0 too): none without. */
const keptRows = (a: FourDArray, size: number, rows: number | undefined): FourDArray[] =>
  rows === undefined ? [] : (a.items.slice(0, Math.min(size, a.size) + 1) as FourDArray[])

/** The elements `rows` gain, resized to `size`. */
function rowsGain(rows: readonly FourDArray[], size: number | undefined): number {
  let n = 0
  for (const row of rows) n += Math.max(0, size! - row.size)
  return n
}

/** `a` given `size` elements in place: its first ones, then new default ones. */
function fit(a: FourDArray, size: number): void {
  if (size < a.size) a.items.length = size + 1
  else blanks(a, a.items, size - a.size)
}

/** `n` new elements of `a` (default values, or rows of its columns) pushed on `into`. */
function blanks(a: FourDArray, into: unknown[], n: number): number {
  for (let i = 0; i < n; i++) into.push(a.blank())
  return -1
}

/**
 * `FourDArray.resize` as steps (values/resumable.ts): the same passes, counted as the work goes,
 * a block of elements (a new row) at a time, and the array not changed before its last step (so
 * that a resize the budget ends leaves it as it was, and a call in slices shows it whole or as it
 * was between two slices): its elements are made anew, in slices of its own and blocks of new
 * ones, put in place at the end (a new row made aside, put in place with the others then). A
 * `fresh` array, which nobody sees yet, gets its new elements as the work goes. The rows a
 * two-dimensional array keeps are resized at the end, their new elements counted before.
 */
export function resizing(array: FourDArray, size: number, rows?: number, fresh = false): Resumable {
  const n = withinLimit('elements', 'An array', Math.max(0, size))
  const kept = keptRows(array, n, rows)
  const grown = growing(array, n, fresh)
  return andThen(inBlocks(0, rowsGain(kept, rows), NOTHING)[1], () =>
    andThen(grown.work, () => {
      for (const row of kept) fit(row, rows!)
      grown.put()
      return DONE
    }),
  )
}

/** `array` resized to `size` as work, and its last step, which puts what it made in place. */
function growing(
  array: FourDArray,
  size: number,
  fresh: boolean,
): { readonly work: Resumable; put(): void } {
  const items = array.items
  if (size <= array.size) return { work: DONE, put: () => fit(array, size) }
  const columns = array.columns
  if (columns !== undefined) {
    // A row at a time, counted with its elements before it is made.
    const added: unknown[] = fresh ? items : []
    const cut = (i: number): number => i + 1
    const work = inPieces(
      size - array.size,
      cut,
      () => blanks(array, added, 1),
      () => 1 + columns,
    )
    const put = (): void => {
      if (!fresh) array.items = items.concat(added)
    }
    return { work, put }
  }
  if (fresh) {
    const work = inBlocks(0, size - array.size, (k, end) => blanks(array, items, end - k))[1]
    return { work, put: () => undefined }
  }
  // Made anew: its own elements in slices, then the new ones, a block at a time.
  const pieces: unknown[][] = []
  const block = (k: number, end: number): number => {
    if (k < items.length) pieces.push(items.slice(k, Math.min(end, items.length)))
    if (end > items.length) {
      const piece: unknown[] = []
      pieces.push(piece)
      return blanks(array, piece, end - Math.max(k, items.length))
    }
    return -1
  }
  const work = inBlocks(0, size + 1, block)[1]
  const put = (): void => {
    array.items = joinedPieces(pieces)
  }
  return { work, put }
}

/** `v` as an array, or 4D's error for what is not one (`$a{1}` on a text). */
export function arrayOf(v: unknown, what = 'An array element'): FourDArray {
  if (v instanceof FourDArray) return v
  return raise('NotAnArray', { what, type: typeName(v) })
}

/** The position of element `n` of the array (0 to its size), or 4D's index error. */
function position(a: FourDArray, n: unknown): number {
  const i = typeof n === 'number' ? toInteger(n) : asInteger(n)
  if (i < 0 || i > a.size)
    return raise('ArrayIndex', { index: `${i} (the array has ${a.size} elements)` })
  return i
}

/** `$a{i}`; of a BLOB, its byte `i` (0 to its size - 1: dt_blob.md). */
export function elem(a: unknown, n: unknown): unknown {
  if (a instanceof Uint8Array) return byteOf(a, n)
  const array = arrayOf(a)
  return array.items[position(array, n)]
}

function byteOf(blob: Uint8Array, n: unknown): number {
  const i = typeof n === 'number' ? toInteger(n) : asInteger(n)
  if (i < 0 || i >= blob.length)
    return raise('ArrayIndex', { index: `${i} (the BLOB has ${blob.length} bytes)` })
  return blob[i]!
}

/** `$a{i}:=v`: the value made the array's type. */
export function setElem(a: unknown, n: unknown, v: unknown): void {
  // A BLOB is never changed in place (values/blob-object.ts): its commands assign the variable.
  if (a instanceof Uint8Array)
    return raise('NotSupported', { construct: 'Assigning a byte of a BLOB ($blob{i}:=…)' })
  const array = arrayOf(a)
  array.items[position(array, n)] = array.convert(v)
}
