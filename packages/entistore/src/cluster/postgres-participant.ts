/**
 * @module PostgreSQL's part in a write (participant.ts), the following of what the other
 * processes commit, and read-your-writes across processes.
 *
 * A write group: `beforeWrite` opens a transaction, takes the log's advisory lock (one writer at
 * a time across every process), applies the log rows this process has not applied yet, so that
 * the group's checks (stamps, unique values, keys) run against every commit before it, and reads
 * the other processes serving (`members`); `afterWrite` appends the group's records, notifies the
 * channel and commits, and the applied seq moves to the last record. Each is one round trip
 * (postgres-log.ts), plus one per further `catchUpRows` rows when this process is that far
 * behind. If anything fails, the transaction is rolled back (the lock goes with it) and the
 * applied seq stays: a COMMIT whose reply was lost may still have committed (its connection is
 * then destroyed), and then its rows come back through the log, like another process's.
 *
 * **Read-your-writes.** A group's replies wait (`visible`, outside the gate) until every other
 * process serving acknowledged that it applied the group: a read through any process after a
 * write's reply sees it. Each process holds a *lease* in the members table, renewed every quarter
 * of `leaseMs`; it answers reads only while it holds one by its own clock (counted from when it
 * sent the renewal, so it ends before PostgreSQL's), and only once caught up with the head it read
 * when it joined. A writer waits at most `leaseMs` for an acknowledgement; then it fences the
 * late process (its lease can no longer be renewed) and waits out what is left of its lease: the
 * late process stops answering reads by then, joins again, catches up, and serves again. A
 * process joins under the log's lock, so that a write either committed before its join (and is at
 * or below the head it catches up to) or reads it among the processes to wait for.
 *
 * Following: a connection of its own LISTENs on the log's channel and on the acknowledgements'.
 * A notification carries the group's records when they fit: a process that applied up to the
 * writer's head applies them at once (in the gate), without reading the log; otherwise, or past a
 * gap, it reads the log. A slow poll catches what a notification missed (one reconnecting misses
 * them). After a lost connection, the listener reconnects with a growing delay, then catches up.
 * Every application of others' rows is acknowledged (one NOTIFY, not made durable).
 *
 * Snapshots: after the write that takes the log `snapshotEvery` records past the last snapshot
 * (or when asked), a view of the store is opened at that seq and written from, a slice at a time,
 * while this process goes on serving and writing (postgres-log.ts); one at a time, given up when
 * the process stops.
 */
import {
  applyLogRecords,
  datastoreError,
  DatastoreError,
  openStoreView,
  snapshotRecords,
  type Datastore,
  type LogRecord,
} from '@entistore/core'
import type pg from 'pg'
import type { ClusterWrites } from './cluster-core.js'
import { unrefSchedule, type Schedule } from '@entistore/rest'
import type { Appended, ClusterParticipant } from './participant.js'
import {
  readAck,
  readNotice,
  type LogNotice,
  type LogRows,
  type LogTransaction,
  type Member,
  type PostgresLog,
} from './postgres-log.js'
import type { LagSummary } from './postgres-types.js'

// Declared apart, for the public types to compile without pg (postgres-types.ts).
export type { LagSummary }

/** The last `size` samples, summarized on demand. */
class LagStats {
  readonly #samples: number[] = []
  #next = 0
  #count = 0

  constructor(readonly size = 10_000) {}

