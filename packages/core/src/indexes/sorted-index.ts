/**
 * @module A sorted index: (comparison key, row id) entries in order. Serves ranges (`<`, `>=` …),
 * `begin` (a prefix range), equality, and `$orderby` walks without sorting. Nulls sort first; ties
 * are in row-id order. Positions are ranks in that order, 0 to size - 1.
 *
 * The entries live in blocks of at most BLOCK_MAX consecutive entries (sorted-blocks.ts says why
 * and how). An insert or a delete is a search (among the blocks by their last entry, then within
 * one) and a move of the rest of one block; a read in order (`rowAt` on consecutive positions, as
 * `$orderby` walks) finds its block from the last one found.
 *
 * Keys are held in one of three ways (the index's mode):
 * - numeric (every key a number or null, the usual case and the initial one): a typed array
 *   parallel to the row ids, whose first `#nulls` slots stand for the nulls (they sort first, so
 *   they are always a prefix; their slots hold no value). An Int32Array while every key is a
 *   32-bit integer (keys, counts, foreign keys: 4 bytes a row), a Float64Array for good from the
 *   first that is not (a fraction, a larger number, -0); sorted-blocks.ts says why typed arrays.
 * - generic (text, booleans, mixed kinds of an object attribute): a JS array, made by
 *   `genericKeys` only. A text attribute's index (`folds`) holds its texts as lazy keys
 *   (lazy-fold.ts): an ASCII text is the row's own string, compared as its lowercase, so a unique
 *   code costs the index 8 bytes a row, not 8 plus a folded copy of 24. The index switches to it
 *   for good when a key that is not a number or null arrives; `resetFrom` chooses again.
 * - read (a text index given a key reader, once settled): no keys at all, the row ids alone, each
 *   key read from its row when a search compares with it. A load's text columns hold no string a
 *   row (base-rows.ts); keys held here were a string a row again, made by the index's build, and
 *   a full GC marks every one (a unique code at 1M rows: 1M strings, 50-70 ms of each full GC).
 *   A search reads ≈20 keys (a few µs). The stored values must be those the index holds: true
 *   whenever the table and its indexes are in step, except for the row a write is changing, whose
 *   key the index is told (`remove`, `move`) and never reads. A build that has changes to apply
 *   after its sort (index-set.ts) keeps its keys (`keep`) until `settle`.
 */
import { compareKeys, type SortKey } from '../values/compare.js'
import { foldLazy } from '../values/lazy-fold.js'
import type { KeyReader } from './hash-key.js'
import { compareLazyKeys, type SortedContent } from './sliced-sort.js'
import {
  beforePrefixEnd,
  entriesOf,
  isInt32,
  sortEntries,
  unzipPairs,
  type Mode,
  type SortedEntries,
} from './sorted-entries.js'
import {
  blocksOf,
  copyBlocks,
  growBlock,
  mendBlocks,
  newBlock,
  splitBlock,
  toGeneric,
  contentOf,
  copyRows,
  type Before,
  type Block,
} from './sorted-blocks.js'

/** compareKeys on two numbers (the same order, NaN first, without the kind checks). */
const compareNumbers = (a: number, b: number): number =>
  a === b ? 0 : a < b ? -1 : a > b ? 1 : Number.isNaN(a) ? -1 : 1

