/**
 * @module Builds unbuilt indexes in slices of a few milliseconds, between other work: what the
 * datastore uses to build every index in the background after a large load, and to have a caller
 * wait (a Promise) for the indexes its query needs without the build holding the event loop in one
 * piece. How the next slice is run is injected (`schedule`): no host API is imported here.
 */
import type { IndexSet } from './index-set.js'
import type { ParallelPool } from '../parallel/parallel-pool.js'

/** How builds in slices are run. */
export interface IndexBuildOptions {
  /**
   * Runs `slice` later, after the work already waiting (in Node, `setImmediate`, which lets the
   * requests that arrived meanwhile through first).
   * @default (slice) => setTimeout(slice, 0)
   */
  readonly schedule?: (slice: () => void) => void
  /**
   * How long one slice may run, in milliseconds (a slice stops at the first check past it: every
   * few thousand rows, or one sort of 16k keys).
   * @default 4
   */
  readonly sliceMs?: number
  /**
   * When a slice that begins now must stop, given `sliceMs` (a `performance.now()` time): a host
   * that runs other work in slices shares one budget a turn of its event loop among them all.
   * @default its start plus `sliceMs`
   */
  readonly deadline?: (sliceMs: number) => number
  /**
   * The worker pool that sorts a large build over numbers (the datastore's `parallel`): while it
   * does, the builds go on with the other indexes, or no slice runs at all.
   */
  readonly parallel?: ParallelPool
}

interface Waiter {
  readonly indexes: IndexSet
  readonly attributes: readonly string[] | undefined
  readonly resolve: () => void
}

const now = (): number => globalThis.performance.now()

export class IndexBuilder {
  readonly #tables: () => Iterable<IndexSet>
  #schedule: (slice: () => void) => void = (slice) => setTimeout(slice, 0)
  #sliceMs = 4
  #deadline = (sliceMs: number): number => now() + sliceMs
  #waiters: Waiter[] = []
  #background: (() => void)[] = []
  #scheduled = false
  #parallel: ParallelPool | undefined

  /** `tables`: the index sets of every table, read at each slice. */
  constructor(tables: () => Iterable<IndexSet>) {
    this.#tables = tables
  }

  configure(options: IndexBuildOptions): void {
    if (options.schedule) this.#schedule = options.schedule
    if (options.sliceMs !== undefined) this.#sliceMs = options.sliceMs
    if (options.deadline) this.#deadline = options.deadline
    if (options.parallel) this.#parallel = options.parallel
  }

  /** Settles once `indexes` has the indexes of `attributes` (every one when absent) built. */
  ready(indexes: IndexSet, attributes?: readonly string[]): Promise<void> {
    if (indexes.ready(attributes)) return Promise.resolve()
    return new Promise((resolve) => {
      this.#waiters.push({ indexes, attributes, resolve })
      this.#next()
    })
  }

  /** Builds every unbuilt index, in slices; settles once none is left. */
  all(): Promise<void> {
    return new Promise((resolve) => {
      this.#background.push(resolve)
      this.#next()
    })
  }

  #next(): void {
    if (this.#scheduled) return
    this.#scheduled = true
    this.#schedule(() => {
      this.#scheduled = false
      this.#slice()
    })
  }

  // One slice: the indexes waited for first (in the order they were asked for), then the others
  // if a background build was asked for.
  #slice(): void {
    const deadline = this.#deadline(this.#sliceMs)
    const more = (): boolean => now() < deadline
    for (const w of this.#waiters) {
      w.indexes.step(more, w.attributes ?? [], this.#parallel)
      if (!more()) break
    }
    let unbuilt = false
    if (this.#background.length > 0)
      for (const indexes of this.#tables()) {
        if (more()) indexes.step(more, [], this.#parallel)
        unbuilt ||= !indexes.ready()
      }
    const waiting = this.#waiters.filter((w) => !w.indexes.ready(w.attributes))
    const done = this.#waiters.filter((w) => w.indexes.ready(w.attributes))
    this.#waiters = waiting
    const background = unbuilt ? [] : this.#background
    if (!unbuilt) this.#background = []
    if (waiting.length > 0 || this.#background.length > 0) this.#nextOrPark()
    for (const w of done) w.resolve()
    for (const resolve of background) resolve()
  }

  // The next slice, unless every build left waits for the pool's sort: then once one is back
  // (a slice meanwhile would find nothing to do, and take a turn from the requests for it).
  #nextOrPark(): void {
    const parks: Promise<void>[] = []
    const sets = this.#waiters.map((w) => [w.indexes, w.attributes] as const)
    if (this.#background.length > 0)
      for (const indexes of this.#tables()) if (!indexes.ready()) sets.push([indexes, undefined])
    for (const [indexes, attributes] of sets) {
      const parked = indexes.parked(attributes)
      if (parked === undefined) return this.#next()
      parks.push(parked)
    }
    if (parks.length === 0) return this.#next()
    void Promise.race(parks).then(() => this.#next())
  }
}
