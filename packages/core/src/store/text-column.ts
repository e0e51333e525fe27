/**
 * @module A data load's text column: the texts of one attribute as Latin-1 bytes in a pool (or a
 * dictionary while they are few distinct), with no string object a row until a row is read; texts
 * that are not Latin-1 are kept as strings. Folded comparisons read the bytes where they lie.
 */
import type { StoredValue } from '../values/coerce.js'
import { latin1Folds } from '../values/fold.js'
import { lowerUnit } from '../values/lazy-fold.js'
import type { Column } from './base-columns.js'
import type { RowLanes } from './row-lanes.js'

// The most distinct texts a TextColumn keeps as a list (see there).
const DICTIONARY_MOST = 1 << 16

// The most texts a TextPool holds: past that, new texts are kept by their columns as given.
const POOL_MOST = 1 << 16

/**
 * The texts of one load, shared by the columns of its batches: each batch's list holds the pool's
 * string for a text rather than its own copy. A load comes in batches of a few thousand rows,
 * each with its own columns; at 10M short rows their lists held 894,000 strings for 2,250
 * distinct names and cities, 31 MB that every full collection marked. Dropped with the load.
 */
export class TextPool {
  readonly #texts = new Map<string, string>()
  // The mean length of the texts at each storage position whose column left its list for bytes
  // in an earlier batch: the same position of the next batch starts in bytes (see TextColumn).
  readonly #inBytes = new Map<number, number>()

  /** The mean text length at `position` if an earlier batch's column went to bytes there. */
  bytesAt(position: number): number | undefined {
    return this.#inBytes.get(position)
  }

  /** Notes that the column at `position` went to bytes, its texts `mean` units long on average. */
  wentToBytes(position: number, mean: number): void {
    this.#inBytes.set(position, mean)
  }

  /** The pool's string equal to `text`: `text` itself the first time (or once the pool is full). */
  intern(text: string): string {
    const held = this.#texts.get(text)
    if (held !== undefined) return held
    if (this.#texts.size < POOL_MOST) this.#texts.set(text, text)
    return text
  }
}

// Code units a TextColumn keeps as one byte each: Latin-1 but for C1 controls (0x80-0x9F), which
// some decoders read as windows-1252.
const isByte = (c: number): boolean => c < 0x80 || (c >= 0xa0 && c <= 0xff)

// Longest run of bytes given to String.fromCharCode at once (an argument each).
const DECODE_RUN = 4096

/** Reads bytes `start`..`end` of a Uint8Array as Latin-1 (Node's and Bun's `Buffer` method). */
export type Latin1Slice = (this: Uint8Array, start: number, end: number) => string

// Node's Buffer (Bun's too) decodes Latin-1 natively, and takes any Uint8Array as `this`: 80 ns
// for a 250-byte text against 960 ns through String.fromCharCode, 59 against 150 for 16 bytes
// (Node 20, 2026-11-24). Texts read back from the bytes were 3% of a GET of a long row over HTTP,
// in the arguments list fromCharCode makes. Where there is no Buffer (Deno, a browser),
// fromCharCode; either reads the bytes kept here the same way (isByte: no C1 controls).
const nativeLatin1 = (globalThis as { Buffer?: { prototype?: { latin1Slice?: Latin1Slice } } })
  .Buffer?.prototype?.latin1Slice

/**
 * @internal The text of bytes `start`..`end`, a code unit a byte; `native` is the runtime's
 * decoder when it has one (a parameter so that tests read both ways).
 */
export function decodeLatin1(
  bytes: Uint8Array,
  start: number,
  end: number,
  native: Latin1Slice | undefined = nativeLatin1,
): string {
  if (native !== undefined) return native.call(bytes, start, end)
  if (end - start <= DECODE_RUN)
    return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[])
  let out = ''
  for (let at = start; at < end; at += DECODE_RUN)
    out += decodeLatin1(bytes, at, Math.min(end, at + DECODE_RUN), undefined)
  return out
}

/**
 * Texts (`string` attributes), with no string object a row: a full garbage collection marks every
 * live object, and a string a row of each text column was most of what a 1M-row load left on the
 * heap (2M strings of short rows: a forced GC of 124 ms, after the load alone).
 * - While the column holds few distinct texts (at most a quarter of its rows, and 65,536): each
 *   row holds the number of its text in a list of the distinct ones (cities, statuses, names of a
 *   small population). A read gives the list's string, the same object every time: no garbage,
 *   and indexes that keep it share it.
 * - From the first text past that: the texts' bytes one after the other (a byte a code unit, for
 *   texts of Latin-1 alone) in one buffer, and each row's start and length. A read makes a new
 *   string. A text with another code unit, or a value that is not a text, is kept as it is in a
 *   map by row (rare).
 */
export class TextColumn implements Column {
  readonly #n: number
  // The list: each row's number (-1: null), the texts, and each text's number while filling:
  // dropped once every row is set (a Map the collector marks, 31 MB at 10M short rows), made
  // again from the list should a row be set after that.
  #codes: Int32Array | undefined
  #texts: string[] = []
  #numbers: Map<string, number> | undefined
  #sets = 0
  // The bytes: each row's start and length (-1: null, -2: in #others).
  #bytes: Uint8Array | undefined
  #used = 0
  #starts: Float64Array | undefined
  #lengths: Int32Array | undefined
  readonly #others = new Map<number, StoredValue>()
  readonly #pool: TextPool | undefined
  readonly #position: number