/** Entries a block holds at most (tests give smaller ones to split and merge often). */
export const BLOCK_MAX = 4096

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

  // The first position whose entry is not `before`: a binary search among the blocks by their
  // last entry, then within one; here, to inline with each caller's `before` (sorted-blocks.ts).
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

  // The block holding position `p` (< size); here, not in sorted-blocks.ts, for speed (see there).
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
    toGeneric(this.#blocks, this.#starts, this.#nulls)
    this.#mode = 'generic'
    this.#nulls = 0
    this.#toReading()
  }

  // Inserts the entry at position `at`; a null key of numeric keys must go among the nulls.
  #insert(at: number, key: SortKey, rowId: number): void {
    const blocks = this.#blocks
    const starts = this.#starts
    if (blocks.length === 0) {
      blocks.push(newBlock(16, this.#mode))
      starts.push(0)
    }
    // At the end: the last block's end; elsewhere the block holding the entry now at `at`.
    let b = at === this.#size ? blocks.length - 1 : this.#locate(at)
    let i = at - starts[b]!
    if (blocks[b]!.size >= this.#blockMax) {
      b = splitBlock(blocks, starts, b, i, this.#blockMax, this.#mode)
      i = at - starts[b]!
    }
    const block = blocks[b]!
    // The call only when the block is full: one an insert cost adds a few percent.
    if (block.size === block.rows.length) growBlock(block, this.#blockMax)
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
    for (let k = b + 1; k < starts.length; k++) starts[k]!++
  }

  // Removes the entry at position `at`.
  #removeAt(at: number): void {
    const b = this.#locate(at)
    const block = this.#blocks[b]!
    const starts = this.#starts
    const i = at - starts[b]!
    const n = block.size
    block.rows.copyWithin(i, i + 1, n)
    if (block.numbers !== undefined) {
      if (at < this.#nulls) this.#nulls--
      block.numbers.copyWithin(i, i + 1, n)
    } else if (block.keys !== undefined) block.keys.splice(i, 1)
    block.size = n - 1
    this.#size--
    for (let k = b + 1; k < starts.length; k++) starts[k]!--
    mendBlocks(this.#blocks, starts, b, this.#blockMax)
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
    out.#blocks = copyBlocks(this.#blocks)
    out.#starts = this.#starts.slice()
    out.#nulls = this.#nulls
    out.#keeping = this.#keeping
    return out
  }

  // Takes sorted entries as the index's content: blocks of half the largest size, each a view
  // of the arrays given (copied on its first write), so that taking them costs no copy.
  #take({ mode, size, rows, numbers, keys, nulls }: SortedEntries): void {
    const { blocks, starts } = blocksOf(size, this.#blockMax >>> 1, rows, numbers, keys)
    this.#mode = mode
    this.#size = size
    this.#blocks = blocks
    this.#starts = starts
    this.#nulls = nulls
    this.#hint = 0
  }

  /** Replaces the content with `pairs`, sorted once (bulk loads and rebuilds). */
  reset(pairs: Iterable<readonly [SortKey, number]>): void {
    this.resetFrom(...unzipPairs(pairs))
  }

  /**
   * Replaces the content with `keys[i]` of `rows[i]`, sorted once; ties keep their order in the
   * input, so rows given in row-id order tie in row-id order. Takes ownership of neither array.
   *
   * The usual columns sort mostly without a comparison callback (see radix-sort.ts,
   * parallel/sort-numbers.ts): numbers by a stable radix sort, text by a radix sort on a prefix
   * and comparisons within equal prefixes only.
   * Columns of mixed kinds (object attributes) take the general comparison. On 200,000 rows of
   * names this is about 40 ms instead of 450 ms.
   *
   * With `keep`, text keys are held (not read from the rows) until `settle`.
   */
  resetFrom(keys: readonly SortKey[], rows: ArrayLike<number>, keep = false): void {
    this.#keeping = keep
    this.#take(sortEntries(keys, rows, this.folds, this.#compare))
    this.#toReading()
  }

  /**
   * Replaces the content with `sorted`, already in the index's order (a sliced build's sort);
   * with `keep`, text keys are held until `settle`.
   */
  adopt(sorted: SortedContent, keep = false): void {
    this.#keeping = keep
    // Sorted texts are read from the rows: they must agree with them now (nothing to keep).
    if (sorted.kind === 'texts' && (this.#read === undefined || keep))
      throw new TypeError('SortedIndex.adopt: sorted texts need a key reader, and no keep')
    this.#take(entriesOf(sorted))
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
    const end = this.#search(
      (b, s, i) => s + i < start || beforePrefixEnd(this.#keyIn(b, i), prefix, lazy),
    )
    return [start, end]
  }

  /**
   * The keys and row ids in order, the keys as held (texts of a folding index as lazy keys), in
   * new arrays (nulls as null): readers of a few keys should use `keyAt`.
   */
  content(): [readonly SortKey[], Int32Array] {
    return contentOf(this.#blocks, this.#size, (p) => this.#keyAt(p))
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
    const b = this.#locate(start)
    copyRows(this.#blocks, b, start - this.#starts[b]!, out, at, end - start)
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
