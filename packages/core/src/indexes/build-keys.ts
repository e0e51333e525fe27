/**
 * @module The keys a sorted index's build reads (index-set.ts) and sorts (sliced-sort.ts), kept
 * outside the JS heap while the attribute allows it. A build copies every row's key first, so
 * that writes made while it runs cannot move a key under the sort; as a JS array that copy was a
 * pointer a row, and for a text a string a row: at 10M rows, 300 MB more for each full garbage
 * collection to mark, and a single pause of 500 ms during the build of a name index.
 * - numbers (the numeric attribute types): a Float64Array, NaN for null (no stored number is NaN);
 * - texts (text attributes, whose keys are lazy keys: lazy-fold.ts): the code units one after the
 *   other, a byte each while they all fit one (Latin-1), two from the first that does not, with
 *   each key's start and length (-1: null). Compared in place, in the order of compareLazy.
 * Other attributes keep an array of keys.
 */
import type { SortKey } from '../values/compare.js'
import { lowerUnit } from '../values/lazy-fold.js'

/** Numeric keys by position: NaN stands for null. */
export type NumberKeys = Float64Array

/** Text keys by position (see the module). */
export class TextKeys {
  #units: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer>
  #used = 0
  #starts: Float64Array<ArrayBuffer>
  #lengths: Int32Array<ArrayBuffer>
  // Each key's first PREFIX_UNITS units as one number, in the same order (see `prefix`).
  #prefixes: Float64Array<ArrayBuffer>
  #count = 0
  #nulls = 0
  // While the distinct keys are few (a city, a status): each one's first position, so that its
  // other rows point at the same units, and a comparison of two of them ends at once.
  #seen: Map<string, number> | undefined = new Map()
  readonly #expected: number

  /** `expected`: about how many keys will be added (room is made for them at once). */
  constructor(expected: number) {
    const n = Math.max(16, expected)
    this.#expected = n
    this.#units = new Uint8Array(n * 8)
    this.#starts = new Float64Array(n)
    this.#lengths = new Int32Array(n)
    this.#prefixes = new Float64Array(n)
  }

  /** How many keys were added. */
  get length(): number {
    return this.#count
  }

  /** How many of them are null. */
  get nulls(): number {
    return this.#nulls
  }

  /** Adds `key` (a lazy key or null) at the next position. */
  add(key: string | null): void {
    const at = this.#count++
    if (at === this.#lengths.length) this.#growIndex()
    if (key === null) {
      this.#lengths[at] = -1
      this.#nulls++
      return
    }
    const seen = this.#seen
    if (seen !== undefined) {
      const first = seen.get(key)
      if (first !== undefined) {
        this.#starts[at] = this.#starts[first]!
        this.#lengths[at] = this.#lengths[first]!
        this.#prefixes[at] = this.#prefixes[first]!
        return
      }
      if (seen.size < SEEN_MOST) seen.set(key, at)
      else this.#seen = undefined
    }
    const n = key.length
    this.#prefixes[at] = prefixOf(key)
    // The first keys tell how long the others are likely to be: room for all of them is made
    // while the copy is small. Made when full, the copy was the whole column at once, 33 ms of a
    // 10M-row build's event loop.
    if (at === PROJECT_AT) {
      const projected = Math.ceil((this.#used / at) * this.#expected * 1.25)
      if (projected > this.#units.length) this.#growUnits(projected)
    }
    if (this.#used + n > this.#units.length) this.#growUnits(this.#used + n)
    let units = this.#units
    const start = this.#used
    for (let k = 0; k < n; k++) {
      const c = key.charCodeAt(k)
      if (c > 0xff && units instanceof Uint8Array) {
        const wide = new Uint16Array(units.length)
        wide.set(units.subarray(0, start + k))
        this.#units = units = wide
      }
      units[start + k] = c
    }
    this.#used = start + n
    this.#starts[at] = start
    this.#lengths[at] = n
  }

  isNull(i: number): boolean {
    return this.#lengths[i] === -1
  }

  /** The key at position `i`, as added. */
  key(i: number): string | null {
    const n = this.#lengths[i]!
    if (n < 0) return null
    const start = this.#starts[i]!
    let out = ''
    for (let at = start; at < start + n; at += 4096)
      out += String.fromCharCode.apply(
        null,
        this.#units.subarray(at, Math.min(start + n, at + 4096)) as unknown as number[],
      )
    return out
  }

  /**
   * A number for the key at position `i` (not null) that orders as the key does when two differ
   * (equal numbers say nothing): a sort compares these first, and the units only on a tie.
   */
  prefix(i: number): number {
    return this.#prefixes[i]!
  }

  /** compareLazy of the (non-null) keys at positions `i` and `j`, reading them in place. */
  compare(i: number, j: number): number {
    const p = this.#prefixes[i]!
    const q = this.#prefixes[j]!
    if (p !== q) return p < q ? -1 : 1
    const units = this.#units
    const m = this.#lengths[i]!
    const n = this.#lengths[j]!
    const a = this.#starts[i]!
    const b = this.#starts[j]!
    if (a === b && m === n) return 0
    const common = m < n ? m : n
    for (let k = 0; k < common; k++) {
      const x = lowerUnit(units[a + k]!)
      const y = lowerUnit(units[b + k]!)
      if (x !== y) return x < y ? -1 : 1
    }
    return m === n ? 0 : m < n ? -1 : 1
  }

  #growIndex(): void {
    const n = this.#lengths.length * 2
    const starts = new Float64Array(n)
    starts.set(this.#starts)
    const lengths = new Int32Array(n)
    lengths.set(this.#lengths)
    const prefixes = new Float64Array(n)
    prefixes.set(this.#prefixes)
    this.#starts = starts
    this.#lengths = lengths
    this.#prefixes = prefixes
  }

  #growUnits(least: number): void {
    const size = Math.max(least, Math.ceil(this.#units.length * 1.5))
    const grown = this.#units instanceof Uint8Array ? new Uint8Array(size) : new Uint16Array(size)
    grown.set(this.#units.subarray(0, this.#used))
    this.#units = grown
  }
}

// After how many keys TextKeys makes room for all of them from their length so far.
const PROJECT_AT = 4096

// The most distinct keys TextKeys shares the units of (see #seen).
const SEEN_MOST = 1 << 16

// A prefix holds this many units, a byte each: 48 bits, exact in a double.
const PREFIX_UNITS = 6

/**
 * The first PREFIX_UNITS lowered units of `key`, each as 1 + its value (0: the key has ended, so
 * a shorter key comes first) in a byte. A unit past 0xFD does not fit: it counts as 0xFF and ends
 * the prefix (what follows it would be ordered wrongly), leaving the order to the units.
 */
function prefixOf(key: string): number {
  let out = 0
  let open = true
  for (let k = 0; k < PREFIX_UNITS; k++) {
    let byte = 0
    if (open && k < key.length) {
      const unit = lowerUnit(key.charCodeAt(k))
      if (unit < 0xfe) byte = unit + 1
      else {
        byte = 0xff
        open = false
      }
    } else open = false
    out = out * 256 + byte
  }
  return out
}

/** The keys of a build: numbers, texts, or (other attributes) an array. */
export type BuildKeys = NumberKeys | TextKeys | SortKey[]

/** The key at position `i` of `keys`, as an array of keys would hold it. */
export function keyAt(keys: BuildKeys, i: number): SortKey {
  if (keys instanceof TextKeys) return keys.key(i)
  if (Array.isArray(keys)) return keys[i]!
  const k = keys[i]!
  return k !== k ? null : k
}
