/**
 * @module Row ids as selections hold them.
 *
 * Mostly an array. The key order of a large table, made in slices (Table.prepareOrder), is an
 * Int32Array instead: a JavaScript array of 10M elements is filled with holes when it is made, and
 * the memory behind it faulted in, all in one turn (60-75 ms measured), while a typed array's
 * memory comes zeroed from the system page by page as the slices write it.
 */
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
