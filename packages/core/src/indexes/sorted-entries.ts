/**
 * @module The sort of a sorted index's whole content at once (SortedIndex.resetFrom: bulk loads and
 * rebuilds), mostly without a comparison callback: numbers by a stable radix sort, texts by
 * counting when they hold few distinct values, else by a radix sort on a prefix; keys of mixed
 * kinds by the index's comparison. Ties keep their input order. Also the key shapes the index
 * and this sort share, and the other contents an index takes whole in that shape.
 */
import type { SortKey } from '../values/compare.js'
import { compareLazy, startsWithLazy } from '../values/lazy-fold.js'
import { sortStringsStable } from './radix-sort.js'
import { sortNumbersStable } from '../parallel/sort-numbers.js'
import type { SortedContent } from './sliced-sort.js'

/** Numeric keys: 32-bit integers while they all are, doubles otherwise. */
export type NumericKeys = Int32Array | Float64Array

/** Whether an Int32Array holds `n` as it is (-0 would come back as 0). */
export const isInt32 = (n: number): boolean => (n | 0) === n && (n !== 0 || 1 / n > 0)

/** The one place generic key arrays are made: none of them ever holds only numbers. */
export const genericKeys = (length: number): SortKey[] => new Array<SortKey>(length)

/** How the index holds its keys (see sorted-index.ts's module comment). */
export type Mode = 'int32' | 'float64' | 'generic' | 'read'

/** Sorted entries, as SortedIndex takes them for its content. */
export interface SortedEntries {
  readonly mode: Mode
  readonly size: number
  readonly rows: Int32Array
  readonly numbers: NumericKeys | undefined
  readonly keys: SortKey[] | undefined
  readonly nulls: number
}

/**
 * `keys[i]` of `rows[i]` sorted: nulls first, then numbers (int32 while all are) or other keys.
 * `folds`: texts are lazy keys; `compare`: the index's order, for keys of mixed kinds.
 */
export function sortEntries(
  keys: readonly SortKey[],
  rows: ArrayLike<number>,
  folds: boolean,
  compare: (a: SortKey, b: SortKey) => number,
): SortedEntries {
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
  const outRows = new Int32Array(n)
  // Nulls first, in input order.
  let at = 0
  if (nulls > 0) for (let i = 0; i < n; i++) if (keys[i] === null) outRows[at++] = rows[i]!
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
    const outNumbers = ints ? new Int32Array(n) : new Float64Array(n)
    outNumbers.set(values, at)
    outRows.set(ids, at)
    return {
      mode: ints ? 'int32' : 'float64',
      size: n,
      rows: outRows,
      numbers: outNumbers,
      keys: undefined,
      nulls,
    }
  }
  const outKeys = genericKeys(n)
  for (let i = 0; i < at; i++) outKeys[i] = null
  const lazy = folds
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
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => compare(keys[a]!, keys[b]!) || a - b,
    )
    at = 0
    for (const i of order) {
      outKeys[at] = keys[i]!
      outRows[at++] = rows[i]!
    }
  }
  return { mode: 'generic', size: n, rows: outRows, numbers: undefined, keys: outKeys, nulls: 0 }
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

/**
 * The entries of `sorted`, a sliced build's sort (already in the index's order), as SortedIndex
 * takes them: numbers as numeric keys, texts read from the rows, other keys as they are.
 */
export function entriesOf(sorted: SortedContent): SortedEntries {
  const { size, rows } = sorted
  if (sorted.kind === 'numbers') {
    const { numbers, nulls } = sorted
    const mode = numbers instanceof Int32Array ? 'int32' : 'float64'
    return { mode, size, rows, numbers, keys: undefined, nulls }
  }
  const none = { size, rows, numbers: undefined, nulls: 0 }
  if (sorted.kind === 'texts') return { ...none, mode: 'read', keys: undefined }
  return { ...none, mode: 'generic', keys: sorted.keys }
}

/** `pairs` (key, row id) as the two arrays SortedIndex.resetFrom takes. */
export function unzipPairs(pairs: Iterable<readonly [SortKey, number]>): [SortKey[], number[]] {
  const keys: SortKey[] = []
  const rows: number[] = []
  for (const [k, r] of pairs) {
    keys.push(k)
    rows.push(r)
  }
  return [keys, rows]
}

/**
 * Whether the held key `k` comes before the end of the keys beginning with `prefix` (a `begin`
 * query): it begins with it or sorts before it. `lazy`: `k` is a lazy key and `prefix` folded.
 */
export const beforePrefixEnd = (k: SortKey, prefix: string, lazy: boolean): boolean =>
  typeof k === 'string' &&
  (lazy
    ? startsWithLazy(k, prefix) || compareLazy(k, prefix) < 0
    : k.startsWith(prefix) || k < prefix)
