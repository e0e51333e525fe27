/**
 * @module Acknowledgements: "this process applied the log up to seq N", a NOTIFY on the log's
 * acknowledgement channel (schema.ts), and the writes whose replies wait for them.
 *
 * **Read-your-writes.** A group's replies wait (`visible`, outside the gate) until every other
 * process serving acknowledged that it applied the group: a read through any process after a
 * write's reply sees it. A writer waits at most `leaseMs` for an acknowledgement; then it fences
 * the late process (members.ts: its lease can no longer be renewed) and waits out what is left of
 * its lease: the late process stops answering reads by then (lease.ts), joins again, catches up,
 * and serves again. A process fenced already (by a writer that waited for it in vain) is not
 * waited for, but its lease is waited out, since until it runs out it may still answer reads.
 */
import { datastoreError } from '@entistore/core'
import type { Schedule } from '@entistore/rest'
import pg from 'pg'
import type { LogConnection } from './connection.js'
import type { Member } from './members.js'
import { checkedSeq, type LogTables } from './schema.js'

/**
 * Tells the processes that wait (writers) that this one applied the log up to `seq`. Not made
 * durable (synchronous_commit off): an acknowledgement lost in a crash is only waited for in
 * vain. `listener`: the connection made by `listenerClient` (set up by `listen`), which spares
 * the pool and the transaction's wrapping; without it, a pooled connection.
 */
export async function sendAck(db: LogConnection, seq: number, listener?: pg.Client): Promise<void> {
  const notify = ackSql(db, seq, db.origin)
  if (listener) await listener.query(notify)
  else await db.pool.query(`BEGIN; SET LOCAL synchronous_commit TO off; ${notify}; COMMIT`)
}

/** The NOTIFY of an acknowledgement, whose payload is `seq origin`. */
export function ackSql(t: LogTables, seq: number, origin: string): string {
  return `SELECT pg_notify(${pg.escapeLiteral(t.ackChannel)}, ${pg.escapeLiteral(`${checkedSeq(seq)} ${origin}`)})`
}

/** An acknowledgement's payload, `seq origin`, read back. */
export function readAck(payload: string): { seq: number; origin: string } | undefined {
  const space = payload.indexOf(' ')
  const seq = Number(payload.slice(0, space))
  return space > 0 && Number.isSafeInteger(seq)
    ? { seq, origin: payload.slice(space + 1) }
    : undefined
}

/**
 * Whom a write of `seq` waits for, of the processes serving read under the lock: those that have
 * not said they applied it (neither in their lease's row nor by an acknowledgement heard), and,
 * among them, the fenced ones only for their lease's time left (`fencedMs`, the longest).
 */
export function awaited(
  members: readonly Member[],
  seq: number,
  acked: ReadonlyMap<string, number>,
): { missing: Set<string>; fencedMs: number } {
  const missing = new Set<string>()
  let fencedMs = 0
  for (const m of members)
    if (m.applied < seq && (acked.get(m.origin) ?? 0) < seq) {
      if (m.evicted) fencedMs = Math.max(fencedMs, m.remaining)
      else missing.add(m.origin)
    }
  return { missing, fencedMs }
}

/** The SQL side an Acknowledgements uses (PostgresLog's). */
export interface AckLog {
  readonly origin: string
  evict(origins: readonly string[]): Promise<{ origin: string; remaining: number }[]>
  ack(seq: number, listener?: pg.Client): Promise<void>
}

/** What is acknowledged: the seq applied here now, and the connection acknowledgements go by. */
export interface Applied {
  readonly applied: number
  readonly listener: pg.Client | undefined
}

export interface AcknowledgementsOptions {
  readonly leaseMs: number
  readonly schedule: Schedule
  readonly onError: (error: Error) => void
  /** Aborted when the process stops: no more acknowledgements are sent. */
  readonly signal: AbortSignal
}

