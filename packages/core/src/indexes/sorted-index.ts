/**
 * @module A sorted index: (comparison key, row id) pairs in order, in two parallel arrays. Serves
 * ranges (`<`, `>=` …), `begin` (a prefix range), equality, and `$orderby` walks without sorting.
 * Nulls sort first; ties are in row-id order. Inserts and deletes are a binary search plus one
 * move of the tail (a memmove); an update moves its entry once, shifting only the entries between
 * its old and new positions (`move`); a bulk load builds in one go instead.
 *
 * Row ids live in an Int32Array (4 bytes a row instead of 8 for a JS array of small integers).
 * Keys have two representations:
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
 * The typed arrays have room for more entries than `size` and double when full (V8 grows a JS
 * array's store by half as much again on its own).
 */
import { compareKeys, type SortKey } from '../values/compare.js'
import { compareLazy, foldLazy, startsWithLazy } from '../values/lazy-fold.js'
import type { KeyReader } from './hash-index.js'
import { sortNumbersStable, sortStringsStable } from './radix-sort.js'
import { compareLazyKeys, type SortedContent } from './sliced-sort.js'

/** compareKeys on two numbers (the same order, NaN first, without the kind checks). */
const compareNumbers = (a: number, b: number): number =>
  a === b ? 0 : a < b ? -1 : a > b ? 1 : Number.isNaN(a) ? -1 : 1

/** Numeric keys: 32-bit integers while they all are, doubles otherwise. */
type NumericKeys = Int32Array | Float64Array

/** Whether an Int32Array holds `n` as it is (-0 would come back as 0). */
const isInt32 = (n: number): boolean => (n | 0) === n && (n !== 0 || 1 / n > 0)

/** The one place generic key arrays are made: none of them ever holds only numbers. */
const genericKeys = (length: number): SortKey[] => new Array<SortKey>(length)

export class SortedIndex {
  readonly attribute: string
  readonly folds: boolean
  #size = 0
  #rows = new Int32Array(16)
  // Numeric representation (undefined when generic): keys at positions >= #nulls.
  #numbers: NumericKeys | undefined = new Int32Array(16)
  #nulls = 0
  // Generic representation (undefined when numeric or read), #size long.
  #keys: SortKey[] | undefined = undefined
  // Read representation: each key read from its row (see the module's comment).
  #reading = false
  readonly #read: KeyReader | undefined
  // Whether keys given to resetFrom/adopt are kept until `settle` rather than read.
  #keeping = false
  // compareKeys, or compareLazyKeys when the index folds (its texts are lazy keys).
  readonly #compare: (a: SortKey, b: SortKey) => number

  /**
   * With `folds`, text keys are lazy keys (lazy-fold.ts); queries may give them folded. With
   * `read`, the key of each row as the index would hold it, text keys are read from the rows
   * instead of held (see the module's comment).
   */
  constructor(attribute: string, folds: boolean, read?: KeyReader) {
    this.attribute = attribute
    this.folds = folds
    this.#compare = folds ? compareLazyKeys : compareKeys
    this.#read = read
  }

  /** Whether the keys are read from the rows rather than held. */
  get reading(): boolean {
    return this.#reading
  }

  // Generic keys become read ones when the index has a reader and keeps no keys.
  #toReading(): void {
    if (this.#read === undefined || this.#keeping || this.#keys === undefined) return
    this.#keys = undefined
    this.#reading = true
  }

  /** Ends `keep`: the index's keys and the rows agree again (a build applied its changes). */
  settle(): void {
    this.#keeping = false
    this.#toReading()
  }

  get size(): number {
    return this.#size
  }

