/**
 * @module A set of row ids as one bit a row: what a `restrict` answer is kept as. A session asks it
 * for each row it reads (`has`), and the answers of many views are kept at once, so its size is
 * what matters: 100,000 rows take 12.5 KB, where a `Set` of them took megabytes.
 *
 * Row ids are the table's slots, from 0; a negative one (a member of a set adopted from another
 * process) is kept aside in a small Set.
 */
import type { RowIds } from './row-ids.js'

/** What a reader of visible rows asks: membership and how many. */
export interface RowMembership {
  has(rowId: number): boolean
  readonly size: number
}

export class RowBitmap implements RowMembership {
  readonly size: number
  readonly #words: Uint32Array
  readonly #negative: ReadonlySet<number> | undefined

  private constructor(words: Uint32Array, size: number, negative: ReadonlySet<number> | undefined) {
    this.#words = words
    this.size = size
    this.#negative = negative
  }

  /** The set of `rows` (duplicates counted once). */
  static of(rows: RowIds): RowBitmap {
    let max = -1
    for (let i = 0; i < rows.length; i++) if (rows[i]! > max) max = rows[i]!
    const words = new Uint32Array((max >> 5) + 1)
    let size = 0
    let negative: Set<number> | undefined
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!
      if (row < 0) {
        negative ??= new Set()
        if (!negative.has(row)) size++
        negative.add(row)
        continue
      }
      const w = row >> 5
      const bit = 1 << (row & 31)
      if ((words[w]! & bit) === 0) size++
      words[w] = words[w]! | bit
    }
    return new RowBitmap(words, size, negative)
  }

  has(rowId: number): boolean {
    if (rowId < 0) return this.#negative?.has(rowId) ?? false
    // Past the last word: undefined & bit is 0.
    return (this.#words[rowId >> 5]! & (1 << (rowId & 31))) !== 0
  }

  /**
   * A copy where each row of `rows` is in or out as `keep` says (the others as here): an answer
   * brought up to date with the rows written since.
   */
  with(changed: readonly number[], keep: (rowId: number) => boolean): RowBitmap {
    // A row written several times is tested once.
    const rows = new Set(changed)
    let max = (this.#words.length << 5) - 1
    for (const row of rows) if (row > max) max = row
    const words = new Uint32Array((max >> 5) + 1)
    words.set(this.#words)
    let size = this.size
    let negative = this.#negative
    for (const row of rows) {
      const had = this.has(row)
      const now = keep(row)
      if (had === now) continue
      size += now ? 1 : -1
      if (row < 0) {
        const copy = new Set(negative)
        if (now) copy.add(row)
        else copy.delete(row)
        negative = copy
        continue
      }
      const w = row >> 5
      words[w] = now ? words[w]! | (1 << (row & 31)) : words[w]! & ~(1 << (row & 31))
    }
    return new RowBitmap(words, size, negative)
  }

  /** The rows, in increasing order (negative ones first). */
  toArray(): number[] {
    const out: number[] = []
    if (this.#negative) out.push(...[...this.#negative].sort((a, b) => a - b))
    const words = this.#words
    for (let w = 0; w < words.length; w++) {
      let word = words[w]!
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word)
        out.push((w << 5) | bit)
        word &= word - 1
      }
    }
    return out
  }

  /** Bytes held: what a cache of many answers counts. */
  get byteLength(): number {
    return this.#words.byteLength + (this.#negative?.size ?? 0) * 16
  }
}
