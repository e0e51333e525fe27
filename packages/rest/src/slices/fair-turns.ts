/**
 * @module Whose heavy read runs next. Reads whose work goes on in slices (core's `SliceScope`)
 * each wait here for their next slice; one slice runs per turn of the event loop, so that the
 * requests that arrived meanwhile (a GET by key answers in its own I/O callback, synchronously) are
 * served between any two slices, and they are taken client by client in turn: a client with ten
 * heavy reads waiting gets one slice when a client with one gets one, so that its reads cannot
 * starve another client's. A client is its session when it has one, else its address.
 *
 * A job whose work waits outside the thread (a worker pool's run: a slice that returns a promise,
 * core's parked scope) leaves its client's line meanwhile: no turn is spent on it, and with nothing
 * else waiting no turn is scheduled at all. Once the promise settles it comes back to its line at
 * its arrival's place, and its next slice goes on (or throws what the wait failed with).
 *
 * The turn is injected (by default a place in core's `sliceLine`, where every driver of slices in
 * the process waits: one slice of any work a turn of the event loop, after its I/O callbacks), so
 * that a test decides when the next slice runs and counts them.
 */
import { sliceLine } from '@entistore/core'
import type { NextTurn } from './turns.js'

interface Job {
  /** The request's place in its client's line: its arrival. */
  readonly order: number
  /**
   * Runs one slice: true once the work is done, false for more, or a promise to wait for before
   * the next (its settling, either way, brings the job back). Throws to end it with that error.
   */
  readonly slice: () => Slice
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/** What a slice of a job says: done, more to do, or a wait before its next slice. */
export type Slice = boolean | Promise<void>

export class FairTurns {
  readonly #nextTurn: NextTurn
  // Each client's jobs, in arrival order; the Map's order is the round's order.
  readonly #clients = new Map<string, Job[]>()
  #scheduled = false
  /** Slices run so far (tests count them). */
  slices = 0
  /** Jobs out of their line, waiting for their promise. */
  parked = 0

  constructor(turn: NextTurn = (fn) => sliceLine.later(fn)) {
    this.#nextTurn = turn
  }

  /** Jobs waiting, every client's. */
  get waiting(): number {
    let n = 0
    for (const jobs of this.#clients.values()) n += jobs.length
    return n
  }

  /**
   * Settles once `slice` has returned true, run once per turn of `client`'s in the round; rejects
   * with what it throws. Among one client's jobs, the one of the earliest request (`order`, its
   * arrival) runs first: a request that goes on with its next piece of work keeps its place.
   * `parked`: the job waits for it before its first slice (its work parked in the request's run).
   */
  run(client: string, slice: () => Slice, order: number, parked?: Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      const job = { order, slice, resolve, reject }
      if (parked) this.#park(client, job, parked)
      else this.#line(client, job)
    })
  }

  // `job` in its client's line, at its arrival's place.
  #line(client: string, job: Job): void {
    const jobs = this.#clients.get(client)
    if (!jobs) this.#clients.set(client, [job])
    else {
      let at = jobs.length
      while (at > 0 && jobs[at - 1]!.order > job.order) at--
      jobs.splice(at, 0, job)
    }
    this.#schedule()
  }

  // `job` out of every line until `wait` settles.
  #park(client: string, job: Job, wait: Promise<void>): void {
    this.parked++
    const back = (): void => {
      this.parked--
      this.#line(client, job)
    }
    wait.then(back, back)
  }

  #schedule(): void {
    if (this.#scheduled) return
    this.#scheduled = true
    this.#nextTurn(this.#turn)
  }

  // One slice of the first client's first job; the client then goes to the end of the round.
  readonly #turn = (): void => {
    this.#scheduled = false
    const first = this.#clients.entries().next()
    if (first.done) return
    const [client, jobs] = first.value
    this.#clients.delete(client)
    const job = jobs[0]!
    let outcome: Slice
    try {
      this.slices++
      outcome = job.slice()
    } catch (error) {
      jobs.shift()
      job.reject(error)
      outcome = false
    }
    if (outcome === true) {
      jobs.shift()
      job.resolve()
    } else if (outcome !== false) {
      jobs.shift()
      this.#park(client, job, outcome)
    }
    if (jobs.length > 0) this.#clients.set(client, jobs)
    if (this.#clients.size > 0) this.#schedule()
  }
}
