/**
 * @module PostgreSQL's part in a write (participant.ts) and the following of what the other
 * processes commit.
 *
 * A write: `beforeWrite` opens a transaction, takes the log's advisory lock (one writer at a time
 * across every process) and applies the log rows this process has not applied yet, so that the
 * write's checks (stamps, unique values, keys) run against every commit before it; `afterWrite`
 * appends the write's records, notifies the channel and commits, and the applied seq moves to
 * the last record. Each is one round trip to PostgreSQL (postgres-log.ts), plus one per further
 * `catchUpRows` rows when this process is that far behind. If anything fails, the transaction is
 * rolled back (the lock goes with it) and the applied seq stays: a COMMIT whose reply was lost
 * may still have committed (its connection is then destroyed, the lock going with it), and then
 * its rows come back through the log, like another process's, on the next catch-up.
 *
 * Following: a connection of its own LISTENs on the log's channel; a notification with a seq past
 * the applied one starts a catch-up (in the write gate, so never in the middle of a write; one
 * that arrives during a write is looked at when the write ends, since it is most often the write's
 * own, racing its COMMIT's reply, and would cost an empty read in the gate), and a slow poll does the same in case a notification was missed (a notification is sent to the
 * connections listening when it commits; one reconnecting misses it). After a lost connection,
 * the listener reconnects with a growing delay, and catches up once listening again.
 */
import {
  applyLogRecords,
  datastoreError,
  DatastoreError,
  type Datastore,
  type LogRecord,
} from '@entistore/core'
import type pg from 'pg'
import type { ClusterWrites } from './cluster-core.js'
import type { ClusterParticipant } from './participant.js'
import type { LogRows, LogTransaction, PostgresLog } from './postgres-log.js'

/** The delay between a commit in another process and its application here, in milliseconds. */
export interface LagSummary {
  /** Records of other processes applied (the samples below are of the last 10,000). */
  readonly count: number
  readonly p50: number
  readonly p99: number
  readonly max: number
}

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
  readonly onError: (error: Error) => void
}

