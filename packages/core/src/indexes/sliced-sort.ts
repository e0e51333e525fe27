/**
 * @module The sort of a sorted index's build, in slices: a few milliseconds at a time between
 * other work, so that a build on a large table never holds the event loop in one piece (issue 30:
 * at 1M rows a one-piece build held every request for 626 ms). The keys are copied into the index's
 * own layout (nulls first, in input order), sorted in runs of `RUN` entries (each run one call of
 * the one-piece sorts of parallel/sort-numbers.ts and radix-sort.ts), then merged pairwise, pass after pass, each pass resumable
 * at any entry. Stable throughout: ties keep their input order, as `SortedIndex.resetFrom` does, so
 * the result is the same as a one-piece build.
 */
import { compareKeys, type SortKey } from '../values/compare.js'
import { TextKeys, type BuildKeys } from './build-keys.js'
import { compareLazy } from '../values/lazy-fold.js'
import { sortStringsStable } from './radix-sort.js'
import { Scratch, sortNumbersStable } from '../parallel/sort-numbers.js'

/**
 * Entries a run of numbers holds: one run's sort is one uninterrupted step (about 1 ms at 16k, a
 * radix sort).
 */
export const RUN = 1 << 14
/**
 * Entries a run of texts (or other keys) holds: their sort compares, and folds accents, where
 * prefixes tie; measured at 1M long rows with accented names, a 16k run took 9-10 ms every time
 * (30 ms for the first), twice a slice's budget: each was a GET's wait.
 */
export const TEXT_RUN = 1 << 12
/** Entries copied or merged between two questions to the slice's `more`. */
export const CHUNK = 2048

/** The sorted content in SortedIndex's layout: the first `nulls` rows hold null keys. */
export type SortedContent =
  | {
      readonly kind: 'numbers'
      readonly size: number
      // Shared memory when sorted on a worker pool (pool-sort.ts).
      readonly rows: Int32Array
      readonly numbers: Int32Array | Float64Array
      readonly nulls: number
    }
  | {
      readonly kind: 'generic'
      readonly size: number
      readonly rows: Int32Array<ArrayBuffer>
      readonly keys: SortKey[]
    }
  | {
      // Texts sorted in place (build-keys.ts): `order[i]` is the position in `texts` of the key
      // of `rows[i]`. The index reads its keys from the rows, or makes them from `texts`.
      readonly kind: 'texts'
      readonly size: number
      readonly rows: Int32Array<ArrayBuffer>
      readonly texts: TextKeys
      readonly order: Int32Array<ArrayBuffer>
      // The first `nulls` rows hold null keys (their `order` is not set).
      readonly nulls: number
    }

/** compareKeys with texts taken as lazy keys: the order of a folding index. */
export const compareLazyKeys = (a: SortKey, b: SortKey): number =>
  typeof a === 'string' && typeof b === 'string' ? compareLazy(a, b) : compareKeys(a, b)

type Stage = 'copy' | 'runs' | 'merge' | 'narrow' | 'done'

/** Of numeric keys in a Float64Array: how many are null (NaN), and whether all others are int32. */
export interface NumberStats {
  readonly nulls: number
  readonly ints: boolean
}

/**
 * A stable sort of `keys[i]` held by `rows[i]`, done by `step` calls. Takes ownership of both
 * arrays: once copied, they are the second buffer of the merges (less to allocate, and so fewer
 * major GCs, each a pause of the whole heap).
 */
export class SlicedSort {
  readonly #keys: BuildKeys
  readonly #rows: Int32Array<ArrayBuffer>
  readonly #n: number
  readonly #nulls: number
  readonly #numeric: boolean
  readonly #strings: boolean
  readonly #ints: boolean
  readonly #lazy: boolean
  #stage: Stage = 'copy'
  #at = 0
  // The two buffers merges go between; `a` holds the current order.
  #rowsA: Int32Array<ArrayBuffer>
  #rowsB: Int32Array<ArrayBuffer>
  #numA: Float64Array<ArrayBuffer> | undefined
  #numB: Float64Array<ArrayBuffer> | undefined
  #keyA: SortKey[] | undefined
  #keyB: SortKey[] | undefined
  // Texts: the keys stay in #texts; the sort moves their positions (#idxA/#idxB) with the rows.
  readonly #texts: TextKeys | undefined
  #idxA: Int32Array<ArrayBuffer> | undefined
  #idxB: Int32Array<ArrayBuffer> | undefined
  // Merge state: the run width of this pass, the pair being merged and the positions in it.
  readonly #run: number
  readonly #chunk: number
  #width = 0
  #lo = 0
  #i = 0
  #j = 0
  #k = 0
  #narrowed: Int32Array<ArrayBuffer> | undefined
  #copied = 0

