/**
 * @module Primary key → row id. Most keys are small non-negative integers (autosequence,
 * exported row numbers): those are kept in an array indexed by the key itself, 8 bytes a row where
 * a Map costs about 40. The first key that does not fit (text, uuid, a negative or fractional
 * number, or one far past the others) moves everything to a Map, for good.
 */
import type { KeyValue } from './entity-record.js'

// A dense array may be at most this many times longer than the number of keys it holds (plus
// some room), so that sparse keys (1, 1000000) do not reserve memory for the gap.
const SPREAD = 4
const ROOM = 1024

export class KeyDirectory {
  #dense: (number | undefined)[] | undefined = []
  #map: Map<KeyValue, number> | undefined
  #size = 0

  /** Number of keys. */
  get size(): number {
    return this.#size
  }

  /** The row id of `key`, or undefined. Any value may be asked: only keys as stored are found. */
  get(key: unknown): number | undefined {
    const dense = this.#dense
    if (dense) return typeof key === 'number' ? dense[key] : undefined
    return this.#map!.get(key as KeyValue)
  }

  set(key: KeyValue, rowId: number): void {
    const dense = this.#dense
    if (dense) {
      if (
        typeof key === 'number' &&
        Number.isSafeInteger(key) &&
        key >= 0 &&
        // Past the end, a short step only (a long one would turn the array into a dictionary).
        (key < dense.length ||
          (key - dense.length <= ROOM && key <= SPREAD * (this.#size + 1) + ROOM))
      ) {
        if (dense[key] === undefined) this.#size++
        dense[key] = rowId
        return
      }
      this.#toMap()
    }
    const map = this.#map!
    const before = map.size
    map.set(key, rowId)
    this.#size += map.size - before
  }

  delete(key: KeyValue): void {
    const dense = this.#dense
    if (dense) {
      if (typeof key === 'number' && dense[key] !== undefined) {
        dense[key] = undefined
        this.#size--
      }
      return
    }
    if (this.#map!.delete(key)) this.#size--
  }

  /** Every row id, in no particular order. */
  *values(): IterableIterator<number> {
    if (this.#dense) {
      for (const r of this.#dense) if (r !== undefined) yield r
    } else yield* this.#map!.values()
  }

  /** An independent copy (store snapshots). */
  copy(): KeyDirectory {
    const out = new KeyDirectory()
    out.assign(this)
    return out
  }

  /**
   * Makes this directory hold what `other` holds, as a copy: in place, because readers keep the
   * directory object itself (a dataclass's `get` reads it directly).
   */
  assign(other: KeyDirectory): void {
    this.#dense = other.#dense?.slice()
    this.#map = other.#map && new Map(other.#map)
    this.#size = other.#size
  }

  #toMap(): void {
    // In the dense form a key is its index.
    const map = new Map<KeyValue, number>()
    this.#dense!.forEach((rowId, key) => rowId !== undefined && map.set(key, rowId))
    this.#map = map
    this.#dense = undefined
  }
}
