/**
 * @module The workers of a project's code on one datastore (`CALL WORKER`, call-worker.md). 4D
 * runs a worker as a process of its own that takes its messages one after the other; here the
 * server's thread does, after the calling code's turn (a timer of 0 ms), so that a call never
 * waits for the jobs it queues, one job a turn, so that the server answers others between two
 * (at most MAX_QUEUED wait), and in their order, each one:
 * - as the code that queued it acts (its session and privileges, captured when it was queued):
 *   what a job reads and writes is decided by its caller's view, as any other path of a request;
 * - with the worker's process variables, kept from one job to the next until `KILL WORKER`;
 * - within a budget of its own, its error told to the host's log, never to the caller.
 * A signal's `wait()` runs the jobs queued so far, now, until it is triggered (classes/signal.ts).
 */
import { actingNow, detached, runActor, type Actor } from '@entistore/core'
import type { WorkerHost } from '../runtime/context/command-context.js'
import type { FourDFunction } from '../runtime/context/function-object.js'
import { raise } from '../runtime/errors/fourd-error.js'

/** A job queued on a worker: what runs, with what, as whom. */
export interface WorkerJob {
  /** The queue it is on: the worker's name, or a process's own. */
  readonly worker: string
  /** The process's name (`Current process name`): the worker's, or the one `New process` gave. */
  readonly name: string
  /** A process `New process` started: its number; its variables end with it. */
  readonly process?: number
  readonly job: FourDFunction | string
  readonly args: readonly unknown[]
  readonly actor: Actor | undefined
}

/** Runs one job with the worker's process variables (the project runner's). */
export type JobRunner = (job: WorkerJob, variables: Map<string, unknown>) => void

/**
 * The most jobs waiting on a datastore's workers: past it `CALL WORKER` raises, so that code in a
 * loop cannot fill the memory with jobs, nor queue more than the server's turns can run.
 */
export const MAX_QUEUED = 10_000

export class Workers implements WorkerHost {
  readonly #queue: WorkerJob[] = []
  readonly #variables = new Map<string, Map<string, unknown>>()
  #scheduled = false
  // Process numbers of New process: apart from the small ones 4D's own processes take.
  #processes = 100

  constructor(private readonly runJob: JobRunner) {}

  call(worker: string, job: FourDFunction | string, args: unknown[]): void {
    this.#post({ worker, name: worker, job, args: [...args], actor: actingNow() })
  }

  spawn(name: string, job: FourDFunction | string, args: unknown[], unique: boolean): number {
    const waiting = unique
      ? this.#queue.find((j) => j.process !== undefined && j.name === name)
      : undefined
    if (waiting !== undefined) return waiting.process!
    const process = ++this.#processes
    this.#post({ worker: `\0${process}`, name, process, job, args: [...args], actor: actingNow() })
    return process
  }

  #post(job: WorkerJob): void {
    if (this.#queue.length >= MAX_QUEUED) raise('WorkersFull', { max: MAX_QUEUED })
    this.#queue.push(job)
    this.#schedule()
  }

  // One job a turn of the event loop: between two, the server answers others.
  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return
    this.#scheduled = true
    setTimeout(() => {
      this.#scheduled = false
      this.#runNext()
      this.#schedule()
    }, 0)
  }

  kill(worker: string): void {
    for (let i = this.#queue.length - 1; i >= 0; i--)
      if (this.#queue[i]!.worker === worker) this.#queue.splice(i, 1)
    this.#variables.delete(worker)
  }

  runUntil(done: () => boolean): void {
    // The jobs queued now, at most: a job that queues another does not keep a wait going.
    let left = this.#queue.length
    while (!done() && left-- > 0) this.#runNext()
  }

  /** The first job waiting, if any, run. */
  #runNext(): void {
    const next = this.#queue.shift()
    if (next === undefined) return
    let variables = this.#variables.get(next.worker)
    if (variables === undefined) this.#variables.set(next.worker, (variables = new Map()))
    // A process of its own, as a 4D worker is: not the caller's call, transaction or lock, and
    // not the Actor of whichever request scheduled the timer; its caller's Actor, if it had one.
    const run = (): void => this.runJob(next, variables)
    detached(() => (next.actor === undefined ? run() : runActor(next.actor, run)))
    // A process's variables end with it; a worker's wait for its next job.
    if (next.process !== undefined) this.#variables.delete(next.worker)
  }

  /** How many jobs wait (tests, and the host's shutdown). */
  get pending(): number {
    return this.#queue.length
  }
}
