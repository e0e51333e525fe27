/**
 * @module A sorted index: (comparison key, row id) entries in order. Serves ranges (`<`, `>=` …),
 * `begin` (a prefix range), equality, and `$orderby` walks without sorting. Nulls sort first; ties
 * are in row-id order. Positions are ranks in that order, 0 to size - 1.
 *
 * The entries live in blocks of at most BLOCK_MAX consecutive entries, each with its own arrays,
 * and the position of each block's first entry. An insert or a delete is a search (among the
 * blocks by their last entry, then within one) and a move of the rest of one block, at most a
 * few KB, plus one add to each later block's position; a full block splits in two, and two
 * neighbours that would fit in half a block merge. In one flat array, each create moved half of
 * every index: at 200k rows, 65% of a create's CPU (bench/README.md, the writes suite). A read in
 * order (`rowAt` on consecutive positions, as `$orderby` walks) finds its block from the last
 * one found. A bulk load builds in one go, its blocks views of the sorted arrays.
 *
 * Row ids live in an Int32Array (4 bytes a row instead of 8 for a JS array of small integers).
 * Keys are held in one of three ways (the index's mode):
 * - numeric (every key a number or null, the usual case and the initial one): a typed array
 *   parallel to the row ids, whose first `#nulls` slots stand for the nulls (they sort first, so
 *   they are always a prefix; their slots hold no value). An Int32Array while every key is a
 *   32-bit integer (keys, counts, foreign keys: 4 bytes a row), a Float64Array for good from the
 *   first that is not (a fraction, a larger number, -0). A typed array never changes its element
 *   kind, and `copyWithin` on it is a memmove. A JS array would not stay unboxed: V8 keeps
 *   element-kind feedback per allocation site, so once any index of the process held text in an
 *   array made at the same site, every numeric index's array was made generic too (each number
 *   boxed): at 1M rows of fractional keys, a remove + add went from 0.25 ms to 5 ms.
 * - generic (text, booleans, mixed kinds of an object attribute): a JS array, made by
 *   `genericKeys` only. A text attribute's index (`folds`) holds its texts as lazy keys
 *   (lazy-fold.ts): an ASCII text is the row's own string, compared as its lowercase, so a unique
 *   code costs the index 8 bytes a row, not 8 plus a folded copy of 24. The index switches to it for good when a key that is not a number or null
 *   arrives; `resetFrom` chooses again.
 * - read (a text index given a key reader, once settled): no keys at all, the row ids alone, each
 *   key read from its row when a search compares with it. A load's text columns hold no string a
 *   row (base-rows.ts); keys held here were a string a row again, made by the index's build, and
 *   a full GC marks every one (a unique code at 1M rows: 1M strings, 50-70 ms of each full GC).
 *   A search reads ≈20 keys (a few µs). The stored values must be those the index holds: true
 *   whenever the table and its indexes are in step, except for the row a write is changing, whose
 *   key the index is told (`remove`, `move`) and never reads. A build that has changes to apply
 *   after its sort (index-set.ts) keeps its keys (`keep`) until `settle`.
 * A block's typed arrays have room for more entries than it holds, and double when full.
 */
import { compareKeys, type SortKey } from '../values/compare.js'
import { compareLazy, foldLazy, startsWithLazy } from '../values/lazy-fold.js'
import type { KeyReader } from './hash-key.js'
import { compareLazyKeys, type SortedContent } from './sliced-sort.js'
import { genericKeys, isInt32, sortEntries, type Mode, type NumericKeys } from './sorted-entries.js'

/** compareKeys on two numbers (the same order, NaN first, without the kind checks). */
const compareNumbers = (a: number, b: number): number =>
  a === b ? 0 : a < b ? -1 : a > b ? 1 : Number.isNaN(a) ? -1 : 1

/** Entries a block holds at most (tests give smaller ones to split and merge often). */
export const BLOCK_MAX = 4096

