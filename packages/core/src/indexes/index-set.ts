/**
 * @module The indexes of one table, kept in step with every change by the table's mutators.
 *
 * Which attributes get what:
 * - `indexed: true`: a sorted index (equality, IN, ranges, begin, order by), plus a hash index
 *   (equality, IN in one step) on text; or one kind only with `indexKind: 'hash' | 'sorted'`;
 * - `unique: true`: a hash index (it also enforces the constraint);
 * - the primary key: a sorted index (exact key equality uses the table's own key map; a string
 *   key also gets a hash index, for case-insensitive equality);
 * - relation foreign-key slots: a hash index, so joins and to-many navigation never scan.
 */
import { sortKey, type SortKey } from '../values/compare.js'
import { FoldInterner } from '../values/fold-intern.js'
import { isAscii } from '../values/lazy-fold.js'
import { fieldsDiffer, type FieldsDiffer } from '../values/compiled-fields.js'
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import { fail } from '../errors/datastore-error.js'
import { GROW_PIECE, HashIndex } from './hash-index.js'
import type { KeyComparer, KeyReader } from './hash-key.js'
import { keyAt, TextKeys, type BuildKeys } from './build-keys.js'
import { CHUNK, SlicedSort } from './sliced-sort.js'
import { SortedIndex } from './sorted-index.js'
import { PoolSort } from './pool-sort.js'
import { PARALLEL_MIN_ROWS, type ParallelPool } from '../parallel/parallel-pool.js'
import { grownLike, isShared, sharedInt32, sharedFloat64 } from '../parallel/shared-arrays.js'

/**
 * What an index reads of a stored record: its row id and its values by attribute name. The index
 * layer owns this shape; the store's records are of it.
 */
export interface IndexedRecord {
  readonly rowId: number
  readonly values: Readonly<Record<string, unknown>>
}

/**
 * Every live row, for a build: its row ids and a reader of each attribute by row id. The table is
 * one; reading through it makes no record for a row kept in columns.
 */
export interface IndexSource {
  liveRowIds(): readonly number[]
  reader(name: string): (rowId: number) => unknown
  /** Compares a row's text of `name` with a lazy key where it is stored (see KeyComparer). */
  comparer?(name: string): KeyComparer
  /** Whether row `rowId` is live (a build in slices reads the rows by row id). */
  has(rowId: number): boolean
  /** One past the highest row id a row may have now. */
  readonly nextRowId: number
  /**
   * Makes the rows' key order (every live row id in primary-key order) in slices while `more()`
   * says so; true once it is made. What a read waits for when the key's "index" is named by
   * IndexBuilding: see Table.orderedRowIds.
   */
  prepareOrder(more: More): boolean
  /** Whether the key order is there to take at once. */
  orderReady(): boolean
}

/** Asked by a build in slices between two chunks of its work: whether it may go on. */
export type More = () => boolean
const ALWAYS: More = () => true
/** The sizes of a build's slices, in entries (see IndexSet.buildSlices). */
export interface BuildSlices {
  /** Rows read, or keys copied or merged, between two questions to `more` (≈0.1-0.5 ms). */
  readonly read: number
  /** Keys a run of the sort holds (sliced-sort.ts). @default by the keys: RUN or TEXT_RUN */
  readonly run?: number
  /** Changes applied to a sorted index between two questions (each a memmove of its tail). */
  readonly delta: number
  /** Slots of a hash index moved to its larger table between two questions (HashIndex.prepare). */
  readonly grow: number
}

/**
 * One index's build in slices (`IndexSet.step`): read every live row in row-id order (the hash
 * index filled as it goes, the sorted index's keys gathered), sort those keys (sliced-sort.ts),
 * then apply the changes made meanwhile to the rows already read. A write to a row below `cursor`
 * is the build's to follow (the hash at once, the sorted index through `delta`); a row at or above
 * it is read later as it is then.
 */
