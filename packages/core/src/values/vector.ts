/**
 * @module 4D's `4D.Vector` (4D 20 R10): an immutable list of 32-bit reals with the three measures
 * 4D's vector searches use. Stored in an object attribute restricted to the class (`classID`
 * "4D.Vector"), compared in filters by similarity (query/vector-search.ts).
 *
 * A vector is a window (`offset`, `length`) on a Float32Array that it may share with others: a data
 * load keeps all the vectors of an attribute in one array (store/base-rows.ts), so that a million
 * vectors cost their floats and not a million typed arrays (about 150 bytes each, 15 % of a vector of
 * 256 dimensions). The window is never written after the vector is made.
 */

/** How two vectors are compared: 4D's metrics (cosine and dot are similarities, euclidean a distance). */
export type VectorMetric = 'cosine' | 'dot' | 'euclidean'

export const VECTOR_METRICS: readonly VectorMetric[] = ['cosine', 'dot', 'euclidean']

/** Where a vector's floats are: `data[offset .. offset + length)` (see `Vector.locate`). */
export interface FloatsAt {
  data: Float32Array
  offset: number
  length: number
}

/** Why a vector could not be made or compared; the caller says where. */
export class VectorError extends Error {
  override readonly name = 'VectorError'
}

/** The window a view vector reads; made only by `Vector.view`. */
const VIEW: unique symbol = Symbol('Vector.view')
interface ViewOf {
  readonly [VIEW]: true
  readonly data: Float32Array
  readonly offset: number
  readonly length: number
}

export class Vector {
  readonly #data: Float32Array
  readonly #offset: number
  /** The number of dimensions (4D's `length`). */
  readonly length: number
  /** The euclidean norm, computed once on first use (cosine needs it for every comparison). */
  #norm = -1

  /**
   * A vector of `values` (finite numbers), copied: `new Vector([0.1, 0.2])`, or from a
   * Float32Array. Throws VectorError for an empty list or a value that is not a finite number.
   */
  constructor(values: ArrayLike<number> | Iterable<number>)
  /** @internal */
  constructor(values: ViewOf)
  constructor(values: ArrayLike<number> | Iterable<number> | ViewOf) {
    if (isView(values)) {
      this.#data = values.data
      this.#offset = values.offset
      this.length = values.length
      return
    }
    const data = Float32Array.from(values as ArrayLike<number>)
    if (data.length === 0) throw new VectorError('a vector needs at least one number')
    for (let i = 0; i < data.length; i++)
      if (!Number.isFinite(data[i])) throw new VectorError('a vector holds finite numbers only')
    this.#data = data
    this.#offset = 0
    this.length = data.length
  }

  /**
   * @internal A vector over `length` floats of `data` from `offset`, not copied: the caller never
   * writes them again (a load's column of vectors).
   */
  static view(data: Float32Array, offset: number, length: number): Vector {
    return new Vector({ [VIEW]: true, data, offset, length })
  }

  /**
   * @internal Points `at` at this vector's floats (`data[offset .. offset + length)`), making
   * nothing: what a scan reads a row through (store/vector-cursor.ts). Never write them.
   */
  static locate(v: Vector, at: FloatsAt): void {
    at.data = v.#data
    at.offset = v.#offset
    at.length = v.length
  }

