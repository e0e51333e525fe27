/**
 * @module A stable sort of numbers with a payload, in linear time: what a sorted index over a numeric
 * column needs when it is built in one go (a data load, a rebuild). A comparison sort with a
 * callback costs n log n calls into JavaScript; this costs four counting passes over typed arrays.
 *
 * Each double is mapped to an unsigned 64-bit key with the same order (the IEEE 754 trick: flip
 * every bit of a negative number, only the sign bit of a positive one), then sorted by 16-bit
 * digits from the lowest (LSD radix sort, stable at each pass). A pass whose digit is the same for
 * every number is skipped: small integers differ only in their high word.
 */

import { compareLazy, lowerUnit } from '../values/lazy-fold.js'

const DIGITS = 1 << 16
// Below this size a comparison sort is cheaper than clearing the digit counts four times.
const SMALL = 2048

/** Sorts `values` ascending and moves `ids[i]` with `values[i]`; equal values keep their order. No NaN. */
export function sortNumbersStable(values: Float64Array, ids: Int32Array): void {
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
  const lo = new Uint32Array(n)
  const hi = new Uint32Array(n)
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
  let order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  let spare = new Int32Array(n)
  const counts = new Uint32Array(DIGITS)
  for (const [word, shift] of [
    [lo, 0],
    [lo, 16],
    [hi, 0],
    [hi, 16],
  ] as const) {
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
  const v = values.slice()
  const r = ids.slice()
  for (let i = 0; i < order.length; i++) {
    values[i] = v[order[i]!]!
    ids[i] = r[order[i]!]!
  }
}

// Up to how many leading code units a prefix key can cover (13 units of 4 bits = 52 bits).
const MAX_UNITS = 13

/**
 * A numeric key for each string's leading code units, with the same order (non-strictly). The
 * units met in the column's first 13 positions are ranked, so that a column of dates (`-` and ten
 * digits) spends 4 bits a unit and its whole text fits, and one of words 5 or 6 bits. Rank 0 is
 * "no more units": a shorter string sorts before a longer one it is a prefix of. When more than
 * 127 distinct units appear, a rank past 127 is capped and nothing after it counts: strings equal
 * up to there tie and are compared whole.
 */
function prefixKeys(keys: readonly string[], lazy: boolean): Float64Array {
  const rank = new Uint16Array(65536)
  for (const s of keys) {
    const m = s.length < MAX_UNITS ? s.length : MAX_UNITS
    for (let i = 0; i < m; i++) rank[s.charCodeAt(i)] = 1
  }
  // Lazy keys: a capital ranks as its lowercase.
  if (lazy)
    for (let c = 65; c <= 90; c++)
      if (rank[c]) {
        rank[c] = 0
        rank[c + 32] = 1
      }
  let distinct = 0
  for (let c = 0; c < 65536; c++) if (rank[c]) rank[c] = ++distinct
  const bits = Math.max(1, Math.min(7, Math.ceil(Math.log2(distinct + 1))))
  const units = Math.min(MAX_UNITS, Math.floor(52 / bits))
  const top = (1 << bits) - 1
  const base = 1 << bits
  const out = new Float64Array(keys.length)
  for (let j = 0; j < keys.length; j++) {
    const s = keys[j]!
    let k = 0
    let open = true
    for (let i = 0; i < units; i++) {
      let unit = 0
      if (open && i < s.length) {
        unit = rank[lazy ? lowerUnit(s.charCodeAt(i)) : s.charCodeAt(i)]!
        if (unit >= top) {
          unit = top
          open = false
        }
      } else open = false
      k = k * base + unit
    }
    out[j] = k
  }
  return out
}

/**
 * The positions 0…n-1 of `keys` in code-unit order of the keys, equal keys in position order
 * (what `Array.sort` with a comparison would give, in a fraction of the time on large columns):
 * a radix sort on a numeric key of each string's leading units, then a comparison sort within
 * each run of equal prefix keys only, which is short unless many keys share their leading units.
 * With `lazy`, the keys are lazy keys (lazy-fold.ts), in the order of their folds.
 */
export function sortStringsStable(keys: readonly string[], lazy = false): Int32Array {
  const n = keys.length
  const prefixes = prefixKeys(keys, lazy)
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  sortNumbersStable(prefixes, order)
  const byKey = (a: number, b: number): number => {
    const x = keys[a]!
    const y = keys[b]!
    if (lazy) return compareLazy(x, y) || a - b
    return x === y ? a - b : x < y ? -1 : 1
  }
  for (let i = 0; i < n;) {
    let j = i + 1
    while (j < n && prefixes[j] === prefixes[i]) j++
    if (j - i > 1) {
      // Already in order (a run of one repeated key, the usual case) needs no sort.
      let ordered = true
      for (let p = i + 1; p < j && ordered; p++) ordered = byKey(order[p - 1]!, order[p]!) < 0
      if (!ordered) order.set(Array.from(order.subarray(i, j)).sort(byKey), i)
    }
    i = j
  }
  return order
}