interface Build {
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
  // Whether the first rows were looked at for how many distinct keys to expect (see #read).
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

// How deep the callers are that refuse builds in one piece (`refusingBuilds`).
let refusing = 0

/**
 * Runs `fn` where a query that needs an unbuilt index throws IndexBuilding (9143) rather than
 * building it in one piece (`of`): the caller waits for the build in slices (`IndexSet.step`,
 * driven by the datastore) and runs `fn` again. Only for work that may run twice (reads). A
 * table of up to 16k row ids is still built at once (about 10 ms): a wait would cost more.
 */
/** Whether the work running now refuses builds in one piece (inside `refusingBuilds`). */
export const buildsRefused = (): boolean => refusing > 0

/**
 * Throws IndexBuilding (9143) for the index of `dataClass`.`attribute` (the key: the rows' key
 * order), with what the waiting caller needs in its details.
 */
export function refuseBuild(dataClass: string, attribute: string): never {
  return fail('IndexBuilding', [dataClass, attribute], {
    details: { retryAfter: 1, dataClass, attribute },
  })
}

export function refusingBuilds<T>(fn: () => T): T {
  refusing++
  try {
    return fn()
  } finally {
    refusing--
  }
}

// Inside `withoutUnbuilt`: told of each unbuilt index asked for, which then reads as absent.
let onUnbuilt: ((dataClass: string, attribute: string) => void) | undefined

/**
 * Runs `fn` where an index not yet built (of a table too large to build at once) is as if it were
 * not declared: a query scans instead (in slices, where a slice scope runs it), an ordering sorts,
 * and `unbuilt(dataClass, attribute)` is told, so that the build is put first. Only for reads.
 */
export function withoutUnbuilt<T>(
  unbuilt: (dataClass: string, attribute: string) => void,
  fn: () => T,
): T {
  const previous = onUnbuilt
  onUnbuilt = unbuilt
  refusing++
  try {
    return fn()
  } finally {
    refusing--
    onUnbuilt = previous
  }
}

export interface AttributeIndexes {
  readonly attribute: StorageAttributeDef
  hash: HashIndex | undefined
  sorted: SortedIndex | undefined
}

export type IndexKind = 'hash' | 'sorted' | 'auto'

/** A copy of every index of a set, taken by `capture` and put back by `restore`. Never changed. */
export interface IndexSetState {
  readonly entries: readonly AttributeIndexes[]
}

const copyEntry = (e: AttributeIndexes): AttributeIndexes => ({
  attribute: e.attribute,
  hash: e.hash?.copy(),
  sorted: e.sorted?.copy(),
})

const foldsOf = (attr: StorageAttributeDef): boolean => attr.type === 'string'

// Object, picture and BLOB values have no sort key (every one would index as null, so `= null`
// through the index would return them all): `indexed` on them, as a 4D catalog may say, is ignored.
const UNINDEXABLE: ReadonlySet<string> = new Set(['object', 'image', 'blob'])

export class IndexSet {
  readonly #byAttribute = new Map<string, AttributeIndexes>()
  // The same entries as an array, with each one's folding: the per-row mutators loop over it
  // (a Map iterator per row cost a fifth of a bulk load's index time).
  #list: { readonly ix: AttributeIndexes; readonly name: string; readonly folds: boolean }[] = []
  // Which of #list's attributes two values objects differ in (bit i for #list[i]), compiled: an
  // update compared them with a keyed load of a changing name each, 5% of an update by key.
  // Undefined where it cannot be compiled (then the loop compares).
  #differ: FieldsDiffer | undefined = fieldsDiffer([])
  // While a bulk load runs, sorted indexes are rebuilt once at the end instead of per row.
  #bulk = false
  // The keys and rows a bulk change inserted, per sorted index; undefined once it updated or
  // deleted (then the end of the bulk change rebuilds from the records).
  // Parallel to #list.
  #pending: ({ keys: SortKey[]; rows: number[] } | undefined)[] | undefined
  #version = 0
  // Entries a deferred bulk change left to build on first use, from #rows (see beginBulk).
  readonly #stale = new Set<AttributeIndexes>()
  // The stale entries whose build in slices has begun (see `step`).
  readonly #builds = new Map<AttributeIndexes, Build>()
  readonly #dataClass: string
  readonly #keyName: string
  /** @internal The sizes of a build's slices: tests make them small, to interleave writes. */
  buildSlices: BuildSlices = { read: CHUNK, delta: 16, grow: GROW_PIECE }
  #deferring = false
  // One folded key per distinct text of an attribute, shared by the rows that hold it
  // (fold-intern.ts). One per attribute: a unique code must not end the sharing of the cities.
  readonly #folds = new Map<string, FoldInterner>()
  readonly #rows: IndexSource