/** A group's reply waiting for the acknowledgements of the processes serving. */
interface AckWait {
  readonly seq: number
  readonly missing: Set<string>
  readonly done: () => void
}

/** This process's acknowledgements, sent and heard, and the replies waiting for them. */
export class Acknowledgements {
  readonly #log: AckLog
  readonly #here: Applied
  readonly #options: AcknowledgementsOptions
  // The highest seq each other process said it applied; the writes waiting.
  readonly #acked = new Map<string, number>()
  readonly #waits = new Set<AckWait>()
  #ackSent = 0
  #acking = false

  constructor(log: AckLog, here: Applied, options: AcknowledgementsOptions) {
    this.#log = log
    this.#here = here
    this.#options = options
  }

  /**
   * Resolves once every process of `members` acknowledged `seq`. One that has not within the
   * lease is fenced, and its lease waited out; if it cannot be fenced, rejects (9135).
   */
  acknowledged(seq: number, members: readonly Member[]): Promise<void> {
    const { missing, fencedMs } = awaited(members, seq, this.#acked)
    const leases = fencedMs > 0 ? this.sleep(Math.ceil(fencedMs)) : undefined
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
      cancel = this.#options.schedule(() => {
        if (!this.#waits.has(wait)) return
        this.#waits.delete(wait)
        this.#fence([...missing], seq).then(resolve, reject)
      }, this.#options.leaseMs)
    })
    return leases ? Promise.all([acks, leases]).then(() => undefined) : acks
  }

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => this.#options.schedule(resolve, ms))
  }

  /** Fences `origins`, late for `seq`, and waits out the leases they have left. */
  async #fence(origins: string[], seq: number): Promise<void> {
    const { leaseMs } = this.#options
    let fenced: { origin: string; remaining: number }[]
    try {
      fenced = await this.#log.evict(origins)
    } catch (e) {
      throw datastoreError(
        'ClusterWriteUnconfirmed',
        [
          `${origins.join(', ')} did not acknowledge it within ${leaseMs} ms and could not be fenced: ${(e as Error).message}`,
        ],
        { cause: e, details: { retryAfter: 1 } },
      )
    }
    const late = fenced.filter((f) => (this.#acked.get(f.origin) ?? 0) < seq)
    if (late.length === 0) return
    this.#options.onError(
      new Error(
        `entistore cluster: fenced ${late.map((f) => f.origin).join(', ')}, which did not apply log row ${seq} within ${leaseMs} ms`,
      ),
    )
    const wait = Math.ceil(Math.max(...late.map((f) => f.remaining)))
    if (wait > 0) await this.sleep(wait)
  }

  /** Another process said it applied the log up to `seq`. */
  heard(seq: number, origin: string): void {
    if (origin === this.#log.origin) return
    if ((this.#acked.get(origin) ?? 0) < seq) this.#acked.set(origin, seq)
    for (const wait of this.#waits)
      if (seq >= wait.seq && wait.missing.delete(origin) && wait.missing.size === 0) wait.done()
  }

  /** Acknowledges what is applied now (one NOTIFY at a time; the latest seq when it goes). */
  ackSoon(): void {
    if (this.#acking || this.#options.signal.aborted || this.#here.applied <= this.#ackSent) return
    this.#acking = true
    const seq = this.#here.applied
    this.#log
      .ack(seq, this.#here.listener)
      .then(
        () => void (this.#ackSent = Math.max(this.#ackSent, seq)),
        (e: Error) => this.#options.onError(e),
      )
      .finally(() => {
        this.#acking = false
        if (this.#here.applied > this.#ackSent) this.ackSoon()
      })
  }

  /** The replies still waiting for acknowledgements get them (or fence), within two leases. */
  async drain(): Promise<void> {
    const { leaseMs } = this.#options
    for (let waited = 0; this.#waits.size > 0 && waited < 2 * leaseMs; waited += 10)
      await this.sleep(10)
  }
}
