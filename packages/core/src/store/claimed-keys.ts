/**
 * @module The keys one batch has claimed in one table and not yet committed.
 *
 * A Set, and, once the batch holds enough small non-negative integer keys (autosequence keys, row
 * numbers: the keys of nearly every data file) packed closely enough, a bitmap for those: 1 bit a
 * key where a Set entry costs about 30 bytes and a hash. What decides is how many keys there are,
 * never how large they are: a bitmap is made or grown only while it costs at most BYTES_PER_KEY
 * bytes a small key claimed. A bitmap sized by the largest key alone cost every single
 * write of key 50,000,000 a 6 MB allocation (4,500 writes/s fell to 800).
 *
 * A key is in one of the two, never both: growing the bitmap moves the Set's keys it now covers.
 */
import type { KeyValue } from './entity-record.js'

// Up to 2^26: a bitmap reaching the largest takes 8 MB.
const isSmallIndex = (key: KeyValue): key is number =>
  typeof key === 'number' && (key | 0) === key && key >= 0 && key < 0x4000000

/** Most bytes of bitmap a key it holds: about what the key costs in a Set. */
const BYTES_PER_KEY = 32
/** Keys in the Set before a bitmap is first considered (then at each doubling). */
const FIRST_LOOK = 1024

export class ClaimedKeys {
  #bits: Uint32Array | undefined
  // Keys set in #bits.
  #inBits = 0
  readonly #others = new Set<KeyValue>()
  // Small keys in #others.
  #smallOthers = 0
  #nextLook: number

  /** `firstLook`: keys in the Set before a bitmap is first considered (tests make it small). */
  constructor(firstLook = FIRST_LOOK) {
    this.#nextLook = firstLook
  }

  has(key: KeyValue): boolean {
    if (isSmallIndex(key) && this.#bits && ((this.#bits[key >>> 5] ?? 0) & (1 << (key & 31))) !== 0)
      return true
    return this.#others.has(key)
  }

  add(key: KeyValue): void {
    if (isSmallIndex(key) && (this.#covers(key) || this.#grow(key))) {
      this.#set(key)
      return
    }
    if (this.#others.has(key)) return
    this.#others.add(key)
    if (isSmallIndex(key)) this.#smallOthers++
    if (this.#others.size >= this.#nextLook) {
      this.#nextLook *= 2
      this.#look()
    }
  }

  delete(key: KeyValue): void {
    const bits = this.#bits
    if (isSmallIndex(key) && bits && key >>> 5 < bits.length) {
      const bit = 1 << (key & 31)
      if ((bits[key >>> 5]! & bit) !== 0) {
        bits[key >>> 5]! &= ~bit
        this.#inBits--
        return
      }
    }
    if (this.#others.delete(key) && isSmallIndex(key)) this.#smallOthers--
  }

  /** @internal Bytes of bitmap held (tests: the memory of a batch follows its keys' number). */
  get bitmapBytes(): number {
    return this.#bits?.byteLength ?? 0
  }

  #covers(key: number): boolean {
    return this.#bits !== undefined && key >>> 5 < this.#bits.length
  }

  #set(key: number): void {
    const word = key >>> 5
    const bit = 1 << (key & 31)
    if ((this.#bits![word]! & bit) === 0) {
      this.#bits![word]! |= bit
      this.#inBits++
    }
  }

  // A key past the bitmap: grows it (doubling at least) while it costs at most BYTES_PER_KEY a
  // small key claimed, moving the Set's small keys it then covers.
  #grow(key: number): boolean {
    if (!this.#bits) return false
    const words = Math.max((key >>> 5) + 1, this.#bits.length * 2)
    if (words * 4 > BYTES_PER_KEY * (this.#inBits + this.#smallOthers + 1)) return false
    this.#moveTo(words)
    return true
  }

  // The Set has doubled: makes a bitmap if its small keys are dense enough for one.
  #look(): void {
    if (this.#bits || this.#smallOthers === 0) return
    let max = 0
    for (const key of this.#others) if (isSmallIndex(key) && key > max) max = key
    const words = (max >>> 5) + 1
    if (words * 4 <= BYTES_PER_KEY * this.#smallOthers) this.#moveTo(words)
  }

  #moveTo(words: number): void {
    const bits = new Uint32Array(words)
    if (this.#bits) bits.set(this.#bits)
    this.#bits = bits
    for (const key of this.#others)
      if (isSmallIndex(key) && key >>> 5 < words) {
        this.#others.delete(key)
        this.#smallOthers--
        this.#set(key)
      }
  }
}
