/**
 * @module Query work handed to worker threads (parallel/parallel-pool.ts): a kernel over rows
 * [0, length) cut in parts, run on the pool while the work waits parked (slices.ts), so that the
 * thread serves other requests meanwhile. Only work a slice scope drives can wait so (`drivingScope`);
 * elsewhere (a library call, work inside other work) the same kernel runs here, in steps.
 *
 * One version: the columns are shared, so a worker reads rows as they are while it reads them.
 * A row written meanwhile is one the scope noted (`noteCommit`): the kept result is refreshed from
 * those rows before it is handed out, as for work done in slices on this thread.
 */
import { KERNELS } from '../parallel/kernels.js'
import { partBounds } from '../parallel/sort-kernels.js'
import { isShared, sharedFloat64, sharedInt32 } from '../parallel/shared-arrays.js'
import {
  partsOf,
  PARALLEL_MIN_ROWS,
  type KernelPart,
  type ParallelPool,
} from '../parallel/parallel-pool.js'
import { spend } from './budget.js'
import { drivingScope, type Work } from './slices.js'
import { steps } from './row-steps.js'

/** The fewest rows of a part, but for a pool that takes fewer rows (see partsOf). */
const PART_ROWS = 65_536

// A flag never raised: the kernels run here are stopped by the work itself, between steps.
const NEVER = new Int32Array(1)

/**
 * `kernel(args)` over rows [0, length): on the pool when the scope driving this work has one, the
 * rows are many and `shared` (the arrays of `args` are in shared memory: any other would be
 * copied to each worker), else here in steps; `collect` receives each part's (or step's) result
 * in row order. The rows are counted against the query budget either way. `align`: the size of
 * the kernel's blocks, when its answer depends on where they start (a sum): parts and steps then
 * start at multiples of it, so the answer is the same on the pool and here.
 */
export function* kernelWork<R>(
  kernel: string,
  args: unknown,
  length: number,
  shared: boolean,
  collect: (part: R) => void,
  align = 1,
): Work<void> {
  // Asked here, at the work's first step: only a scope's drive may park (slices.ts).
  const pool = shared ? drivingScope()?.parallel : undefined
  if (pool !== undefined && length >= (pool.minRows ?? PARALLEL_MIN_ROWS)) {
    // A pool that takes fewer rows (a test's) cuts them finer too.
    const parts = partsOf(
      length,
      pool.threads,
      Math.min(PART_ROWS, pool.minRows ?? PART_ROWS),
      align,
    )
    for (const part of yield* onPool<R>(pool, kernel, args, parts, length)) collect(part)
    return
  }
  const run = KERNELS[kernel] as (a: unknown, from: number, to: number, c: Int32Array) => R
  const step = (from: number, to: number) => collect(run(args, from, to, NEVER))
  yield* align > 1 ? steps(length, step, align) : steps(length, step)
}

/**
 * `rows` sorted by `keys` ascending (no NaN), ties in the order given, on the pool when the scope
 * driving this work has one and the keys are many and shared: each part sorted on a thread
 * (`sortNumbersPart`), then merged on one (`mergeSortedParts`), while this thread serves others.
 * Undefined when there is no such pool: the caller sorts here in steps.
 */
export function* sortedOnPool(keys: Float64Array, rows: Int32Array): Work<Int32Array | undefined> {
  const n = keys.length
  const pool = isShared(keys) && isShared(rows) ? drivingScope()?.parallel : undefined
  if (pool === undefined || n < (pool.minRows ?? PARALLEL_MIN_ROWS)) return undefined
  const parts = partsOf(n, pool.threads, Math.min(PART_ROWS, pool.minRows ?? PART_ROWS))
  const sortedKeys = sharedFloat64(n)
  const sortedRows = sharedInt32(n)
  const nulls = yield* onPool<number>(
    pool,
    'sortNumbersPart',
    { keys, rows, sortedKeys, sortedRows },
    parts,
    n,
  )
  const out = sharedInt32(n)
  yield* onPool<number>(
    pool,
    'mergeSortedParts',
    {
      sortedKeys,
      sortedRows,
      parts: partBounds(parts, nulls),
      rows: out,
      numbers: sharedFloat64(n),
    },
    [{ from: 0, to: n }],
    0,
  )
  return out
}

/** Runs `kernel` on `pool` over `parts`, parked until it ends; cancelled if the work is dropped. */
function* onPool<R>(
  pool: ParallelPool,
  kernel: string,
  args: unknown,
  parts: readonly KernelPart[],
  length: number,
): Work<R[]> {
  const scope = drivingScope()
  const run = pool.run<R>(kernel, args, parts, {
    ...(scope?.wanted ? { wanted: scope.wanted } : {}),
    ...(scope?.client === undefined ? {} : { client: scope.client }),
  })
  let outcome: { readonly parts: R[] } | { readonly error: unknown } | undefined
  const settled = run.result.then(
    (parts) => void (outcome = { parts }),
    (error: unknown) => void (outcome = { error }),
  )
  try {
    while (outcome === undefined) yield settled
  } finally {
    // Dropped before it ended (the client went away, the scope closed): the workers stop too.
    if (outcome === undefined) run.cancel()
  }
  if ('error' in outcome) throw outcome.error
  // The rows read, counted as this thread's own scan would count them.
  spend(length)
  return outcome.parts
}
