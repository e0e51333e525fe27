/**
 * @module The columns a data load's rows are kept in (base-rows.ts says why): one per storage
 * attribute, by row id minus the load's first row id. Integers in an Int32Array, other numbers in a
 * Float64Array, booleans in bytes, vectors in one Float32Array, other values in a plain array; texts
 * in their own column (text-column.ts).
 */
import type { StoredValue } from '../values/coerce.js'
import { Vector, type FloatsAt } from '../values/vector.js'
import type { RowLanes } from './row-lanes.js'

/** One attribute's values, by row id minus the load's first row id. */
export interface Column {
  get(i: number): StoredValue
  set(i: number, v: StoredValue): void
  /** See BaseRows.compareLazy; only text columns have it. */
  compareLazy?(i: number, key: string): number | undefined
  /** Adds the arrays a read of a row reads first (BaseRows.warm); none for a column of objects. */
  lanes?(into: RowLanes): void
}

// The types coerce.ts stores as 32-bit integers (it checks their range and never stores -0).
export const INT_TYPES: ReadonlySet<string> = new Set(['byte', 'word', 'long'])

// The other types it stores as a number. No stored number is NaN (toNumber refuses non-finite
// numbers, and durations, dates and keys are finite too), so NaN can stand for null; -0 and every
// other double survive a Float64Array unchanged.
export const NUMBER_TYPES: ReadonlySet<string> = new Set(['long64', 'number', 'duration'])

export class NumberColumn implements Column {
  readonly #data: Float64Array
  constructor(n: number) {
    this.#data = new Float64Array(n).fill(NaN)
  }
  lanes(into: RowLanes): void {
    into.direct.push(this.#data)
  }
  get(i: number): StoredValue {
    const v = this.#data[i]!
    if (v !== v) return null
    // A double read from the array is a heap number even when it is an integer: handed out as is,
    // it made records whose integer fields (keys, ages, foreign keys) hold doubles, a slower
    // hidden-class field and number-to-text. An integer (not -0) goes back as a small integer.
    return (v | 0) === v && (v !== 0 || 1 / v > 0) ? v | 0 : v
  }
  set(i: number, v: StoredValue): void {
    this.#data[i] = v === null ? NaN : (v as number)
  }
}

// Null in an Int32Array: the lowest 32-bit integer, which a long may hold too (see IntColumn).
const NULL_INT = -0x80000000

/**
 * Integers of 32 bits (keys, counts, ages, foreign keys): 4 bytes a row instead of a double's 8, and
 * read back as small integers with no conversion. Null is NULL_INT; a row holding NULL_INT itself,
 * or anything that is not a 32-bit integer (nothing coerce.ts lets through), turns the column
 * into doubles for good, as NumberColumn keeps them.
 */
export class IntColumn implements Column {
  #ints: Int32Array | undefined
  #doubles: Float64Array | undefined
  constructor(n: number) {
    this.#ints = new Int32Array(n).fill(NULL_INT)
  }
  lanes(into: RowLanes): void {
    into.direct.push(this.#ints ?? this.#doubles!)
  }
  get(i: number): StoredValue {
    const ints = this.#ints
    if (ints !== undefined) {
      const v = ints[i]!
      return v === NULL_INT ? null : v
    }
    const v = this.#doubles![i]!
    return v !== v ? null : (v | 0) === v ? v | 0 : v
  }
  set(i: number, v: StoredValue): void {
    const ints = this.#ints
    if (ints !== undefined) {
      if (v === null) ints[i] = NULL_INT
      else if (((v as number) | 0) === v && v !== NULL_INT) ints[i] = v as number
      else {
        this.#widen(ints)
        this.#doubles![i] = v as number
      }
    } else this.#doubles![i] = v === null ? NaN : (v as number)
  }
  #widen(ints: Int32Array): void {
    const doubles = new Float64Array(ints.length)
    for (let i = 0; i < ints.length; i++) doubles[i] = ints[i] === NULL_INT ? NaN : ints[i]!
    this.#doubles = doubles
    this.#ints = undefined
  }
}

// 0 false, 1 true, 2 null: one byte a row.
export class BoolColumn implements Column {
  readonly #data: Uint8Array
  constructor(n: number) {
    this.#data = new Uint8Array(n).fill(2)
  }
  lanes(into: RowLanes): void {
    into.direct.push(this.#data)
  }
  get(i: number): StoredValue {
    const v = this.#data[i]!
    return v === 2 ? null : v === 1
  }
  set(i: number, v: StoredValue): void {
    this.#data[i] = v === null ? 2 : v ? 1 : 0
  }
}

// Uuids, dates, objects, pictures and BLOBs: the stored values themselves, shared with any
// record made from them (so a record made twice holds the same objects).
export class ValueColumn implements Column {
  readonly #data: StoredValue[]
  constructor(n: number) {
    this.#data = new Array<StoredValue>(n).fill(null)
  }
  get(i: number): StoredValue {
    return this.#data[i]!
  }
  set(i: number, v: StoredValue): void {
    this.#data[i] = v
  }
}

/**
 * The vectors of a 4D.Vector attribute: their floats one after the other in one Float32Array (a
 * row's vector is a view on it, made when read), not a typed array each: a typed array costs about
 * 150 bytes of its own, 15 % of a vector of 256 dimensions. The size is the first vector's; a
 * vector of another size (4D does not fix one) is kept as it is, beside.
 */
export class VectorColumn implements Column {
  readonly #length: number
  #dims = 0
  #data: Float32Array | undefined
  readonly #present: Uint8Array
  #others: Map<number, Vector> | undefined
  constructor(n: number) {
    this.#length = n
    this.#present = new Uint8Array(n)
  }
  get(i: number): StoredValue {
    if (this.#present[i] === 1) return Vector.view(this.#data!, i * this.#dims, this.#dims)
    return this.#others?.get(i) ?? null
  }
  /** Points `at` at row `i`'s floats, making no view; false when it has no vector. */
  locate(i: number, at: FloatsAt): boolean {
    if (this.#present[i] === 1) {
      at.data = this.#data!
      at.offset = i * this.#dims
      at.length = this.#dims
      return true
    }
    const other = this.#others?.get(i)
    if (other === undefined) return false
    Vector.locate(other, at)
    return true
  }
  set(i: number, v: StoredValue): void {
    this.#present[i] = 0
    this.#others?.delete(i)
    if (!(v instanceof Vector)) return
    if (this.#data === undefined) {
      this.#dims = v.length
      this.#data = new Float32Array(this.#length * v.length)
    }
    if (v.length !== this.#dims) {
      ;(this.#others ??= new Map()).set(i, v)
      return
    }
    v.copyInto(this.#data, i * this.#dims)
    this.#present[i] = 1
  }
}

/**
 * Stamps or timestamps: one number for the whole load while every row has the same (a file without
 * `__STAMP`/`__TIMESTAMP`: all 1, all the load's time), a Float64Array from the first row that differs.
 */
export class Numbers {
  #first = NaN
  #data: Float64Array | undefined
  readonly #n: number
  constructor(n: number) {
    this.#n = n
  }
  get(i: number): number {
    return this.#data ? this.#data[i]! : this.#first
  }
  set(i: number, v: number): void {
    if (this.#data) this.#data[i] = v
    else if (i === 0 || v === this.#first) this.#first = v
    else (this.#data = new Float64Array(this.#n).fill(this.#first))[i] = v
  }
}