  /** The euclidean norm (length in space, not `length` the dimensions). */
  get norm(): number {
    if (this.#norm < 0) {
      const [data, offset] = [this.#data, this.#offset]
      this.#norm = Math.sqrt(dotAt(data, offset, data, offset, this.length))
    }
    return this.#norm
  }

  /** Cosine similarity with `other`, in [-1, 1] (1: same direction). 4D's `cosineSimilarity`. */
  cosineSimilarity(other: Vector): number {
    return this.score('cosine', other)
  }

  /** Dot product with `other`. 4D's `dotSimilarity`. */
  dotSimilarity(other: Vector): number {
    return this.score('dot', other)
  }

  /** Euclidean distance to `other` (0: the same vector). 4D's `euclideanDistance`. */
  euclideanDistance(other: Vector): number {
    return this.score('euclidean', other)
  }

  /** `metric` between this vector and `other`; throws VectorError when their sizes differ. */
  score(metric: VectorMetric, other: Vector): number {
    if (!(other instanceof Vector)) throw new VectorError('the other value is not a vector')
    if (other.length !== this.length)
      throw new VectorError(
        `the vectors have different sizes (${this.length} and ${other.length} dimensions)`,
      )
    return scoreAt(
      metric,
      this.#data,
      this.#offset,
      this.norm,
      other.#data,
      other.#offset,
      this.length,
    )
  }

  /** The component at `index` (4D's `$vector[index]`), from 0; undefined past the end. */
  at(index: number): number | undefined {
    const i = index < 0 ? this.length + index : index
    return Number.isInteger(i) && i >= 0 && i < this.length
      ? shortest(this.#data[this.#offset + i]!)
      : undefined
  }

  /**
   * The numbers, as a new array (4D's `toCollection`): each the shortest decimal that is the same
   * 32-bit real, so that `[0.9]` reads back 0.9 and not 0.8999999761581421.
   */
  toCollection(): number[] {
    const out = new Array<number>(this.length)
    for (let i = 0; i < this.length; i++) out[i] = shortest(this.#data[this.#offset + i]!)
    return out
  }

  /** @internal Writes the floats into `target` from `at` (a column of vectors). */
  copyInto(target: Float32Array, at: number): void {
    target.set(this.#data.subarray(this.#offset, this.#offset + this.length), at)
  }

  /** A copy of the floats. */
  toFloat32Array(): Float32Array {
    return this.#data.slice(this.#offset, this.#offset + this.length)
  }

  /** The JSON form Entistore reads and writes: the array of numbers (docs/vectors.md). */
  toJSON(): number[] {
    return this.toCollection()
  }

  /** Whether `other` holds the same numbers. */
  equals(other: unknown): boolean {
    if (!(other instanceof Vector) || other.length !== this.length) return false
    const [a, b] = [this.#data, other.#data]
    for (let i = 0; i < this.length; i++)
      if (a[this.#offset + i] !== b[other.#offset + i]) return false
    return true
  }
}

/** The number with the fewest digits (7 to 9 are always enough) that is `f` as a 32-bit real. */
function shortest(f: number): number {
  // -0 reads 0, as JSON writes it: a vector reads the same before and after a journal.
  if (Number.isInteger(f)) return f === 0 ? 0 : f
  for (let p = 7; p < 9; p++) {
    const n = Number(f.toPrecision(p))
    if (Math.fround(n) === f) return n
  }
  return Number(f.toPrecision(9))
}

const isView = (v: unknown): v is ViewOf =>
  typeof v === 'object' && v !== null && (v as Partial<ViewOf>)[VIEW] === true

/** The dot product of `n` floats of `a` from `i` and of `b` from `j`. */
export function dotAt(a: Float32Array, i: number, b: Float32Array, j: number, n: number): number {
  // Four sums: independent additions the CPU overlaps (one chain of n adds waits on each).
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  let k = 0
  for (; k + 3 < n; k += 4) {
    s0 += a[i + k]! * b[j + k]!
    s1 += a[i + k + 1]! * b[j + k + 1]!
    s2 += a[i + k + 2]! * b[j + k + 2]!
    s3 += a[i + k + 3]! * b[j + k + 3]!
  }
  for (; k < n; k++) s0 += a[i + k]! * b[j + k]!
  return s0 + s1 + s2 + s3
}

/** The squared euclidean distance between `n` floats of `a` from `i` and of `b` from `j`. */
export function squaredDistanceAt(
  a: Float32Array,
  i: number,
  b: Float32Array,
  j: number,
  n: number,
): number {
  let s0 = 0
  let s1 = 0
  let k = 0
  for (; k + 1 < n; k += 2) {
    const d0 = a[i + k]! - b[j + k]!
    const d1 = a[i + k + 1]! - b[j + k + 1]!
    s0 += d0 * d0
    s1 += d1 * d1
  }
  for (; k < n; k++) {
    const d = a[i + k]! - b[j + k]!
    s0 += d * d
  }
  return s0 + s1
}

/**
 * `metric` between the `n` floats of `q` from `qi` (whose norm is `qNorm`) and those of `data` from
 * `offset`. Cosine with a vector of norm 0 is 0 (4D's docs are silent; it has no direction).
 */
export function scoreAt(
  metric: VectorMetric,
  q: Float32Array,
  qi: number,
  qNorm: number,
  data: Float32Array,
  offset: number,
  n: number,
): number {
  switch (metric) {
    case 'dot':
      return dotAt(q, qi, data, offset, n)
    case 'euclidean':
      return Math.sqrt(squaredDistanceAt(q, qi, data, offset, n))
    case 'cosine':
      return cosineAt(q, qi, qNorm, data, offset, n)
  }
}

/** Cosine similarity, the dot product and the stored vector's norm read in one pass. */
export function cosineAt(
  q: Float32Array,
  qi: number,
  qNorm: number,
  x: Float32Array,
  xi: number,
  n: number,
): number {
  let d0 = 0
  let d1 = 0
  let m0 = 0
  let m1 = 0
  let k = 0
  for (; k + 1 < n; k += 2) {
    const x0 = x[xi + k]!
    const x1 = x[xi + k + 1]!
    d0 += q[qi + k]! * x0
    d1 += q[qi + k + 1]! * x1
    m0 += x0 * x0
    m1 += x1 * x1
  }
  for (; k < n; k++) {
    const x0 = x[xi + k]!
    d0 += q[qi + k]! * x0
    m0 += x0 * x0
  }
  const norms = qNorm * Math.sqrt(m0 + m1)
  return norms === 0 ? 0 : (d0 + d1) / norms
}

/**
 * A stored value for a vector attribute: a Vector as it is, an array of finite numbers or a
 * Float32Array copied (the JSON form), `{ vector: [...] }` too (the form 4D's query parameters
 * use). Throws VectorError otherwise.
 */
export function toVector(raw: unknown): Vector {
  if (raw instanceof Vector) return raw
  if (Array.isArray(raw) || raw instanceof Float32Array || raw instanceof Float64Array) {
    for (const x of raw as ArrayLike<unknown> & Iterable<unknown>)
      if (typeof x !== 'number') throw new VectorError('a vector holds numbers only')
    return new Vector(raw as ArrayLike<number>)
  }
  if (typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'vector'))
    return toVector((raw as { vector: unknown }).vector)
  throw new VectorError('expected an array of numbers')
}
