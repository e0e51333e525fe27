/**
 * @module What the engine asks of worker threads, without knowing how they are made: a pool that
 * runs a kernel (kernels.ts, pure functions over typed arrays) over parts of a row range, on
 * columns held in `SharedArrayBuffer`s, so that nothing is copied to hand them over. Core has no
 * thread of its own: `serve` (or an embedder) gives the datastore a pool (`createWorkerPool` of
 * the entistore package); without one, the same kernels run on the calling thread, in slices.
 *
 * A cheap request never hops: a message to a worker and back costs about 73 µs, two GETs by key.
 * Only work over many rows is sent (see `PARALLEL_MIN_ROWS`).
 */

/** The rows below which a piece of work runs on the calling thread: its hop would cost more. */
export const PARALLEL_MIN_ROWS = 262_144

/** One part of a kernel's run: rows [from, to). */
export interface KernelPart {
  readonly from: number
  readonly to: number
}

/** How a run of a kernel on the pool is asked for. */
export interface KernelRunOptions {
  /**
   * Asked between parts (each time a worker is free for the next one): false stops the run, its
   * parts not started are never started and the ones running stop at their next check. A request
   * whose client went away says so here.
   */
  readonly wanted?: () => boolean
  /** Whose work this is: the pool takes its clients' parts in turn, so that none starves another. @default '' */
  readonly client?: string
}

/** A kernel running on the pool. */
export interface KernelRun<R> {
  /** Each part's result, in the order of the parts; rejects with the kernel's error, or `KernelCancelled`. */
  readonly result: Promise<R[]>
  /** Stops the run: parts not started never start, running ones stop at their next check. */
  cancel(): void
}

/** The pool a datastore runs its data-sized work on (worker threads over shared columns). */
export interface ParallelPool {
  /** Its threads: how many parts run at once. */
  readonly threads: number
  /**
   * The rows from which work goes to the pool; less runs on the calling thread, whose hop would
   * cost more. @default PARALLEL_MIN_ROWS
   */
  readonly minRows?: number
  /** The runs asked of it so far (health reports, tests). */
  readonly runs?: number
  /**
   * Runs kernel `kernel` (a name of kernels.ts's `KERNELS`) with `args` (structured-cloneable:
   * typed arrays over SharedArrayBuffers are shared, not copied) on each of `parts`.
   */
  run<R>(
    kernel: string,
    args: unknown,
    parts: readonly KernelPart[],
    options?: KernelRunOptions,
  ): KernelRun<R>
  /** Ends its threads (a run still going is cancelled). */
  close(): Promise<void>
}

/** The reason a cancelled run's `result` rejects with. */
export class KernelCancelled extends Error {
  constructor() {
    super('the parallel run was cancelled')
    this.name = 'KernelCancelled'
  }
}

/**
 * `length` rows cut into parts for `threads` threads: a few parts a thread (a thread that ends
 * early takes the next; a cancel is seen between parts), none under `min` rows, each starting at a
 * multiple of `align` (a kernel's blocks: its answer is then the same however the rows are cut).
 */
export function partsOf(length: number, threads: number, min = 65_536, align = 1): KernelPart[] {
  const count = Math.max(1, Math.min(threads * 4, Math.ceil(length / min)))
  const size = Math.ceil(Math.ceil(length / count) / align) * align
  const parts: KernelPart[] = []
  for (let from = 0; from < length; from += size)
    parts.push({ from, to: Math.min(length, from + size) })
  return parts
}
