/**
 * @module Typed arrays that worker threads can read without a copy: over a `SharedArrayBuffer`
 * wherever the runtime has one (Node, Bun, Deno; a browser page only when cross-origin isolated),
 * else over a plain ArrayBuffer, which works the same on the calling thread and is simply never
 * handed to a worker.
 */

const SHARED = typeof SharedArrayBuffer === 'function'

/** Whether `array`'s memory is shared: a worker reads it as it is, writes included. */
export const isShared = (array: ArrayBufferView): boolean =>
  SHARED && array.buffer instanceof SharedArrayBuffer

/**
 * A Float64Array of `length` values, NaN each (null, in a numeric column), shared when it can be,
 * holding `from`'s values first when given (a column grown: the old one stays as it is for a worker
 * still reading it).
 */
export function nanColumn(length: number, from?: Float64Array): Float64Array {
  const column = SHARED
    ? new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT))
    : new Float64Array(length)
  column.fill(NaN)
  if (from !== undefined) column.set(from.length > length ? from.subarray(0, length) : from)
  return column
}

/**
 * The row ids from which a list is made in shared memory: a worker then reads it as it is (set
 * algebra, `$distinct` over a selection). Fewer never go to a pool (PARALLEL_MIN_ROWS), and a
 * `SharedArrayBuffer` costs more to make than a plain buffer.
 */
export const SHARED_ROWS = 65_536

/** A zeroed Int32Array of `length` row ids: shared from `SHARED_ROWS` on, where it can be. */
export function rowIdBuffer(length: number): Int32Array {
  return SHARED && length >= SHARED_ROWS
    ? new Int32Array(new SharedArrayBuffer(length * Int32Array.BYTES_PER_ELEMENT))
    : new Int32Array(length)
}

/** A zeroed Uint8Array of `length` bytes, shared where it can be (a bitmap workers write). */
export function sharedBytes(length: number): Uint8Array {
  return SHARED ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint8Array(length)
}
