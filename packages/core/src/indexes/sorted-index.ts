/**
 * @module A sorted index: (comparison key, row id) pairs in order, in two parallel arrays. Serves
 * ranges (`<`, `>=` …), `begin` (a prefix range), equality, and `$orderby` walks without sorting.
 * Nulls sort first; ties are in row-id order. Inserts and deletes are a binary search plus one
 * move of the tail (a memmove): fine up to millions of rows; a bulk load builds in one go instead.
 *
 * Row ids live in an Int32Array (4 bytes a row instead of 8 for a JS array of small integers).
 * Keys stay in a JS array: a column of numbers is then a packed array of doubles (8 bytes a row),
 * and text keys are the folded strings themselves.
 */
import { compareKeys, type SortKey } from '../values/compare.js'
import { sortNumbersStable, sortStringsStable } from './radix-sort.js'

export class SortedIndex {
  readonly attribute: string
  readonly folds: boolean
  #keys: SortKey[] = []
  #rows = new Int32Array(16)

  constructor(attribute: string, folds: boolean) {
    this.attribute = attribute
    this.folds = folds
  }

  get size(): number {
    return this.#keys.length
  }

  // First position whose (key, row) is >= (key, row); row -1 finds the first of a key.
  #lowerBound(key: SortKey, rowId: number): number {
    let lo = 0
    let hi = this.#keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const c = compareKeys(this.#keys[mid]!, key) || this.#rows[mid]! - rowId
      if (c < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** First position with a key > `key`. */
  #upperBound(key: SortKey): number {
    let lo = 0
    let hi = this.#keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareKeys(this.#keys[mid]!, key) <= 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  // Room for one more row id: the array doubles when full.
  #grow(): void {
    if (this.#keys.length < this.#rows.length) return
    const rows = new Int32Array(Math.max(16, this.#rows.length * 2))
    rows.set(this.#rows)
    this.#rows = rows
  }

  add(key: SortKey, rowId: number): void {
    const n = this.#keys.length
    this.#grow()
    // Appending in order (a load in key order, autosequence values) costs no search and no move.
    if (n === 0 || (compareKeys(this.#keys[n - 1]!, key) || this.#rows[n - 1]! - rowId) < 0) {
      this.#keys.push(key)
      this.#rows[n] = rowId
      return
    }
    const at = this.#lowerBound(key, rowId)
    this.#keys.splice(at, 0, key)
    this.#rows.copyWithin(at + 1, at, n)
    this.#rows[at] = rowId
  }

  remove(key: SortKey, rowId: number): void {
    const at = this.#lowerBound(key, rowId)
    const n = this.#keys.length
    if (at < n && this.#rows[at] === rowId && compareKeys(this.#keys[at]!, key) === 0) {
      this.#keys.splice(at, 1)
      this.#rows.copyWithin(at, at + 1, n)
    }
  }

  /** Replaces the content with `pairs`, sorted once (bulk loads and rebuilds). */
  reset(pairs: Iterable<readonly [SortKey, number]>): void {
    const keys: SortKey[] = []
    const rows: number[] = []
    for (const [k, r] of pairs) {
      keys.push(k)
      rows.push(r)
    }
    this.resetFrom(keys, rows)
  }

  /**
   * Replaces the content with `keys[i]` of `rows[i]`, sorted once; ties keep their order in the
   * input, so rows given in row-id order tie in row-id order. Takes ownership of neither array.
   *
   * The usual columns sort mostly without a comparison callback (see radix-sort.ts): numbers by a
   * stable radix sort, text by a radix sort on a prefix and comparisons within equal prefixes only.
   * Columns of mixed kinds (object attributes) take the general comparison. On 200,000 rows of
   * names this is about 40 ms instead of 450 ms.
   */
  resetFrom(keys: readonly SortKey[], rows: ArrayLike<number>): void {
    const n = keys.length
    let nulls = 0
    let numbers = 0
    let strings = 0
    for (let i = 0; i < n; i++) {
      const k = keys[i]
      if (k === null) nulls++
      else if (typeof k === 'number') numbers++
      else if (typeof k === 'string') strings++
    }
    const outKeys = new Array<SortKey>(n)
    const outRows = new Int32Array(Math.max(16, n))
    // Nulls first, in input order.
    let at = 0
    if (nulls > 0)
      for (let i = 0; i < n; i++)
        if (keys[i] === null) {
          outKeys[at] = null
          outRows[at++] = rows[i]!
        }
    if (numbers + nulls === n) {
      const values = new Float64Array(numbers)
      const ids = new Int32Array(numbers)
      let j = 0
      for (let i = 0; i < n; i++) {
        const k = keys[i]
        if (k !== null) {
          values[j] = k as number
          ids[j++] = rows[i]!
        }
      }
      sortNumbersStable(values, ids)
      for (let i = 0; i < numbers; i++) {
        outKeys[at] = values[i]!
        outRows[at++] = ids[i]!
      }
    } else if (strings + nulls === n && countingSort(keys, rows, at, outKeys, outRows)) {
      // Done: few distinct texts (dates, statuses, cities) are counted and placed.
    } else if (strings + nulls === n) {
      const texts: string[] = []
      const ids: number[] = []
      for (let i = 0; i < n; i++) {
        const k = keys[i]
        if (k !== null) {
          texts.push(k as string)
          ids.push(rows[i]!)
        }
      }
      const order = sortStringsStable(texts)
      for (let i = 0; i < order.length; i++) {
        outKeys[at] = texts[order[i]!]!
        outRows[at++] = ids[order[i]!]!
      }
    } else {
      const order = Array.from({ length: n }, (_, i) => i).sort(
        (a, b) => compareKeys(keys[a]!, keys[b]!) || a - b,
      )
      at = 0
      for (const i of order) {
        outKeys[at] = keys[i]!
        outRows[at++] = rows[i]!
      }
    }
    this.#keys = outKeys
    this.#rows = outRows
  }

  /**
   * Positions [start, end) of the keys within bounds. A bound is `{ key, inclusive }`; a missing
   * bound is open. Null keys are never in a range with a lower bound (nulls are not values).
   */
  range(
    lower?: { key: SortKey; inclusive: boolean },
    upper?: { key: SortKey; inclusive: boolean },
  ): [number, number] {
    let start = lower
      ? lower.inclusive
        ? this.#lowerBound(lower.key, -1)
        : this.#upperBound(lower.key)
      : this.#upperBound(null)
    let end = upper
      ? upper.inclusive
        ? this.#upperBound(upper.key)
        : this.#lowerBound(upper.key, -1)
      : this.#keys.length
    if (end < start) end = start
    // A range must not mix kinds: `salary < 10` must not match strings stored in a mixed column.
    const kind = typeof (lower ?? upper)?.key
    while (start < end && typeof this.#keys[start] !== kind) start++
    while (end > start && typeof this.#keys[end - 1] !== kind) end--
    return [start, end]
  }

  /** Positions [start, end) of the keys equal to `key`. */
  equal(key: SortKey): [number, number] {
    return [this.#lowerBound(key, -1), this.#upperBound(key)]
  }

  /** Positions of the string keys beginning with `prefix` (already folded if the index folds). */
  prefix(prefix: string): [number, number] {
    const start = this.#lowerBound(prefix, -1)
    let lo = start
    let hi = this.#keys.length
    // Upper end: the first key that no longer starts with the prefix.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const k = this.#keys[mid]
      if (typeof k === 'string' && (k.startsWith(prefix) || k < prefix)) lo = mid + 1
      else hi = mid
    }
    return [start, lo]
  }

  /** The keys and row ids in order (views of the index's own arrays: do not modify). */
  content(): [readonly SortKey[], Int32Array] {
    return [this.#keys, this.#rows.subarray(0, this.#keys.length)]
  }

  /** Row ids at positions [start, end). */
  rows(start: number, end: number): number[] {
    const out = new Array<number>(Math.max(0, end - start))
    for (let p = start; p < end; p++) out[p - start] = this.#rows[p]!
    return out
  }

  rowAt(position: number): number {
    return this.#rows[position]!
  }

  keyAt(position: number): SortKey {
    return this.#keys[position]!
  }
}

/**
 * Sorts the text keys of `keys` (nulls skipped, already placed) into `outKeys`/`outRows` from
 * position `at` by counting, when they hold few distinct values (at most one in 16): the distinct
 * values are sorted, each gets its range, and every row is placed in one more pass, in input
 * order within its value. Returns false, having written nothing, when there are more.
 */
function countingSort(
  keys: readonly SortKey[],
  rows: ArrayLike<number>,
  at: number,
  outKeys: SortKey[],
  outRows: Int32Array,
): boolean {
  const limit = Math.max(64, keys.length >>> 4)
  const counts = new Map<string, number>()
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]
    if (k === null) continue
    const c = counts.get(k as string)
    if (c === undefined) {
      if (counts.size >= limit) return false
      counts.set(k as string, 1)
    } else counts.set(k as string, c + 1)
  }
  // Code-unit order, which is how folded keys compare; each value's first position.
  let next = at
  for (const k of [...counts.keys()].sort()) {
    const c = counts.get(k)!
    counts.set(k, next)
    next += c
  }
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]
    if (k === null) continue
    const p = counts.get(k as string)!
    counts.set(k as string, p + 1)
    outKeys[p] = k!
    outRows[p] = rows[i]!
  }
  return true
}
