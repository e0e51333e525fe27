/**
 * @module One index's build in slices (`IndexSet.step`): every live row read in row-id order (the
 * hash index filled as it goes, the sorted index's keys gathered), those keys sorted (here in
 * slices, or on a worker pool), then the changes made meanwhile applied to the rows already read.
 * The index set's UnbuiltIndexes keeps which builds are going on; these functions run one, given
 * what it reads.
 */
import type { SortKey } from '../values/compare.js'
import type { StorageAttributeDef } from '../schema/definitions.js'
import { HashIndex } from './hash-index.js'
import { TextKeys, type BuildKeys } from './build-keys.js'
import { SlicedSort } from './sliced-sort.js'
import { PoolSort } from './pool-sort.js'
import { PARALLEL_MIN_ROWS, type ParallelPool } from '../parallel/parallel-pool.js'
import { grownLike, isShared, sharedInt32, sharedFloat64 } from '../parallel/shared-arrays.js'
import {
  type IndexSource,
  type More,
  type BuildSlices,
  type AttributeIndexes,
  foldsOf,
} from './index-entry.js'

/**
 * One index's build in slices (`IndexSet.step`): read every live row in row-id order (the hash
 * index filled as it goes, the sorted index's keys gathered), sort those keys (sliced-sort.ts),
 * then apply the changes made meanwhile to the rows already read. A write to a row below `cursor`
 * is the build's to follow (the hash at once, the sorted index through `delta`); a row at or above
 * it is read later as it is then.
 */
export interface Build {
  readonly entry: AttributeIndexes
  // Row ids below it have been read; Infinity once every row has.
  cursor: number
  // The keys read (`count` of them), made as long as the rows at first: growing by pushes copied
  // them again and again. Outside the JS heap for numbers and texts (build-keys.ts).
  keys: BuildKeys
  count: number
  // Numeric keys read: how many are null, and whether all others are 32-bit integers.
  nulls: number
  ints: boolean
  // Sorted texts' keys made for the index to keep while writes made during the sort are applied.
  decoded: SortKey[] | undefined
  decodeAt: number
  // The row id of each key (a typed array: no garbage to scan, grown by half when full). Numeric
  // keys and their rows are in shared memory when a worker pool is to sort them (pool-sort.ts).
  rows: Int32Array
  sort: SlicedSort | PoolSort | undefined
  // The pool that sorts numeric keys of this many rows or more, if any (see `step`).
  parallel: ParallelPool | undefined
  // Whether the first rows were looked at for how many distinct keys to expect (see readRows).
  sized: boolean
  // How many distinct keys the hash index is to have room for before the next rows are read.
  room: number
  // Changes to rows already read, for the sorted index, in order: key, row id, and add or remove.
  readonly delta: Change[]
  applied: number
  // Changes to rows already read that came while the hash index was moving to a larger table
  // (HashIndex.prepare): applied once it is there, before the next rows are read.
  hashDelta: Change[]
}

interface Change {
  readonly key: SortKey
  readonly rowId: number
  readonly add: boolean
}

/** What a build reads through its index set: the rows, the sizes of its slices, each value's key. */
export interface BuildContext {
  readonly source: IndexSource
  /** The set's `buildSlices`, read at each use (a test may change them between two builds). */
  slices(): BuildSlices
  /** The key of value `v` in attribute `name`'s indexes (texts interned: IndexSet's #key). */
  key(v: unknown, name: string, folds: boolean): SortKey
}

