/**
 * @module A hash index: comparison key → row ids. Equality and IN lookups in O(1) whatever the
 * table size. String keys are folded, so `name = 'élodie'` finds "Elodie" as the query engine's
 * equality does. Null values are indexed too (under `null`) for `= null`.
 */
import type { SortKey } from '../query/compare.js'

export class HashIndex {
  readonly attribute: string
  readonly folds: boolean
  readonly #buckets = new Map<SortKey, number[]>()

  constructor(attribute: string, folds: boolean) {
    this.attribute = attribute
    this.folds = folds
  }

  /** Number of distinct keys. */
  get distinct(): number {
    return this.#buckets.size
  }

  /** Row ids holding `key` (in no particular order). The array is shared: do not modify it. */
  get(key: SortKey): readonly number[] {
    return this.#buckets.get(key) ?? EMPTY
  }

  add(key: SortKey, rowId: number): void {
    const bucket = this.#buckets.get(key)
    if (bucket) bucket.push(rowId)
    else this.#buckets.set(key, [rowId])
  }

  remove(key: SortKey, rowId: number): void {
    const bucket = this.#buckets.get(key)
    if (!bucket) return
    const i = bucket.lastIndexOf(rowId)
    if (i < 0) return
    // Order inside a bucket does not matter: swap-remove keeps deletion O(1) after the search.
    bucket[i] = bucket[bucket.length - 1]!
    bucket.pop()
    if (bucket.length === 0) this.#buckets.delete(key)
  }

  clear(): void {
    this.#buckets.clear()
  }

  /** Every (key, row ids) pair, for consistency checks. */
  entries(): IterableIterator<[SortKey, number[]]> {
    return this.#buckets.entries()
  }
}

const EMPTY: readonly number[] = Object.freeze([])
