/**
 * @module A text attribute's folded values by row id (`Paris` → `paris`), for scans that compare
 * folded text: kept outside the JS heap, in typed arrays that worker threads read too.
 *
 * A JS array of folded strings was one pointer a row and, for a unique code, one string a row:
 * at 10M rows, 300 MB of heap that every major collection marked, and on two busy cores the
 * collector's helpers got no time, so each pause lasted 150-350 ms (`--trace-gc-nvp`, the
 * contention bench with one `code=` scan before its index was built). Here:
 * - **codes** while the distinct texts are few (cities, names: at most DICTIONARY_MAX): a code a
 *   row in an Int32Array (0 for null, a text's index + 1) and the distinct texts once, so a scan tests each
 *   distinct text once and then compares integers;
 * - **units** past that (codes, e-mails, near-unique texts): each row's folded text as code units
 *   in one array (Latin-1 bytes while every unit fits, 16-bit for good from the first that does
 *   not), a start and a length + 1 a row (0 for null). A text written again is
 *   appended; the space of the texts it replaced is taken back when the array would grow.
 * Either way nothing a row lives on the heap. The arrays are `SharedArrayBuffer`s: a worker reads
 * them as they are; a grown or compacted array is a new one, the old left as it was for a worker
 * still reading it (the scope refreshes the rows written meanwhile, as for numeric columns).
 */
import { isShared } from '../parallel/shared-arrays.js'

/** A folded column as a scan reads it: the table's own (FoldedColumn) or a view's overlay. */
export interface FoldedTexts {
  /** Rows covered: row ids from 0 to length - 1 (past it, null). */
  readonly length: number
  /** The folded text of row `rowId`, null for null or a deleted row. */
  at(rowId: number): string | null
}

/** Distinct texts a column keeps as codes; past it, it keeps code units. */
export const DICTIONARY_MAX = 65_536

/**
 * A row's code, and its length + 1, for null (and for deleted rows): 0, what a new buffer holds,
 * so that no array is filled (a fill of 10M rows is 17 ms in one piece).
 */
export const NULL_CODE = 0
const NULL_LENGTH = 0

/** The column's arrays as a kernel reads them (parallel/text-kernels.ts). */
export type FoldedShape =
  | {
      readonly kind: 'codes'
      /** A row's text's index in `texts` + 1, NULL_CODE for null. */
      readonly codes: Int32Array
      readonly texts: readonly string[]
    }
  | {
      readonly kind: 'units'
      readonly starts: Int32Array
      /** A row's text's length + 1, NULL_LENGTH for null. */
      readonly lengths: Int32Array
      readonly units: Uint8Array | Uint16Array
    }

const SHARED = typeof SharedArrayBuffer === 'function'

// A typed array of `length` elements over shared memory when the runtime has it.
function sharedArray<T extends Int32Array | Uint8Array | Uint16Array>(
  make: new (buffer: ArrayBufferLike) => T,
  bytesPer: number,
  length: number,
): T {
  const bytes = Math.max(1, length) * bytesPer
  return new make(SHARED ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes))
}

const ints = (n: number): Int32Array => sharedArray(Int32Array, 4, n)

// `from`'s values in a new array of `length`, the rest 0.
function grownInts(from: Int32Array, length: number): Int32Array {
  const out = ints(length)
  out.set(from.length > length ? from.subarray(0, length) : from)
  return out
}

// Whether every code unit of `text` fits in a byte (Latin-1).
function narrow(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false
  return true
}

export class FoldedColumn implements FoldedTexts {
  #length = 0
  // One past the highest row a text was ever set in (no text past it): what the loops over the
  // rows read up to, since a first scan makes its column for every row and fills it in order.
  #top = 0
  // The codes form (undefined once the column holds units).
  #codes: Int32Array | undefined
  #texts: string[] = []
  #codeOf: Map<string, number> | undefined = new Map()
  // The units form.
  #starts: Int32Array | undefined
  #lengths: Int32Array | undefined
  #units: Uint8Array | Uint16Array | undefined
  // Units written, and those still read by a row (the rest: texts replaced since).
  #used = 0
  #live = 0

  readonly #dictionaryMax: number

  /** `dictionaryMax`: the distinct texts kept as codes (tests give fewer). */
  constructor(capacity = 16, dictionaryMax = DICTIONARY_MAX) {
    this.#codes = ints(capacity)
    this.#dictionaryMax = dictionaryMax
  }

