/**
 * @module The 32-bit hash of a key for the hash index's open addressing: numbers by their bits,
 * texts by their fold (hashLazy), finished by MurmurHash3's mix so that linear probing spreads them;
 * the move of slots by their stored hashes when the table grows or a slot is freed; and how the
 * index reads a row's key (KeyReader, KeyComparer), since it holds no key itself.
 */
import type { SortKey } from '../values/compare.js'
import { hashLazy } from '../values/lazy-fold.js'

const float = new Float64Array(1)

const words = new Int32Array(float.buffer)

/** The final mix of MurmurHash3: every input bit moves every output bit (linear probing needs it). */
function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

// A seed drawn per process: texts chosen to share their slots (a flood of probes) cannot be
// chosen ahead of it, as V8 seeds the hashes of its Maps.
const SEED = (Math.random() * 0x100000000) | 0

/** The hash of a key: equal keys (folded texts, 0 and -0, NaN and NaN) hash alike. */
export function hashKey(key: SortKey): number {
  if (typeof key === 'string') return mix(hashLazy(key, SEED))
  if (typeof key === 'number') {
    if ((key | 0) === key) return mix(key ^ SEED)
    if (key !== key) return mix(0x7ff80000)
    float[0] = key
    return mix(words[0]! ^ Math.imul(words[1]!, 0x9e3779b1))
  }
  return mix(key === null ? 0x2545f491 : key ? 0x1b873593 : 0x5bd1e995)
}

// Puts the occupied slots [start, end) of a table into a larger one (empty where they go), by
// their stored hashes: no key is read.
export function moveSlots(
  from: Int32Array,
  fromHashes: Int32Array,
  start: number,
  end: number,
  slots: Int32Array,
  hashes: Int32Array,
): void {
  const mask = slots.length - 1
  for (let j = start; j < end; j++) {
    const s = from[j]!
    if (s === EMPTY_SLOT) continue
    const h = fromHashes[j]!
    let i = h & mask
    while (slots[i] !== EMPTY_SLOT) i = (i + 1) & mask
    slots[i] = s
    hashes[i] = h
  }
}

/**
 * The order of the fold of row `rowId`'s text and the fold of lazy key `key` (compareLazy's sign),
 * told from where the text is stored without making a string of it, or undefined when it cannot
 * tell so (the reader then reads the key). A probe of a unique text spent a quarter of its time
 * making the string of the one row its hash pointed to, only to compare it.
 */
export type KeyComparer = (rowId: number, key: string) => number | undefined

/**
 * A row's key in an index (texts as lazy keys, see lazy-fold.ts), read from the stored values;
 * with `compare`, text keys can be compared where they are stored instead (folding indexes only).
 */
export type KeyReader = ((rowId: number) => SortKey) & { readonly compare?: KeyComparer }

// Slots hold 0 for none, row id + 1 for a key of one row, a negative number for a group: an empty
// table is a new Int32Array as it comes, with no fill (64 MB written in one piece for the 16M
// slots of a unique column of 10M rows).
export const EMPTY_SLOT = 0