  add(ms: number): void {
    this.#count++
    if (this.#samples.length < this.size) this.#samples.push(ms)
    else this.#samples[this.#next] = ms
    this.#next = (this.#next + 1) % this.size
  }

  summary(): LagSummary {
    const sorted = [...this.#samples].sort((a, b) => a - b)
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
    return { count: this.#count, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 }
  }
}

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
}

/** A group's reply waiting for the acknowledgements of the processes serving. */
interface AckWait {
  readonly seq: number
  readonly missing: Set<string>
  readonly done: () => void
}

export class PostgresParticipant implements ClusterParticipant {
  readonly name = 'postgres'
  readonly logsEveryCommit = true
  readonly #log: PostgresLog
  readonly #ds: Datastore
  readonly #onError: (error: Error) => void
  readonly #pollMs: number
  readonly #leaseMs: number
  readonly #now: () => number
  readonly #schedule: Schedule
  readonly #lag = new LagStats()
  #writes: ClusterWrites | undefined
  #tx: LogTransaction | undefined
  // The group in flight: the log's head it caught up to, and the processes to wait for.
  #groupHead = 0
  #groupMembers: readonly Member[] = []
  #applied: number
  #snapshotSeq: number
  #listener: pg.Client | undefined
  #poll: ReturnType<typeof setInterval> | undefined
  #reconnectMs = 50
  #following = false
  #again = false
  #closed = false
  // The log rows read by a tryAppend that found the log moved on: applied by `retry`.
  #moved: LogRows | undefined
  // Notifications not applied yet, in commit order; the highest seq known to be committed.
  #notices: LogNotice[] = []
  #heard = 0
  // Read-your-writes: until when (this clock) reads may be answered, and whether this process
  // caught up with the head it read when it (last) joined.
  #deadline = -Infinity
  #current = false
  #joinHead = Infinity
  #joining = false
  #stopRenewal: (() => void) | undefined
  #renewFailing = false
  // Acknowledgements: the highest seq each other process said it applied; the writes waiting.
  readonly #acked = new Map<string, number>()
  readonly #waits = new Set<AckWait>()
  #ackSent = 0
  #acking = false
  // The snapshot being written (settles, never rejects), and what stops it when the process stops.
  #snapshotting: Promise<void> | undefined
  readonly #stop = new AbortController()

  constructor(
    log: PostgresLog,
    ds: Datastore,
    applied: number,
    snapshotSeq: number,
    options: PostgresParticipantOptions,
  ) {
    this.#log = log
    this.#ds = ds
    this.#applied = applied
    this.#snapshotSeq = snapshotSeq
    this.#onError = options.onError
    this.#pollMs = options.pollMs ?? 1000
    this.#leaseMs = options.leaseMs ?? 2000
    if (!Number.isSafeInteger(this.#leaseMs) || this.#leaseMs < 4)
      throw new TypeError(`postgres: leaseMs must be an integer of 4 or more: ${this.#leaseMs}`)
    this.#now = options.now ?? (() => performance.now())
    this.#schedule = options.schedule ?? unrefSchedule
  }

  /** The seq of the last log row applied in this process. */
  get applied(): number {
    return this.#applied
  }

  lag(): LagSummary {
    return this.#lag.summary()
  }

  /** Starts following the log (LISTEN, the poll) and joins the processes serving. */
  async follow(writes: ClusterWrites): Promise<void> {
    this.#writes = writes
    await this.#listen()
    this.#poll = setInterval(() => this.catchUpSoon(true), this.#pollMs).unref()
    await this.#join()
    this.#renewLater()
  }

  /** Why reads may not be answered here now (see the module note), or undefined. */
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
    if (this.#closed) return 'it is stopping'
    if (!this.#current) return 'it is catching up with the shared log'
    if (this.#now() >= this.#deadline)
      return 'it could not renew its lease on the shared log in time'
    return undefined
  }

  /**
   * Joins (again) the processes serving: a lease, and the head to catch up to before answering
   * reads. Renewals call it when the lease was lost.
   */
  async #join(): Promise<void> {
    if (this.#joining || this.#closed) return
    this.#joining = true
    this.#current = false
    // Until the join reads the log's head, no catch-up can make this process current: one that
    // ends meanwhile (a poll, a reconnected listener) compared with the head of the last join,
    // and let reads through before the rows committed while this process was away.
    this.#joinHead = Infinity
    try {
      const sent = this.#now()
      const { head } = await this.#log.join(this.#leaseMs, this.#applied)
      this.#deadline = sent + this.#leaseMs
      this.#joinHead = head
      this.#heard = Math.max(this.#heard, head)
      if (this.#applied >= head) this.#current = true
      else await this.catchUp()
    } finally {
      this.#joining = false
    }
  }

  #renewLater(): void {
    if (this.#closed) return
    this.#stopRenewal = this.#schedule(
      () => {
        this.#renew()
          .then(
            () => void (this.#renewFailing = false),
            (e: Error) => {
              // Once per outage: the renewals go on every quarter of the lease meanwhile.
              if (!this.#renewFailing)
                this.#onError(
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
      Math.floor(this.#leaseMs / 4),
    )
  }

  async #renew(): Promise<void> {
    if (this.#closed) return
    const sent = this.#now()
    if (this.#current && (await this.#log.renew(this.#leaseMs, this.#applied))) {
      this.#deadline = Math.max(this.#deadline, sent + this.#leaseMs)
      return
    }
    // Fenced, expired, or never caught up: join again (caught up before answering reads).
    await this.#join()
  }

  async beforeWrite(): Promise<void> {
    const { rows, floor, members, ...tx } = await this.#log.beginWrite(this.#applied)
    try {
      await this.#catchUp(tx.client, { rows, floor })
    } catch (e) {
      await this.#log.rollback(tx, e)
      throw e
    }
    this.#tx = tx
    this.#groupHead = this.#applied
    this.#groupMembers = members
  }

  async afterWrite(records: readonly LogRecord[]): Promise<Appended | void> {
    const tx = this.#tx
    this.#tx = undefined
    if (!tx) throw new Error('afterWrite without beforeWrite')
    if (records.length === 0) return await this.#log.rollback(tx)
    // On failure the transaction is rolled back, or its connection destroyed when the outcome
    // is unknown: either way the applied seq stays, and committed rows come back through the log.
    const { last } = await this.#log.appendAndCommit(tx, records, this.#groupHead)
    this.#applied = last
    this.#maybeSnapshot(last)
    return { visible: this.#acknowledged(last, this.#groupMembers) }
  }

  /**
   * A group in one round trip, if the log is where this process last applied it (cluster-core.ts
   * runs the group without beforeWrite first); 'moved' otherwise, nothing written.
   */
  async tryAppend(records: readonly LogRecord[]): Promise<Appended | 'moved' | void> {
    if (records.length === 0) {
      // Nothing to write, but the group's refusals (a stale stamp, an entity not found) were
      // decided on what this process holds: they stand only if the log did not move since.
      const moved = await this.#log.movedSince(this.#applied)
      if (moved === undefined) return
      this.#moved = moved
      return 'moved'
    }
    const out = await this.#log.appendIfAt(this.#applied, records)
    if ('moved' in out) {
      this.#moved = out.moved
      return 'moved'
    }
    this.#applied = out.last
    this.#maybeSnapshot(out.last)
    return { visible: this.#acknowledged(out.last, out.members) }
  }

  /**
   * After a 'moved' (the group undone): applies the rows that attempt read, so that the group
   * may be tried again; false when they may not be all (then the careful way: beforeWrite).
   */
  async retry(): Promise<boolean> {
    const read = this.#moved
    this.#moved = undefined
    if (read === undefined || read.rows.length >= this.#log.catchUpRows) return false
    await this.#catchUp(this.#log.pool, read)
    return true
  }

  /**
   * Resolves once every process of `members` acknowledged `seq`. One that has not within the
   * lease is fenced, and its lease waited out; if it cannot be fenced, rejects (9135).
   */
  #acknowledged(seq: number, members: readonly Member[]): Promise<void> {
    const missing = new Set<string>()
    // Fenced already (by a writer that waited for them in vain): not waited for, but their lease is
    // waited out, since until it runs out they may still answer reads.
    let fenced = 0
    for (const m of members)
      if (m.applied < seq && (this.#acked.get(m.origin) ?? 0) < seq) {
        if (m.evicted) fenced = Math.max(fenced, m.remaining)
        else missing.add(m.origin)
      }
    const leases = fenced > 0 ? this.#sleep(Math.ceil(fenced)) : undefined
    if (missing.size === 0) return leases ?? Promise.resolve()
    const acks = new Promise<void>((resolve, reject) => {
      let cancel: (() => void) | undefined
      const wait: AckWait = {
        seq,
        missing,
        done: () => {
          this.#waits.delete(wait)
          cancel?.()
          resolve()
        },
      }
      this.#waits.add(wait)
      cancel = this.#schedule(() => {
        if (!this.#waits.has(wait)) return
        this.#waits.delete(wait)
        this.#fence([...missing], seq).then(resolve, reject)
      }, this.#leaseMs)
    })
    return leases ? Promise.all([acks, leases]).then(() => undefined) : acks
  }

  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => this.#schedule(resolve, ms))
  }

  /** Fences `origins`, late for `seq`, and waits out the leases they have left. */
  async #fence(origins: string[], seq: number): Promise<void> {
    let fenced: { origin: string; remaining: number }[]
    try {
      fenced = await this.#log.evict(origins)
    } catch (e) {
      throw datastoreError(
        'ClusterWriteUnconfirmed',
        [
          `${origins.join(', ')} did not acknowledge it within ${this.#leaseMs} ms and could not be fenced: ${(e as Error).message}`,
        ],
        { cause: e, details: { retryAfter: 1 } },
      )
    }
    const late = fenced.filter((f) => (this.#acked.get(f.origin) ?? 0) < seq)
    if (late.length === 0) return
    this.#onError(
      new Error(
        `entistore cluster: fenced ${late.map((f) => f.origin).join(', ')}, which did not apply log row ${seq} within ${this.#leaseMs} ms`,
      ),
    )
    const wait = Math.ceil(Math.max(...late.map((f) => f.remaining)))
    if (wait > 0) await this.#sleep(wait)
  }

  #onAck(seq: number, origin: string): void {
    if (origin === this.#log.origin) return
    if ((this.#acked.get(origin) ?? 0) < seq) this.#acked.set(origin, seq)
    for (const wait of this.#waits)
      if (seq >= wait.seq && wait.missing.delete(origin) && wait.missing.size === 0) wait.done()
  }

  /** Acknowledges what is applied now (one NOTIFY at a time; the latest seq when it goes). */
  #ackSoon(): void {
    if (this.#acking || this.#closed || this.#applied <= this.#ackSent) return
    this.#acking = true
    const seq = this.#applied
    this.#log
      .ack(seq, this.#listener)
      .then(
        () => void (this.#ackSent = Math.max(this.#ackSent, seq)),
        (e: Error) => this.#onError(e),
      )
      .finally(() => {
        this.#acking = false
        if (this.#applied > this.#ackSent) this.#ackSoon()
      })
  }

  /** Applies what the others committed, now (in the write gate). */
  catchUp(): Promise<void> {
    return this.#writes!.exclusive(() => this.#catchUp(this.#log.pool))
  }

  /**
   * Asks for a catch-up; several asks while one runs make one more. `poll`: read the log even when
   * no notification says there is more (the safety net).
   */
  catchUpSoon(poll = false): void {
    if (this.#closed) return
    if (poll) this.#polled = true
    if (this.#following) {
      this.#again = true
      return
    }
    this.#following = true
    void (async () => {
      try {
        do {
          this.#again = false
          await this.catchUp()
        } while (this.#again && !this.#closed)
      } catch (e) {
        if (!this.#closed) this.#onError(e as Error)
      } finally {
        this.#following = false
      }
    })()
  }

  #polled = false

  /**
   * Applies the log after the applied seq: notifications that follow on from it first, then
   * `first` when already read, then the log itself while there may be more.
   */
  async #catchUp(client: pg.ClientBase | pg.Pool, first?: LogRows): Promise<void> {
    const behind = this.#writes?.behind
    if (behind !== undefined) throw datastoreError('ClusterBehind', [behind])
    try {
      if (first === undefined && !this.#polled && this.#fromNotices()) return
      this.#polled = false
      for (let read = first; ; read = undefined) {
        const from = this.#applied
        const { rows: got, floor } = read ?? (await this.#log.after(client, from))
        if (floor !== undefined && from < floor)
          this.#fallBehind(
            `the log up to ${floor} was compacted away, and this process applied up to ${from}`,
          )
        // Notifications applied while the read was on its way: those rows are here already.
        const rows = got.filter((r) => r.seq > this.#applied)
        if (rows.length > 0) {
          this.#apply(
            rows.map((r) => r.record),
            rows[0]!.seq,
            rows.at(-1)!.seq,
          )
          const now = Date.now()
          for (const r of rows) if (r.origin !== this.#log.origin) this.#lag.add(now - r.at)
        }
        // Fewer than asked: that was the end of the log (a later commit notifies, or, under the
        // lock, cannot happen), so no empty read to find it out.
        if (got.length < this.#log.catchUpRows) return
      }
    } finally {
      this.#caughtUp()
    }
  }

  /** Before a group runs: the notifications that follow on, applied (see participant.ts). */
  beforeRun(): void {
    if (this.#notices.length > 0) this.#applyNotices()
  }

  /** Applies the notifications that follow on (outside the gate: see `applyNow`). */
  #applyNotices(): void {
    try {
      if (!this.#fromNotices()) this.catchUpSoon()
    } catch (e) {
      this.#onError(e as Error)
    } finally {
      this.#caughtUp()
    }
  }

  /** After applying: drops the notices applied, notes being current, acknowledges. */
  #caughtUp(): void {
    this.#notices = this.#notices.filter((n) => n.last > this.#applied)
    if (!this.#current && this.#applied >= this.#joinHead) this.#current = true
    this.#ackSoon()
  }

  /**
   * Applies the notifications that follow on from what is applied; true when nothing is known to
   * be missing after them (no log read needed).
   */
  #fromNotices(): boolean {
    for (const notice of this.#notices) {
      if (notice.last <= this.#applied) continue
      if (notice.records === undefined || notice.prev !== this.#applied) return false
      if (notice.records.length !== notice.last - notice.first + 1) return false
      this.#apply(notice.records, notice.first, notice.last)
      this.#lag.add(Date.now() - notice.at)
    }
    return this.#applied >= this.#heard
  }

  /** Applies records `first`…`last` of the log (in the gate); a record that does not fit stops following. */
  #apply(records: readonly LogRecord[], first: number, last: number): void {
    try {
      applyLogRecords(this.#ds, records)
    } catch (e) {
      if (!DatastoreError.is(e)) throw e
      this.#fallBehind(`log rows ${first}-${last}: ${e.message}`)
    }
    this.#applied = last
  }

  #fallBehind(why: string): never {
    this.#writes?.fallBehind(why)
    this.#onError(new Error(`entistore cluster: ${why}; restart this process`))
    throw datastoreError('ClusterBehind', [why])
  }

  /**
   * Every `snapshotEvery` records, a snapshot at `seq` (the store is at `seq` now, in the gate),
   * unless one is being written: the next write past the line starts the next.
   */
  #maybeSnapshot(seq: number): void {
    if (seq - this.#snapshotSeq < this.#log.snapshotEvery) return
    // Commits made during this write's awaits are in memory but not in the log yet.
    if ((this.#writes?.pendingCommits ?? 0) > 0 || this.#snapshotting) return
    this.#snapshotSeq = seq
    this.#startSnapshot(seq).catch((e: Error) => {
      if (!this.#stop.signal.aborted) this.#onError(e)
    })
  }

  /**
   * Writes a snapshot of the store as it is (in the gate, after catching up), once the one being
   * written, if any, is done.
   */
  async snapshot(): Promise<boolean> {
    for (;;) {
      await this.#snapshotting
      const started = await this.#writes!.exclusive(async () => {
        if (this.#snapshotting) return undefined
        await this.#catchUp(this.#log.pool, undefined)
        if (this.#snapshotting) return undefined
        this.#snapshotSeq = this.#applied
        return { written: this.#startSnapshot(this.#applied) }
      })
      if (started) return started.written
    }
  }

  /**
   * The snapshot at `seq`, the store's state now: a view opened at once (store-view.ts), then
   * written a slice at a time between other work (postgres-log.ts), the view released once done.
   */
  #startSnapshot(seq: number): Promise<boolean> {
    const view = openStoreView(this.#ds)
    const written = this.#log
      .writeSnapshot(seq, snapshotRecords(view, this.#log.rowsPerRecord), {
        signal: this.#stop.signal,
      })
      .finally(() => view.release())
    const settled: Promise<void> = written
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (this.#snapshotting === settled) this.#snapshotting = undefined
      })
    this.#snapshotting = settled
    return written
  }

  async #listen(): Promise<void> {
    const client = this.#log.listenerClient()
    let lost = false
    const onLost = () => {
      if (lost) return
      lost = true
      if (this.#listener === client) this.#listener = undefined
      client.end().catch(() => undefined)
      this.#relisten()
    }
    client.on('error', onLost)
    client.on('end', onLost)
    client.on('notification', (message) => {
      const payload = message.payload ?? ''
      if (message.channel === this.#log.ackChannel) {
        const ack = readAck(payload)
        if (ack) this.#onAck(ack.seq, ack.origin)
        return
      }
      let notice: LogNotice | undefined
      try {
        notice = readNotice(payload)
      } catch {
        notice = undefined
      }
      // Unreadable: the log says what it is.
      if (notice === undefined) return this.catchUpSoon(true)
      // This process's own commit: applied already (its reply may race this notification).
      if (notice.origin === this.#log.origin || notice.last <= this.#applied) return
      this.#notices.push(notice)
      this.#heard = Math.max(this.#heard, notice.last)
      // Applied and acknowledged at once when the store allows (even while this process's own
      // group waits for the log's lock); in a turn of the gate otherwise.
      if (!this.#writes?.applyNow(() => this.#applyNotices())) this.catchUpSoon()
    })
    await client.connect()
    await this.#log.listen(client)
    if (this.#closed) {
      await client.end()
      return
    }
    this.#listener = client
    this.#reconnectMs = 50
    // What was committed while nobody listened.
    this.catchUpSoon(true)
  }

  #relisten(): void {
    if (this.#closed) return
    const wait = this.#reconnectMs
    this.#reconnectMs = Math.min(2000, this.#reconnectMs * 2)
    setTimeout(() => {
      if (this.#closed) return
      this.#listen().catch(() => this.#relisten())
    }, wait).unref()
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#stopRenewal?.()
    if (this.#poll) clearInterval(this.#poll)
    // A snapshot being written is given up (rolled back): the log holds everything it would.
    this.#stop.abort()
    await this.#snapshotting
    // The replies still waiting for acknowledgements get them (or fence), within two leases.
    for (let waited = 0; this.#waits.size > 0 && waited < 2 * this.#leaseMs; waited += 10)
      await this.#sleep(10)
    // Writes no longer wait for this process (it answers no read from now on).
    await this.#log.leave().catch(() => undefined)
    const listener = this.#listener
    this.#listener = undefined
    await listener?.end().catch(() => undefined)
  }
}
