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
 *
 * The indexes left to build (after a deferred bulk change) and their building, on first use or in
 * slices, are unbuilt-indexes.ts's; this set keeps the indexes and follows every row written.
 */
import { sortKey, type SortKey } from '../values/compare.js'
import { FoldInterner } from '../values/fold-intern.js'
import { isAscii } from '../values/lazy-fold.js'
import { fieldsDiffer, type FieldsDiffer } from '../values/compiled-fields.js'
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import { GROW_PIECE, HashIndex } from './hash-index.js'
import type { KeyComparer, KeyReader } from './hash-key.js'
import { CHUNK } from './sliced-sort.js'
import { SortedIndex } from './sorted-index.js'
import type { ParallelPool } from '../parallel/parallel-pool.js'
import { UnbuiltIndexes } from './unbuilt-indexes.js'
import {
  type IndexedRecord,
  type IndexSource,
  type More,
  type BuildSlices,
  type AttributeIndexes,
  type IndexKind,
  foldsOf,
} from './index-entry.js'
import { followBuild, type Build, type BuildContext } from './entry-build.js'
import { builtSince, captureIndexes, copyEntry, keepBuilt } from './index-set-state.js'
import type { IndexSetState, UnbuiltKinds } from './index-set-state.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to index-entry.js once that lands.
export type { IndexKind, AttributeIndexes } from './index-entry.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to build-refusal.js once that lands.
export { refusingBuilds, withoutUnbuilt } from './build-refusal.js'