/** Consecutive entries of the index: row ids, and their keys when the index holds them. */
interface Block {
  // Row ids; the first `size` slots are used.
  rows: Int32Array
  // Numeric keys, parallel to `rows` (the slots of null entries hold nothing): numeric only.
  numbers: NumericKeys | undefined
  // The keys, `size` long: generic only.
  keys: SortKey[] | undefined
  size: number
}

// Whether an entry of a block comes before the one sought: true for a prefix of the entries.
// `start` is the position of the block's first entry.
type Before = (block: Block, start: number, i: number) => boolean

const newBlock = (capacity: number, mode: Mode): Block => ({
  rows: new Int32Array(capacity),
  numbers:
    mode === 'int32'
      ? new Int32Array(capacity)
      : mode === 'float64'
        ? new Float64Array(capacity)
        : undefined,
  keys: mode === 'generic' ? genericKeys(0) : undefined,
  size: 0,
})

export class SortedIndex {
  readonly attribute: string
  readonly folds: boolean
  #size = 0
  #mode: Mode = 'int32'
  #blocks: Block[] = []
  // The position of each block's first entry.
  #starts: number[] = []
  // Numeric: the first #nulls positions hold nulls.
  #nulls = 0
  // The block of the last position found: reads in order find the next one at once.
  #hint = 0
  readonly #blockMax: number
  readonly #read: KeyReader | undefined
  // Whether keys given to resetFrom/adopt are kept until `settle` rather than read.
  #keeping = false
  // compareKeys, or compareLazyKeys when the index folds (its texts are lazy keys).
  readonly #compare: (a: SortKey, b: SortKey) => number

  /**
   * With `folds`, text keys are lazy keys (lazy-fold.ts); queries may give them folded. With
   * `read`, the key of each row as the index would hold it, text keys are read from the rows
   * instead of held (see the module's comment). `blockMax`: entries a block holds at most.
   */
  constructor(attribute: string, folds: boolean, read?: KeyReader, blockMax = BLOCK_MAX) {
    if (!Number.isInteger(blockMax) || blockMax < 4)
      throw new RangeError(
        `SortedIndex: blockMax must be an integer of at least 4, not ${blockMax}`,
      )
    this.attribute = attribute
    this.folds = folds
    this.#compare = folds ? compareLazyKeys : compareKeys
    this.#read = read
    this.#blockMax = blockMax
  }

  /** Whether the keys are read from the rows rather than held. */
  get reading(): boolean {
    return this.#mode === 'read'
  }

