/**
 * A worker pool run by hand, for tests: each run's parts wait until the test says `next()`, which
 * runs one part here with core's own kernels (as a worker would run it), asking the run's
 * `wanted()` first as the real pool does. What happens between two parts is the test's to choose
 * and to count; its results settle as promises do, so the test lets the microtasks run after.
 */
import { cancelFlag, KERNELS } from './kernels.js'
import {
  KernelCancelled,
  type KernelPart,
  type KernelRun,
  type KernelRunOptions,
  type ParallelPool,
} from './parallel-pool.js'

/** One run the test drives. */
export interface HandRun {
  readonly kernel: string
  readonly parts: readonly KernelPart[]
  readonly client: string
  /** Parts run so far. */
  done: number
  /** Whether it has settled (all parts done, failed or cancelled). */
  over: boolean
  /** Runs its next part (after asking `wanted()`: false cancels it); nothing once it is over. */
  step(): void
}

export class HandPool implements ParallelPool {
  readonly started: HandRun[] = []
  /** Runs ended by a cancel: `cancel()`, or a `wanted()` that said false. */
  cancels = 0
  #fails: (() => void)[] = []

  constructor(
    readonly threads = 2,
    readonly minRows = 1,
  ) {}

  get runs(): number {
    return this.started.length
  }

  run<R>(
    kernel: string,
    args: unknown,
    parts: readonly KernelPart[],
    options: KernelRunOptions = {},
  ): KernelRun<R> {
    const results: R[] = []
    let settle!: { resolve: (r: R[]) => void; reject: (e: unknown) => void }
    const result = new Promise<R[]>((resolve, reject) => (settle = { resolve, reject }))
    const end = (error?: unknown): void => {
      if (run.over) return
      run.over = true
      if (error instanceof KernelCancelled) this.cancels++
      if (error === undefined) settle.resolve(results)
      else settle.reject(error)
    }
    const run: HandRun = {
      kernel,
      parts,
      client: options.client ?? '',
      done: 0,
      over: false,
      step: () => {
        if (run.over) return
        if (options.wanted?.() === false) return end(new KernelCancelled())
        const part = parts[run.done++]!
        results.push(KERNELS[kernel]!(args as never, part.from, part.to, cancelFlag()) as R)
        if (run.done === parts.length) end()
      },
    }
    this.#fails.push(() => end(new Error('a worker thread died')))
    this.started.push(run)
    return { result, cancel: () => end(new KernelCancelled()) }
  }

  /** The runs still going. */
  get going(): HandRun[] {
    return this.started.filter((run) => !run.over)
  }

  /** Runs the next part of the oldest run still going; false when none is. */
  next(): boolean {
    const run = this.started.find((run) => !run.over)
    run?.step()
    return run !== undefined
  }

  /** Fails the oldest run still going, as a thread that died would; false when none is. */
  fail(): boolean {
    const at = this.started.findIndex((run) => !run.over)
    if (at < 0) return false
    this.#fails[at]!()
    return true
  }

  async close(): Promise<void> {}
}

/** Lets every promise settled so far run its callbacks (and theirs). */
export const flushPromises = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