export type { IndexSetState } from './index-set-state.js'

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
  // The entries left to build and their building (unbuilt-indexes.ts). Its `stale` Set and
  // `builds` Map, held here too: the per-row mutators read them with no call between.
  readonly #unbuilt: UnbuiltIndexes
  // Entries a deferred bulk change left to build on first use, from #rows (see beginBulk).
  readonly #stale: Set<AttributeIndexes>
  // The stale entries whose build in slices has begun (see `step`).
  readonly #builds: Map<AttributeIndexes, Build>
  // What a build reads through this set (entry-build.ts); a write keeps a build begun in step.
  readonly #context: BuildContext
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
    const context: BuildContext = {
      source: rows,
      slices: () => this.buildSlices,
      key: (v, name, folds) => this.#key(v, name, folds),
    }
    this.#context = context
    this.#unbuilt = new UnbuiltIndexes(def.name, def.key.name, this.#byAttribute, context, runBuild)
    this.#stale = this.#unbuilt.stale
    this.#builds = this.#unbuilt.builds
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
    if (entry !== undefined && this.#stale.size > 0 && this.#stale.has(entry))
      return this.#unbuilt.use(entry) ? entry : undefined
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
    this.#unbuilt.readHash(entry)
    return entry.hash
  }

  /** Whether the indexes of `attributes` (every one when absent) are built; true for none. */
  ready(attributes?: readonly string[]): boolean {
    return this.#unbuilt.ready(attributes)
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
    return this.#unbuilt.step(more, first, this.#bulk, parallel)
  }

  /**
   * When every index left to build (and the key order, if `first` names the key) waits for a
   * worker pool's sort, so that `step` has nothing to do: a promise settled once one of them can
   * go on. Otherwise undefined.
   */
  parked(first: readonly string[] = []): Promise<void> | undefined {
    return this.#unbuilt.parked(first, this.#bulk)
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
    this.#unbuilt.buildAll()
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
    if (entry) this.#unbuilt.abort(entry)
    if (!entry)
      this.#byAttribute.set(
        attr.name,
        (entry = { attribute: attr, hash: undefined, sorted: undefined }),
      )
    this.#addEmpty(entry, kind !== 'sorted', kind !== 'hash')
    this.#relist()
    return entry
  }

  /** Gives `entry` an empty index of each kind asked for that it lacks. */
  #addEmpty(entry: AttributeIndexes, hash: boolean, sorted: boolean): void {
    const { name } = entry.attribute
    const folds = foldsOf(entry.attribute)
    if (hash && !entry.hash) entry.hash = new HashIndex(name, folds, this.#keyReader(name, folds))
    // A text index reads its keys from the rows (sorted-index.ts): no string a row of its own.
    if (sorted && !entry.sorted)
      entry.sorted = new SortedIndex(name, folds, folds ? this.#keyReader(name, true) : undefined)
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
    this.#unbuilt.abort(entry)
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
        if (build !== undefined) followBuild(this.#context, build, values[name], record.rowId, true)
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
        followBuild(this.#context, build, before.values[name], before.rowId, false)
        followBuild(this.#context, build, after.values[name], after.rowId, true)
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
          followBuild(this.#context, build, record.values[ix.attribute.name], record.rowId, false)
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
    this.#unbuilt.abort()
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

  /** A copy of every index as it is now (store snapshots: index-set-state.ts). */
  capture(): IndexSetState {
    return captureIndexes(this.#byAttribute, this.#stale)
  }

  /** Before a restore of `state`, whose rows are the table's now: keeps its indexes built since. */
  keepBuilt(state: IndexSetState): void {
    keepBuilt(state, builtSince(state, this.#byAttribute, this.#stale))
  }

  /** The names of the indexes `state` has unbuilt that are built here now. */
  builtOf(state: IndexSetState): string[] {
    return builtSince(state, this.#byAttribute, this.#stale).map((e) => e.attribute.name)
  }

  /**
   * Puts back the indexes of `state`, as copies (the state stays as it is, to be restored again):
   * indexes created since are gone, dropped ones are back. The version grows, so that a cached
   * choice of index (prepared queries) chooses again.
   *
   * `changed`, when given, promises that these indexes are `state`'s changed by writes alone
   * (nothing created, dropped or restored since): the entries are then kept, their indexes
   * replaced. Either way every index is copied whole, cheap for all: a sorted index is two typed
   * arrays or one array of keys, a hash index two typed arrays and its groups of rows, shared with
   * the state until written (HashIndex.copy). One `state` has unbuilt is put back empty, to build
   * on first use (index-set-state.ts).
   */
  restore(
    state: IndexSetState,
    changed?: readonly { before?: IndexedRecord; after?: IndexedRecord }[],
  ): void {
    this.#bulk = false
    this.#version++
    this.#stale.clear()
    this.#unbuilt.abort()
    this.#pending = undefined
    if (!changed || state.unbuilt.size > 0) {
      this.#byAttribute.clear()
      for (const name of state.order) {
        const saved = state.entries.get(name)
        if (saved !== undefined) this.#byAttribute.set(name, copyEntry(saved))
        else this.#byAttribute.set(name, this.#leftToBuild(state.unbuilt.get(name)!))
      }
      this.#relist()
      return
    }
    for (const saved of state.entries.values()) {
      const ix = this.#byAttribute.get(saved.attribute.name)!
      ix.sorted = saved.sorted?.copy()
      ix.hash = saved.hash?.copy()
    }
  }

  /** An entry of empty indexes of `kinds`, left to build on first use, as a data load leaves it. */
  #leftToBuild(k: UnbuiltKinds): AttributeIndexes {
    const entry: AttributeIndexes = { attribute: k.attribute, hash: undefined, sorted: undefined }
    this.#addEmpty(entry, k.hash, k.sorted)
    this.#stale.add(entry)
    return entry
  }

  /** Rebuilds every index from `source` (every live row). */
  rebuild(source: IndexSource): void {
    const all = source.liveRowIds()
    this.#stale.clear()
    this.#unbuilt.abort()
    for (const ix of this.#byAttribute.values()) this.#unbuilt.fill(ix, source, all, true)
  }

  #rebuildSorted(source: IndexSource, all: readonly number[]): void {
    for (const ix of this.#byAttribute.values())
      if (ix.sorted && !this.#stale.has(ix)) this.#unbuilt.fill(ix, source, all, false)
  }
}
