/**
 * @module The row ids of a hash index's key held by several rows (a group): a plain array while it is
 * small, and past GROUP_TYPED rows an Int32Array outside the JS heap (RowList), so that a full
 * garbage collection does not mark every slot of every group (hash-index.ts says why).
 */
import { copyRowIds } from '../sets/row-ids.js'

/** Row ids as `HashIndex.get` gives them: an array or a view of an Int32Array. */
export type RowIds = ArrayLike<number> & Iterable<number>

/**
 * A group's row ids past GROUP_TYPED: an Int32Array with room to grow (doubling), and how much of
 * it is used. Has the few array methods a group needs.
 */
export class RowList {
  #ids: Int32Array
  length: number
  private constructor(ids: Int32Array, length: number) {
    this.#ids = ids
    this.length = length
  }
  /** An empty list with room for `n` rows (a bulk fill, which knows how many it will push). */
  static sized(n: number): RowList {
    return new RowList(new Int32Array(n), 0)
  }
  static from(rows: readonly number[]): RowList {
    const ids = new Int32Array(Math.max(GROUP_TYPED, rows.length) * 2)
    ids.set(rows)
    return new RowList(ids, rows.length)
  }
  get(i: number): number {
    return this.#ids[i]!
  }
  set(i: number, rowId: number): void {
    this.#ids[i] = rowId
  }
  push(rowId: number): void {
    if (this.length === this.#ids.length) {
      const grown = new Int32Array(this.#ids.length * 2)
      grown.set(this.#ids)
      this.#ids = grown
    }
    this.#ids[this.length++] = rowId
  }
  pop(): number | undefined {
    return this.length === 0 ? undefined : this.#ids[--this.length]
  }
  lastIndexOf(rowId: number): number {
    return this.#ids.subarray(0, this.length).lastIndexOf(rowId)
  }
  slice(): RowList {
    return new RowList(this.#ids.slice(), this.length)
  }
  view(): Int32Array {
    return this.#ids.subarray(0, this.length)
  }
  /**
   * Writes its row ids into `out` from `at`; returns the position after them. Read from its own
   * array, not through a `view()` (a subarray made for each bucket was an eighth of an IN).
   */
  copyInto(out: number[], at: number): number {
    const ids = this.#ids
    for (let i = 0; i < this.length; i++) out[at++] = ids[i]!
    return at
  }
}

// The row ids of `found` in one new array of `total` (their count).
export function concatBuckets(found: readonly (number | Group)[], total: number): number[] {
  const out = new Array<number>(total)
  let at = 0
  for (const f of found) {
    if (typeof f === 'number') out[at++] = f
    else if (f instanceof RowList) at = f.copyInto(out, at)
    else at = copyGroup(f, out, at)
  }
  return out
}

/**
 * `copyInto` for a group still in a plain array. A loop of its own: one loop reading both kinds
 * of group (an array, an Int32Array) read each element through a polymorphic access, ≈3 ns a row.
 */
function copyGroup(ids: readonly number[], out: number[], at: number): number {
  for (let i = 0; i < ids.length; i++) out[at++] = ids[i]!
  return at
}

export type Group = number[] | RowList

export const at = (g: Group, i: number): number => (g instanceof RowList ? g.get(i) : g[i]!)

export const setAt = (g: Group, i: number, rowId: number): void => {
  if (g instanceof RowList) g.set(i, rowId)
  else g[i] = rowId
}

export const view = (g: Group): RowIds => (g instanceof RowList ? g.view() : g)

export const toArray = (g: Group): number[] => copyRowIds(g instanceof RowList ? g.view() : g)

export const EMPTY: readonly number[] = Object.freeze([])

// What a freed group number holds: never written (a new group gets a new array).
export const EMPTY_GROUP: number[] = Object.freeze([]) as unknown as number[]

// From how many rows a group moves to an Int32Array: below it, a typed array's own objects (about
// 200 bytes) would cost more than the slots they keep off the heap.
export const GROUP_TYPED = 64
