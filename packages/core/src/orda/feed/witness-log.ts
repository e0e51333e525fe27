/**
 * @module The witnesses of the last deletions, by deletion stamp, in little memory: what
 * deletion-witnesses.ts keeps for the process's life.
 *
 * A deletion is its global stamp (no two deletions share one, but after the stamps were taken back:
 * a restore, `setGlobalStamp` lower; a deletion noted at a stamp not above the last forgets those
 * at and above it). Its witnesses are a set of marks (session ids, users), and the deletions of
 * one reader mostly have the same: each distinct set is kept once, counted by the deletions that
 * refer to it. So a deletion costs 12 bytes (its stamp and its set's number in typed arrays),
 * whatever the number of its witnesses: 1,000,000 deletions take 12 MB, where an object a deletion
 * took 78.
 *
 * Bounded to `capacity` deletions, the oldest forgotten first (a deletion forgotten is shown to no
 * one: privacy first).
 */

/** The marks of the witnesses of one deletion. */
export type Marks = ReadonlySet<string>

interface Interned {
  readonly marks: Marks
  readonly id: number
  refs: number
}

export class WitnessLog {
  readonly #capacity: number
  // A ring of deletions, oldest at #head, their stamps increasing.
  #stamps: Float64Array
  #sets: Int32Array
  #head = 0
  #size = 0
  // Each distinct set of marks, by its text and by its number.
  readonly #bySignature = new Map<string, Interned>()
  readonly #byId = new Map<number, Interned>()
  readonly #signatures = new WeakMap<Marks, string>()
  #lastId = 0

  constructor(capacity: number) {
    this.#capacity = capacity
    const first = Math.max(1, Math.min(1024, capacity))
    this.#stamps = new Float64Array(first)
    this.#sets = new Int32Array(first)
  }

  /** How many deletions are kept. */
  get size(): number {
    return this.#size
  }

  /** How many distinct sets of witnesses are kept. */
  get distinctSets(): number {
    return this.#byId.size
  }

  /** Keeps `marks` as the witnesses of the deletion at `stamp`. */
  add(stamp: number, marks: Marks): void {
    if (this.#size > 0 && stamp <= this.#stampAt(this.#size - 1)) this.#forgetFrom(stamp)
    if (this.#size === this.#capacity) this.#dropOldest()
    if (this.#size === this.#stamps.length) this.#grow()
    const at = (this.#head + this.#size) % this.#stamps.length
    this.#stamps[at] = stamp
    this.#sets[at] = this.#intern(marks).id
    this.#size++
  }

  /** The witnesses of the deletion at `stamp`, if it is kept. */
  get(stamp: number): Marks | undefined {
    const i = this.#find(stamp)
    if (i < 0) return undefined
    return this.#byId.get(this.#sets[(this.#head + i) % this.#stamps.length]!)?.marks
  }

  #stampAt(i: number): number {
    return this.#stamps[(this.#head + i) % this.#stamps.length]!
  }

  // The position of `stamp` among the kept deletions (binary search: stamps increase), or -1.
  #find(stamp: number): number {
    let lo = 0
    let hi = this.#size - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const s = this.#stampAt(mid)
      if (s === stamp) return mid
      if (s < stamp) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }

  #intern(marks: Marks): Interned {
    const signature = this.#signatureOf(marks)
    let entry = this.#bySignature.get(signature)
    if (entry === undefined) {
      entry = { marks, id: ++this.#lastId, refs: 0 }
      this.#bySignature.set(signature, entry)
      this.#byId.set(entry.id, entry)
    }
    entry.refs++
    return entry
  }

  #release(id: number): void {
    const entry = this.#byId.get(id)
    if (entry === undefined || --entry.refs > 0) return
    this.#byId.delete(id)
    this.#bySignature.delete(this.#signatureOf(entry.marks))
  }

  // The marks as one text, made once a set (a commit's rows share their sets).
  #signatureOf(marks: Marks): string {
    let signature = this.#signatures.get(marks)
    if (signature === undefined)
      this.#signatures.set(marks, (signature = [...marks].sort().join('\u0000')))
    return signature
  }

  #dropOldest(): void {
    this.#release(this.#sets[this.#head]!)
    this.#head = (this.#head + 1) % this.#stamps.length
    this.#size--
  }

  // Stamps were taken back: the deletions at `stamp` and after are of another history.
  #forgetFrom(stamp: number): void {
    while (this.#size > 0 && this.#stampAt(this.#size - 1) >= stamp) {
      this.#size--
      this.#release(this.#sets[(this.#head + this.#size) % this.#stamps.length]!)
    }
  }

  #grow(): void {
    const length = Math.min(this.#capacity, this.#stamps.length * 2)
    const stamps = new Float64Array(length)
    const sets = new Int32Array(length)
    for (let i = 0; i < this.#size; i++) {
      const from = (this.#head + i) % this.#stamps.length
      stamps[i] = this.#stamps[from]!
      sets[i] = this.#sets[from]!
    }
    this.#stamps = stamps
    this.#sets = sets
    this.#head = 0
  }
}