export function beginBuild(
  ctx: BuildContext,
  entry: AttributeIndexes,
  parallel?: ParallelPool,
): Build {
  entry.hash?.clear()
  const n = ctx.source.nextRowId
  // Keys the pool may sort are read into shared memory (a worker reads them without a copy).
  const pool =
    parallel !== undefined &&
    NUMBER_KEYS.has(entry.attribute.type) &&
    n >= (parallel.minRows ?? PARALLEL_MIN_ROWS)
      ? parallel
      : undefined
  const build: Build = {
    entry,
    cursor: 0,
    keys: !entry.sorted
      ? []
      : pool !== undefined
        ? sharedFloat64(Math.max(16, n))
        : buildKeys(entry.attribute, n),
    count: 0,
    nulls: 0,
    ints: true,
    decoded: undefined,
    decodeAt: 0,
    rows: !entry.sorted
      ? new Int32Array(0)
      : pool
        ? sharedInt32(Math.max(16, n))
        : new Int32Array(Math.max(16, n)),
    sort: undefined,
    parallel: pool,
    sized: entry.attribute.unique === true,
    // A unique column has a key a row: room for them all, made before the first row is read.
    room: entry.attribute.unique === true ? ctx.source.nextRowId : 0,
    delta: [],
    applied: 0,
    hashDelta: [],
  }
  return build
}

// Runs `build` while `more()` says so; true once its entry is built (then live: the set then
// forgets the build).
export function advanceBuild(ctx: BuildContext, build: Build, more: More): boolean {
  const { entry } = build
  if (build.cursor !== Infinity && (!readRows(ctx, build, more) || !more())) return false
  const sort = build.sort
  if (sort !== undefined) {
    if (!sort.step(more)) return false
    const result = sort.result()
    if (result.kind === 'texts' && build.delta.length === 0) {
      // No write came since the rows were read: the index reads its keys from the rows at once,
      // and is done in this same slice (no write can come between).
      entry.sorted!.adopt(result)
    } else {
      let content = result
      if (result.kind === 'texts') {
        // Its keys are needed (below): made from the sorted texts, a slice at a time.
        const keys = (build.decoded ??= new Array<SortKey>(result.size))
        const { texts, order, nulls } = result
        while (build.decodeAt < result.size) {
          const end = Math.min(result.size, build.decodeAt + ctx.slices().read)
          for (let i = build.decodeAt; i < end; i++)
            keys[i] = i < nulls ? null : texts.key(order[i]!)
          build.decodeAt = end
          if (end < result.size && !more()) return false
        }
        content = { kind: 'generic', size: result.size, rows: result.rows, keys }
      }
      // Its keys are kept while changes made meanwhile remain to apply (their rows have moved on).
      entry.sorted!.adopt(content, true)
    }
    build.sort = undefined
    build.keys = []
    build.decoded = undefined
    build.rows = new Int32Array(0)
    if (build.delta.length > 0 && !more()) return false
  }
  const { delta } = build
  while (build.applied < delta.length) {
    const end = Math.min(delta.length, build.applied + ctx.slices().delta)
    for (let i = build.applied; i < end; i++) {
      const { key, rowId, add } = delta[i]!
      if (add) entry.sorted!.add(key, rowId)
      else entry.sorted!.remove(key, rowId)
    }
    build.applied = end
    if (build.applied < delta.length && !more()) return false
  }
  entry.sorted?.settle()
  return true
}

// The first phase of `build`: reads the rows from its cursor on, while `more()` says so; true
// once every row is read (the cursor then Infinity, the sort begun).
export function readRows(ctx: BuildContext, build: Build, more: More): boolean {
  const { entry } = build
  const source = ctx.source
  const name = entry.attribute.name
  const folds = foldsOf(entry.attribute)
  const read = source.reader(name)
  const { hash, sorted } = entry
  for (;;) {
    const end = Math.min(source.nextRowId, build.cursor + ctx.slices().read)
    // Room for a new key a row of this batch, made in pieces: no `add` below grows the table.
    if (hash !== undefined) {
      const room = Math.max(build.room, hash.distinct + (end - build.cursor))
      if (!hash.prepare(room, more, ctx.slices().grow)) return false
      applyHashDelta(build, hash)
    }
    for (let rowId = build.cursor; rowId < end; rowId++) {
      if (!source.has(rowId)) continue
      const key = ctx.key(read(rowId), name, folds)
      hash?.add(key, rowId)
      if (sorted) {
        const at = build.count++
        if (at === build.rows.length) build.rows = grownLike(build.rows, at + (at >> 1) + 16)
        setKey(build, at, key)
        build.rows[at] = rowId
      }
    }
    // Mostly distinct keys in the first rows (codes, names): room for a key a row, made in
    // pieces before the next rows are read.
    if (!build.sized && hash !== undefined) {
      build.sized = true
      if (hash.distinct * 2 > end) build.room = source.nextRowId
    }
    build.cursor = end
    if (end >= source.nextRowId) break
    if (!more()) return false
  }
  build.cursor = Infinity
  if (sorted) build.sort = sorter(ctx, build, folds)
  return true
}