  /**
   * `bytesOf`: the mean length of the texts to come when the column is to start in bytes (a
   * unique attribute, whose texts are all distinct, or a position an earlier batch of the load
   * moved to bytes): filling the list first cost a map entry and a pooled string a row, then a
   * move, for a quarter of every batch's rows (a ninth of a load of short rows).
   */
  constructor(n: number, pool: TextPool | undefined, position: number, bytesOf?: number) {
    this.#n = n
    this.#pool = pool
    this.#position = position
    if (bytesOf === undefined) {
      this.#codes = new Int32Array(n).fill(-1)
      this.#numbers = new Map()
    } else this.#startBytes(bytesOf)
  }

  get(i: number): StoredValue {
    const codes = this.#codes
    if (codes !== undefined) {
      const c = codes[i]!
      return c >= 0 ? this.#texts[c]! : c === -1 ? null : this.#others.get(i)!
    }
    const n = this.#lengths![i]!
    if (n < 0) return n === -1 ? null : this.#others.get(i)!
    const start = this.#starts![i]!
    return decodeLatin1(this.#bytes!, start, start + n)
  }

  lanes(into: RowLanes): void {
    if (this.#codes !== undefined) {
      into.direct.push(this.#codes)
      into.lists.push(this.#codes, this.#texts)
    } else {
      into.direct.push(this.#lengths!, this.#starts!)
      into.bytes.push(this.#bytes!, this.#starts!)
    }
  }

  compareLazy(i: number, key: string): number | undefined {
    // A text of the list is a shared string: reading it costs nothing.
    if (this.#codes !== undefined) return undefined
    const n = this.#lengths![i]!
    if (n < 0) return undefined
    const bytes = this.#bytes!
    const start = this.#starts![i]!
    // An ASCII text is its own lazy key; another one's is its fold, and a Latin-1 text (the
    // bytes hold no other) folds one character for one (latin1Folds): either way the lazy key's
    // unit j is fold[byte j], lowercased as compareLazy lowercases (a fold has no capital).
    const folds = latin1Folds()
    if (folds === null) return undefined
    const m = key.length
    const common = n < m ? n : m
    for (let j = 0; j < common; j++) {
      const x = folds[bytes[start + j]!]!
      const y = lowerUnit(key.charCodeAt(j))
      if (x !== y) return x < y ? -1 : 1
    }
    return n === m ? 0 : n < m ? -1 : 1
  }

  set(i: number, v: StoredValue): void {
    // Nearly always empty: a delete asked of it at every row of a load was 1.5 ms of a 200k start.
    if (this.#others.size > 0) this.#others.delete(i)
    const codes = this.#codes
    if (codes !== undefined) {
      if (typeof v !== 'string') {
        codes[i] = v === null ? -1 : -2
        if (v !== null) this.#others.set(i, v)
        if (++this.#sets >= this.#n) this.#numbers = undefined
        return
      }
      const numbers = (this.#numbers ??= new Map(this.#texts.map((t, k) => [t, k])))
      let c = numbers.get(v)
      if (c === undefined) {
        c = this.#texts.length
        if (c < DICTIONARY_MOST && c < this.#n >>> 2) {
          this.#texts.push(this.#pool === undefined ? v : this.#pool.intern(v))
          numbers.set(v, c)
        } else {
          this.#toBytes(codes)
          return this.#append(i, v)
        }
      }
      codes[i] = c
      if (++this.#sets >= this.#n) this.#numbers = undefined
      return
    }
    this.#append(i, v)
  }

  // Leaves the list for bytes, moving the rows set so far.
  #toBytes(codes: Int32Array): void {
    const texts = this.#texts
    this.#codes = undefined
    this.#numbers = undefined
    this.#texts = []
    let total = 0
    for (const t of texts) total += t.length
    const mean = texts.length === 0 ? 8 : total / texts.length
    this.#pool?.wentToBytes(this.#position, mean)
    const lengths = this.#startBytes(mean)
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i]!
      if (c >= 0) this.#append(i, texts[c]!)
      else if (c === -2) lengths[i] = -2
    }
  }

  // Room for every row at `mean` units a text and a quarter more: growing by doubling would leave
  // up to half the buffer unused. Every row null until set.
  #startBytes(mean: number): Int32Array {
    this.#bytes = new Uint8Array(Math.max(64, Math.ceil(mean * 1.25 * this.#n)))
    this.#starts = new Float64Array(this.#n)
    return (this.#lengths = new Int32Array(this.#n).fill(-1))
  }

  #append(i: number, v: StoredValue): void {
    const lengths = this.#lengths!
    if (typeof v !== 'string') {
      lengths[i] = v === null ? -1 : -2
      if (v !== null) this.#others.set(i, v)
      return
    }
    const n = v.length
    let bytes = this.#bytes!
    if (this.#used + n > bytes.length) {
      const grown = new Uint8Array(Math.max(this.#used + n, Math.ceil(bytes.length * 1.5)))
      grown.set(bytes.subarray(0, this.#used))
      this.#bytes = bytes = grown
    }
    const start = this.#used
    for (let k = 0; k < n; k++) {
      const c = v.charCodeAt(k)
      if (!isByte(c)) {
        lengths[i] = -2
        this.#others.set(i, v)
        return
      }
      bytes[start + k] = c
    }
    this.#used = start + n
    this.#starts![i] = start
    lengths[i] = n
  }
}
