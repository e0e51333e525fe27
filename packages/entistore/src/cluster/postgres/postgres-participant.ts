/**
 * @module PostgreSQL's part in a write (participant.ts), the following of what the other
 * processes commit, and read-your-writes across processes: the one object cluster-core.ts and
 * joinCluster hold, each of its jobs in a room of its own:
 *
 * - write-group.ts: a write group's round trips (the lock, the catch-up, the append);
 * - follower.ts: LISTEN, catching up, applying the others' records;
 * - lease.ts: this process's lease, and whether it may answer reads;
 * - acks.ts: acknowledgements, and the replies waiting for them (fencing the late);
 * - snapshots.ts: when a snapshot is written.
 *
 * The SQL of each is PostgresLog's (postgres-log.ts).
 */
import {
  datastoreError,
  type Datastore,
  type DatastoreError,
  type LogRecord,
} from '@entistore/core'
import { unrefSchedule, type Schedule } from '@entistore/rest'
import type { ClusterWrites } from '../cluster-core.js'
import type { Appended, ClusterParticipant, WriteTag } from '../participant.js'
import { Acknowledgements } from './acks.js'
import { Follower } from './follower.js'
import { Lease } from './lease.js'
import type { PostgresLog } from './postgres-log.js'
import { Snapshots } from './snapshots.js'
import type { LagSummary } from './types.js'
import { WriteGroups } from './write-group.js'

// Declared apart, for the public types to compile without pg (types.ts).
export type { LagSummary }

export interface PostgresParticipantOptions {
  /** The safety-net poll, in milliseconds. @default 1000 */
  readonly pollMs?: number
  /**
   * The bound of read-your-writes, in milliseconds: how long a lease lasts, how long a write
   * waits for a process to acknowledge it before fencing it. A process that cannot follow the log
   * for that long stops answering reads; a write waits at most twice this for a process that
   * stopped answering. @default 2000
   */
  readonly leaseMs?: number
  /** Milliseconds of a monotonic clock (the leases' clock). @default performance.now */
  readonly now?: () => number
  /** Runs the lease renewals and the acknowledgement waits. @default setTimeout, unref'd */
  readonly schedule?: Schedule
  readonly onError: (error: Error) => void
  /**
   * Whether every process may append (no one writer): acknowledgements are then heard from the
   * start; under one writer, from this process's first append on (follower.ts). @default true
   */
  readonly everyWriter?: boolean
}

export class PostgresParticipant implements ClusterParticipant {
  readonly name = 'postgres'
  readonly logsEveryCommit = true
  readonly #log: PostgresLog
  readonly #pollMs: number
  readonly #follower: Follower
  readonly #lease: Lease
  readonly #acks: Acknowledgements
  readonly #snapshots: Snapshots
  // Aborted when the process stops: every room stops with it, and a snapshot being written is
  // given up (rolled back: the log holds everything it would).
  readonly #stop = new AbortController()
  readonly #groups: WriteGroups
  #writes: ClusterWrites | undefined
  // While this process is the one writer (write-gate/): the fence its appends carry.
  #fence: string | undefined

