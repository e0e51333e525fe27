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
// Slots of the front (a power of two): 16,384 ids and values, 192 KB, within a core's cache.
const FRONT = 16_384
const MASK = FRONT - 1

export class RecentRecords<V> {
  readonly #half: number
  #young = new Map<number, V>()
  #old = new Map<number, V>()
  // A direct-mapped front of the generations (slot = id & MASK): the last entry read or set at
  // each slot, its id + 1 beside it (0: none). A read that finds its id there is one array read:
  // the Map's lookup was a fifth of a `get` by key, and reads of a table of 16,384 rows or fewer
  // never go past it. It holds entries of the young generation only: one found there needs no
  // move, and the front is emptied of a generation as it grows old.
  readonly #frontIds = new Int32Array(FRONT)
  readonly #front: (V | undefined)[] = new Array<V | undefined>(FRONT).fill(undefined)

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
    const slot = id & MASK
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
    const slot = id & MASK
    this.#frontIds[slot] = id + 1
    this.#front[slot] = value
  }

  delete(id: number): void {
    this.#young.delete(id)
    this.#old.delete(id)
    const slot = id & MASK
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

  // Empties the front's slots that hold an entry of `generation` (the young one growing old).
  #dropFront(generation: Map<number, V>): void {
    if (generation.size >= FRONT) {
      this.#frontIds.fill(0)
      this.#front.fill(undefined)
      return
    }
    for (const id of generation.keys()) {
      const slot = id & MASK
      if (this.#frontIds[slot] === id + 1) {
        this.#frontIds[slot] = 0
        this.#front[slot] = undefined
      }
    }
  }
}
