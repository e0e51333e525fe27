/**
 * @module Row ids as selections hold them.
 *
 * Mostly an array. The key order of a large table, made in slices (Table.prepareOrder), is an
 * Int32Array instead: a JavaScript array of 10M elements is filled with holes when it is made, and
 * the memory behind it faulted in, all in one turn (60-75 ms measured), while a typed array's
 * memory comes zeroed from the system page by page as the slices write it.
 *
 * What is kept for long is an Int32Array too: an entity set holds its members as one
 * (`compactRowIds`), 4 bytes a member, where an array of numbers holds 8 a slot and one grown by
 * pushes up to half as many slots again (8 to 9.2 bytes a member measured, bench/entity-set-memory.ts).
 */
import { rowIdBuffer } from '../parallel/shared-arrays.js'

export type RowIds = readonly number[] | Int32Array

/** `rows` as an array: the array itself, or a copy of a typed array (one piece: keep it small). */
export function rowIdArray(rows: RowIds): readonly number[] {
  return rows instanceof Int32Array ? int32Array(rows) : rows
}

// A typed array's elements in a new array by a loop: `Array.from` walks the typed array's
// iterator, ≈15 ns an element in V8 against ≈1 (at 1M rows, an IN of five hash buckets of 1,000
// rows spent 76% of its time in it).
function int32Array(rows: Int32Array): number[] {
  const out = new Array<number>(rows.length)
  for (let i = 0; i < rows.length; i++) out[i] = rows[i]!
  return out
}

/** `fn` of each row id, as an array (`map`, for either kind of list: a typed array's own `map` gives numbers). */
export function mapRowIds<T>(rows: RowIds, fn: (rowId: number, index: number) => T): T[] {
  const out = new Array<T>(rows.length)
  for (let i = 0; i < rows.length; i++) out[i] = fn(rows[i]!, i)
  return out
}

/** A new array of `rows` (`slice()`, for either kind of list). */
export function copyRowIds(rows: RowIds): number[] {
  return rows instanceof Int32Array ? int32Array(rows) : rows.slice()
}

/** Whether `rows` is an Int32Array alone in its buffer: a view of part of a larger one is not. */
export function isCompact(rows: RowIds): boolean {
  return (
    rows instanceof Int32Array &&
    rows.byteOffset === 0 &&
    rows.byteLength === rows.buffer.byteLength
  )
}

/**
 * `rows` as an Int32Array alone in its buffer, 4 bytes a row id: itself when it is one, else a
 * copy (a view of a larger buffer would keep all of it alive). Row ids, negative ones included
 * (members of a set adopted from another process), are 32-bit integers.
 */
export function compactRowIds(rows: RowIds): Int32Array {
  if (rows instanceof Int32Array && isCompact(rows)) return rows
  // `set` copies an array of small integers in one native loop: half the time of the constructor
  // given the array, and `from` would iterate (0.2-0.4 ms for 100,000 row ids).
  // Shared when large: a worker thread reads the set's members as they are (set algebra).
  const out = rowIdBuffer(rows.length)
  out.set(rows)
  return out
}

/**
 * Row ids whose list is made when first read: the count is known at once, the list is `make()`'s
 * answer, made once and kept. An IN through a hash index answers with one (`HashIndex.lendRowsOf`):
 * copying its ≈500 row ids from the buckets into one array was nine tenths of the query at 100k rows
 * (CPU profile, 2026-11-25), and a selection that is only counted, or read a page at a time from
 * its ordering, needs no such copy. What `make` reads must not change after: the index lends its
 * buckets copy-on-write (a write to a lent bucket writes a copy of it).
 */
export class DeferredRowIds {
  readonly length: number
  #make: (() => RowIds) | undefined
  #ids: RowIds | undefined

  constructor(length: number, make: () => RowIds) {
    this.length = length
    this.#make = make
  }

  /** The row ids, made on the first read. */
  get ids(): RowIds {
    if (this.#ids === undefined) {
      this.#ids = this.#make!()
      // What it read may now be dropped by its owner: only the list is kept.
      this.#make = undefined
    }
    return this.#ids
  }
}

/** Row ids as a selection may be given them: a list, or one made when read. */
export type SelectionRowIds = RowIds | DeferredRowIds

/** `rows` as a list: itself, or the deferred list made now. */
export function settledRowIds(rows: SelectionRowIds): RowIds {
  return rows instanceof DeferredRowIds ? rows.ids : rows
}