  constructor(
    log: PostgresLog,
    ds: Datastore,
    applied: number,
    snapshotSeq: number,
    options: PostgresParticipantOptions,
  ) {
    this.#log = log
    this.#pollMs = options.pollMs ?? 1000
    const leaseMs = options.leaseMs ?? 2000
    if (!Number.isSafeInteger(leaseMs) || leaseMs < 4)
      throw new TypeError(`postgres: leaseMs must be an integer of 4 or more: ${leaseMs}`)
    const { onError } = options
    const { signal } = this.#stop
    const schedule = options.schedule ?? unrefSchedule
    const now = options.now ?? (() => performance.now())
    this.#follower = new Follower(log, ds, applied, {
      onError,
      signal,
      caughtUp: (seq) => {
        this.#lease.caughtUp(seq)
        this.#acks.ackSoon()
      },
      heardAck: (seq, origin) => this.#acks.heard(seq, origin),
      acks: options.everyWriter ?? true,
    })
    this.#lease = new Lease(log, this.#follower, { leaseMs, now, schedule, onError, signal })
    this.#acks = new Acknowledgements(log, this.#follower, { leaseMs, schedule, onError, signal })
    this.#snapshots = new Snapshots(log, ds, snapshotSeq, { onError, signal })
    // A group committed: applied here, maybe a snapshot, and its replies wait for the others.
    this.#groups = new WriteGroups(
      log,
      this.#follower,
      (last, members) => {
        this.#follower.appended(last)
        this.#snapshots.maybe(last, this.#writes?.pendingCommits ?? 0)
        return { visible: this.#acks.acknowledged(last, members), last }
      },
      () => this.#fence,
    )
  }

  /**
   * Appends from now on carry `fence` (write-gate/writer-lease.ts), while this process is the
   * writer; undefined when it no longer is.
   */
  writeUnder(fence: string | undefined): void {
    this.#fence = fence
  }

  beginGroup(): void {
    this.#groups.beginGroup()
  }

  position(): number {
    return this.#follower.applied
  }

  /** The replies of the last `limit` forwarded writes the log holds (postgres-log.ts). */
  loggedReplies(limit: number): Promise<{ seq: number; request: string; reply: string }[]> {
    return this.#log.loggedReplies(limit)
  }

  /** The seq of the last log row applied in this process. */
  get applied(): number {
    return this.#follower.applied
  }

  lag(): LagSummary {
    return this.#follower.lag()
  }

  /** Starts following the log (LISTEN, the poll) and joins the processes serving. */
  async follow(writes: ClusterWrites): Promise<void> {
    this.#writes = writes
    await this.#follower.start(writes, this.#pollMs)
    await this.#lease.start()
  }

  /** Why reads may not be answered here now (see lease.ts), or undefined. */
  readError(): DatastoreError | undefined {
    const why = this.unavailable()
    return why === undefined
      ? undefined
      : datastoreError('ClusterNotCurrent', [why], { details: { retryAfter: 1 } })
  }

  /** Why this process does not answer reads now, or undefined: for reads and `/health`. */
  unavailable(): string | undefined {
    const behind = this.#writes?.behind
    if (behind !== undefined) return `it cannot follow the shared log: ${behind}`
    return this.#lease.unavailable()
  }

  beforeWrite(): Promise<void> {
    return this.#groups.beforeWrite()
  }

  afterWrite(
    records: readonly LogRecord[],
    tags?: ReadonlyMap<number, WriteTag>,
  ): Promise<Appended | void> {
    return this.#groups.afterWrite(records, tags)
  }

  tryAppend(
    records: readonly LogRecord[],
    tags?: ReadonlyMap<number, WriteTag>,
  ): Promise<Appended | 'moved' | void> {
    return this.#groups.tryAppend(records, tags)
  }

  retry(): Promise<boolean> {
    return this.#groups.retry()
  }

  /** Before a group runs: the notifications that follow on, applied (see participant.ts). */
  beforeRun(): void {
    this.#follower.beforeRun()
  }

  /** Applies what the others committed, now (in the write gate). */
  catchUp(): Promise<void> {
    return this.#follower.catchUp()
  }

  /**
   * Resolves once this process applied the log up to `at` (a forwarded write's reply: its
   * forwarding process answers after it). Usually at once: the writer's reply waited for every
   * process serving to apply it. Else the log is read, a few times at most.
   */
  async waitApplied(at: number): Promise<void> {
    for (let tries = 0; this.#follower.applied < at; tries++) {
      if (tries === 3)
        throw new Error(`log position ${at} not applied here (at ${this.#follower.applied})`)
      await this.#follower.catchUp()
    }
  }

  /** Writes a snapshot of the store as it is (after catching up), once the one being written is done. */
  snapshot(): Promise<boolean> {
    return this.#snapshots.snapshot(this.#writes!, async () => {
      await this.#follower.catchUpWith(this.#log.pool, undefined)
      return this.#follower.applied
    })
  }

  async close(): Promise<void> {
    this.#stop.abort()
    this.#lease.stop()
    this.#follower.stop()
    await this.#snapshots.writing
    // The replies still waiting for acknowledgements get them (or fence), within two leases.
    await this.#acks.drain()
    // Writes no longer wait for this process (it answers no read from now on).
    await this.#log.leave().catch(() => undefined)
    await this.#follower.end()
  }
}
