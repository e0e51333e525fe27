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
    this.resize(size)
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
   * Enlarged with new default elements, or reduced to its first `size` elements; each element
   * made (each of a row's) a pass of `rt`'s budget (context/budget.ts).
   */
  resize(size: number, rt: Passes = UNCOUNTED): void {
    const n = withinLimit('elements', 'An array', Math.max(0, size))
    if (n < this.size) this.items.length = n + 1
    const passes = 1 + (this.columns ?? 0)
    while (this.size < n) {
      if ((rt.ticks -= passes) < 0) rt.tick()
      this.items.push(this.blank())
    }
  }
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
