/**
 * @module The indexes a data load left to build, built at once or in slices between other work,
 * and the reads that run in slices meanwhile (query/slices.ts): what the Datastore's members
 * `buildIndexes`, `buildIndexesInBackground`, `indexesReady`, `withoutIndexBuilds`,
 * `withoutUnbuiltIndexes` and `sliceScope` do (their notes there say how a caller uses them).
 */
import { IndexBuilder, type IndexBuildOptions } from '../../indexes/index-builder.js'
import { refusingBuilds, withoutUnbuilt } from '../../indexes/index-set.js'
import { SliceScope } from '../../query/slices.js'
import type { Store } from '../../store/store.js'

export class IndexBuilds {
  readonly #store: Store
  readonly #builder: IndexBuilder
  // The scopes stopped with work kept, told of every commit (their kept results are refreshed).
  readonly #scopes = new Set<SliceScope>()
  #untrackScopes: (() => void) | undefined

  constructor(store: Store) {
    this.#store = store
    this.#builder = new IndexBuilder(() => this.#tables().map((t) => t.indexes))
  }

  #tables() {
    return this.#store.schema.dataClasses.map((dc) => this.#store.table(dc.name))
  }

  /** Builds every index left to build; returns how many indexed attributes it built. */
  buildAll(): number {
    let built = 0
    for (const table of this.#tables()) {
      built += table.indexes.unbuilt
      table.indexes.build()
    }
    return built
  }

  /** Builds them in slices; settles with how many were unbuilt when it started, once none is. */
  buildInBackground(options: IndexBuildOptions): Promise<number> {
    this.#builder.configure(options)
    let unbuilt = 0
    for (const table of this.#tables()) unbuilt += table.indexes.unbuilt
    return this.#builder.all().then(() => unbuilt)
  }

  configure(options: IndexBuildOptions): void {
    this.#builder.configure(options)
  }

  /** Settles once the indexes of `dataClass`'s `attributes` (all when absent) are built. */
  ready(dataClass: string, attributes?: readonly string[]): Promise<void> {
    return this.#builder.ready(this.#store.table(dataClass).indexes, attributes)
  }

  /** Runs `fn` where a query needing an unbuilt index throws IndexBuilding (9143). */
  refusing<T>(fn: () => T): T {
    return refusingBuilds(fn)
  }

  /** Runs `fn` where an unbuilt index is as if not declared, its build in slices put first. */
  withoutUnbuilt<T>(fn: () => T): T {
    return withoutUnbuilt(this.#askBuild, fn)
  }

  readonly #askBuild = (dataClass: string, attribute: string): void => {
    // Settles when built; a failure of the build is the builder's to report, not this read's.
    this.ready(dataClass, [attribute]).catch(() => undefined)
  }

  /** A scope in which reads run in slices, told of every commit while it keeps work. */
  sliceScope(timeUp: () => boolean): SliceScope {
    return new SliceScope(timeUp, this.#trackScope)
  }

  readonly #trackScope = (scope: SliceScope): (() => void) => {
    if (this.#scopes.size === 0 && this.#untrackScopes === undefined)
      this.#untrackScopes = this.#store.onCommit(
        (changes, info) => {
          for (const s of this.#scopes) s.noteCommit(changes, info.kind)
        },
        { loadRows: false },
      )
    this.#scopes.add(scope)
    return () => {
      this.#scopes.delete(scope)
      if (this.#scopes.size === 0) {
        this.#untrackScopes?.()
        this.#untrackScopes = undefined
      }
    }
  }
}