// The sort of `build`'s keys, once read: on its pool when it has one and they are many numbers
// in shared memory, else in slices here.
function sorter(ctx: BuildContext, build: Build, folds: boolean): SlicedSort | PoolSort {
  const keys = readKeys(build)
  const rows = build.rows.subarray(0, build.count)
  const pool = build.parallel
  if (
    pool !== undefined &&
    keys instanceof Float64Array &&
    isShared(keys) &&
    isShared(rows) &&
    build.count >= (pool.minRows ?? PARALLEL_MIN_ROWS)
  )
    return new PoolSort(keys, rows, build, pool)
  const { run, read } = ctx.slices()
  return new SlicedSort(keys, rows as Int32Array<ArrayBuffer>, folds, run, read, build)
}

// A write to row `rowId` of an entry being built: the build follows it if it has read the row.
export function followBuild(
  ctx: BuildContext,
  build: Build,
  value: unknown,
  rowId: number,
  add: boolean,
): void {
  if (rowId >= build.cursor) return
  const { entry } = build
  const key = ctx.key(value, entry.attribute.name, foldsOf(entry.attribute))
  // Writing to a hash index that is moving to a larger table would finish the move at once.
  if (entry.hash?.growing) build.hashDelta.push({ key, rowId, add })
  else if (add) entry.hash?.add(key, rowId)
  else entry.hash?.remove(key, rowId)
  if (entry.sorted) build.delta.push({ key, rowId, add })
}

function applyHashDelta(build: Build, hash: HashIndex): void {
  if (build.hashDelta.length === 0) return
  for (const { key, rowId, add } of build.hashDelta)
    if (add) hash.add(key, rowId)
    else hash.remove(key, rowId)
  build.hashDelta = []
}

// The attribute types whose keys are numbers or null.
const NUMBER_KEYS: ReadonlySet<string> = new Set(['byte', 'word', 'long', 'long64', 'number'])

// A build's keys for `attribute`, with room for `n` (see build-keys.ts).
function buildKeys(attribute: StorageAttributeDef, n: number): BuildKeys {
  if (attribute.type === 'string') return new TextKeys(n)
  if (NUMBER_KEYS.has(attribute.type)) return new Float64Array(Math.max(16, n))
  return new Array<SortKey>(n)
}

// Whether `build` waits for its pool's sort (nothing to do for it here meanwhile).
export const onPool = (build: Build): boolean =>
  build.sort instanceof PoolSort && build.sort.pending

// Puts key `key` at position `at` of the build's keys (positions come in order), growing them.
function setKey(build: Build, at: number, key: SortKey): void {
  const keys = build.keys
  if (keys instanceof TextKeys) {
    if (key !== null && typeof key !== 'string')
      throw new TypeError(`index build: ${build.entry.attribute.name} has a key that is not a text`)
    keys.add(key)
  } else if (keys instanceof Float64Array) {
    if (key === null) build.nulls++
    else if (typeof key !== 'number')
      throw new TypeError(
        `index build: ${build.entry.attribute.name} has a key that is not a number`,
      )
    else if (build.ints && ((key | 0) !== key || (key === 0 && 1 / key < 0))) build.ints = false
    if (at === keys.length) {
      const grown = grownLike(keys, at + (at >> 1) + 16)
      build.keys = grown
      grown[at] = key === null ? NaN : key
    } else keys[at] = key === null ? NaN : key
  } else keys[at] = key
}

// The keys a build has read, exactly `count` of them.
export function readKeys(build: Build): BuildKeys {
  const keys = build.keys
  if (keys instanceof Float64Array) return keys.subarray(0, build.count)
  if (Array.isArray(keys)) keys.length = build.count
  return keys
}
