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
// Slots of the front (powers of two): it grows with the young generation, to four slots an entry
// (few entries then share a slot) and at most MOST_FRONT. A fixed front of 16,384 slots held 192 KB
// for every table read once, and reads of 10,000 rows among 100,000 (ids spread over the table)
// found a quarter of them pushed out of it by another id of the same slot.
const LEAST_FRONT = 16
const MOST_FRONT = 65_536

export class RecentRecords<V> {
  readonly #half: number
  #young = new Map<number, V>()
  #old = new Map<number, V>()
  // A direct-mapped front of the generations (slot = id & mask): the last entry read or set at
  // each slot, its id + 1 beside it (0: none). A read that finds its id there is one array read:
  // the Map's lookup was a fifth of a `get` by key, and reads of a table of 16,384 rows or fewer
  // never go past it. It holds entries of the young generation only: one found there needs no
  // move, and the front is emptied of a generation as it grows old.
  #frontIds = new Int32Array(LEAST_FRONT)
  #front: (V | undefined)[] = new Array<V | undefined>(LEAST_FRONT).fill(undefined)
  #mask = LEAST_FRONT - 1

  /** Keeps between `half` and 2 × `half` of the last entries set (the last `half` at least). */
  constructor(half: number) {
    if (!(Number.isSafeInteger(half) && half > 0)) throw new RangeError(`half: ${half}`)
    this.#half = half
  }

  /** How many entries are held (at most 2 × half). */
  get size(): number {
    return this.#young.size + this.#old.size
  }

  /**
   * The entry of `id` if the front holds it, else undefined (it may still be held): one array read,
   * for a caller that can tell a miss without it (Table.record reads the front before its slots).
   */
  front(id: number): V | undefined {
    const slot = id & this.#mask
    return this.#frontIds[slot] === id + 1 ? this.#front[slot] : undefined
  }

  get(id: number): V | undefined {
    const slot = id & this.#mask
    if (this.#frontIds[slot] === id + 1) return this.#front[slot]
    const young = this.#young.get(id)
    if (young !== undefined) {
      this.#frontIds[slot] = id + 1
      this.#front[slot] = young
      return young
    }
    const old = this.#old.get(id)
    // Read again: it moves to the young generation, so what is read often stays.
    if (old !== undefined) this.set(id, old)
    return old
  }

  set(id: number, value: V): void {
    if (this.#young.size >= this.#half && !this.#young.has(id)) {
      // The young generation grows old: the front lets go of it (an old entry read moves back).
      this.#dropFront(this.#young)
      this.#old = this.#young
      this.#young = new Map()
    }
    this.#young.set(id, value)
    if (this.#young.size * 4 > this.#mask + 1 && this.#mask + 1 < MOST_FRONT) this.#growFront()
    const slot = id & this.#mask
    this.#frontIds[slot] = id + 1
    this.#front[slot] = value
  }

  delete(id: number): void {
    // Every update of a row forgets its record here: an empty generation is not asked (a Map's
    // delete hashes the id even so).
    if (this.#young.size > 0) this.#young.delete(id)
    if (this.#old.size > 0) this.#old.delete(id)
    const slot = id & this.#mask
    if (this.#frontIds[slot] === id + 1) {
      this.#frontIds[slot] = 0
      this.#front[slot] = undefined
    }
  }

  clear(): void {
    this.#young.clear()
    this.#old.clear()
    this.#frontIds.fill(0)
    this.#front.fill(undefined)
  }

  // A front twice as large, empty: the reads that follow fill it from the young generation.
  #growFront(): void {
    const size = (this.#mask + 1) * 2
    this.#frontIds = new Int32Array(size)
    this.#front = new Array<V | undefined>(size).fill(undefined)
    this.#mask = size - 1
  }

  // Empties the front's slots that hold an entry of `generation` (the young one growing old).
  #dropFront(generation: Map<number, V>): void {
    if (generation.size >= this.#mask + 1) {
      this.#frontIds.fill(0)
      this.#front.fill(undefined)
      return
    }
    for (const id of generation.keys()) {
      const slot = id & this.#mask
      if (this.#frontIds[slot] === id + 1) {
        this.#frontIds[slot] = 0
        this.#front[slot] = undefined
      }
    }
  }
}