  // First position whose (key, row) is >= (key, row); row -1 finds the first of a key. `held`:
  // the key the index holds for row `rowId`, not read from it (a write may have changed it).
  #lowerBound(key: SortKey, rowId: number, held?: SortKey): number {
    const rows = this.#rows
    let lo = 0
    let hi = this.#size
    const numbers = this.#numbers
    if (numbers !== undefined) {
      const nulls = this.#nulls
      if (key === null) hi = nulls
      else if (typeof key !== 'number') return typeof key === 'boolean' ? nulls : hi
      else lo = nulls
      // Nulls: row ids in order; numbers: by key, then row id.
      if (key === null)
        while (lo < hi) {
          const mid = (lo + hi) >>> 1
          if (rows[mid]! < rowId) lo = mid + 1
          else hi = mid
        }
      else
        while (lo < hi) {
          const mid = (lo + hi) >>> 1
          if ((compareNumbers(numbers[mid]!, key) || rows[mid]! - rowId) < 0) lo = mid + 1
          else hi = mid
        }
      return lo
    }
    const compare = this.#compare
    const keys = this.#keys
    if (keys === undefined) {
      const read = this.#read!
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        const row = rows[mid]!
        const c = compare(row === rowId ? held! : read(row), key) || row - rowId
        if (c < 0) lo = mid + 1
        else hi = mid
      }
      return lo
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const c = compare(keys[mid]!, key) || rows[mid]! - rowId
      if (c < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** First position with a key > `key`. */
  #upperBound(key: SortKey): number {
    let lo = 0
    let hi = this.#size
    const numbers = this.#numbers
    if (numbers !== undefined) {
      const nulls = this.#nulls
      if (key === null) return nulls
      if (typeof key !== 'number') return typeof key === 'boolean' ? nulls : hi
      lo = nulls
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (compareNumbers(numbers[mid]!, key) <= 0) lo = mid + 1
        else hi = mid
      }
      return lo
    }
    const compare = this.#compare
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compare(this.#keyAt(mid), key) <= 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The position of the entry (key, rowId), or -1. Read keys: the entry of rowId, held as `key`. */
  #find(key: SortKey, rowId: number): number {
    const at = this.#lowerBound(key, rowId, key)
    return at < this.#size &&
      this.#rows[at] === rowId &&
      (this.#reading || this.#compare(this.#keyAt(at), key) === 0)
      ? at
      : -1
  }

  // Room for one more entry: the arrays double when full.
  #grow(): void {
    const n = this.#size
    if (n < this.#rows.length) return
    const capacity = Math.max(16, n * 2)
    const rows = new Int32Array(capacity)
    rows.set(this.#rows.subarray(0, n))
    this.#rows = rows
    const old = this.#numbers
    if (old !== undefined) {
      const numbers =
        old instanceof Int32Array ? new Int32Array(capacity) : new Float64Array(capacity)
      numbers.set(old.subarray(0, n))
      this.#numbers = numbers
    }
  }

  // Before storing `key`: a key neither a number nor null turns the keys generic, for good; a
  // number that is not a 32-bit integer turns integer keys into doubles, for good.
  #accept(key: SortKey): void {
    const numbers = this.#numbers
    if (numbers === undefined || key === null) return
    if (typeof key === 'number') {
      if (numbers instanceof Int32Array && !isInt32(key)) this.#numbers = Float64Array.from(numbers)
      return
    }
    const n = this.#size
    const keys = genericKeys(n)
    for (let i = 0; i < n; i++) keys[i] = this.#keyAt(i)
    this.#keys = keys
    this.#numbers = undefined
    this.#nulls = 0
    this.#toReading()
  }

  // Shifts positions [from, to) by `by` (+1 or -1) in both arrays, within the generic one's length.
  #shift(from: number, to: number, by: 1 | -1): void {
    if (from >= to) return
    this.#rows.copyWithin(from + by, from, to)
    const numbers = this.#numbers
    if (numbers !== undefined) {
      numbers.copyWithin(from + by, from, to)
      return
    }
    // A loop (used by move only): Array.prototype.copyWithin is ≈25× slower on a JS array
    // (measured at 1M); two splices would move both tails.
    const keys = this.#keys
    if (keys === undefined) return
    if (by > 0) for (let i = to; i > from; i--) keys[i] = keys[i - 1]!
    else for (let i = from - 1; i < to - 1; i++) keys[i] = keys[i + 1]!
  }

  // Writes the entry at `at`; with numbers, a null entry must be at a position < #nulls.
  #set(at: number, key: SortKey, rowId: number): void {
    this.#rows[at] = rowId
    if (this.#numbers !== undefined) {
      if (key !== null) this.#numbers[at] = key as number
    } else if (this.#keys !== undefined) this.#keys[at] = key
  }

