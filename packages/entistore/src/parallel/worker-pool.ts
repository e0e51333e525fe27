/**
 * @module The worker-thread pool behind core's `ParallelPool` contract: a datastore's data-sized
 * work (a kernel of `@entistore/core/kernels` over parts of a row range) runs on these threads,
 * over columns in SharedArrayBuffers, while the main thread keeps answering cheap requests.
 *
 * - Its threads start once (about 20 ms each) and stay; an idle pool keeps no process alive (a
 *   thread is ref'd only while it runs a part). `close()` ends them.
 * - A run's parts go one at a time to free threads (a thread that ends its part takes the next),
 *   each after asking the run's `wanted()`; parts of several runs wait per client and are taken
 *   client by client in turn (round-robin.ts).
 * - A run has its own cancel flag (a SharedArrayBuffer every part gets): `cancel()` raises it, so
 *   running parts stop at their kernel's next check and no other part starts.
 * - A kernel's error fails its run, never the process; a thread that dies is replaced, and the run
 *   whose part it held fails with an error saying so.
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { KernelCancelled } from '@entistore/core'
import type { KernelPart, KernelRun, KernelRunOptions, ParallelPool } from '@entistore/core'
import { cancelFlag } from '@entistore/core/kernels'
import type { AnswerMessage, PartMessage, ReadyMessage } from './pool-messages.js'
import { RoundRobin } from './round-robin.js'
import { workerEntry, workerExecArgv } from './worker-entry.js'

/** How a pool is made. */
export interface WorkerPoolOptions {
  /** Its threads, parts running at once. @default os.availableParallelism() - 1, at least 1 */
  readonly threads?: number
  /**
   * The rows from which the engine hands work to the pool (core's `ParallelPool.minRows`).
   * @default PARALLEL_MIN_ROWS (262,144): a hop costs more than a smaller scan
   */
  readonly minRows?: number
  /** Told of every part started and ended (counts and order for tests and metrics). */
  readonly onPart?: (event: PartEvent) => void
  /** @internal The worker's entry, for tests of one that does not load. @default workerEntry() */
  readonly entry?: URL
}

/** A part started on a thread, or ended there. */
export type PartEvent =
  | (PartOf & { readonly kind: 'start'; readonly thread: Worker })
  | (PartOf & {
      readonly kind: 'end'
      /** done: the kernel ended the part; stopped: it saw the cancel flag; lost: its thread died. */
      readonly outcome: 'done' | 'stopped' | 'failed' | 'lost'
      /** When stopped: the rows the kernel had read (`KernelStopped.rowsDone`). */
      readonly rowsDone?: number
    })

interface PartOf {
  /** The run's number in this pool, from 1. */
  readonly run: number
  readonly client: string
  /** The part's index in the run's parts. */
  readonly part: number
}

/** Makes a pool of worker threads for `createDatastore(model, { parallel })`. */
export function createWorkerPool(options: WorkerPoolOptions = {}): ParallelPool {
  const threads = options.threads ?? Math.max(1, availableParallelism() - 1)
  if (!Number.isInteger(threads) || threads < 1)
    throw new RangeError(`a worker pool needs a whole number of threads, at least 1: ${threads}`)
  const pool = new WorkerPool(threads, options.onPart, options.entry ?? workerEntry())
  if (options.minRows !== undefined) pool.minRows = options.minRows
  return pool
}

interface Run {
  readonly id: number
  readonly kernel: string
  readonly args: unknown
  readonly parts: readonly KernelPart[]
  readonly client: string
  readonly wanted: () => boolean
  readonly cancel: Int32Array
  readonly results: unknown[]
  readonly result: Promise<unknown[]>
  /** The next part to start. */
  next: number
  /** Parts not yet done. */
  left: number
  settled: boolean
  resolve(results: unknown[]): void
  reject(error: Error): void
}

interface Thread {
  readonly worker: Worker
  /** It loaded its entry and the kernels (its first message says so). */
  ready: boolean
  /** The error it raised, told when it exits. */
  error?: Error
  /** The part it runs. */
  busy?: { readonly id: number; readonly run: Run; readonly part: number }
}

class WorkerPool implements ParallelPool {
  readonly #threads: Thread[] = []
  readonly #queue = new RoundRobin<Run>()
  /** Runs not settled, queued or running: `close` cancels them. */
  readonly #live = new Set<Run>()
  #runs = 0
  #sent = 0
  minRows: number | undefined

  get runs(): number {
    return this.#runs
  }
  /** Why the pool can run nothing more: closed, or its threads cannot start. */
  #over: Error | undefined

  constructor(
    readonly threads: number,
    private readonly onPart: ((event: PartEvent) => void) | undefined,
    private readonly entry: URL,
  ) {
    if (!existsSync(entry))
      throw new Error(
        `the worker pool's entry ${fileURLToPath(entry)} is missing: build the packages (npm run build)`,
      )
  }