  /**
   * `run`: the entries of a run (RUN for numbers, TEXT_RUN for others, unless given); `chunk`:
   * those copied or merged between two questions to `more` (tests make both small, to merge many
   * runs in many slices).
   */
  constructor(
    keys: BuildKeys,
    rows: Int32Array<ArrayBuffer>,
    folds: boolean,
    run?: number,
    chunk = CHUNK,
    known?: NumberStats,
  ) {
    this.#chunk = chunk
    this.#keys = keys
    this.#rows = rows
    const n = (this.#n = keys.length)
    let nulls = 0
    let numbers = 0
    let strings = 0
    let ints = true
    if (keys instanceof TextKeys) {
      this.#texts = keys
      nulls = keys.nulls
      strings = n - nulls
    } else if (keys instanceof Float64Array && known !== undefined) {
      // What the build counted as it read them: no pass over millions of keys in one piece here.
      nulls = known.nulls
      numbers = n - nulls
      ints = known.ints
    } else
      for (let i = 0; i < n; i++) {
        const k = keys[i]!
        // A typed array of numbers holds NaN for null.
        if (k === null || k !== k) nulls++
        else if (typeof k === 'number') {
          numbers++
          if (ints && ((k | 0) !== k || (k === 0 && 1 / k < 0))) ints = false
        } else if (typeof k === 'string') strings++
      }
    this.#nulls = nulls
    this.#numeric = this.#texts === undefined && numbers + nulls === n
    this.#strings = !this.#numeric && strings + nulls === n
    this.#ints = ints
    this.#lazy = folds
    this.#run = run ?? (this.#numeric ? RUN : TEXT_RUN)
    const size = Math.max(16, n)
    this.#rowsA = new Int32Array(size)
    this.#rowsB = rows
    if (this.#texts !== undefined) {
      this.#idxA = new Int32Array(size)
      this.#idxB = new Int32Array(size)
    } else if (this.#numeric) {
      this.#numA = new Float64Array(size)
      this.#numB = new Float64Array(size)
    } else {
      this.#keyA = new Array<SortKey>(n)
      this.#keyB = keys as SortKey[]
      for (let i = 0; i < nulls; i++) this.#keyA[i] = null
    }
  }

  /** Runs the sort while `more()` says so (asked every few thousand entries); true once done. */
  step(more: () => boolean): boolean {
    do {
      switch (this.#stage) {
        case 'copy':
          this.#copy()
          break
        case 'runs':
          this.#sortRun()
          break
        case 'merge':
          this.#merge()
          break
        case 'narrow':
          this.#narrow()
          break
        case 'done':
          return true
      }
    } while (more())
    return this.done
  }

  /** Whether `step` has done any work yet (until then the input arrays are untouched). */
  get started(): boolean {
    return this.#stage !== 'copy' || this.#at > 0
  }

  get done(): boolean {
    return this.#stage === 'done'
  }

  /** The sorted content, once `step` returned true. */
  result(): SortedContent {
    if (this.#stage !== 'done') throw new TypeError('SlicedSort.result: not done')
    if (this.#numeric)
      return {
        kind: 'numbers',
        size: this.#n,
        rows: this.#rowsA,
        numbers: this.#narrowed ?? this.#numA!,
        nulls: this.#nulls,
      }
    if (this.#texts !== undefined)
      return {
        kind: 'texts',
        size: this.#n,
        rows: this.#rowsA,
        texts: this.#texts,
        order: this.#idxA!,
        nulls: this.#nulls,
      }
    return { kind: 'generic', size: this.#n, rows: this.#rowsA, keys: this.#keyA! }
  }

  // Nulls first in input order, then the other keys from position `nulls` on, in input order.
  #copy(): void {
    const keys = this.#keys
    const rows = this.#rows
    const end = Math.min(this.#n, this.#at + this.#chunk)
    const nulls = this.#nulls
    let nullAt = this.#copied
    let at = nulls + (this.#at - nullAt)
    const texts = this.#texts
    for (let i = this.#at; i < end; i++) {
      const k = texts !== undefined ? (texts.isNull(i) ? null : i) : (keys as SortKey[])[i]!
      if (k === null || k !== k) {
        this.#rowsA[nullAt] = this.#rowsB[nullAt] = rows[i]!
        nullAt++
        continue
      }
      this.#rowsA[at] = rows[i]!
      if (texts !== undefined) this.#idxA![at] = i
      else if (this.#numA !== undefined) this.#numA[at] = k as number
      else this.#keyA![at] = k
      at++
    }
    this.#copied = nullAt
    this.#at = end
    if (end < this.#n) return
    // The input is read: the second buffer now, its nulls first as in the first.
    if (this.#keyB !== undefined) for (let i = 0; i < nulls; i++) this.#keyB[i] = null
    this.#stage = 'runs'
    this.#at = nulls
  }

  // Sorts the run starting at #at in place (in buffer a). One function per kind of key: a single
  // one, fed numbers, then texts, then other keys by the indexes built one after the other, was
  // deoptimized at each change, and a run of 16k texts then took 30 ms in the interpreter.
  #sortRun(): void {
    const s = this.#at
    const e = Math.min(this.#n, s + this.#run)
    if (s >= e) {
      this.#startMerges()
      return
    }
    if (this.#numA !== undefined)
      sortNumbersStable(this.#numA.subarray(s, e), this.#rowsA.subarray(s, e))
    else if (this.#texts !== undefined) sortTextRun(this.#texts, this.#idxA!, this.#rowsA, s, e)
    else this.#sortKeyRun(s, e)
    this.#at = e
    if (e >= this.#n) this.#startMerges()
  }

  #sortKeyRun(s: number, e: number): void {
    const keys = this.#keyA!
    const rows = this.#rowsA
    const part = keys.slice(s, e)
    const ids = rows.slice(s, e)
    const order = this.#strings
      ? sortStringsStable(part as string[], this.#lazy)
      : Array.from({ length: e - s }, (_, i) => i).sort(
          (a, b) => this.#compareGeneric(part[a]!, part[b]!) || a - b,
        )
    for (let i = 0; i < order.length; i++) {
      keys[s + i] = part[order[i]!]!
      rows[s + i] = ids[order[i]!]!
    }
  }

  #compareGeneric(a: SortKey, b: SortKey): number {
    return this.#lazy ? compareLazyKeys(a, b) : compareKeys(a, b)
  }

  #startMerges(): void {
    this.#width = this.#run
    this.#stage = 'merge'
    this.#startPair(this.#nulls)
  }

  #startPair(lo: number): void {
    this.#lo = this.#i = this.#k = lo
    this.#j = Math.min(this.#n, lo + this.#width)
  }

  // Up to CHUNK entries of the merge of the pair at #lo: runs [lo, lo+width) and [lo+width, lo+2w)
  // of buffer a into the same positions of buffer b; at the end of a pass, the buffers swap.
  #merge(): void {
    const n = this.#n
    if (this.#n - this.#nulls <= this.#width) return this.#finishMerges()
    const mid = Math.min(n, this.#lo + this.#width)
    const hi = Math.min(n, this.#lo + 2 * this.#width)
    let i = this.#i
    let j = this.#j
    let k = this.#k
    const stop = Math.min(hi, k + this.#chunk)
    const rowsA = this.#rowsA
    const rowsB = this.#rowsB
    if (this.#numA !== undefined) {
      const a = this.#numA
      const b = this.#numB!
      while (k < stop) {
        // Left first on a tie: stable.
        if (j >= hi || (i < mid && a[i]! <= a[j]!)) {
          b[k] = a[i]!
          rowsB[k++] = rowsA[i++]!
        } else {
          b[k] = a[j]!
          rowsB[k++] = rowsA[j++]!
        }
      }
    } else if (this.#texts !== undefined) {
      const texts = this.#texts
      const a = this.#idxA!
      const b = this.#idxB!
      while (k < stop) {
        if (j >= hi || (i < mid && texts.compare(a[i]!, a[j]!) <= 0)) {
          b[k] = a[i]!
          rowsB[k++] = rowsA[i++]!
        } else {
          b[k] = a[j]!
          rowsB[k++] = rowsA[j++]!
        }
      }
    } else {
      const a = this.#keyA!
      const b = this.#keyB!
      const strings = this.#strings
      const lazy = this.#lazy
      while (k < stop) {
        let left = j >= hi
        if (!left && i < mid) {
          const x = a[i]!
          const y = a[j]!
          left = strings
            ? lazy
              ? compareLazy(x as string, y as string) <= 0
              : x <= y
            : this.#compareGeneric(x, y) <= 0
        }
        if (left) {
          b[k] = a[i]!
          rowsB[k++] = rowsA[i++]!
        } else {
          b[k] = a[j]!
          rowsB[k++] = rowsA[j++]!
        }
      }
    }
    this.#i = i
    this.#j = j
    this.#k = k
    if (k < hi) return
    if (hi < n) return this.#startPair(hi)
    // The pass is done: b holds runs twice as wide.
    ;[this.#rowsA, this.#rowsB] = [this.#rowsB, this.#rowsA]
    ;[this.#numA, this.#numB] = [this.#numB, this.#numA]
    ;[this.#keyA, this.#keyB] = [this.#keyB, this.#keyA]
    ;[this.#idxA, this.#idxB] = [this.#idxB, this.#idxA]
    this.#width *= 2
    this.#startPair(this.#nulls)
  }

  #finishMerges(): void {
    this.#numB = undefined
    this.#keyB = undefined
    this.#idxB = undefined
    this.#rowsB = new Int32Array(0)
    if (this.#numeric && this.#ints) {
      this.#narrowed = new Int32Array(this.#rowsA.length)
      this.#at = this.#nulls
      this.#stage = 'narrow'
    } else this.#stage = 'done'
  }

  // Integer keys are held as 32-bit integers (4 bytes a row instead of 8), as resetFrom holds them.
  #narrow(): void {
    const end = Math.min(this.#n, this.#at + 4 * this.#chunk)
    this.#narrowed!.set(this.#numA!.subarray(this.#at, end), this.#at)
    this.#at = end
    if (end < this.#n) return
    this.#numA = undefined
    this.#stage = 'done'
  }
}

// The text runs' arrays, reused (see sort-numbers.ts' Scratch): sortNumbersStable has its own.
const textWork = new Scratch()

/**
 * Sorts positions `s`…`e` of `idx` (positions in `texts`), and `rows` with them, by the texts: by
 * their prefixes (a radix sort), then by their units where prefixes tie. No string is made.
 */
function sortTextRun(
  texts: TextKeys,
  idx: Int32Array<ArrayBuffer>,
  rows: Int32Array<ArrayBuffer>,
  s: number,
  e: number,
): void {
  const n = e - s
  const prefixes = textWork.f64(0, n)
  const order = textWork.i32(0, n)
  for (let i = 0; i < n; i++) {
    prefixes[i] = texts.prefix(idx[s + i]!)
    order[i] = i
  }
  sortNumbersStable(prefixes, order)
  const byKey = (a: number, b: number): number => texts.compare(idx[s + a]!, idx[s + b]!) || a - b
  for (let i = 0; i < n;) {
    let j = i + 1
    while (j < n && prefixes[j] === prefixes[i]) j++
    if (j - i > 1) order.set(Array.from(order.subarray(i, j)).sort(byKey), i)
    i = j
  }
  const at = textWork.i32(1, n)
  at.set(idx.subarray(s, e))
  const ids = textWork.i32(2, n)
  ids.set(rows.subarray(s, e))
  for (let i = 0; i < n; i++) {
    idx[s + i] = at[order[i]!]!
    rows[s + i] = ids[order[i]!]!
  }
}
