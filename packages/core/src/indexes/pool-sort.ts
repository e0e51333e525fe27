/**
 * @module The sort of a sorted index's build over numbers on a worker pool (issue 65): the keys
 * the build read (in shared memory) are cut in parts sorted on the pool's threads, then merged by
 * one more kernel there (parallel/sort-kernels.ts), the result left in shared arrays the index
 * takes as they are. Meanwhile the serving thread does nothing for it: `waiting` says when to look
 * again. The content is the sliced sort's (sliced-sort.ts) bit for bit; if the pool fails (closed,
 * a thread dead), the same keys are sorted here in slices instead, the kernels having only read
 * them.
 */
import type { ParallelPool } from '../parallel/parallel-pool.js'
import { PARALLEL_MIN_ROWS, partsOf } from '../parallel/parallel-pool.js'
import {
  partBounds,
  type MergeSortedPartsArgs,
  type SortNumbersPartArgs,
} from '../parallel/sort-kernels.js'
import { sharedFloat64, sharedInt32 } from '../parallel/shared-arrays.js'
import { SlicedSort, type NumberStats, type SortedContent } from './sliced-sort.js'

/** Whose runs the pool's index sorts are: it takes its clients' parts in turn. */
export const BUILD_CLIENT = 'index builds'

export class PoolSort {
  readonly #keys: Float64Array
  readonly #rows: Int32Array
  readonly #known: NumberStats
  readonly #pool: ParallelPool
  #cancel: (() => void) | undefined
  #content: SortedContent | undefined
  // The sort in slices that took over when the pool failed.
  #fallback: SlicedSort | undefined
  #dropped = false
  /** Settles once the pool is done with the sort (then `step` goes on), whether it failed or not. */
  readonly waiting: Promise<void>

  /** `keys` (NaN for null) and their `rows`, both over SharedArrayBuffers, read-only from now on. */
  constructor(keys: Float64Array, rows: Int32Array, known: NumberStats, pool: ParallelPool) {
    this.#keys = keys
    this.#rows = rows
    this.#known = known
    this.#pool = pool
    this.waiting = this.#sort().then(
      (content) => {
        this.#content = content
        this.#cancel = undefined
      },
      () => {
        this.#cancel = undefined
        // Sorted here instead (unless dropped): the kernels only read the keys and rows.
        if (!this.#dropped)
          this.#fallback = new SlicedSort(
            keys,
            rows as Int32Array<ArrayBuffer>,
            false,
            undefined,
            undefined,
            known,
          )
      },
    )
  }

  async #sort(): Promise<SortedContent> {
    const n = this.#keys.length
    const sortedKeys = sharedFloat64(n)
    const sortedRows = sharedInt32(n)
    // About four parts a thread (one that ends early takes the next; other clients' parts go
    // between), none under the pool's least run: each costs a message and a merge head.
    const parts = partsOf(n, this.#pool.threads, this.#pool.minRows ?? PARALLEL_MIN_ROWS)
    const partArgs: SortNumbersPartArgs = {
      keys: this.#keys,
      rows: this.#rows,
      sortedKeys,
      sortedRows,
    }
    const nulls = await this.#run<number>('sortNumbersPart', partArgs, parts)
    // As long as the sliced sort makes them (16 at least).
    const rows = sharedInt32(Math.max(16, n))
    const numbers = this.#known.ints ? sharedInt32(rows.length) : sharedFloat64(rows.length)
    const mergeArgs: MergeSortedPartsArgs = {
      sortedKeys,
      sortedRows,
      parts: partBounds(parts, nulls),
      rows,
      numbers,
    }
    await this.#run<number>('mergeSortedParts', mergeArgs, [{ from: 0, to: n }])
    return { kind: 'numbers', size: n, rows, numbers, nulls: this.#known.nulls }
  }

  async #run<R>(kernel: string, args: unknown, parts: { from: number; to: number }[]) {
    if (this.#dropped) throw new Error('the index build was dropped')
    const run = this.#pool.run<R>(kernel, args, parts, {
      client: BUILD_CLIENT,
      wanted: () => !this.#dropped,
    })
    this.#cancel = run.cancel
    return run.result
  }

  /** Whether the pool is still sorting: nothing to do here until `waiting` settles. */
  get pending(): boolean {
    return this.#content === undefined && this.#fallback === undefined && !this.#dropped
  }

  /** Whether the sort has begun: it has, on the pool, from the start. */
  get started(): boolean {
    return true
  }

  get done(): boolean {
    return this.#content !== undefined || this.#fallback?.done === true
  }

  /** False while the pool sorts; then true (or, after a failure, the sort in slices here). */
  step(more: () => boolean): boolean {
    if (this.#fallback !== undefined) return this.#fallback.step(more)
    return this.#content !== undefined
  }

  /** The sorted content, once `step` returned true. */
  result(): SortedContent {
    if (this.#fallback !== undefined) return this.#fallback.result()
    if (this.#content === undefined) throw new TypeError('PoolSort.result: not done')
    return this.#content
  }

  /** Stops the pool's work (the build was dropped, or is finished in one piece here). */
  drop(): void {
    this.#dropped = true
    this.#cancel?.()
  }
}
