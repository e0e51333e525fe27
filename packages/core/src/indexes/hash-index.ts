/**
 * @module A hash index: comparison key → row ids. Equality and IN lookups in O(1) whatever the
 * table size. String keys are folded, so `name = 'élodie'` finds "Elodie" as the query engine's
 * equality does. Null values are indexed too (under `null`) for `= null`.
 */
import type { SortKey } from '../values/compare.js'

export class HashIndex {
  readonly attribute: string
  readonly folds: boolean
  // A key held by one row maps to the row id itself, by several to an array: unique and
  // near-unique attributes (the usual indexed ones) then cost no array per key.
  readonly #buckets = new Map<SortKey, number | number[]>()

  constructor(attribute: string, folds: boolean) {
    this.attribute = attribute
    this.folds = folds
  }

  /** Number of distinct keys. */
  get distinct(): number {
    return this.#buckets.size
  }

  /** Number of rows holding `key`. */
  count(key: SortKey): number {
    const b = this.#buckets.get(key)
    return b === undefined ? 0 : typeof b === 'number' ? 1 : b.length
  }

  /** Row ids holding `key` (in no particular order). The array may be shared: do not modify it. */
  get(key: SortKey): readonly number[] {
    const b = this.#buckets.get(key)
    return b === undefined ? EMPTY : typeof b === 'number' ? [b] : b
  }

  /** Row ids holding `key`, as a new array the caller owns. */
  rows(key: SortKey): number[] {
    const b = this.#buckets.get(key)
    return b === undefined ? [] : typeof b === 'number' ? [b] : b.slice()
  }

  add(key: SortKey, rowId: number): void {
    const b = this.#buckets.get(key)
    if (b === undefined) this.#buckets.set(key, rowId)
    else if (typeof b === 'number') this.#buckets.set(key, [b, rowId])
    else b.push(rowId)
  }

  remove(key: SortKey, rowId: number): void {
    const b = this.#buckets.get(key)
    if (b === undefined) return
    if (typeof b === 'number') {
      if (b === rowId) this.#buckets.delete(key)
      return
    }
    const i = b.lastIndexOf(rowId)
    if (i < 0) return
    // Order inside a bucket does not matter: swap-remove keeps deletion O(1) after the search.
    b[i] = b[b.length - 1]!
    b.pop()
    if (b.length === 1) this.#buckets.set(key, b[0]!)
  }

  clear(): void {
    this.#buckets.clear()
  }

  /** An independent copy (store snapshots): the buckets' arrays are copied, since add and remove change them in place. */
  copy(): HashIndex {
    const out = new HashIndex(this.attribute, this.folds)
    const buckets = out.#buckets
    for (const [k, b] of this.#buckets) buckets.set(k, typeof b === 'number' ? b : b.slice())
    return out
  }

  /** Makes the bucket of `key` a copy of `from`'s (store snapshots: see IndexSet.restore). */
  restoreBucket(key: SortKey, from: HashIndex): void {
    const b = from.#buckets.get(key)
    if (b === undefined) this.#buckets.delete(key)
    else this.#buckets.set(key, typeof b === 'number' ? b : b.slice())
  }

  /** Every (key, row ids) pair, for consistency checks. */
  *entries(): IterableIterator<[SortKey, number[]]> {
    for (const [k, b] of this.#buckets) yield [k, typeof b === 'number' ? [b] : [...b]]
  }
}

const EMPTY: readonly number[] = Object.freeze([])
