/**
 * @module A table's row slots by row id (see Slot in table.ts), kept mostly outside the JS heap.
 *
 * A plain array of slots was one pointer a row, to the load's columns or to a record: at 10M rows,
 * 100 MB of pointers that every full garbage collection marks one by one (a pause of 100-300 ms
 * with the key order's array, measured with --trace-gc-nvp), however few records there are. Here
 * each row has a number in an Int32Array, which the collector never reads: the index of its
 * load's columns in a short list, or EMPTY, or RECORD. Records live in small arrays of CHUNK slots
 * made when a row of theirs first holds one, so a loaded table holds on the heap only the records
 * its reads and writes made (a few chunks for 10,000 writes scattered over 10M rows), and a table
 * of records alone costs about what the plain array did.
 */
import { BaseRows } from './base-rows.js'
import type { EntityRecord } from './entity-record.js'

/** What a slot holds: a record, a load's columns that hold the row, or undefined (no row). */
export type Slot = EntityRecord | BaseRows | undefined

// Kinds: EMPTY and RECORD, or BASE + the index of a load's columns. EMPTY is 0, so that a new
// array's zeros are empty slots with no fill (a fill touches every page in one piece).
const EMPTY = 0
const RECORD = 1
const BASE = 2
// Slots per record chunk: small, so that scattered records keep few slots on the heap.
const SHIFT = 6
const CHUNK = 1 << SHIFT
const MASK = CHUNK - 1

export class SlotArray {
  // Per row: EMPTY, RECORD, or BASE + the index of its columns in #bases. EMPTY past `length` too.
  #kinds: Int32Array
  #length = 0
  // The loads' columns the slots point to, each one's index there, and how many slots point to
  // it: one no slot points to any more is let go (its rows all written, deleted or rewound).
  #bases: (BaseRows | undefined)[]
  #baseIndex: Map<BaseRows, number>
  #baseSlots: number[]
  // Records by row id: chunk `rowId >> SHIFT`, slot `rowId & MASK`.
  #chunks: ((EntityRecord | undefined)[] | undefined)[]

  constructor(capacity = 16) {
    this.#kinds = new Int32Array(Math.max(16, capacity))
    this.#bases = []
    this.#baseIndex = new Map()
    this.#baseSlots = []
    this.#chunks = []
  }

  /** One past the highest row id ever set (less after a truncation). */
  get length(): number {
    return this.#length
  }

  /** Empties the slots from `n` on (a rewind): the length becomes `n`. */
  set length(n: number) {
    if (n < this.#length) {
      for (let i = n; i < this.#length; i++) if (this.#kinds[i] !== EMPTY) this.set(i, undefined)
    }
    this.#length = n
    if (n > this.#kinds.length) this.#grow(n)
  }

  get(rowId: number): Slot {
    const k = this.#kinds[rowId]
    if (k === undefined || k === EMPTY) return undefined
    return k >= BASE ? this.#bases[k - BASE]! : this.#chunks[rowId >> SHIFT]![rowId & MASK]
  }

  /**
   * The record row `rowId` holds, undefined when it holds none (a load's columns, or nothing): a
   * reader that wants a record tells it by its kind, where `get(rowId) instanceof BaseRows` walked
   * an Entity's prototype chain (3% of an update by key).
   */
  recordAt(rowId: number): EntityRecord | undefined {
    return this.#kinds[rowId] === RECORD ? this.#chunks[rowId >> SHIFT]![rowId & MASK] : undefined
  }

  /** Whether row `rowId` holds something (a cheaper `get(rowId) !== undefined`). */
  has(rowId: number): boolean {
    const k = this.#kinds[rowId]
    return k !== undefined && k !== EMPTY
  }

  set(rowId: number, slot: Slot): void {
    if (rowId >= this.#kinds.length) this.#grow(rowId + 1)
    if (rowId >= this.#length) this.#length = rowId + 1
    const chunks = this.#chunks
    const c = rowId >> SHIFT
    const was = this.#kinds[rowId]! - BASE
    if (was >= 0 && --this.#baseSlots[was]! === 0) {
      this.#baseIndex.delete(this.#bases[was]!)
      this.#bases[was] = undefined
    }
    if (slot === undefined || slot instanceof BaseRows) {
      if (was === RECORD - BASE) chunks[c]![rowId & MASK] = undefined
      if (slot === undefined) this.#kinds[rowId] = EMPTY
      else {
        const k = this.#indexOf(slot)
        this.#baseSlots[k]!++
        this.#kinds[rowId] = BASE + k
      }
      return
    }
    while (chunks.length <= c) chunks.push(undefined)
    ;(chunks[c] ??= new Array<EntityRecord | undefined>(CHUNK).fill(undefined))[rowId & MASK] = slot
    this.#kinds[rowId] = RECORD
  }

  /**
   * Makes room for `n` slots (a load's commit, before its rows): grown slot by slot, the array
   * was copied whole at each step, 10M rows' in one piece.
   */
  reserve(n: number): void {
    if (n > this.#kinds.length) this.#grow(n)
  }

  /** The load columns it holds on to (for tests). */
  heldBases(): BaseRows[] {
    return this.#bases.filter((b) => b !== undefined)
  }

  /** An independent copy: the numbers copied (a memcpy), the record chunks copied. */
  slice(): SlotArray {
    const out = new SlotArray(0)
    out.#kinds = this.#kinds.slice()
    out.#length = this.#length
    out.#bases = this.#bases.slice()
    out.#baseIndex = new Map(this.#baseIndex)
    out.#baseSlots = this.#baseSlots.slice()
    out.#chunks = this.#chunks.map((chunk) => chunk?.slice())
    return out
  }

  #indexOf(base: BaseRows): number {
    let k = this.#baseIndex.get(base)
    if (k === undefined) {
      k = this.#bases.length
      this.#bases.push(base)
      this.#baseSlots.push(0)
      this.#baseIndex.set(base, k)
    }
    return k
  }

  #grow(n: number): void {
    const kinds = new Int32Array(Math.max(n, Math.ceil(this.#kinds.length * 1.5)))
    kinds.set(this.#kinds)
    this.#kinds = kinds
  }
}
