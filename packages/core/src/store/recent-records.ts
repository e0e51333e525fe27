/**
 * @module The records a table made last from a load's columns, so that a read soon after hands out
 * the same object, while a read of every row (a clone, a `--save`) does not keep every row's object
 * on the heap for good.
 *
 * Two generations of at most `half` entries each: when the young one is full it becomes the old
 * one and the old one is dropped. Finding, adding and forgetting are O(1). A single Map with its
 * oldest entry deleted on each insert is not: V8 leaves a deleted entry in place until the Map is
 * rehashed, and `keys().next()` walks over every one of them, so the n-th insert past the limit
 * cost O(n) until the next rehash (a server reading pages of a 1M-row entity set held the loop
 * 30 → 51 ms a page, in a saw-tooth, measured with a CPU profile).
 */
export class RecentRecords<V> {
  readonly #half: number
  #young = new Map<number, V>()
  #old = new Map<number, V>()

  /** Keeps between `half` and 2 × `half` of the last entries set (the last `half` at least). */
  constructor(half: number) {
    if (!(Number.isSafeInteger(half) && half > 0)) throw new RangeError(`half: ${half}`)
    this.#half = half
  }

  /** How many entries are held (at most 2 × half). */
  get size(): number {
    return this.#young.size + this.#old.size
  }

  get(id: number): V | undefined {
    const young = this.#young.get(id)
    if (young !== undefined) return young
    const old = this.#old.get(id)
    // Read again: it moves to the young generation, so what is read often stays.
    if (old !== undefined) this.set(id, old)
    return old
  }

  set(id: number, value: V): void {
    if (this.#young.size >= this.#half && !this.#young.has(id)) {
      this.#old = this.#young
      this.#young = new Map()
    }
    this.#young.set(id, value)
  }

  delete(id: number): void {
    this.#young.delete(id)
    this.#old.delete(id)
  }

  clear(): void {
    this.#young.clear()
    this.#old.clear()
  }
}