  // The threads start with the first run: a pool made and never used (`serve` makes one whatever
  // its data) costs no thread, no memory and no 20 ms of start-up.
  #started = false
  #startThreads(): void {
    this.#started = true
    try {
      for (let i = 0; i < this.threads; i++) this.#threads.push(this.#start())
    } catch (error) {
      // Node refused to start one (its options): the pool runs nothing, and says why.
      void this.#stop(
        new Error(`the worker pool's threads cannot start: ${asError(error).message}`),
        asError(error),
      )
    }
  }

  run<R>(
    kernel: string,
    args: unknown,
    parts: readonly KernelPart[],
    options: KernelRunOptions = {},
  ): KernelRun<R> {
    let resolve!: (results: unknown[]) => void
    let reject!: (error: Error) => void
    const result = new Promise<R[]>((yes, no) => {
      resolve = yes as (results: unknown[]) => void
      reject = no
    })
    const run: Run = {
      id: ++this.#runs,
      kernel,
      args,
      parts,
      client: options.client ?? '',
      wanted: options.wanted ?? (() => true),
      cancel: cancelFlag(),
      results: new Array(parts.length),
      result,
      next: 0,
      left: parts.length,
      settled: false,
      resolve,
      reject,
    }
    if (!this.#over && parts.length > 0 && !this.#started) this.#startThreads()
    if (this.#over) this.#end(run, this.#over)
    else if (parts.length === 0) this.#end(run)
    else {
      this.#live.add(run)
      this.#queue.push(run.client, run)
      this.#pump()
    }
    return { result, cancel: () => this.#end(run, new KernelCancelled()) }
  }

  close(): Promise<void> {
    return this.#stop(new Error('the worker pool is closed'), new KernelCancelled())
  }

  /** Ends the threads; the runs still going fail with `error`, later ones with `over`. */
  async #stop(over: Error, error: Error): Promise<void> {
    this.#over ??= over
    for (const run of [...this.#live]) this.#end(run, error)
    const threads = this.#threads.splice(0)
    await Promise.all(threads.map((thread) => thread.worker.terminate()))
  }

  #start(): Thread {
    const worker = new Worker(this.entry, { execArgv: workerExecArgv() })
    const thread: Thread = { worker, ready: false }
    worker.unref()
    worker.on('message', (message: AnswerMessage | ReadyMessage) => {
      if ('ready' in message) thread.ready = true
      else this.#answer(thread, message)
    })
    worker.on('error', (error) => (thread.error = error))
    worker.on('exit', (code) => this.#exited(thread, code))
    return thread
  }

  /** Gives free threads the next parts in turn, while there are both. */
  #pump(): void {
    for (let free = this.#free(); free; free = this.#free()) {
      const next = this.#take()
      if (!next) return
      this.#send(free, next.run, next.part)
    }
  }

  #free(): Thread | undefined {
    return this.#threads.find((thread) => !thread.busy)
  }

  /** The next part in turn of a run still wanted (a run whose `wanted()` says no is cancelled). */
  #take(): { run: Run; part: number } | undefined {
    for (let run = this.#queue.take(); run; run = this.#queue.take()) {
      let wanted: boolean
      try {
        wanted = run.wanted()
      } catch (error) {
        this.#end(run, asError(error))
        continue
      }
      if (!wanted) {
        this.#end(run, new KernelCancelled())
        continue
      }
      const part = run.next++
      if (run.next === run.parts.length) this.#queue.remove(run.client, run)
      return { run, part }
    }
    return undefined
  }

  #send(thread: Thread, run: Run, part: number): void {
    const { from, to } = run.parts[part]!
    const message: PartMessage = {
      id: ++this.#sent,
      kernel: run.kernel,
      args: run.args,
      from,
      to,
      cancel: run.cancel,
    }
    try {
      thread.worker.postMessage(message)
    } catch (error) {
      // Arguments the structured clone refuses: the run's own fault, the thread stays free.
      this.#end(run, asError(error))
      return
    }
    thread.busy = { id: message.id, run, part }
    // Running a part, the thread keeps the process alive until it answers.
    thread.worker.ref()
    this.onPart?.({ kind: 'start', run: run.id, client: run.client, part, thread: thread.worker })
  }

  #answer(thread: Thread, answer: AnswerMessage): void {
    const busy = thread.busy
    if (!busy || busy.id !== answer.id) return
    thread.busy = undefined
    thread.worker.unref()
    const { run, part } = busy
    const at = { run: run.id, client: run.client, part }
    if ('value' in answer) {
      run.results[part] = answer.value
      if (--run.left === 0) this.#end(run)
      this.onPart?.({ kind: 'end', ...at, outcome: 'done' })
    } else if ('stopped' in answer) {
      // Only a raised flag stops a kernel, and whoever raised it has settled the run already.
      this.onPart?.({ kind: 'end', ...at, outcome: 'stopped', rowsDone: answer.stopped })
    } else {
      this.#end(run, answer.error)
      this.onPart?.({ kind: 'end', ...at, outcome: 'failed' })
    }
    this.#pump()
  }

  #exited(thread: Thread, code: number): void {
    const at = this.#threads.indexOf(thread)
    if (at < 0) return // closed
    const why = `a worker thread of the pool stopped (exit code ${code}${thread.error ? `: ${thread.error.message}` : ''})`
    const busy = thread.busy
    if (busy) {
      const { run, part } = busy
      this.#end(
        run,
        new Error(
          `${why} while it ran part ${part + 1} of ${run.parts.length} of kernel '${run.kernel}'`,
        ),
      )
      this.onPart?.({ kind: 'end', run: run.id, client: run.client, part, outcome: 'lost' })
    }
    if (!thread.ready && thread.error) {
      // It failed before running anything (its entry does not load): another would fail the same
      // way, so the pool stops here rather than starting threads in a loop.
      const error = new Error(`the worker pool's threads cannot start: ${thread.error.message}`)
      void this.#stop(error, error)
      return
    }
    this.#threads[at] = this.#start()
    this.#pump()
  }

  /** Settles `run`: with its results, or with `error` (its flag raised, its queued parts dropped). */
  #end(run: Run, error?: Error): void {
    if (run.settled) return
    run.settled = true
    this.#live.delete(run)
    this.#queue.remove(run.client, run)
    if (!error) return run.resolve(run.results)
    Atomics.store(run.cancel, 0, 1)
    // A cancel is its caller's own doing: a run cancelled and then forgotten is no unhandled rejection.
    if (error instanceof KernelCancelled) run.result.catch(() => {})
    run.reject(error)
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
