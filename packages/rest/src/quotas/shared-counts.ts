/**
 * @module Rate counts shared with the other processes that serve the same clients (the workers of
 * one `serve`, the machines of one Redis). A request must not wait for the others: each process
 * counts what it admits at once, tells the others in one batch a turn, and checks its own counts
 * plus the others' as last heard. The overshoot is what the others admitted that this process has
 * not heard of yet: one batch of theirs in flight (docs/web-server.md states the bound).
 */

/** One count: its key (scope, quota, window start), the amount, and its window's end. */
export type CountEntry = readonly [key: string, amount: number, end: number]

/** Counts shared with other processes, keyed by scope, quota and window (`RateCounts`). */
export interface SharedCounts {
  /** Adds what this process counted under `key`, whose window ends at `end` (the clock's ms). */
  add(key: string, amount: number, end: number): void
  /** What the other processes counted under `key`, as last heard; 0 when nothing was. */
  others(key: string): number
}

/** Runs a function once the current turn is done (setImmediate; a test counts the turns). */
export type Defer = (fn: () => void) => void

/**
 * The process's side of a `SharedCounts`: the counts added in one turn go out together through
 * `send` (one message a turn, none in a turn that counted nothing: no quota, no cost), and what
 * the others counted comes in through `heard`. Windows that ended are forgotten.
 */
export class BatchedCounts implements SharedCounts {
  readonly #pending = new Map<string, [amount: number, end: number]>()
  readonly #others = new Map<string, [amount: number, end: number]>()
  #flushing = false
  #nextPrune = Infinity

  constructor(
    private readonly send: (counts: CountEntry[]) => void,
    private readonly now: () => number,
    private readonly defer: Defer = setImmediate,
  ) {}

  add(key: string, amount: number, end: number): void {
    const pending = this.#pending.get(key)
    if (pending) pending[0] += amount
    else this.#pending.set(key, [amount, end])
    if (this.#flushing) return
    this.#flushing = true
    this.defer(() => this.#flush())
  }

  others(key: string): number {
    return this.#others.get(key)?.[0] ?? 0
  }

  /** The others' totals, each replacing what was heard of its key before. */
  heard(counts: readonly CountEntry[]): void {
    for (const [key, amount, end] of counts) {
      this.#others.set(key, [amount, end])
      if (end < this.#nextPrune) this.#nextPrune = end
    }
    this.#prune()
  }

  #flush(): void {
    this.#flushing = false
    const counts = [...this.#pending].map(([key, [amount, end]]): CountEntry => [key, amount, end])
    this.#pending.clear()
    if (counts.length) this.send(counts)
    this.#prune()
  }

  #prune(): void {
    const now = this.now()
    if (now < this.#nextPrune) return
    this.#nextPrune = Infinity
    for (const [key, [, end]] of this.#others)
      if (end <= now) this.#others.delete(key)
      else if (end < this.#nextPrune) this.#nextPrune = end
  }
}
