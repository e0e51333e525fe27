/**
 * @module This process's lease among the processes serving (members.ts), and whether it may
 * answer reads.
 *
 * The lease is renewed every quarter of `leaseMs`; the process answers reads only while it holds
 * one by its own clock (counted from when it sent the renewal, so it ends before PostgreSQL's),
 * and only once caught up with the head it read when it joined. A process fenced by a writer
 * (acks.ts), or whose lease ran out, joins again, catches up, and serves again. A process joins
 * under the log's lock, so that a write either committed before its join (and is at or below the
 * head it catches up to) or reads it among the processes to wait for.
 */
import type { Schedule } from '@entistore/rest'

/** The SQL side a Lease uses (PostgresLog's `join` and `renew`). */
export interface LeaseLog {
  join(leaseMs: number, applied: number): Promise<{ head: number }>
  renew(leaseMs: number, applied: number): Promise<boolean>
}

/** What the lease needs of the follower (follower.ts). */
export interface LeaseFollower {
  readonly applied: number
  /** The log holds at least `seq` (a head read when joining). */
  heardOf(seq: number): void
  /** Applies what the others committed, now (in the write gate). */
  catchUp(): Promise<void>
}

export interface LeaseOptions {
  readonly leaseMs: number
  /** Milliseconds of a monotonic clock (the leases' clock). */
  readonly now: () => number
  /** Runs the renewals. */
  readonly schedule: Schedule
  readonly onError: (error: Error) => void
  /** Aborted when the process stops: no more joins or renewals. */
  readonly signal: AbortSignal
}

export class Lease {
  readonly #log: LeaseLog
  readonly #follower: LeaseFollower
  readonly #options: LeaseOptions
  // Until when (this clock) reads may be answered, and whether this process caught up with the
  // head it read when it (last) joined.
  #deadline = -Infinity
  #current = false
  #joinHead = Infinity
  #joining = false
  #stopRenewal: (() => void) | undefined
  #renewFailing = false

  constructor(log: LeaseLog, follower: LeaseFollower, options: LeaseOptions) {
    this.#log = log
    this.#follower = follower
    this.#options = options
  }

  /** Joins, then renews every quarter of the lease until stopped. */
  async start(): Promise<void> {
    await this.join()
    this.#renewLater()
  }

  /** Why this process may not answer reads, as far as the lease says, or undefined. */
  unavailable(): string | undefined {
    if (this.#options.signal.aborted) return 'it is stopping'
    if (!this.#current) return 'it is catching up with the shared log'
    if (this.#options.now() >= this.#deadline)
      return 'it could not renew its lease on the shared log in time'
    return undefined
  }

  /** After applying up to `applied`: current once at the head read when joining. */
  caughtUp(applied: number): void {
    if (!this.#current && applied >= this.#joinHead) this.#current = true
  }

  /**
   * Joins (again) the processes serving: a lease, and the head to catch up to before answering
   * reads. Renewals call it when the lease was lost.
   */
  async join(): Promise<void> {
    if (this.#joining || this.#options.signal.aborted) return
    this.#joining = true
    this.#current = false
    // Until the join reads the log's head, no catch-up can make this process current: one that
    // ends meanwhile (a poll, a reconnected listener) compared with the head of the last join,
    // and let reads through before the rows committed while this process was away.
    this.#joinHead = Infinity
    try {
      const { leaseMs, now } = this.#options
      const sent = now()
      const { head } = await this.#log.join(leaseMs, this.#follower.applied)
      this.#deadline = sent + leaseMs
      this.#joinHead = head
      this.#follower.heardOf(head)
      if (this.#follower.applied >= head) this.#current = true
      else await this.#follower.catchUp()
    } finally {
      this.#joining = false
    }
  }

  /** Stops the renewals (the process stops). */
  stop(): void {
    this.#stopRenewal?.()
  }

  #renewLater(): void {
    if (this.#options.signal.aborted) return
    this.#stopRenewal = this.#options.schedule(
      () => {
        this.#renew()
          .then(
            () => void (this.#renewFailing = false),
            (e: Error) => {
              // Once per outage: the renewals go on every quarter of the lease meanwhile.
              if (!this.#renewFailing)
                this.#options.onError(
                  new Error(
                    `entistore cluster: the lease on the shared log cannot be renewed (${e.message}); reads are refused once it runs out`,
                    { cause: e },
                  ),
                )
              this.#renewFailing = true
            },
          )
          .finally(() => this.#renewLater())
      },
      Math.floor(this.#options.leaseMs / 4),
    )
  }

  async #renew(): Promise<void> {
    if (this.#options.signal.aborted) return
    const { leaseMs, now } = this.#options
    const sent = now()
    if (this.#current && (await this.#log.renew(leaseMs, this.#follower.applied))) {
      this.#deadline = Math.max(this.#deadline, sent + leaseMs)
      return
    }
    // Fenced, expired, or never caught up: join again (caught up before answering reads).
    await this.join()
  }
}