  add(key: SortKey, rowId: number): void {
    this.#accept(key)
    this.#grow()
    const n = this.#size
    // Appending in order (a load in key order, autosequence values) costs no search and no move.
    const at =
      n === 0 || (this.#compare(this.#keyAt(n - 1), key) || this.#rows[n - 1]! - rowId) < 0
        ? n
        : this.#lowerBound(key, rowId, key)
    if (this.#keys !== undefined) {
      // A JS array's splice moves the tail with a memmove; the loop of #shift would not.
      this.#keys.splice(at, 0, key)
      this.#rows.copyWithin(at + 1, at, n)
      this.#rows[at] = rowId
    } else {
      this.#shift(at, n, 1)
      if (key === null && this.#numbers !== undefined) this.#nulls++
      this.#set(at, key, rowId)
    }
    this.#size = n + 1
  }

  remove(key: SortKey, rowId: number): void {
    const at = this.#find(key, rowId)
    if (at < 0) return
    if (this.#keys !== undefined) this.#keys.splice(at, 1)
    else if (key === null && this.#numbers !== undefined) this.#nulls--
    this.#rows.copyWithin(at, at + 1, this.#size)
    this.#numbers?.copyWithin(at, at + 1, this.#size)
    this.#size--
  }

  /**
   * Moves the entry of `rowId` from `oldKey` to `newKey`: the same result as `remove(oldKey,
   * rowId)` then `add(newKey, rowId)`, but only the entries between the old and the new position
   * shift (none when the position does not change). Adds the entry if it was not there.
   */
  move(oldKey: SortKey, newKey: SortKey, rowId: number): void {
    this.#accept(newKey)
    const from = this.#find(oldKey, rowId)
    if (from < 0) return this.add(newKey, rowId)
    // The first position >= the new entry, counting the old one (one less if the old is before).
    let to = this.#lowerBound(newKey, rowId, oldKey)
    if (to > from) {
      to--
      this.#shift(from + 1, to + 1, -1)
    } else this.#shift(to, from, 1)
    if (this.#numbers !== undefined) {
      if (oldKey === null) this.#nulls--
      if (newKey === null) this.#nulls++
    }
    this.#set(to, newKey, rowId)
  }

  /** An independent copy (store snapshots): typed arrays copied whole, which is a memcpy. */
  copy(): SortedIndex {
    const out = new SortedIndex(this.attribute, this.folds, this.#read)
    out.#size = this.#size
    out.#rows = this.#rows.slice()
    out.#numbers = this.#numbers?.slice()
    out.#nulls = this.#nulls
    out.#keys = this.#keys?.slice()
    out.#reading = this.#reading
    out.#keeping = this.#keeping
    return out
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
   * The usual columns sort mostly without a comparison callback (see radix-sort.ts): numbers by a
   * stable radix sort, text by a radix sort on a prefix and comparisons within equal prefixes only.
   * Columns of mixed kinds (object attributes) take the general comparison. On 200,000 rows of
   * names this is about 40 ms instead of 450 ms.
   *
   * With `keep`, text keys are held (not read from the rows) until `settle`.
   */
  resetFrom(keys: readonly SortKey[], rows: ArrayLike<number>, keep = false): void {
    this.#keeping = keep
    this.#reading = false
    this.#sortFrom(keys, rows)
    this.#toReading()
  }

  #sortFrom(keys: readonly SortKey[], rows: ArrayLike<number>): void {
    const n = keys.length
    let nulls = 0
    let numbers = 0
    let strings = 0
    for (let i = 0; i < n; i++) {
      const k = keys[i]
      if (k === null) nulls++
      else if (typeof k === 'number') numbers++
      else if (typeof k === 'string') strings++
    }
    const outRows = new Int32Array(Math.max(16, n))
    // Nulls first, in input order.
    let at = 0
    if (nulls > 0) for (let i = 0; i < n; i++) if (keys[i] === null) outRows[at++] = rows[i]!
    this.#rows = outRows
    this.#size = n
    if (numbers + nulls === n) {
      const values = new Float64Array(numbers)
      const ids = new Int32Array(numbers)
      let j = 0
      for (let i = 0; i < n; i++) {
        const k = keys[i]
        if (k !== null) {
          values[j] = k as number
          ids[j++] = rows[i]!
        }
      }
      sortNumbersStable(values, ids)
      let ints = true
      for (let i = 0; i < values.length && ints; i++) ints = isInt32(values[i]!)
      const outNumbers = ints ? new Int32Array(outRows.length) : new Float64Array(outRows.length)
      outNumbers.set(values, at)
      outRows.set(ids, at)
      this.#numbers = outNumbers
      this.#nulls = nulls
      this.#keys = undefined
      return
    }
    const outKeys = genericKeys(n)
    for (let i = 0; i < at; i++) outKeys[i] = null
    this.#keys = outKeys
    this.#numbers = undefined
    this.#nulls = 0
    const lazy = this.folds
    if (strings + nulls === n && countingSort(keys, rows, at, outKeys, outRows, lazy)) {
      // Done: few distinct texts (dates, statuses, cities) are counted and placed.
    } else if (strings + nulls === n) {
      const texts: string[] = []
      const ids: number[] = []
      for (let i = 0; i < n; i++) {
        const k = keys[i]
        if (k !== null) {
          texts.push(k as string)
          ids.push(rows[i]!)
        }
      }
      const order = sortStringsStable(texts, lazy)
      for (let i = 0; i < order.length; i++) {
        outKeys[at] = texts[order[i]!]!
        outRows[at++] = ids[order[i]!]!
      }
    } else {
      const compare = this.#compare
      const order = Array.from({ length: n }, (_, i) => i).sort(
        (a, b) => compare(keys[a]!, keys[b]!) || a - b,
      )
      at = 0
      for (const i of order) {
        outKeys[at] = keys[i]!
        outRows[at++] = rows[i]!
      }
    }
  }

  /**
   * Replaces the content with `sorted`, already in the index's order (a sliced build's sort);
   * with `keep`, text keys are held until `settle`.
   */
  adopt(sorted: SortedContent, keep = false): void {
    this.#keeping = keep
    this.#reading = false
    this.#rows = sorted.rows
    this.#size = sorted.size
    if (sorted.kind === 'numbers') {
      this.#numbers = sorted.numbers
      this.#nulls = sorted.nulls
      this.#keys = undefined
    } else if (sorted.kind === 'texts') {
      // The keys are read from the rows: they must agree with them now (nothing to keep).
      if (this.#read === undefined || keep)
        throw new TypeError('SortedIndex.adopt: sorted texts need a key reader, and no keep')
      this.#keys = undefined
      this.#numbers = undefined
      this.#nulls = 0
      this.#reading = true
    } else {
      this.#keys = sorted.keys
      this.#numbers = undefined
      this.#nulls = 0
      this.#toReading()
    }
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
    if (this.#numbers !== undefined && kind === 'number') {
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
    if (this.#numbers !== undefined) return [start, start]
    const lazy = this.folds
    let lo = start
    let hi = this.#size
    // Upper end: the first key that no longer starts with the prefix.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const k = this.#keyAt(mid)
      if (
        typeof k === 'string' &&
        (lazy
          ? startsWithLazy(k, prefix) || compareLazy(k, prefix) < 0
          : k.startsWith(prefix) || k < prefix)
      )
        lo = mid + 1
      else hi = mid
    }
    return [start, lo]
  }

  /**
   * The keys and row ids in order, the keys as held (texts of a folding index as lazy keys). The
   * row ids are a view of the index's own array, and so are the keys when they are generic: do not
   * modify. Numeric and read keys are copied into a new array (nulls as null): readers of a few
   * keys should use `keyAt`.
   */
  content(): [readonly SortKey[], Int32Array] {
    const n = this.#size
    const rows = this.#rows.subarray(0, n)
    if (this.#keys !== undefined) return [this.#keys, rows]
    const keys = new Array<SortKey>(n)
    for (let i = 0; i < n; i++) keys[i] = this.#keyAt(i)
    return [keys, rows]
  }

  /** Row ids at positions [start, end). */
  rows(start: number, end: number): number[] {
    const out = new Array<number>(Math.max(0, end - start))
    for (let p = start; p < end; p++) out[p - start] = this.#rows[p]!
    return out
  }

  rowAt(position: number): number {
    return this.#rows[position]!
  }

  /** The key at `position`, texts folded (a lazy key with a capital is lowercased, a new string). */
  keyAt(position: number): SortKey {
    const k = this.#keyAt(position)
    return typeof k === 'string' && this.folds ? foldLazy(k) : k
  }

  // The key at `position` as held.
  #keyAt(position: number): SortKey {
    const numbers = this.#numbers
    if (numbers !== undefined) return position < this.#nulls ? null : numbers[position]!
    const keys = this.#keys
    return keys !== undefined ? keys[position]! : this.#read!(this.#rows[position]!)
  }
}

/**
 * Sorts the text keys of `keys` (nulls skipped, already placed) into `outKeys`/`outRows` from
 * position `at` by counting, when they hold few distinct values (at most one in 16): the distinct
 * values are sorted, each gets its range, and every row is placed in one more pass, in input
 * order within its value. Returns false, having written nothing, when there are more. With
 * `lazy`, the keys are lazy keys, and those of one fold (`Paris`, `PARIS`) share one range.
 */
function countingSort(
  keys: readonly SortKey[],
  rows: ArrayLike<number>,
  at: number,
  outKeys: SortKey[],
  outRows: Int32Array,
  lazy: boolean,
): boolean {
  const limit = Math.max(64, keys.length >>> 4)
  const counts = new Map<string, number>()
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]
    if (k === null) continue
    const c = counts.get(k as string)
    if (c === undefined) {
      if (counts.size >= limit) return false
      counts.set(k as string, 1)
    } else counts.set(k as string, c + 1)
  }
  // Code-unit order, which is how folded keys compare; each run's first position, and each
  // value's run.
  const starts: number[] = []
  let next = at
  let previous: string | undefined
  for (const k of [...counts.keys()].sort(lazy ? compareLazy : undefined)) {
    if (previous === undefined || !lazy || compareLazy(previous, k) !== 0) starts.push(next)
    previous = k
    next += counts.get(k)!
    counts.set(k, starts.length - 1)
  }
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]
    if (k === null) continue
    const p = starts[counts.get(k as string)!]!++
    outKeys[p] = k!
    outRows[p] = rows[i]!
  }
  return true
}
