/**
 * @module Whether the in-memory stores are being changed to follow Redis, or by a request here:
 * the mirrors observe the core's stores, and what they change to follow Redis must not be written
 * back to it. One per participant, shared by its mirrors.
 */
export class Following {
  #depth = 0

  /** Whether a change seen now is this process's own (to be written to Redis). */
  get own(): boolean {
    return this.#depth === 0
  }

  /** Runs `fn`, whose changes to the stores follow Redis (not written back). */
  run<T>(fn: () => T): T {
    this.#depth++
    try {
      return fn()
    } finally {
      this.#depth--
    }
  }
}
