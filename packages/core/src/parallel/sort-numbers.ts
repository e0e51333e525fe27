/**
 * @module A stable sort of numbers with a payload, in linear time: what a sorted index over a numeric
 * column needs when it is built in one go (a data load, a rebuild). A comparison sort with a
 * callback costs n log n calls into JavaScript; this costs four counting passes over typed arrays.
 *
 * Each double is mapped to an unsigned 64-bit key with the same order (the IEEE 754 trick: flip
 * every bit of a negative number, only the sign bit of a positive one), then sorted by 16-bit
 * digits from the lowest (LSD radix sort, stable at each pass). A pass whose digit is the same for
 * every number is skipped: small integers differ only in their high word.
 *
 * It lives with the kernels (sort-kernels.ts): a worker thread sorts an index's keys with it too.
 */

const DIGITS = 1 << 16
// Below this size a comparison sort is cheaper than clearing the digit counts four times.
const SMALL = 2048

/**
 * Arrays of `n` entries for a sort's work: reused while `n` is at most SCRATCH_MAX (a sliced
 * build's runs, thousands of calls), made for the call above it (a one-piece sort of millions,
 * whose arrays must not stay). Every new typed array is memory outside the heap that V8 counts,
 * and that count starts full collections: at 10M rows, the runs' arrays (700 KB a 16k run) made a
 * Mark-Compact every 100-500 ms during an index build.
 */
export const SCRATCH_MAX = 1 << 16

/** Typed arrays reused across calls, grown to SCRATCH_MAX at most; one set per user. */
export class Scratch {
  #f64: Float64Array<ArrayBuffer>[] = []
  #i32: Int32Array<ArrayBuffer>[] = []
  #u32: Uint32Array<ArrayBuffer>[] = []

  /** The `slot`th Float64Array of this set, `n` long (its content left over from before). */
  f64(slot: number, n: number): Float64Array<ArrayBuffer> {
    if (n > SCRATCH_MAX) return new Float64Array(n)
    const a = (this.#f64[slot] ??= new Float64Array(SCRATCH_MAX))
    return a.subarray(0, n)
  }

  i32(slot: number, n: number): Int32Array<ArrayBuffer> {
    if (n > SCRATCH_MAX) return new Int32Array(n)
    const a = (this.#i32[slot] ??= new Int32Array(SCRATCH_MAX))
    return a.subarray(0, n)
  }

  u32(slot: number, n: number): Uint32Array<ArrayBuffer> {
    if (n > SCRATCH_MAX) return new Uint32Array(n)
    const a = (this.#u32[slot] ??= new Uint32Array(SCRATCH_MAX))
    return a.subarray(0, n)
  }
}

// The radix sort's own: it calls no other code while it uses them.
const work = new Scratch()
const counts = new Uint32Array(DIGITS)

/**
 * Sorts `values` ascending and moves `ids[i]` with `values[i]`; equal values keep their order. No
 * NaN. `between` is called before each counting pass (a kernel checks its cancel flag there; it
 * may throw, and then `values` and `ids` are as they were).
 */
export function sortNumbersStable(
  values: Float64Array,
  ids: Int32Array,
  between?: () => void,
): void {
  const n = values.length
  // Already in order (a key loaded in key order, autosequence values): nothing to move.
  let sorted = true
  for (let i = 1; i < n && sorted; i++) sorted = values[i - 1]! <= values[i]!
  if (sorted) return
  if (n < SMALL) {
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => values[a]! - values[b]! || a - b,
    )
    permute(values, ids, Int32Array.from(order))
    return
  }
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * n)
  const lo = work.u32(0, n)
  const hi = work.u32(1, n)
  // Little-endian hosts keep the low word first (every platform Node runs on).
  for (let i = 0; i < n; i++) {
    const h = words[2 * i + 1]!
    const l = words[2 * i]!
    if (h & 0x80000000 && (h !== 0x80000000 || l !== 0)) {
      hi[i] = ~h >>> 0
      lo[i] = ~l >>> 0
    } else {
      // -0 goes with 0, as `-0 === 0` says.
      hi[i] = (h | 0x80000000) >>> 0
      lo[i] = l
    }
  }
  let order = work.i32(0, n)
  for (let i = 0; i < n; i++) order[i] = i
  let spare = work.i32(1, n)
  for (const [word, shift] of [
    [lo, 0],
    [lo, 16],
    [hi, 0],
    [hi, 16],
  ] as const) {
    between?.()
    counts.fill(0)
    for (let i = 0; i < n; i++) counts[(word[i]! >>> shift) & 0xffff]!++
    if (counts[(word[0]! >>> shift) & 0xffff] === n) continue // one digit for all: nothing to do
    let sum = 0
    for (let d = 0; d < DIGITS; d++) {
      const c = counts[d]!
      counts[d] = sum
      sum += c
    }
    for (let i = 0; i < n; i++) {
      const at = order[i]!
      spare[counts[(word[at]! >>> shift) & 0xffff]!++] = at
    }
    ;[order, spare] = [spare, order]
  }
  permute(values, ids, order)
}

/** Puts `values` and `ids` in the order `order` (positions into the current arrays). */
function permute(values: Float64Array, ids: Int32Array, order: Int32Array): void {
  const n = order.length
  const v = work.f64(0, n)
  v.set(values)
  const r = work.i32(2, n)
  r.set(ids)
  for (let i = 0; i < order.length; i++) {
    values[i] = v[order[i]!]!
    ids[i] = r[order[i]!]!
  }
}
