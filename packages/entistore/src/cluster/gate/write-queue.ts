/**
 * @module The per-process write gate's queue: one exclusive section at a time (a turn of the
 * gate), and the writes that arrive while a group is in flight waiting together for the next
 * turn, which takes at most `maxGroup` of them. What a group does is its runner's (group-run.ts).
 */

/** A write waiting for its group. */
export interface QueuedWrite {
  readonly fn: () => unknown
  /** Whether it may run twice (undone in between): a plain data write. */
  readonly again: boolean
  /**
   * A forwarded write's id and its reply's text (made from its value): left in the log beside its
   * last record, and its value resolved with the log position that holds it (`Placed`).
   */
  readonly tag?: { readonly id: string; readonly text: (value: unknown) => string }
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

/** A tagged write's value, and the log position it is at (the group's last, or what was applied). */
export interface Placed<T> {
  readonly value: T
  readonly at: number
}

/**
 * Runs one group in the gate; resolves with what settles its writes, called once the gate is let
 * go (the next group runs while this one's replies wait to be visible).
 */
export type RunGroup = (group: readonly QueuedWrite[]) => Promise<() => Promise<void>>

export class WriteQueue {
  /** Most writes in one group. */
  readonly maxGroup: number
  readonly #run: RunGroup
  // Writes waiting for the next group, and whether a turn of the gate is queued for them.
  readonly #queue: QueuedWrite[] = []
  #groupQueued = false
  // The tail of the gate: each exclusive section starts once the one before it has settled.
  #gate: Promise<unknown> = Promise.resolve()

  constructor(maxGroup: number, run: RunGroup) {
    this.maxGroup = maxGroup
    this.#run = run
  }

  /** Settles once every turn queued so far has. */
  get tail(): Promise<unknown> {
    return this.#gate
  }

  enqueue<T>(fn: () => T | Promise<T>, again: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, again, resolve: resolve as (value: unknown) => void, reject })
      this.#scheduleGroup()
    })
  }

  /** A write whose id and reply go into the log with it; resolves with where it is in the log. */
  enqueueTagged<T>(
    fn: () => T | Promise<T>,
    again: boolean,
    tag: NonNullable<QueuedWrite['tag']>,
  ): Promise<Placed<T>> {
    return new Promise<Placed<T>>((resolve, reject) => {
      this.#queue.push({ fn, again, tag, resolve: resolve as (value: unknown) => void, reject })
      this.#scheduleGroup()
    })
  }

  /** Runs `fn` alone: once every turn before it has settled, and before any queued after it. */
  turn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#gate.then(fn)
    this.#gate = run.catch(() => undefined)
    return run
  }

  /** A turn of the gate for the writes queued by the time it starts (one is queued at most). */
  #scheduleGroup(): void {
    if (this.#groupQueued) return
    this.#groupQueued = true
    void this.turn(async () => {
      this.#groupQueued = false
      const group = this.#queue.splice(0, this.maxGroup)
      if (this.#queue.length > 0) this.#scheduleGroup()
      const settle = await this.#run(group)
      // The gate is let go here: the next group runs while this one's replies wait to be visible.
      void settle()
    })
  }
}
