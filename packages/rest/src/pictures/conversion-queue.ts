/**
 * @module How many picture conversions run at once. A conversion decodes the whole picture: a
 * 6300 × 6300 PNG asked as GIF is about 420 MB while it runs, and nothing but libuv's four threads
 * bounded how many ran: twelve such requests took the CLI server from 152 MB to 1.8 GB. The queue
 * runs a few at once, lets a bounded number wait their turn, first come first served, and refuses
 * the rest at once: a client asked to come back costs nothing, one more conversion waiting costs
 * its wait to every conversion behind it.
 */

export interface ConversionLimits {
  /**
   * Conversions run at once (each on one of libuv's threads, sharp's own threads aside).
   * @default 2
   */
  readonly maxConversions?: number
  /**
   * Conversions waiting for a turn, first come first served; past it a conversion is refused,
   * 503 with `Retry-After` (9111). A waiting conversion holds no memory of its own (the stored
   * picture is in memory already), only its client's time: a page of thumbnails waits here.
   * @default 64
   */
  readonly maxQueuedConversions?: number
}

/** Runs at most `maxRunning` tasks at once; up to `maxWaiting` more wait (FIFO); then none. */
export class ConversionQueue {
  readonly maxRunning: number
  readonly maxWaiting: number
  /** Tasks running now. */
  running = 0
  readonly #waiting: (() => void)[] = []

  constructor(limits: ConversionLimits = {}) {
    this.maxRunning = limits.maxConversions ?? 2
    this.maxWaiting = limits.maxQueuedConversions ?? 64
    if (!(Number.isInteger(this.maxRunning) && this.maxRunning >= 1))
      throw new RangeError(`maxConversions must be an integer >= 1, not ${this.maxRunning}`)
    if (!(Number.isInteger(this.maxWaiting) && this.maxWaiting >= 0))
      throw new RangeError(`maxQueuedConversions must be an integer >= 0, not ${this.maxWaiting}`)
  }

  /** Tasks waiting for a turn now. */
  get waiting(): number {
    return this.#waiting.length
  }

  /**
   * `task`'s result: run now when a turn is free, else once one is, after those that waited
   * before it. Undefined, and `task` never run, when as many are waiting as may.
   */
  run<T>(task: () => Promise<T>): Promise<T> | undefined {
    if (this.running < this.maxRunning) return this.#start(task)
    if (this.#waiting.length >= this.maxWaiting) return undefined
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push(() => this.#start(task).then(resolve, reject))
    })
  }

  #start<T>(task: () => Promise<T>): Promise<T> {
    this.running++
    let ran: Promise<T>
    try {
      ran = task()
    } catch (error) {
      ran = Promise.reject(error)
    }
    // The turn passes on however the task ends.
    return ran.finally(() => {
      this.running--
      this.#waiting.shift()?.()
    })
  }
}