  // Generic keys become read ones when the index has a reader and keeps no keys.
  #toReading(): void {
    if (this.#read === undefined || this.#keeping || this.#mode !== 'generic') return
    for (const block of this.#blocks) block.keys = undefined
    this.#mode = 'read'
  }

  /** Ends `keep`: the index's keys and the rows agree again (a build applied its changes). */
  settle(): void {
    this.#keeping = false
    this.#toReading()
  }

  get size(): number {
    return this.#size
  }

  // The first position whose entry is not `before` the one sought: a binary search among the
  // blocks by their last entry, then one within the block.
  #search(before: Before): number {
    const blocks = this.#blocks
    const starts = this.#starts
    let lo = 0
    let hi = blocks.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const block = blocks[mid]!
      if (before(block, starts[mid]!, block.size - 1)) lo = mid + 1
      else hi = mid
    }
    if (lo === blocks.length) return this.#size
    const block = blocks[lo]!
    const start = starts[lo]!
    // The block's last entry is not before: it bounds the search.
    let l = 0
    let h = block.size - 1
    while (l < h) {
      const mid = (l + h) >>> 1
      if (before(block, start, mid)) l = mid + 1
      else h = mid
    }
    this.#hint = lo
    return start + l
  }

  // The block holding position `p` (< size).
  #locate(p: number): number {
    const blocks = this.#blocks
    const starts = this.#starts
    const b = this.#hint
    if (b < blocks.length && p >= starts[b]!) {
      if (p < starts[b]! + blocks[b]!.size) return b
      if (b + 1 < blocks.length && p < starts[b + 1]! + blocks[b + 1]!.size)
        return (this.#hint = b + 1)
    }
    let lo = 0
    let hi = blocks.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (starts[mid]! <= p) lo = mid
      else hi = mid - 1
    }
    return (this.#hint = lo)
  }

  // First position whose (key, row) is >= (key, row); row -1 finds the first of a key. `held`:
  // the key the index holds for row `rowId`, not read from it (a write may have changed it).
  #lowerBound(key: SortKey, rowId: number, held?: SortKey): number {
    const mode = this.#mode
    if (mode === 'int32' || mode === 'float64') {
      const nulls = this.#nulls
      // Nulls: row ids in order; numbers: by key, then row id. Booleans would come after the
      // nulls, texts after the numbers.
      if (key === null)
        return this.#search((b, start, i) => start + i < nulls && b.rows[i]! < rowId)
      if (typeof key !== 'number') return typeof key === 'boolean' ? nulls : this.#size
      return this.#search(
        (b, start, i) =>
          start + i < nulls || (compareNumbers(b.numbers![i]!, key) || b.rows[i]! - rowId) < 0,
      )
    }
    const compare = this.#compare
    if (mode === 'generic')
      return this.#search((b, _, i) => (compare(b.keys![i]!, key) || b.rows[i]! - rowId) < 0)
    const read = this.#read!
    const stored = typeof key === 'string' ? read.compare : undefined
    return this.#search((b, _, i) => {
      const row = b.rows[i]!
      if (stored !== undefined && row !== rowId) {
        const told = stored(row, key as string)
        if (told !== undefined) return (told || row - rowId) < 0
      }
      return (compare(row === rowId ? held! : read(row), key) || row - rowId) < 0
    })
  }

  /** First position with a key > `key`. */
  #upperBound(key: SortKey): number {
    const mode = this.#mode
    if (mode === 'int32' || mode === 'float64') {
      const nulls = this.#nulls
      if (key === null) return nulls
      if (typeof key !== 'number') return typeof key === 'boolean' ? nulls : this.#size
      return this.#search(
        (b, start, i) => start + i < nulls || compareNumbers(b.numbers![i]!, key) <= 0,
      )
    }
    const compare = this.#compare
    const stored = mode === 'read' && typeof key === 'string' ? this.#read!.compare : undefined
    if (stored === undefined) return this.#search((b, _, i) => compare(this.#keyIn(b, i), key) <= 0)
    return this.#search((b, _, i) => {
      const told = stored(b.rows[i]!, key as string)
      return (told ?? compare(this.#keyIn(b, i), key)) <= 0
    })
  }

  /** The position of the entry (key, rowId), or -1. Read keys: the entry of rowId, held as `key`. */
  #find(key: SortKey, rowId: number): number {
    const at = this.#lowerBound(key, rowId, key)
    return at < this.#size &&
      this.rowAt(at) === rowId &&
      (this.#mode === 'read' || this.#compare(this.#keyAt(at), key) === 0)
      ? at
      : -1
  }

  // Before storing `key`: a key neither a number nor null turns the keys generic, for good; a
  // number that is not a 32-bit integer turns integer keys into doubles, for good.
  #accept(key: SortKey): void {
    const mode = this.#mode
    if ((mode !== 'int32' && mode !== 'float64') || key === null) return
    if (typeof key === 'number') {
      if (mode === 'int32' && !isInt32(key)) {
        for (const block of this.#blocks) block.numbers = Float64Array.from(block.numbers!)
        this.#mode = 'float64'
      }
      return
    }
    const nulls = this.#nulls
    const starts = this.#starts
    this.#blocks.forEach((block, b) => {
      const keys = genericKeys(block.size)
      for (let i = 0; i < block.size; i++)
        keys[i] = starts[b]! + i < nulls ? null : block.numbers![i]!
      block.keys = keys
      block.numbers = undefined
    })
    this.#mode = 'generic'
    this.#nulls = 0
    this.#toReading()
  }

  // Room in block `b` for one more entry: its arrays double up to the largest block.
  #grow(block: Block): void {
    const n = block.size
    if (n < block.rows.length) return
    const capacity = Math.min(this.#blockMax, Math.max(16, n * 2))
    const rows = new Int32Array(capacity)
    rows.set(block.rows.subarray(0, n))
    block.rows = rows
    const old = block.numbers
    if (old !== undefined) {
      const numbers =
        old instanceof Int32Array ? new Int32Array(capacity) : new Float64Array(capacity)
      numbers.set(old.subarray(0, n))
      block.numbers = numbers
    }
  }

  // Splits a full block `b` in two halves, each with room to grow.
  #split(b: number): void {
    const block = this.#blocks[b]!
    const half = block.size >>> 1
    const rest = block.size - half
    const next = newBlock(this.#blockMax, this.#mode)
    next.rows.set(block.rows.subarray(half, block.size))
    if (block.numbers !== undefined) next.numbers!.set(block.numbers.subarray(half, block.size))
    if (block.keys !== undefined) next.keys = block.keys.splice(half)
    next.size = rest
    block.size = half
    this.#blocks.splice(b + 1, 0, next)
    this.#starts.splice(b + 1, 0, this.#starts[b]! + half)
  }

  // Moves block `b + 1`'s entries to the end of block `b`, and drops it.
  #merge(b: number): void {
    const block = this.#blocks[b]!
    const next = this.#blocks[b + 1]!
    const n = block.size
    const total = n + next.size
    if (block.rows.length < total) {
      const rows = new Int32Array(this.#blockMax)
      rows.set(block.rows.subarray(0, n))
      block.rows = rows
      const old = block.numbers
      if (old !== undefined) {
        const numbers =
          old instanceof Int32Array
            ? new Int32Array(this.#blockMax)
            : new Float64Array(this.#blockMax)
        numbers.set(old.subarray(0, n))
        block.numbers = numbers
      }
    }
    block.rows.set(next.rows.subarray(0, next.size), n)
    if (block.numbers !== undefined) block.numbers.set(next.numbers!.subarray(0, next.size), n)
    if (block.keys !== undefined)
      for (let i = 0; i < next.size; i++) block.keys.push(next.keys![i]!)
    block.size = total
    this.#blocks.splice(b + 1, 1)
    this.#starts.splice(b + 1, 1)
  }

  // The entries after block `b` moved by `by`.
  #shiftStarts(b: number, by: 1 | -1): void {
    const starts = this.#starts
    for (let k = b + 1; k < starts.length; k++) starts[k]! += by
  }

  // Inserts the entry at position `at`; a null key of numeric keys must go among the nulls.
  #insert(at: number, key: SortKey, rowId: number): void {
    const blocks = this.#blocks
    if (blocks.length === 0) {
      blocks.push(newBlock(16, this.#mode))
      this.#starts.push(0)
    }
    // At the end: the last block's end; elsewhere the block holding the entry now at `at`.
    let b = at === this.#size ? blocks.length - 1 : this.#locate(at)
    let i = at - this.#starts[b]!
    if (blocks[b]!.size >= this.#blockMax) {
      this.#split(b)
      const half = blocks[b]!.size
      if (i > half) {
        b++
        i -= half
      }
    }
    const block = blocks[b]!
    this.#grow(block)
    const n = block.size
    block.rows.copyWithin(i + 1, i, n)
    block.rows[i] = rowId
    if (block.numbers !== undefined) {
      block.numbers.copyWithin(i + 1, i, n)
      if (key === null) this.#nulls++
      else block.numbers[i] = key as number
    } else if (block.keys !== undefined) block.keys.splice(i, 0, key)
    block.size = n + 1
    this.#size++
    this.#shiftStarts(b, 1)
  }

  // Removes the entry at position `at`.
  #removeAt(at: number): void {
    const b = this.#locate(at)
    const block = this.#blocks[b]!
    const i = at - this.#starts[b]!
    const n = block.size
    block.rows.copyWithin(i, i + 1, n)
    if (block.numbers !== undefined) {
      if (at < this.#nulls) this.#nulls--
      block.numbers.copyWithin(i, i + 1, n)
    } else if (block.keys !== undefined) block.keys.splice(i, 1)
    block.size = n - 1
    this.#size--
    this.#shiftStarts(b, -1)
    // No empty block, and no two neighbours that would fit in half a block: deletes cannot leave
    // the index in many small blocks.
    const blocks = this.#blocks
    const small = this.#blockMax >>> 1
    if (block.size === 0) {
      blocks.splice(b, 1)
      this.#starts.splice(b, 1)
    } else if (b + 1 < blocks.length && block.size + blocks[b + 1]!.size <= small) this.#merge(b)
    else if (b > 0 && blocks[b - 1]!.size + block.size <= small) this.#merge(b - 1)
  }

  add(key: SortKey, rowId: number): void {
    this.#accept(key)
    const n = this.#size
    // Appending in order (a load in key order, autosequence values) costs no search.
    const at =
      n === 0 || (this.#compare(this.#keyAt(n - 1), key) || this.rowAt(n - 1) - rowId) < 0
        ? n
        : this.#lowerBound(key, rowId, key)
    this.#insert(at, key, rowId)
  }

  remove(key: SortKey, rowId: number): void {
    const at = this.#find(key, rowId)
    if (at >= 0) this.#removeAt(at)
  }

  /**
   * Moves the entry of `rowId` from `oldKey` to `newKey`: the same result as `remove(oldKey,
   * rowId)` then `add(newKey, rowId)`; an entry whose position does not change is rewritten in
   * place. Adds the entry if it was not there.
   */
  move(oldKey: SortKey, newKey: SortKey, rowId: number): void {
    this.#accept(newKey)
    const from = this.#find(oldKey, rowId)
    if (from < 0) return this.add(newKey, rowId)
    // The first position >= the new entry, counting the old one.
    const to = this.#lowerBound(newKey, rowId, oldKey)
    if (to !== from && to !== from + 1) {
      this.#removeAt(from)
      return this.#insert(to > from ? to - 1 : to, newKey, rowId)
    }
    // In place: a null becoming a number is the last null, a number becoming a null the first
    // number (see the module's comment).
    const b = this.#locate(from)
    const block = this.#blocks[b]!
    const i = from - this.#starts[b]!
    if (block.numbers !== undefined) {
      if (oldKey === null) this.#nulls--
      if (newKey === null) this.#nulls++
      else block.numbers[i] = newKey as number
    } else if (block.keys !== undefined) block.keys[i] = newKey
  }

  /** An independent copy (store snapshots): each block's typed arrays copied, a memcpy. */
  copy(): SortedIndex {
    const out = new SortedIndex(this.attribute, this.folds, this.#read, this.#blockMax)
    out.#size = this.#size
    out.#mode = this.#mode
    out.#blocks = this.#blocks.map((b) => ({
      rows: b.rows.slice(0, b.size),
      numbers: b.numbers?.slice(0, b.size),
      keys: b.keys?.slice(),
      size: b.size,
    }))
    out.#starts = this.#starts.slice()
    out.#nulls = this.#nulls
    out.#keeping = this.#keeping
    return out
  }

  // Takes sorted entries as the index's content: blocks of half the largest size, each a view
  // of the arrays given (copied on its first write), so that taking them costs no copy.
  #take(
    mode: Mode,
    size: number,
    rows: Int32Array,
    numbers: NumericKeys | undefined,
    keys: SortKey[] | undefined,
    nulls: number,
  ): void {
    const step = this.#blockMax >>> 1
    const blocks: Block[] = []
    const starts: number[] = []
    for (let s = 0; s < size; s += step) {
      const e = Math.min(size, s + step)
      starts.push(s)
      blocks.push({
        rows: rows.subarray(s, e),
        numbers: numbers?.subarray(s, e),
        keys: keys?.slice(s, e),
        size: e - s,
      })
    }
    this.#mode = mode
    this.#size = size
    this.#blocks = blocks
    this.#starts = starts
    this.#nulls = nulls
    this.#hint = 0
  }

  /** Replaces the content with `pairs`, sorted once (bulk loads and rebuilds). */
  reset(pairs: Iterable<readonly [SortKey, number]>): void {
    const keys: SortKey[] = []
    const rows: number[] = []
    for (const [k, r] of pairs) {
      keys.push(k)
      rows.push(r)
    }
    this.resetFrom(keys, rows)
  }

  /**
   * Replaces the content with `keys[i]` of `rows[i]`, sorted once; ties keep their order in the
   * input, so rows given in row-id order tie in row-id order. Takes ownership of neither array.
   *
   * The usual columns sort mostly without a comparison callback (see radix-sort.ts, parallel/sort-numbers.ts): numbers by a
   * stable radix sort, text by a radix sort on a prefix and comparisons within equal prefixes only.
   * Columns of mixed kinds (object attributes) take the general comparison. On 200,000 rows of
   * names this is about 40 ms instead of 450 ms.
   *
   * With `keep`, text keys are held (not read from the rows) until `settle`.
   */
  resetFrom(keys: readonly SortKey[], rows: ArrayLike<number>, keep = false): void {
    this.#keeping = keep
    this.#sortFrom(keys, rows)
    this.#toReading()
  }

  #sortFrom(keys: readonly SortKey[], rows: ArrayLike<number>): void {
    const sorted = sortEntries(keys, rows, this.folds, this.#compare)
    this.#take(sorted.mode, sorted.size, sorted.rows, sorted.numbers, sorted.keys, sorted.nulls)
  }

  /**
   * Replaces the content with `sorted`, already in the index's order (a sliced build's sort);
   * with `keep`, text keys are held until `settle`.
   */
  adopt(sorted: SortedContent, keep = false): void {
    this.#keeping = keep
    if (sorted.kind === 'numbers') {
      const { numbers } = sorted
      const mode = numbers instanceof Int32Array ? 'int32' : 'float64'
      return this.#take(mode, sorted.size, sorted.rows, numbers, undefined, sorted.nulls)
    }
    if (sorted.kind === 'texts') {
      // The keys are read from the rows: they must agree with them now (nothing to keep).
      if (this.#read === undefined || keep)
        throw new TypeError('SortedIndex.adopt: sorted texts need a key reader, and no keep')
      return this.#take('read', sorted.size, sorted.rows, undefined, undefined, 0)
    }
    this.#take('generic', sorted.size, sorted.rows, undefined, sorted.keys, 0)
    this.#toReading()
  }

  /**
   * Positions [start, end) of the keys within bounds. A bound is `{ key, inclusive }`; a missing
   * bound is open. Null keys are never in a range with a lower bound (nulls are not values).
   */
  range(
    lower?: { key: SortKey; inclusive: boolean },
    upper?: { key: SortKey; inclusive: boolean },
  ): [number, number] {
    let start = lower
      ? lower.inclusive
        ? this.#lowerBound(lower.key, -1)
        : this.#upperBound(lower.key)
      : this.#upperBound(null)
    let end = upper
      ? upper.inclusive
        ? this.#upperBound(upper.key)
        : this.#lowerBound(upper.key, -1)
      : this.#size
    if (end < start) end = start
    // A range must not mix kinds: `salary < 10` must not match strings stored in a mixed column.
    const kind = typeof (lower ?? upper)?.key
    if ((this.#mode === 'int32' || this.#mode === 'float64') && kind === 'number') {
      // Numbers from #nulls on, nothing else.
      if (start < this.#nulls) start = Math.min(this.#nulls, end)
      return [start, end]
    }
    while (start < end && typeof this.#keyAt(start) !== kind) start++
    while (end > start && typeof this.#keyAt(end - 1) !== kind) end--
    return [start, end]
  }

  /** Positions [start, end) of the keys equal to `key`. */
  equal(key: SortKey): [number, number] {
    return [this.#lowerBound(key, -1), this.#upperBound(key)]
  }

  /** Positions of the string keys beginning with `prefix` (already folded if the index folds). */
  prefix(prefix: string): [number, number] {
    const start = this.#lowerBound(prefix, -1)
    // Numeric keys: no strings (start is the end).
    if (this.#mode === 'int32' || this.#mode === 'float64') return [start, start]
    const lazy = this.folds
    // Upper end: the first key from `start` on that no longer starts with the prefix.
    const end = this.#search((b, s, i) => {
      if (s + i < start) return true
      const k = this.#keyIn(b, i)
      return (
        typeof k === 'string' &&
        (lazy
          ? startsWithLazy(k, prefix) || compareLazy(k, prefix) < 0
          : k.startsWith(prefix) || k < prefix)
      )
    })
    return [start, end]
  }

  /**
   * The keys and row ids in order, the keys as held (texts of a folding index as lazy keys), in
   * new arrays (nulls as null): readers of a few keys should use `keyAt`.
   */
  content(): [readonly SortKey[], Int32Array] {
    const n = this.#size
    const rows = new Int32Array(n)
    const keys = new Array<SortKey>(n)
    let at = 0
    for (const block of this.#blocks) {
      rows.set(block.rows.subarray(0, block.size), at)
      for (let i = 0; i < block.size; i++) keys[at + i] = this.#keyAt(at + i)
      at += block.size
    }
    return [keys, rows]
  }

  /** Row ids at positions [start, end). */
  rows(start: number, end: number): number[] {
    const out = new Array<number>(Math.max(0, end - start))
    this.rowsInto(start, end, out, 0)
    return out
  }

  /** The row ids at positions [start, end) written into `out` from `at` (a range read in steps). */
  rowsInto(start: number, end: number, out: number[] | Int32Array, at: number): void {
    if (end <= start) return
    let b = this.#locate(start)
    let i = start - this.#starts[b]!
    const last = at + end - start
    for (let p = at; p < last; b++, i = 0) {
      const block = this.#blocks[b]!
      const rows = block.rows
      const stop = Math.min(block.size, i + last - p)
      for (; i < stop; i++) out[p++] = rows[i]!
    }
  }

  rowAt(position: number): number {
    const b = this.#locate(position)
    return this.#blocks[b]!.rows[position - this.#starts[b]!]!
  }

  /** The key at `position`, texts folded (a lazy key with a capital is lowercased, a new string). */
  keyAt(position: number): SortKey {
    const k = this.#keyAt(position)
    return typeof k === 'string' && this.folds ? foldLazy(k) : k
  }

  // The key at `position` as held.
  #keyAt(position: number): SortKey {
    if (position < this.#nulls) return null
    const b = this.#locate(position)
    return this.#keyIn(this.#blocks[b]!, position - this.#starts[b]!)
  }

  // The key of entry `i` of a block, as held; numeric keys: not for a null entry.
  #keyIn(block: Block, i: number): SortKey {
    if (block.numbers !== undefined) return block.numbers[i]!
    return block.keys !== undefined ? block.keys[i]! : this.#read!(block.rows[i]!)
  }
}
