/**
 * @module A stable sort of strings by their code units (or their folds), in about linear time: a
 * radix sort of a numeric key of each string's leading units (parallel/sort-numbers.ts, which also
 * sorts numeric index keys), then a comparison sort within each run of equal prefixes only.
 */

import { compareLazy, lowerUnit } from '../values/lazy-fold.js'
import { Scratch, sortNumbersStable } from '../parallel/sort-numbers.js'

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
const ranks = new Uint16Array(65536)
function prefixKeys(keys: readonly string[], lazy: boolean, out: Float64Array): Float64Array {
  const rank = ranks.fill(0)
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

// sortStringsStable's prefixes (sortNumbersStable, which it calls, has its own arrays).
const stringWork = new Scratch()

/**
 * The positions 0…n-1 of `keys` in code-unit order of the keys, equal keys in position order
 * (what `Array.sort` with a comparison would give, in a fraction of the time on large columns):
 * a radix sort on a numeric key of each string's leading units, then a comparison sort within
 * each run of equal prefix keys only, which is short unless many keys share their leading units.
 * With `lazy`, the keys are lazy keys (lazy-fold.ts), in the order of their folds.
 */
export function sortStringsStable(keys: readonly string[], lazy = false): Int32Array {
  const n = keys.length
  const prefixes = prefixKeys(keys, lazy, stringWork.f64(0, n))
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
