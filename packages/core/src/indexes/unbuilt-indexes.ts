/**
 * @module The indexes of one index set (index-set.ts) left to build, and their building: on first
 * use in one piece, in slices between other work (`step`), or with their sort on a worker pool.
 * A deferred bulk change (a data load, a large replay) leaves every index of its table here.
 *
 * Apart from the index set, which keeps the indexes and follows each row written: the set's
 * per-row mutators only ask whether an entry is unbuilt and keep its build in step
 * (entry-build.ts `followBuild`), and they read the same `stale` Set and `builds` Map as this
 * class, shared, not through a call (an insert or an update must not pay for the building).
 */
import type { SortKey } from '../values/compare.js'
import { keyAt } from './build-keys.js'
import { PoolSort } from './pool-sort.js'
import type { ParallelPool } from '../parallel/parallel-pool.js'
import { refusing, refuseBuild, onUnbuilt } from './build-refusal.js'
import { type IndexSource, type More, type AttributeIndexes, foldsOf } from './index-entry.js'
import {
  advanceBuild,
  beginBuild,
  onPool,
  readKeys,
  readRows,
  type Build,
  type BuildContext,
} from './entry-build.js'

const ALWAYS: More = () => true

export class UnbuiltIndexes {
  /** Entries a deferred bulk change left to build on first use (see IndexSet.beginBulk). */
  readonly stale = new Set<AttributeIndexes>()
  /** The stale entries whose build in slices has begun (see `step`). */
  readonly builds = new Map<AttributeIndexes, Build>()
  readonly #dataClass: string
  readonly #keyName: string
  readonly #byAttribute: ReadonlyMap<string, AttributeIndexes>
  // What a build reads through the index set (entry-build.ts).
  readonly #context: BuildContext
  // How a build on first use runs (see IndexSet's constructor).
  readonly #runBuild: (build: () => void) => void

  /** `byAttribute`: the index set's entries by attribute name, shared (it changes with them). */
  constructor(
    dataClass: string,
    keyName: string,
    byAttribute: ReadonlyMap<string, AttributeIndexes>,
    context: BuildContext,
    runBuild: (build: () => void) => void,
  ) {
    this.#dataClass = dataClass
    this.#keyName = keyName
    this.#byAttribute = byAttribute
    this.#context = context
    this.#runBuild = runBuild
  }