  /**
   * The key of `v` in `name`'s indexes: sortKey, but texts as lazy keys (lazy-fold.ts): an ASCII
   * text is its own key, folded on comparison, and other texts are folded once, the folded key
   * shared between the rows that hold the same text.
   */
  #key(v: unknown, name: string, folds: boolean): SortKey {
    if (!folds || typeof v !== 'string') return sortKey(v, folds)
    if (isAscii(v)) return v
    let interner = this.#folds.get(name)
    if (interner === undefined) this.#folds.set(name, (interner = new FoldInterner()))
    return interner.fold(v)
  }

  // The key of a row in `name`'s indexes, read from the source (a hash index holds no keys).
  // With the source's comparer of `name`'s texts when it folds: both asked for on first use.
  #keyReader(name: string, folds: boolean): KeyReader {
    let read: ((rowId: number) => unknown) | undefined
    const reader = (rowId: number): SortKey =>
      this.#key((read ??= this.#rows.reader(name))(rowId), name, folds)
    const rows = this.#rows
    if (!folds || rows.comparer === undefined) return reader
    let compare: KeyComparer | undefined
    return Object.assign(reader, {
      compare: (rowId: number, key: string) => (compare ??= rows.comparer!(name))(rowId, key),
    })
  }

  // How a build on first use runs (see the constructor).
  readonly #runBuild: (build: () => void) => void

  /**
   * `rows` is what the indexes read the stored values from: the table. `runBuild` runs each build
   * of an index on its first use: the datastore passes one that keeps the build's time out of the
   * query budget of the request that happened to need the index.
   */
  constructor(
    def: DataClassDef,
    rows: IndexSource,
    runBuild: (build: () => void) => void = (build) => build(),
  ) {
    this.#rows = rows
    this.#runBuild = runBuild
    this.#dataClass = def.name
    this.#keyName = def.key.name
    const fkSlots = new Set(
      def.attributes.flatMap((a) =>
        a.kind === 'relatedEntity' ? [a.foreignKeyAttribute.name] : [],
      ),
    )
    for (const attr of def.storage) {
      if (attr.indexed && !UNINDEXABLE.has(attr.type)) this.create(attr, attr.indexKind)
      else if (attr === def.key) this.create(attr, 'sorted')
      // The key's own map answers exact key lookups; a string key also needs folded ones.
      const keyMapSuffices = attr === def.key && attr.type !== 'string'
      if ((attr.unique && !keyMapSuffices) || fkSlots.has(attr.name)) this.create(attr, 'hash')
    }
  }

  /** Grows whenever an index is created or dropped: what a cached choice of index checks. */
  get version(): number {
    return this.#version
  }

  /** The indexes of `attribute`, if any; built first if a deferred bulk change left them to build. */
  of(attribute: string): AttributeIndexes | undefined {
    const entry = this.#byAttribute.get(attribute)
    if (entry !== undefined && this.#stale.size > 0 && this.#stale.has(entry)) {
      // A small table's build is a few milliseconds: done at once rather than waited for.
      if (refusing > 0 && this.#rows.nextRowId > this.buildSlices.read * 8) {
        if (onUnbuilt === undefined) refuseBuild(this.#dataClass, attribute)
        onUnbuilt(this.#dataClass, attribute)
        return undefined
      }
      this.#build(entry)
    }
    return entry
  }

  /**
   * The hash index of `attribute` (unique checks), holding every row: only the first phase of its
   * build is run if it is unbuilt (reading the rows; its sorted index is left to the slices), and
   * none once that phase is done. Outside a bulk change; then, as `of`.
   */
  hashOf(attribute: string): HashIndex | undefined {
    const entry = this.#byAttribute.get(attribute)
    if (entry?.hash === undefined || this.#bulk || !this.#stale.has(entry))
      return this.of(attribute)?.hash
    const build = this.#builds.get(entry) ?? this.#begin(entry)
    if (build.cursor !== Infinity) this.#runBuild(() => this.#read(build, ALWAYS))
    return entry.hash
  }

  /** Whether the indexes of `attributes` (every one when absent) are built; true for none. */
  ready(attributes?: readonly string[]): boolean {
    // Named, the key also stands for the rows' key order (Table.orderedRowIds).
    if (attributes?.includes(this.#keyName) && !this.#rows.orderReady()) return false
    if (this.#stale.size === 0) return true
    if (attributes === undefined) return false
    for (const name of attributes) {
      const entry = this.#byAttribute.get(name)
      if (entry !== undefined && this.#stale.has(entry)) return false
    }
    return true
  }

  /**
   * Builds unbuilt indexes in slices: runs their builds while `more()` says so (asked every few
   * thousand rows), those of `first` first, then those begun, then the others. Writes may come
   * between two calls: the mutators keep a build in step (see Build). Returns whether any index is
   * still unbuilt. Does nothing during a bulk change (which leaves its own indexes to build). The
   * key named in `first` stands for the rows' key order too, made first (IndexSource.prepareOrder).
   * With `parallel`, the sort of a large build over numbers runs on that worker pool: its entry is
   * then left for the next (`parked` says when to come back).
   */
  step(more: More, first: readonly string[] = [], parallel?: ParallelPool): boolean {
    if (first.includes(this.#keyName) && !this.#rows.prepareOrder(more)) return true
    if (this.#stale.size === 0 || this.#bulk) return this.#stale.size > 0
    const order: AttributeIndexes[] = []
    for (const name of first) {
      const entry = this.#byAttribute.get(name)
      if (entry !== undefined && this.#stale.has(entry)) order.push(entry)
    }
    order.push(...this.#builds.keys(), ...this.#stale)
    for (const entry of order) {
      if (!this.#stale.has(entry)) continue
      const build = this.#builds.get(entry) ?? this.#begin(entry, parallel)
      if (!this.#advance(build, more) && !onPool(build)) break
      if (!more()) break
    }
    return this.#stale.size > 0
  }

  /**
   * When every index left to build (and the key order, if `first` names the key) waits for a
   * worker pool's sort, so that `step` has nothing to do: a promise settled once one of them can
   * go on. Otherwise undefined.
   */
  parked(first: readonly string[] = []): Promise<void> | undefined {
    if (first.includes(this.#keyName) && !this.#rows.orderReady()) return undefined
    if (this.#stale.size === 0 || this.#bulk) return undefined
    const waits: Promise<void>[] = []
    for (const entry of this.#stale) {
      const build = this.#builds.get(entry)
      if (build === undefined || !onPool(build)) return undefined
      waits.push((build.sort as PoolSort).waiting)
    }
    return Promise.race(waits)
  }

  #begin(entry: AttributeIndexes, parallel?: ParallelPool): Build {
    entry.hash?.clear()
    const n = this.#rows.nextRowId
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
      room: entry.attribute.unique === true ? this.#rows.nextRowId : 0,
      delta: [],
      applied: 0,
      hashDelta: [],
    }
    this.#builds.set(entry, build)
    return build
  }

  // Runs `build` while `more()` says so; true once its entry is built (then live).
  #advance(build: Build, more: More): boolean {
    const { entry } = build
    if (build.cursor !== Infinity && (!this.#read(build, more) || !more())) return false
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
            const end = Math.min(result.size, build.decodeAt + this.buildSlices.read)
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
      const end = Math.min(delta.length, build.applied + this.buildSlices.delta)
      for (let i = build.applied; i < end; i++) {
        const { key, rowId, add } = delta[i]!
        if (add) entry.sorted!.add(key, rowId)
        else entry.sorted!.remove(key, rowId)
      }
      build.applied = end
      if (build.applied < delta.length && !more()) return false
    }
    entry.sorted?.settle()
    this.#builds.delete(entry)
    this.#stale.delete(entry)
    return true
  }

  // The first phase of `build`: reads the rows from its cursor on, while `more()` says so; true
  // once every row is read (the cursor then Infinity, the sort begun).
  #read(build: Build, more: More): boolean {
    const { entry } = build
    const source = this.#rows
    const name = entry.attribute.name
    const folds = foldsOf(entry.attribute)
    const read = source.reader(name)
    const { hash, sorted } = entry
    for (;;) {
      const end = Math.min(source.nextRowId, build.cursor + this.buildSlices.read)
      // Room for a new key a row of this batch, made in pieces: no `add` below grows the table.
      if (hash !== undefined) {
        const room = Math.max(build.room, hash.distinct + (end - build.cursor))
        if (!hash.prepare(room, more, this.buildSlices.grow)) return false
        this.#applyHashDelta(build, hash)
      }
      for (let rowId = build.cursor; rowId < end; rowId++) {
        if (!source.has(rowId)) continue
        const key = this.#key(read(rowId), name, folds)
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
    if (sorted) build.sort = this.#sorter(build, folds)
    return true
  }

  // The sort of `build`'s keys, once read: on its pool when it has one and they are many numbers
  // in shared memory, else in slices here.
  #sorter(build: Build, folds: boolean): SlicedSort | PoolSort {
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
    const { run, read } = this.buildSlices
    return new SlicedSort(keys, rows as Int32Array<ArrayBuffer>, folds, run, read, build)
  }

  // A write to row `rowId` of an entry being built: the build follows it if it has read the row.
  #follow(build: Build, value: unknown, rowId: number, add: boolean): void {
    if (rowId >= build.cursor) return
    const { entry } = build
    const key = this.#key(value, entry.attribute.name, foldsOf(entry.attribute))
    // Writing to a hash index that is moving to a larger table would finish the move at once.
    if (entry.hash?.growing) build.hashDelta.push({ key, rowId, add })
    else if (add) entry.hash?.add(key, rowId)
    else entry.hash?.remove(key, rowId)
    if (entry.sorted) build.delta.push({ key, rowId, add })
  }

  #applyHashDelta(build: Build, hash: HashIndex): void {
    if (build.hashDelta.length === 0) return
    for (const { key, rowId, add } of build.hashDelta)
      if (add) hash.add(key, rowId)
      else hash.remove(key, rowId)
    build.hashDelta = []
  }

  // Drops every build begun (their entries stay unbuilt, to build again), or `entry`'s.
  #abort(entry?: AttributeIndexes): void {
    for (const [e, build] of this.#builds)
      if (entry === undefined || e === entry) {
        if (build.sort instanceof PoolSort) build.sort.drop()
        this.#builds.delete(e)
      }
  }

  /** Which kinds of index each indexed attribute has, building none. */
  kinds(): { attribute: string; hash: boolean; sorted: boolean }[] {
    return [...this.#byAttribute.values()].map((ix) => ({
      attribute: ix.attribute.name,
      hash: ix.hash !== undefined,
      sorted: ix.sorted !== undefined,
    }))
  }

  /** Every indexed attribute, each built. */
  all(): IterableIterator<AttributeIndexes> {
    this.build()
    return this.#byAttribute.values()
  }

  /** Whether any index follows inserts now: false while every one waits for its first use. */
  get followsInserts(): boolean {
    return this.#stale.size - this.#builds.size < this.#byAttribute.size
  }

  /** How many indexed attributes wait for their first use to be built (see `beginBulk`). */
  get unbuilt(): number {
    return this.#stale.size
  }

  /** Builds every index a deferred bulk change left to build. */
  build(): void {
    // The live rows read once for every index to fill, not once an index (a tenth of the build
    // of the short rows' indexes on 1M rows was making the same list again, CPU profile).
    let all: readonly number[] | undefined
    let typed: Int32Array | undefined
    for (const entry of this.#stale) {
      if (this.#builds.has(entry)) {
        this.#build(entry)
        continue
      }
      const rows = this.#rows
      all ??= rows.liveRowIds()
      typed ??= Int32Array.from(all)
      this.#stale.delete(entry)
      this.#runBuild(() => this.#fill(entry, rows, all!, true, typed))
    }
  }

  // One bulk pass over every live row of the source: what a deferred entry costs on first use;
  // or the rest of its build in slices, in one piece.
  #build(entry: AttributeIndexes): void {
    const build = this.#builds.get(entry)
    if (build !== undefined) {
      this.#runBuild(() => {
        // Finished here in one piece: its keys, once read, are not sent to the pool.
        build.parallel = undefined
        if (build.cursor !== Infinity) this.#read(build, ALWAYS)
        // A sort still on the pool is not waited for: it is dropped, and done here as one not begun.
        const onPoolNow = onPool(build)
        if (onPoolNow) (build.sort as PoolSort).drop()
        // A sort not begun is done at once by resetFrom's radix sorts: quicker than the merges.
        if (onPoolNow || build.sort?.started === false) {
          const keys = readKeys(build)
          entry.sorted!.resetFrom(
            Array.from({ length: keys.length }, (_, i) => keyAt(keys, i)),
            build.rows.subarray(0, build.count),
            true,
          )
          build.sort = undefined
        }
        this.#advance(build, ALWAYS)
      })
      return
    }
    const rows = this.#rows
    this.#stale.delete(entry)
    this.#runBuild(() => this.#fill(entry, rows, rows.liveRowIds(), true))
  }

  // Fills `entry`'s hash index (when `hash`) and its sorted index from `all` rows of `source`.
  // `typed`: `all` as an Int32Array, when the caller has it (the sorted index keeps a copy).
  #fill(
    entry: AttributeIndexes,
    source: IndexSource,
    all: readonly number[],
    hash: boolean,
    typed?: Int32Array,
  ): void {
    const name = entry.attribute.name
    const folds = foldsOf(entry.attribute)
    const read = source.reader(name)
    const keys = new Array<SortKey>(all.length)
    for (let i = 0; i < all.length; i++) keys[i] = this.#key(read(all[i]!), name, folds)
    if (hash) entry.hash?.fill(keys, all)
    entry.sorted?.resetFrom(keys, typed ? typed.slice() : Int32Array.from(all))
  }

  /**
   * Adds indexes of `kind` on `attr` (no-op for those it already has). Call `rebuild` to fill them.
   * `auto` is both a hash and a sorted index for text, whose folded equality a hash answers in one
   * step, and a sorted index alone for other types: it answers equality and IN by binary search,
   * and a hash beside it would cost 20 to 60 bytes a row (measured on 200k rows) for a lookup a
   * few hundred nanoseconds faster. `hash` and `sorted` ask for one kind explicitly.
   */
  create(attr: StorageAttributeDef, requested: IndexKind): AttributeIndexes {
    const kind = requested === 'auto' && attr.type !== 'string' ? 'sorted' : requested
    this.#version++
    let entry = this.#byAttribute.get(attr.name)
    // A build begun fills the indexes the entry had: it starts again with the new one.
    if (entry) this.#abort(entry)
    if (!entry)
      this.#byAttribute.set(
        attr.name,
        (entry = { attribute: attr, hash: undefined, sorted: undefined }),
      )
    if (kind !== 'sorted' && !entry.hash)
      entry.hash = new HashIndex(
        attr.name,
        foldsOf(attr),
        this.#keyReader(attr.name, foldsOf(attr)),
      )
    // A text index reads its keys from the rows (sorted-index.ts): no string a row of its own.
    if (kind !== 'hash' && !entry.sorted)
      entry.sorted = new SortedIndex(
        attr.name,
        foldsOf(attr),
        foldsOf(attr) ? this.#keyReader(attr.name, true) : undefined,
      )
    this.#relist()
    return entry
  }

  #relist(): void {
    // A bulk change's pending keys follow the old list: the end of the bulk rebuilds instead.
    this.#pending = undefined
    this.#list = [...this.#byAttribute.values()].map((ix) => ({
      ix,
      name: ix.attribute.name,
      folds: foldsOf(ix.attribute),
    }))
    this.#differ = fieldsDiffer(this.#list.map((e) => e.name))
  }

  /** Removes the indexes of `attribute` that are not needed by a constraint. Returns false if there were none. */
  drop(attribute: string, keep: { hash: boolean; sorted: boolean }): boolean {
    this.#version++
    const entry = this.#byAttribute.get(attribute)
    if (!entry) return false
    if (!keep.hash) entry.hash = undefined
    if (!keep.sorted) entry.sorted = undefined
    this.#abort(entry)
    if (!entry.hash && !entry.sorted) {
      this.#byAttribute.delete(attribute)
      this.#stale.delete(entry)
    }
    this.#relist()
    return true
  }

  insert(record: IndexedRecord): void {
    const list = this.#list
    const pending = this.#pending
    const values = record.values
    const stale = this.#stale.size > 0 ? this.#stale : undefined
    // A deferred bulk change (a data load): nothing to follow.
    if (stale?.size === list.length && this.#builds.size === 0) return
    for (let i = 0; i < list.length; i++) {
      const { ix, name, folds } = list[i]!
      if (stale?.has(ix)) {
        const build = this.#builds.get(ix)
        if (build !== undefined) this.#follow(build, values[name], record.rowId, true)
        continue
      }
      const key = this.#key(values[name], name, folds)
      ix.hash?.add(key, record.rowId)
      if (!ix.sorted) continue
      if (!this.#bulk) ix.sorted.add(key, record.rowId)
      else if (pending) {
        // The key is kept for the sort at the end of the bulk change: computed (folded) once.
        const p = pending[i]!
        p.keys.push(key)
        p.rows.push(record.rowId)
      }
    }
  }

  update(before: IndexedRecord, after: IndexedRecord): void {
    this.#pending = undefined
    // The array, not the Map: a Map iterator per update was 4% of a single update by key.
    const list = this.#list
    const differ = this.#differ
    const changed = differ === undefined ? 0 : differ(before.values, after.values)
    if (differ !== undefined && changed === 0) return
    const stale = this.#stale.size > 0 ? this.#stale : undefined
    for (let i = 0; i < list.length; i++) {
      const { ix, name, folds } = list[i]!
      if (
        differ === undefined
          ? before.values[name] === after.values[name]
          : (changed & (1 << i)) === 0
      )
        continue
      if (stale?.has(ix)) {
        const build = this.#builds.get(ix)
        if (build === undefined) continue
        this.#follow(build, before.values[name], before.rowId, false)
        this.#follow(build, after.values[name], after.rowId, true)
        continue
      }
      const oldKey = this.#key(before.values[name], name, folds)
      const newKey = this.#key(after.values[name], name, folds)
      if (oldKey === newKey) continue
      ix.hash?.remove(oldKey, before.rowId)
      ix.hash?.add(newKey, after.rowId)
      if (this.#bulk || !ix.sorted) continue
      // One move: only the entries between the old and the new position shift.
      if (before.rowId === after.rowId) ix.sorted.move(oldKey, newKey, after.rowId)
      else {
        ix.sorted.remove(oldKey, before.rowId)
        ix.sorted.add(newKey, after.rowId)
      }
    }
  }

  delete(record: IndexedRecord): void {
    if (this.#bulk) this.#pending = undefined
    for (const ix of this.#byAttribute.values()) {
      if (this.#stale.has(ix)) {
        const build = this.#builds.get(ix)
        if (build !== undefined)
          this.#follow(build, record.values[ix.attribute.name], record.rowId, false)
        continue
      }
      const key = this.#key(
        record.values[ix.attribute.name],
        ix.attribute.name,
        foldsOf(ix.attribute),
      )
      ix.hash?.remove(key, record.rowId)
      if (!this.#bulk) ix.sorted?.remove(key, record.rowId)
    }
  }

  /**
   * Starts a bulk change: sorted indexes stop following until `endBulk(records)`. With `deferred`
   * (a data load, a large replay), no index follows the change at all: each is built from the rows
   * on its first use after it (`of`, `all`, `build`), in one bulk pass. A server that starts on a
   * data file then answers before its indexes are built, and builds only those its requests use:
   * on 200,000 short rows with five indexes, the indexes were two thirds of the load.
   */
  beginBulk(options: { readonly deferred?: boolean } = {}): void {
    this.#bulk = true
    // A build in slices does not follow a bulk change: each begins again after it.
    this.#abort()
    if (options.deferred) {
      // Cached choices of an entry (prepared queries) must come back through `of`, which builds.
      this.#version++
      this.#deferring = true
      for (const entry of this.#byAttribute.values()) this.#stale.add(entry)
      this.#pending = undefined
      return
    }
    this.#pending = this.#list.map(({ ix }) => (ix.sorted ? { keys: [], rows: [] } : undefined))
  }

  /**
   * Ends a bulk change. When it only inserted, each sorted index sorts its own content with the
   * keys the inserts computed; otherwise every sorted index is rebuilt from `source`.
   */
  endBulk(source: IndexSource): void {
    this.#bulk = false
    const pending = this.#pending
    this.#pending = undefined
    if (this.#deferring) {
      this.#deferring = false
      return
    }
    if (!pending) return this.#rebuildSorted(source, source.liveRowIds())
    for (let i = 0; i < pending.length; i++) {
      const added = pending[i]
      const { ix } = this.#list[i]!
      const sorted = ix.sorted
      if (!added || !sorted || this.#stale.has(ix)) continue
      const [keys, rows] = sorted.content()
      // Rows there before come first: their row ids are lower, so ties stay in row-id order.
      sorted.resetFrom(
        keys.length === 0 ? added.keys : keys.concat(added.keys),
        rows.length === 0 ? added.rows : [...rows, ...added.rows],
      )
    }
  }

  /** A copy of every index as it is now (store snapshots), each built first. */
  capture(): IndexSetState {
    this.build()
    return { entries: [...this.#byAttribute.values()].map(copyEntry) }
  }

  /**
   * Puts back the indexes of `state`, as copies (the state stays as it is, to be restored again):
   * indexes created since are gone, dropped ones are back. The version grows, so that a cached
   * choice of index (prepared queries) chooses again.
   *
   * `changed`, when given, promises that these indexes are `state`'s changed by writes alone
   * (nothing created, dropped or restored since): the entries are then kept, their indexes
   * replaced. Either way every index is copied whole, which is cheap for all: a sorted index is
   * two typed arrays or one array of keys, a hash index two typed arrays (memcpys) and its groups
   * of rows, shared with the state until written (see HashIndex.copy). When a hash index was a
   * Map, a copy cost a Map insert per key (≈17 ms for 100k distinct texts) and only the buckets of
   * the changed records were patched.
   */
  restore(
    state: IndexSetState,
    changed?: readonly { before?: IndexedRecord; after?: IndexedRecord }[],
  ): void {
    this.#bulk = false
    this.#version++
    this.#stale.clear()
    this.#abort()
    this.#pending = undefined
    if (!changed) {
      this.#byAttribute.clear()
      for (const e of state.entries) this.#byAttribute.set(e.attribute.name, copyEntry(e))
      this.#relist()
      return
    }
    for (const saved of state.entries) {
      const ix = this.#byAttribute.get(saved.attribute.name)!
      ix.sorted = saved.sorted?.copy()
      ix.hash = saved.hash?.copy()
    }
  }

  /** Rebuilds every index from `source` (every live row). */
  rebuild(source: IndexSource): void {
    const all = source.liveRowIds()
    this.#stale.clear()
    this.#abort()
    for (const ix of this.#byAttribute.values()) this.#fill(ix, source, all, true)
  }

  #rebuildSorted(source: IndexSource, all: readonly number[]): void {
    for (const ix of this.#byAttribute.values())
      if (ix.sorted && !this.#stale.has(ix)) this.#fill(ix, source, all, false)
  }
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
const onPool = (build: Build): boolean => build.sort instanceof PoolSort && build.sort.pending

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
function readKeys(build: Build): BuildKeys {
  const keys = build.keys
  if (keys instanceof Float64Array) return keys.subarray(0, build.count)
  if (Array.isArray(keys)) keys.length = build.count
  return keys
}
