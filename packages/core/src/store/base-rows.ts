/**
 * @module The rows of one data load, kept as columns (one per storage attribute) instead of one
 * record object per row: a record and its values object cost 160 bytes a row on short rows (see
 * docs/architecture.md), an integer 4 in an Int32Array, another number 8 in a Float64Array, a
 * text no object of its own (TextColumn), another value 8 (the pointer) in a plain array.
 * A table's slot holds this object for each row the load stored, until the row is first read as a
 * record (the table then makes that record from the columns and keeps it) or written.
 *
 * Immutable once the load's commit filled it: store snapshots keep slots that point here, so a row
 * must read the same for as long as one does. A later load, even into row ids a restore freed
 * again, gets columns of its own.
 */
import type { DataClassDef } from '../schema/definitions.js'
import type { StoredValue } from '../values/coerce.js'
import { Vector, type FloatsAt } from '../values/vector.js'
import { latin1Folds } from '../values/fold.js'
import { lowerUnit } from '../values/lazy-fold.js'
import type { EntityRecord, KeyValue } from './entity-record.js'

/** One attribute's values, by row id minus the load's first row id. */
interface Column {
  get(i: number): StoredValue
  set(i: number, v: StoredValue): void
  /** See BaseRows.compareLazy; only text columns have it. */
  compareLazy?(i: number, key: string): number | undefined
}

// The types coerce.ts stores as 32-bit integers (it checks their range and never stores -0).
const INT_TYPES: ReadonlySet<string> = new Set(['byte', 'word', 'long'])

// The other types it stores as a number. No stored number is NaN (toNumber refuses non-finite
// numbers, and durations, dates and keys are finite too), so NaN can stand for null; -0 and every
// other double survive a Float64Array unchanged.
const NUMBER_TYPES: ReadonlySet<string> = new Set(['long64', 'number', 'duration'])

class NumberColumn implements Column {
  readonly #data: Float64Array
  constructor(n: number) {
    this.#data = new Float64Array(n).fill(NaN)
  }
  get(i: number): StoredValue {
    const v = this.#data[i]!
    if (v !== v) return null
    // A double read from the array is a heap number even when it is an integer: handed out as is,
    // it made records whose integer fields (keys, ages, foreign keys) hold doubles, a slower
    // hidden-class field and number-to-text. An integer (not -0) goes back as a small integer.
    return (v | 0) === v && (v !== 0 || 1 / v > 0) ? v | 0 : v
  }
  set(i: number, v: StoredValue): void {
    this.#data[i] = v === null ? NaN : (v as number)
  }
}

// Null in an Int32Array: the lowest 32-bit integer, which a long may hold too (see IntColumn).
const NULL_INT = -0x80000000

/**
 * Integers of 32 bits (keys, counts, ages, foreign keys): 4 bytes a row instead of a double's 8, and
 * read back as small integers with no conversion. Null is NULL_INT; a row holding NULL_INT itself,
 * or anything that is not a 32-bit integer (nothing coerce.ts lets through), turns the column
 * into doubles for good, as NumberColumn keeps them.
 */
class IntColumn implements Column {
  #ints: Int32Array | undefined
  #doubles: Float64Array | undefined
  constructor(n: number) {
    this.#ints = new Int32Array(n).fill(NULL_INT)
  }
  get(i: number): StoredValue {
    const ints = this.#ints
    if (ints !== undefined) {
      const v = ints[i]!
      return v === NULL_INT ? null : v
    }
    const v = this.#doubles![i]!
    return v !== v ? null : (v | 0) === v ? v | 0 : v
  }
  set(i: number, v: StoredValue): void {
    const ints = this.#ints
    if (ints !== undefined) {
      if (v === null) ints[i] = NULL_INT
      else if (((v as number) | 0) === v && v !== NULL_INT) ints[i] = v as number
      else {
        this.#widen(ints)
        this.#doubles![i] = v as number
      }
    } else this.#doubles![i] = v === null ? NaN : (v as number)
  }
  #widen(ints: Int32Array): void {
    const doubles = new Float64Array(ints.length)
    for (let i = 0; i < ints.length; i++) doubles[i] = ints[i] === NULL_INT ? NaN : ints[i]!
    this.#doubles = doubles
    this.#ints = undefined
  }
}

