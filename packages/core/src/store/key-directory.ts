/**
 * @module Primary key → row id. Most keys are small non-negative integers (autosequence,
 * exported row numbers): those are kept in an Int32Array indexed by the key itself, 4 bytes a row
 * where a Map costs about 40. A typed array, which a full GC does not walk: a JS array of 1M row
 * ids was 10 MB of slots visited by every full GC. The first key that does not fit (text, uuid, a negative or fractional
 * number, or one far past the others) moves everything to a Map, for good.
 */
import type { KeyValue } from './entity-record.js'

// A dense array may be at most this many times longer than the number of keys it holds (plus
// some room), so that sparse keys (1, 1000000) do not reserve memory for the gap.
const SPREAD = 4
const ROOM = 1024

// No row for this key, in the dense form: row ids are kept plus one, so that a new array's zeros
// are empty slots with no fill (a fill touches every page of the array in one piece).
const NONE = 0

export class KeyDirectory {
  // Row ids + 1 by key, NONE for none; #length is one past the highest key set (its capacity more).
  #dense: Int32Array | undefined = new Int32Array(0)
  #length = 0
  #map: Map<KeyValue, number> | undefined
  #size = 0

  /** Number of keys. */
  get size(): number {
    return this.#size
  }

  /** The row id of `key`, or undefined. Any value may be asked: only keys as stored are found. */
  get(key: unknown): number | undefined {
    const dense = this.#dense
    if (dense) {
      if (typeof key !== 'number') return undefined
      // -0 is key 0 (a typed array has no element -0); a fraction or a key past it, undefined.
      const r = dense[key === 0 ? 0 : key]
      return r === undefined || r === NONE ? undefined : r - 1
    }
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
        (key < this.#length ||
          (key - this.#length <= ROOM && key <= SPREAD * (this.#size + 1) + ROOM))
      ) {
        const k = key === 0 ? 0 : key
        let room = dense
        if (k >= room.length) {
          room = this.#grown(Math.max(16, k + 1, room.length * 2))
        }
        if (room[k] === NONE) this.#size++
        room[k] = rowId + 1
        if (k >= this.#length) this.#length = k + 1
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
      const k = key === 0 ? 0 : key
      if (typeof k === 'number' && dense[k] !== undefined && dense[k] !== NONE) {
        dense[k] = NONE
        this.#size--
      }
      return
    }
    if (this.#map!.delete(key)) this.#size--
  }

  /** Every row id, in no particular order. */
  *values(): IterableIterator<number> {
    if (this.#dense) {
      const dense = this.#dense
      for (let k = 0; k < this.#length; k++) if (dense[k] !== NONE) yield dense[k]! - 1
    } else yield* this.#map!.values()
  }

  /**
   * Makes room for keys up to `n` - 1 in the dense form (a load's commit, before its rows): grown
   * key by key, the array doubled and was copied whole, 10M rows' keys in one piece.
   */
  reserve(n: number): void {
    if (this.#dense && n > this.#dense.length) this.#grown(n)
  }

  #grown(length: number): Int32Array {
    const room = new Int32Array(length)
    room.set(this.#dense!)
    this.#dense = room
    return room
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
    this.#dense = other.#dense?.slice(0, other.#length)
    this.#length = other.#length
    this.#map = other.#map && new Map(other.#map)
    this.#size = other.#size
  }

  #toMap(): void {
    // In the dense form a key is its index.
    const map = new Map<KeyValue, number>()
    const dense = this.#dense!
    for (let key = 0; key < this.#length; key++)
      if (dense[key] !== NONE) map.set(key, dense[key]! - 1)
    this.#map = map
    this.#dense = undefined
  }
}
