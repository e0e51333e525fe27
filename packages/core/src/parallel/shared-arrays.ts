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
  const column = sharedFloat64(length)
  column.fill(NaN)
  if (from !== undefined) column.set(from.length > length ? from.subarray(0, length) : from)
  return column
}

/** An Int32Array of `length` zeros, shared when it can be. */
export function sharedInt32(length: number): Int32Array {
  return SHARED
    ? new Int32Array(new SharedArrayBuffer(length * Int32Array.BYTES_PER_ELEMENT))
    : new Int32Array(length)
}

/** A Float64Array of `length` zeros, shared when it can be. */
export function sharedFloat64(length: number): Float64Array {
  return SHARED
    ? new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT))
    : new Float64Array(length)
}

/** `array` grown to `length`, its values first, over the same kind of memory (shared or not). */
export function grownLike<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const shared = isShared(array)
  const grown = (
    array instanceof Int32Array
      ? shared
        ? sharedInt32(length)
        : new Int32Array(length)
      : shared
        ? sharedFloat64(length)
        : new Float64Array(length)
  ) as T
  grown.set(array)
  return grown
}

/**
 * The row ids from which a list is made in shared memory: a worker then reads it as it is (set
 * algebra, `$distinct` over a selection). Fewer never go to a pool (PARALLEL_MIN_ROWS), and a
 * `SharedArrayBuffer` costs more to make than a plain buffer.
 */
export const SHARED_ROWS = 65_536

/** A zeroed Int32Array of `length` row ids: shared from `SHARED_ROWS` on, where it can be. */
export function rowIdBuffer(length: number): Int32Array {
  return length >= SHARED_ROWS ? sharedInt32(length) : new Int32Array(length)
}

/** A zeroed Uint8Array of `length` bytes, shared where it can be (a bitmap workers write). */
export function sharedBytes(length: number): Uint8Array {
  return SHARED ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint8Array(length)
}