// 0 false, 1 true, 2 null: one byte a row.
class BoolColumn implements Column {
  readonly #data: Uint8Array
  constructor(n: number) {
    this.#data = new Uint8Array(n).fill(2)
  }
  get(i: number): StoredValue {
    const v = this.#data[i]!
    return v === 2 ? null : v === 1
  }
  set(i: number, v: StoredValue): void {
    this.#data[i] = v === null ? 2 : v ? 1 : 0
  }
}

// Uuids, dates, objects, pictures and BLOBs: the stored values themselves, shared with any
// record made from them (so a record made twice holds the same objects).
class ValueColumn implements Column {
  readonly #data: StoredValue[]
  constructor(n: number) {
    this.#data = new Array<StoredValue>(n).fill(null)
  }
  get(i: number): StoredValue {
    return this.#data[i]!
  }
  set(i: number, v: StoredValue): void {
    this.#data[i] = v
  }
}

/**
 * The vectors of a 4D.Vector attribute: their floats one after the other in one Float32Array (a
 * row's vector is a view on it, made when read), not a typed array each: a typed array costs about
 * 150 bytes of its own, 15 % of a vector of 256 dimensions. The size is the first vector's; a
 * vector of another size (4D does not fix one) is kept as it is, beside.
 */
class VectorColumn implements Column {
  readonly #length: number
  #dims = 0
  #data: Float32Array | undefined
  readonly #present: Uint8Array
  #others: Map<number, Vector> | undefined
  constructor(n: number) {
    this.#length = n
    this.#present = new Uint8Array(n)
  }
  get(i: number): StoredValue {
    if (this.#present[i] === 1) return Vector.view(this.#data!, i * this.#dims, this.#dims)
    return this.#others?.get(i) ?? null
  }
  /** Points `at` at row `i`'s floats, making no view; false when it has no vector. */
  locate(i: number, at: FloatsAt): boolean {
    if (this.#present[i] === 1) {
      at.data = this.#data!
      at.offset = i * this.#dims
      at.length = this.#dims
      return true
    }
    const other = this.#others?.get(i)
    if (other === undefined) return false
    Vector.locate(other, at)
    return true
  }
  set(i: number, v: StoredValue): void {
    this.#present[i] = 0
    this.#others?.delete(i)
    if (!(v instanceof Vector)) return
    if (this.#data === undefined) {
      this.#dims = v.length
      this.#data = new Float32Array(this.#length * v.length)
    }
    if (v.length !== this.#dims) {
      ;(this.#others ??= new Map()).set(i, v)
      return
    }
    v.copyInto(this.#data, i * this.#dims)
    this.#present[i] = 1
  }
}

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
class TextColumn implements Column {
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
    this.#others.delete(i)
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

/**
 * Stamps or timestamps: one number for the whole load while every row has the same (a file without
 * `__STAMP`/`__TIMESTAMP`: all 1, all the load's time), a Float64Array from the first row that differs.
 */
class Numbers {
  #first = NaN
  #data: Float64Array | undefined
  readonly #n: number
  constructor(n: number) {
    this.#n = n
  }
  get(i: number): number {
    return this.#data ? this.#data[i]! : this.#first
  }
  set(i: number, v: number): void {
    if (this.#data) this.#data[i] = v
    else if (i === 0 || v === this.#first) this.#first = v
    else (this.#data = new Float64Array(this.#n).fill(this.#first))[i] = v
  }
}

export class BaseRows {
  /** The first row id of the load. */
  readonly start: number
  /** How many row ids it covers. */
  readonly length: number
  readonly #columns: readonly Column[]
  // The integer and the text columns with their storage positions, the others by position: a
  // row is written by a loop over each (see setRow).
  readonly #ints: readonly IntColumn[]
  readonly #intAt: readonly number[]
  readonly #texts: readonly TextColumn[]
  readonly #textAt: readonly number[]
  readonly #otherAt: readonly number[]
  readonly #keyColumn: Column
  readonly #stamps: Numbers
  readonly #timestamps: Numbers

  /** `pool`: the texts of the load's other batches (see TextPool). */
  constructor(def: DataClassDef, start: number, length: number, pool?: TextPool) {
    this.start = start
    this.length = length
    this.#columns = def.storage.map((a, p) =>
      INT_TYPES.has(a.type)
        ? new IntColumn(length)
        : NUMBER_TYPES.has(a.type)
          ? new NumberColumn(length)
          : a.type === 'bool'
            ? new BoolColumn(length)
            : a.type === 'string'
              ? new TextColumn(length, pool, p, pool?.bytesAt(p) ?? (a.unique ? 8 : undefined))
              : a.vector
                ? new VectorColumn(length)
                : new ValueColumn(length),
    )
    const at = (kind: new (...args: never[]) => Column): number[] =>
      this.#columns.flatMap((c, p) => (c instanceof kind ? [p] : []))
    this.#intAt = at(IntColumn)
    this.#ints = this.#intAt.map((p) => this.#columns[p] as IntColumn)
    this.#textAt = at(TextColumn)
    this.#texts = this.#textAt.map((p) => this.#columns[p] as TextColumn)
    this.#otherAt = this.#columns.flatMap((c, p) =>
      c instanceof IntColumn || c instanceof TextColumn ? [] : [p],
    )
    this.#keyColumn = this.#columns[def.storage.indexOf(def.key)]!
    this.#stamps = new Numbers(length)
    this.#timestamps = new Numbers(length)
  }

  /** Whether `rowId` is one of this load's rows. */
  covers(rowId: number): boolean {
    return rowId >= this.start && rowId < this.start + this.length
  }

  /** @internal Stores `record` (the load's commit only, before any reader sees these rows). */
  set(record: EntityRecord, names: readonly string[]): void {
    const i = record.rowId - this.start
    const columns = this.#columns
    for (let p = 0; p < columns.length; p++) columns[p]!.set(i, record.values[names[p]!] ?? null)
    this.#stamps.set(i, record.stamp)
    this.#timestamps.set(i, record.timestamp)
  }

  /**
   * @internal Stores row `rowId` from its values in storage order (a data load, which writes here
   * before its commit: these columns are not in any table until then).
   */
  setRow(
    rowId: number,
    values: readonly (StoredValue | undefined)[],
    stamp: number,
    timestamp: number,
  ): void {
    const i = rowId - this.start
    // A loop a kind of column: each call site sees one class and inlines its `set`, where one
    // loop over every column called through a site of five classes (megamorphic) a value.
    const ints = this.#ints
    const intAt = this.#intAt
    for (let j = 0; j < ints.length; j++) ints[j]!.set(i, values[intAt[j]!] ?? null)
    const texts = this.#texts
    const textAt = this.#textAt
    for (let j = 0; j < texts.length; j++) texts[j]!.set(i, values[textAt[j]!] ?? null)
    const columns = this.#columns
    const otherAt = this.#otherAt
    for (let j = 0; j < otherAt.length; j++) {
      const p = otherAt[j]!
      columns[p]!.set(i, values[p] ?? null)
    }
    this.#stamps.set(i, stamp)
    this.#timestamps.set(i, timestamp)
  }

  /**
   * @internal Stores `v` at storage position `position` of row `rowId`, and `setTimes` its stamp
   * and timestamp: a replay fills a snapshot's columns one attribute at a time, before its commit.
   */
  setValue(rowId: number, position: number, v: StoredValue): void {
    this.#columns[position]!.set(rowId - this.start, v)
  }

  /**
   * @internal Stores `values` (their stored form, unchecked; null and undefined skipped, as none)
   * at storage position `position` of the rows from `rowId` on: a trusted replay's column in one
   * loop over one column, where setValue looked the column up again for each value.
   */
  setColumn(rowId: number, position: number, values: readonly unknown[]): void {
    const column = this.#columns[position]!
    const from = rowId - this.start
    for (let i = 0; i < values.length; i++) {
      const v = values[i]
      if (v !== null && v !== undefined) column.set(from + i, v as StoredValue)
    }
  }

  /** @internal See setValue. Rows are given in row id order, the first one first. */
  setTimes(rowId: number, stamp: number, timestamp: number): void {
    this.#stamps.set(rowId - this.start, stamp)
    this.#timestamps.set(rowId - this.start, timestamp)
  }

  /** The highest number at storage position `position` over every row, or undefined if none. */
  highest(position: number): number | undefined {
    const column = this.#columns[position]!
    // A text column holds no number: reading it would make a string a row for nothing.
    if (column instanceof TextColumn) return undefined
    let max: number | undefined
    for (let i = 0; i < this.length; i++) {
      const v = column.get(i)
      if (typeof v === 'number' && !(v <= max!)) max = v
    }
    return max
  }

  /** The value at storage position `position` of row `rowId`. */
  value(rowId: number, position: number): StoredValue {
    return this.#columns[position]!.get(rowId - this.start)
  }

  /** Points `at` at row `rowId`'s vector at `position` (see VectorColumn.locate). */
  locateVector(rowId: number, position: number, at: FloatsAt): boolean {
    const column = this.#columns[position]!
    if (column instanceof VectorColumn) return column.locate(rowId - this.start, at)
    const v = column.get(rowId - this.start)
    if (!(v instanceof Vector)) return false
    Vector.locate(v, at)
    return true
  }

  /**
   * The order of the fold of row `rowId`'s text at `position` and the fold of lazy key `key`
   * (compareLazy of its lazy key and `key`), read from the column's bytes with no string made;
   * undefined when the column cannot tell so (a text of the column's list, one kept outside the
   * bytes for a code unit past Latin-1, not a text column).
   */
  compareLazy(rowId: number, position: number, key: string): number | undefined {
    return this.#columns[position]!.compareLazy?.(rowId - this.start, key)
  }

  key(rowId: number): KeyValue {
    return this.#keyColumn.get(rowId - this.start) as KeyValue
  }

  stamp(rowId: number): number {
    return this.#stamps.get(rowId - this.start)
  }

  timestamp(rowId: number): number {
    return this.#timestamps.get(rowId - this.start)
  }

  /** Row `rowId`'s values in storage order (what a values factory takes). */
  values(rowId: number): StoredValue[] {
    const i = rowId - this.start
    return this.#columns.map((c) => c.get(i))
  }

  /**
   * Whether `record` is row `rowId` as stored here: same key, stamp, timestamp and values (objects
   * by identity). A record made from these columns is; so is, harmlessly, an identical one.
   */
  holds(rowId: number, record: EntityRecord, names: readonly string[]): boolean {
    const i = rowId - this.start
    if (
      record.rowId !== rowId ||
      record.stamp !== this.#stamps.get(i) ||
      record.timestamp !== this.#timestamps.get(i)
    )
      return false
    const columns = this.#columns
    for (let p = 0; p < columns.length; p++)
      if (!Object.is(columns[p]!.get(i), record.values[names[p]!] ?? null)) return false
    return true
  }
}

/** The one of `bases` (contiguous, in row id order) that holds `rowId`. */
export function baseOf(bases: readonly BaseRows[], rowId: number): BaseRows {
  let lo = 0
  let hi = bases.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (bases[mid]!.start <= rowId) lo = mid
    else hi = mid - 1
  }
  return bases[lo]!
}