  /**
   * Builds the stale `entry` on its first use; false, and nothing built, where builds in one piece
   * are refused (build-refusal.ts) and the table is not small.
   */
  use(entry: AttributeIndexes): boolean {
    // A small table's build is a few milliseconds: done at once rather than waited for.
    if (refusing > 0 && this.#context.source.nextRowId > this.#context.slices().read * 8) {
      const attribute = entry.attribute.name
      if (onUnbuilt === undefined) refuseBuild(this.#dataClass, attribute)
      onUnbuilt(this.#dataClass, attribute)
      return false
    }
    this.#build(entry)
    return true
  }

  /** The first phase of the stale `entry`'s build (reading the rows, its hash index filled). */
  readHash(entry: AttributeIndexes): void {
    const build = this.builds.get(entry) ?? this.#begin(entry)
    if (build.cursor !== Infinity) this.#runBuild(() => readRows(this.#context, build, ALWAYS))
  }

  /** IndexSet.ready: whether the indexes of `attributes` (every one when absent) are built. */
  ready(attributes?: readonly string[]): boolean {
    // Named, the key also stands for the rows' key order (Table.orderedRowIds).
    if (attributes?.includes(this.#keyName) && !this.#context.source.orderReady()) return false
    if (this.stale.size === 0) return true
    if (attributes === undefined) return false
    for (const name of attributes) {
      const entry = this.#byAttribute.get(name)
      if (entry !== undefined && this.stale.has(entry)) return false
    }
    return true
  }

  /** IndexSet.step, `bulk` saying whether a bulk change runs (then nothing is built). */
  step(more: More, first: readonly string[], bulk: boolean, parallel?: ParallelPool): boolean {
    if (first.includes(this.#keyName) && !this.#context.source.prepareOrder(more)) return true
    if (this.stale.size === 0 || bulk) return this.stale.size > 0
    const order: AttributeIndexes[] = []
    for (const name of first) {
      const entry = this.#byAttribute.get(name)
      if (entry !== undefined && this.stale.has(entry)) order.push(entry)
    }
    order.push(...this.builds.keys(), ...this.stale)
    for (const entry of order) {
      if (!this.stale.has(entry)) continue
      const build = this.builds.get(entry) ?? this.#begin(entry, parallel)
      if (!this.#advance(build, more) && !onPool(build)) break
      if (!more()) break
    }
    return this.stale.size > 0
  }

  /** IndexSet.parked, `bulk` saying whether a bulk change runs. */
  parked(first: readonly string[], bulk: boolean): Promise<void> | undefined {
    if (first.includes(this.#keyName) && !this.#context.source.orderReady()) return undefined
    if (this.stale.size === 0 || bulk) return undefined
    const waits: Promise<void>[] = []
    for (const entry of this.stale) {
      const build = this.builds.get(entry)
      if (build === undefined || !onPool(build)) return undefined
      waits.push((build.sort as PoolSort).waiting)
    }
    return Promise.race(waits)
  }

  #begin(entry: AttributeIndexes, parallel?: ParallelPool): Build {
    const build = beginBuild(this.#context, entry, parallel)
    this.builds.set(entry, build)
    return build
  }

  // Runs `build` while `more()` says so; true once its entry is built (then live).
  #advance(build: Build, more: More): boolean {
    if (!advanceBuild(this.#context, build, more)) return false
    this.builds.delete(build.entry)
    this.stale.delete(build.entry)
    return true
  }

  /** Drops every build begun (their entries stay unbuilt, to build again), or `entry`'s. */
  abort(entry?: AttributeIndexes): void {
    for (const [e, build] of this.builds)
      if (entry === undefined || e === entry) {
        if (build.sort instanceof PoolSort) build.sort.drop()
        this.builds.delete(e)
      }
  }

  /** Builds every index a deferred bulk change left to build. */
  buildAll(): void {
    // The live rows read once for every index to fill, not once an index (a tenth of the build
    // of the short rows' indexes on 1M rows was making the same list again, CPU profile).
    let all: readonly number[] | undefined
    let typed: Int32Array | undefined
    for (const entry of this.stale) {
      if (this.builds.has(entry)) {
        this.#build(entry)
        continue
      }
      const rows = this.#context.source
      all ??= rows.liveRowIds()
      typed ??= Int32Array.from(all)
      this.stale.delete(entry)
      this.#runBuild(() => this.fill(entry, rows, all!, true, typed))
    }
  }

  // One bulk pass over every live row of the source: what a deferred entry costs on first use;
  // or the rest of its build in slices, in one piece.
  #build(entry: AttributeIndexes): void {
    const build = this.builds.get(entry)
    if (build !== undefined) {
      this.#runBuild(() => {
        // Finished here in one piece: its keys, once read, are not sent to the pool.
        build.parallel = undefined
        if (build.cursor !== Infinity) readRows(this.#context, build, ALWAYS)
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
    const rows = this.#context.source
    this.stale.delete(entry)
    this.#runBuild(() => this.fill(entry, rows, rows.liveRowIds(), true))
  }

  /**
   * Fills `entry`'s hash index (when `hash`) and its sorted index from `all` rows of `source`.
   * `typed`: `all` as an Int32Array, when the caller has it (the sorted index keeps a copy).
   */
  fill(
    entry: AttributeIndexes,
    source: IndexSource,
    all: readonly number[],
    hash: boolean,
    typed?: Int32Array,
  ): void {
    const name = entry.attribute.name
    const folds = foldsOf(entry.attribute)
    const read = source.reader(name)
    const ctx = this.#context
    const keys = new Array<SortKey>(all.length)
    for (let i = 0; i < all.length; i++) keys[i] = ctx.key(read(all[i]!), name, folds)
    if (hash) entry.hash?.fill(keys, all)
    entry.sorted?.resetFrom(keys, typed ? typed.slice() : Int32Array.from(all))
  }
}