export class PostgresParticipant implements ClusterParticipant {
  readonly name = 'postgres'
  readonly logsEveryCommit = true
  readonly #log: PostgresLog
  readonly #ds: Datastore
  readonly #onError: (error: Error) => void
  readonly #pollMs: number
  readonly #lag = new LagStats()
  #writes: ClusterWrites | undefined
  #tx: LogTransaction | undefined
  // From beforeWrite to the end of afterWrite: the highest seq notified meanwhile.
  #writing = false
  #notified = 0
  #applied: number
  #snapshotSeq: number
  #listener: pg.Client | undefined
  #poll: ReturnType<typeof setInterval> | undefined
  #reconnectMs = 50
  #following = false
  #again = false
  #closed = false

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
  }

  /** The seq of the last log row applied in this process. */
  get applied(): number {
    return this.#applied
  }

  lag(): LagSummary {
    return this.#lag.summary()
  }

  /** Starts following the log: LISTEN, and the poll. */
  async follow(writes: ClusterWrites): Promise<void> {
    this.#writes = writes
    await this.#listen()
    this.#poll = setInterval(() => this.catchUpSoon(), this.#pollMs).unref()
  }

  async beforeWrite(): Promise<void> {
    this.#writing = true
    try {
      const { rows, floor, ...tx } = await this.#log.beginWrite(this.#applied)
      try {
        await this.#catchUp(tx.client, { rows, floor })
      } catch (e) {
        await this.#log.rollback(tx, e)
        throw e
      }
      this.#tx = tx
    } catch (e) {
      this.#wrote()
      throw e
    }
  }

  async afterWrite(records: readonly LogRecord[]): Promise<void> {
    const tx = this.#tx
    this.#tx = undefined
    try {
      if (!tx) throw new Error('afterWrite without beforeWrite')
      if (records.length === 0) return await this.#log.rollback(tx)
      // On failure the transaction is rolled back, or its connection destroyed when the outcome
      // is unknown: either way the applied seq stays, and committed rows come back through the log.
      const seq = await this.#log.appendAndCommit(tx, records)
      this.#applied = seq
      this.#maybeSnapshot(seq)
    } finally {
      this.#wrote()
    }
  }

  /** The write ended: a notification it held back, past what is applied now, is followed. */
  #wrote(): void {
    this.#writing = false
    if (this.#notified > this.#applied) this.catchUpSoon()
    this.#notified = 0
  }

  /** Applies what the others committed, now (in the write gate). */
  catchUp(): Promise<void> {
    return this.#writes!.exclusive(() => this.#catchUp(this.#log.pool))
  }

  /** Asks for a catch-up; several asks while one runs make one more. */
  catchUpSoon(): void {
    if (this.#closed) return
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

  /** Applies the log after the applied seq: `first`, when already read, then the rest. */
  async #catchUp(client: pg.ClientBase | pg.Pool, first?: LogRows): Promise<void> {
    const behind = this.#writes?.behind
    if (behind !== undefined) throw datastoreError('ClusterBehind', [behind])
    for (let read = first; ; read = undefined) {
      const { rows, floor } = read ?? (await this.#log.after(client, this.#applied))
      if (floor !== undefined && this.#applied < floor)
        this.#fallBehind(
          `the log up to ${floor} was compacted away, and this process applied up to ${this.#applied}`,
        )
      if (rows.length === 0) return
      try {
        applyLogRecords(
          this.#ds,
          rows.map((r) => r.record),
        )
      } catch (e) {
        if (!DatastoreError.is(e)) throw e
        this.#fallBehind(`log rows ${rows[0]!.seq}-${rows.at(-1)!.seq}: ${e.message}`)
      }
      const now = Date.now()
      for (const r of rows) if (r.origin !== this.#log.origin) this.#lag.add(now - r.at)
      this.#applied = rows.at(-1)!.seq
      // Fewer than asked: that was the end of the log (a later commit notifies, or, under the
      // lock, cannot happen), so no empty read to find it out.
      if (rows.length < this.#log.catchUpRows) return
    }
  }

  #fallBehind(why: string): never {
    this.#writes?.fallBehind(why)
    this.#onError(new Error(`entistore cluster: ${why}; restart this process`))
    throw datastoreError('ClusterBehind', [why])
  }

  /** Every `snapshotEvery` records, a snapshot at `seq` (the store is at `seq` now, in the gate). */
  #maybeSnapshot(seq: number): void {
    if (seq - this.#snapshotSeq < this.#log.snapshotEvery) return
    // Commits made during this write's awaits are in memory but not in the log yet.
    if ((this.#writes?.pendingCommits ?? 0) > 0) return
    this.#snapshotSeq = seq
    const parts = this.#log.snapshotTexts(this.#ds)
    this.#log.writeSnapshot(seq, parts).catch((e: Error) => this.#onError(e))
  }

  /** Writes a snapshot of the store as it is (in the gate, after catching up). */
  snapshot(): Promise<boolean> {
    return this.#writes!.exclusive(async () => {
      await this.#catchUp(this.#log.pool)
      this.#snapshotSeq = this.#applied
      return this.#log.writeSnapshot(this.#applied, this.#log.snapshotTexts(this.#ds))
    })
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
      const seq = Number(message.payload)
      if (this.#writing) this.#notified = Math.max(this.#notified, seq)
      else if (seq > this.#applied) this.catchUpSoon()
    })
    await client.connect()
    await client.query(`LISTEN "${this.#log.channel}"`)
    if (this.#closed) {
      await client.end()
      return
    }
    this.#listener = client
    this.#reconnectMs = 50
    // What was committed while nobody listened.
    this.catchUpSoon()
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
    if (this.#poll) clearInterval(this.#poll)
    const listener = this.#listener
    this.#listener = undefined
    await listener?.end().catch(() => undefined)
  }
}