  get length(): number {
    return this.#length
  }

  /** Rows covered from now on: rows past `length` are dropped, new ones read null. */
  resize(length: number): void {
    for (let r = length; r < this.#top; r++) this.set(r, null)
    this.#top = Math.min(this.#top, length)
    this.#reserve(length)
    this.#length = length
  }

  /** Whether the arrays are shared memory (a worker can read them). */
  get shared(): boolean {
    return isShared(this.#codes ?? this.#starts!)
  }

  /** The arrays as they are now, for a kernel: a write may replace them afterwards. */
  shape(): FoldedShape {
    if (this.#codes !== undefined) return { kind: 'codes', codes: this.#codes, texts: this.#texts }
    return { kind: 'units', starts: this.#starts!, lengths: this.#lengths!, units: this.#units! }
  }

  /** A code a row (codes form; undefined once the column holds units): see FoldedShape. */
  get codes(): Int32Array | undefined {
    return this.#codes
  }

  /** The folded text of code `code` (codes form, not NULL_CODE). */
  textOf(code: number): string {
    return this.#texts[code - 1]!
  }

  /** The code rows holding folded text `text` hold (codes form), undefined when none ever did. */
  codeOf(text: string): number | undefined {
    return this.#codeOf?.get(text)
  }

  at(rowId: number): string | null {
    if (rowId >= this.#length) return null
    const codes = this.#codes
    if (codes !== undefined) {
      const c = codes[rowId]!
      return c === NULL_CODE ? null : this.#texts[c - 1]!
    }
    const n = this.#lengths![rowId]! - 1
    if (n < 0) return null
    const start = this.#starts![rowId]!
    return decode(this.#units!, start, start + n)
  }

  /** Sets row `rowId`'s folded text (null: null or deleted), covering it if it was not. */
  set(rowId: number, text: string | null): void {
    if (rowId >= this.#length) {
      this.#reserve(rowId + 1)
      this.#length = rowId + 1
    }
    if (text !== null && rowId >= this.#top) this.#top = rowId + 1
    if (this.#codes !== undefined) {
      if (text === null) {
        this.#codes[rowId] = NULL_CODE
        return
      }
      let code = this.#codeOf!.get(text)
      if (code === undefined) {
        if (this.#texts.length >= this.#dictionaryMax) {
          this.#toUnits()
          return this.set(rowId, text)
        }
        this.#texts.push(text)
        code = this.#texts.length
        this.#codeOf!.set(text, code)
      }
      this.#codes[rowId] = code
      return
    }
    const lengths = this.#lengths!
    const before = lengths[rowId]!
    if (before !== NULL_LENGTH) this.#live -= before - 1
    // Null first: a compaction below copies only the texts still read.
    lengths[rowId] = NULL_LENGTH
    if (text === null) return
    this.#room(text.length, text)
    const units = this.#units!
    const at = this.#used
    for (let i = 0; i < text.length; i++) units[at + i] = text.charCodeAt(i)
    this.#starts![rowId] = at
    lengths[rowId] = text.length + 1
    this.#used += text.length
    this.#live += text.length
  }

  // Row arrays long enough for `rows` rows (doubling: appends are amortized).
  #reserve(rows: number): void {
    const have = (this.#codes ?? this.#starts!).length
    if (rows <= have) return
    const length = Math.max(rows, 2 * have)
    if (this.#codes !== undefined) this.#codes = grownInts(this.#codes, length)
    else {
      this.#starts = grownInts(this.#starts!, length)
      this.#lengths = grownInts(this.#lengths!, length)
    }
  }

  // From codes to units, for good: the distinct texts became too many to be worth a dictionary.
  // Once, over the rows so far: each distinct text's units made once, each row's copied natively
  // (about 15 ms a million rows).
  #toUnits(): void {
    const codes = this.#codes!
    const texts = this.#texts
    let latin = true
    for (const t of texts) latin &&= narrow(t)
    const unitsOf = texts.map((t) => {
      const u = latin ? new Uint8Array(t.length) : new Uint16Array(t.length)
      for (let i = 0; i < t.length; i++) u[i] = t.charCodeAt(i)
      return u
    })
    let total = 0
    for (let r = 0; r < this.#top; r++) {
      const c = codes[r]!
      if (c !== NULL_CODE) total += texts[c - 1]!.length
    }
    // Sized for every row the column covers at the mean length so far, and a quarter more: a
    // first scan fills a column made for all the table's rows, and each doubling on the way was
    // a copy of tens of MB at 10M rows (47 ms). Untouched pages of a new buffer cost nothing.
    const rows = Math.max(this.#top, 1)
    const size = Math.max(16, 2 * total, Math.ceil(((total / rows) * codes.length * 5) / 4))
    const units = latin ? sharedArray(Uint8Array, 1, size) : sharedArray(Uint16Array, 2, size)
    const starts = ints(codes.length)
    const lengths = ints(codes.length)
    let at = 0
    for (let r = 0; r < this.#top; r++) {
      const c = codes[r]!
      if (c === NULL_CODE) continue
      const u = unitsOf[c - 1]!
      units.set(u, at)
      starts[r] = at
      lengths[r] = u.length + 1
      at += u.length
    }
    this.#starts = starts
    this.#lengths = lengths
    this.#units = units
    this.#used = at
    this.#live = at
    this.#codes = undefined
    this.#codeOf = undefined
    this.#texts = []
  }

  // Room for `n` more units (of `text`): 16-bit units for good if it needs them. A new array in
  // either case, so that a worker reading the old one reads it as it was. While the texts replaced
  // since are fewer than half the live ones, the units are grown: one native copy, the starts kept
  // (a loop over the rows at each doubling held a first scan of 10M codes 200-400 ms at a time).
  // Past that, they are compacted: the live texts copied row by row into a new array of twice
  // their size, with new starts, after as many units replaced as there are live ones.
  #room(n: number, text: string): void {
    const units = this.#units!
    const wide = units instanceof Uint8Array && !narrow(text)
    if (!wide && this.#used + n <= units.length) return
    const make = (size: number) =>
      wide || units instanceof Uint16Array
        ? sharedArray(Uint16Array, 2, size)
        : sharedArray(Uint8Array, 1, size)
    if (2 * (this.#used - this.#live) <= this.#live) {
      const out = make(Math.max(16, 2 * (this.#used + n)))
      out.set(units.subarray(0, this.#used))
      this.#units = out
      return
    }
    const out = make(Math.max(16, 2 * (this.#live + n)))
    const before = this.#starts!
    const starts = ints(before.length)
    const lengths = this.#lengths!
    let at = 0
    for (let r = 0; r < this.#top; r++) {
      const len = lengths[r]! - 1
      if (len < 0) continue
      const s = before[r]!
      out.set(units.subarray(s, s + len), at)
      starts[r] = at
      at += len
    }
    this.#starts = starts
    this.#units = out
    this.#used = at
    this.#live = at
  }
}

// The text of units [from, to): by chunks, since a spread of many arguments overflows the stack.
function decode(units: Uint8Array | Uint16Array, from: number, to: number): string {
  if (to - from <= 1024) return String.fromCharCode.apply(null, units.subarray(from, to) as never)
  let out = ''
  for (let at = from; at < to; at += 1024)
    out += String.fromCharCode.apply(null, units.subarray(at, Math.min(to, at + 1024)) as never)
  return out
}

/**
 * A per-row test of `column` by the test of one folded text: each distinct text tested once when
 * the column holds codes (a scan then compares integers), else each row's text read.
 */
export function foldedTester(
  column: FoldedTexts,
  holds: (folded: string | null) => boolean,
): (rowId: number) => boolean {
  if (!(column instanceof FoldedColumn)) return (rowId) => holds(column.at(rowId))
  const whenNull = holds(null)
  // By code: 0 not tested yet, 1 holds, 2 does not (grown as writes add texts).
  let known = new Uint8Array(64)
  // The arrays are read a row (a write may replace them), not their shape: an object a row.
  return (rowId) => {
    const codes = column.codes
    if (codes === undefined) return holds(column.at(rowId))
    const c = rowId < column.length ? codes[rowId]! : NULL_CODE
    if (c === NULL_CODE) return whenNull
    if (c >= known.length) {
      const grown = new Uint8Array(Math.max(2 * known.length, c + 1))
      grown.set(known)
      known = grown
    }
    let k = known[c]!
    if (k === 0) known[c] = k = holds(column.textOf(c)) ? 1 : 2
    return k === 1
  }
}
