/**
 * @module The following of what the other processes commit: LISTEN, catching up from the log,
 * and applying the records in this process's store.
 *
 * A connection of its own LISTENs on the log's channel, and on the acknowledgements' (acks.ts) from
 * before this process's first append on, or from the start where every process appends. Under
 * one writer, the others never wait for acknowledgements: if they heard them, each group would
 * wake every process once for each other process's acknowledgement, for nothing. A
 * notification carries the group's records when they fit (log.ts): a process that applied up to
 * the writer's head applies them at once (in the gate), without reading the log; otherwise, or
 * past a gap, it reads the log. A slow poll catches what a notification missed (one reconnecting
 * misses them). After a lost connection, the listener reconnects with a growing delay, then
 * catches up. Every application of others' rows is acknowledged (one NOTIFY, not made durable).
 */
import {
  applyLogRecords,
  datastoreError,
  DatastoreError,
  type Datastore,
  type LogRecord,
} from '@entistore/core'
import type pg from 'pg'
import type { ClusterWrites } from '../cluster-core.js'
import { readAck } from './acks.js'
import { readNotice, type LogNotice, type LogReader, type LogRows } from './log.js'
import type { LagSummary } from './types.js'

/** The last `size` samples, summarized on demand. */
export class LagStats {
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

/** The SQL side a Follower uses (PostgresLog's). */
export interface FollowerLog extends LogReader {
  readonly pool: pg.Pool
  readonly origin: string
  readonly ackChannel: string
  readonly catchUpRows: number
  listenerClient(): pg.Client
  listen(client: pg.Client, acks: boolean): Promise<void>
  hearAcks(client: pg.Client): Promise<void>
}

export interface FollowerOptions {
  readonly onError: (error: Error) => void
  /** Aborted when the process stops: no more catch-ups or reconnections. */
  readonly signal: AbortSignal
  /** After each application (or attempt), with the seq applied now. */
  readonly caughtUp: (applied: number) => void
  /** Another process said it applied the log up to `seq`. */
  readonly heardAck: (seq: number, origin: string) => void
  /**
   * Whether acknowledgements are heard from the start: where every process may append. Else
   * from `hearAcks` on (see the module's comment). @default true
   */
  readonly acks?: boolean
}

export class Follower {
  readonly #log: FollowerLog
  readonly #ds: Datastore
  readonly #options: FollowerOptions
  readonly #lag = new LagStats()
  #writes: ClusterWrites | undefined
  #applied: number
  #listener: pg.Client | undefined
  #poll: ReturnType<typeof setInterval> | undefined
  #reconnectMs = 50
  #following = false
  #again = false
  #polled = false
  // Notifications not applied yet, in commit order; the highest seq known to be committed.
  #notices: LogNotice[] = []
  #heard = 0
  // Whether the listening connection hears acknowledgements (or will, once it reconnects).
  #acks: boolean

  constructor(log: FollowerLog, ds: Datastore, applied: number, options: FollowerOptions) {
    this.#log = log
    this.#ds = ds
    this.#applied = applied
    this.#options = options
    this.#acks = options.acks ?? true
  }

  /** The seq of the last log row applied in this process. */
  get applied(): number {
    return this.#applied
  }

  /** The connection LISTENing, when it is up (acknowledgements go by it). */
  get listener(): pg.Client | undefined {
    return this.#listener
  }

  lag(): LagSummary {
    return this.#lag.summary()
  }

  /**
   * Hears acknowledgements from now on: resolves once the listening connection does, so that an
   * append made after it is acknowledged to this process (undefined when it does already). A
   * listener that is down hears them once it reconnects, as it then misses the others too.
   */
  hearAcks(): Promise<void> | undefined {
    if (this.#acks) return undefined
    this.#acks = true
    const listener = this.#listener
    return listener && this.#log.hearAcks(listener)
  }

  /** This process appended up to `last` (its records applied in memory already). */
  appended(last: number): void {
    this.#applied = last
  }

  /** The log holds at least `seq` (a head read when joining). */
  heardOf(seq: number): void {
    this.#heard = Math.max(this.#heard, seq)
  }

  /** Starts following: LISTEN, and the safety-net poll every `pollMs`. */
  async start(writes: ClusterWrites, pollMs: number): Promise<void> {
    this.#writes = writes
    await this.#listen()
    this.#poll = setInterval(() => this.catchUpSoon(true), pollMs).unref()
  }

  /** Applies what the others committed, now (in the write gate). */
  catchUp(): Promise<void> {
    return this.#writes!.exclusive(() => this.catchUpWith(this.#log.pool))
  }

  /**
   * Asks for a catch-up; several asks while one runs make one more. `poll`: read the log even when
   * no notification says there is more (the safety net).
   */
  catchUpSoon(poll = false): void {
    if (this.#options.signal.aborted) return
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
        } while (this.#again && !this.#options.signal.aborted)
      } catch (e) {
        if (!this.#options.signal.aborted) this.#options.onError(e as Error)
      } finally {
        this.#following = false
      }
    })()
  }

  /**
   * Applies the log after the applied seq (in the gate, reading on `client`): notifications that
   * follow on from it first, then `first` when already read, then the log itself while there may
   * be more.
   */
  async catchUpWith(client: pg.ClientBase | pg.Pool, first?: LogRows): Promise<void> {
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
      this.#options.onError(e as Error)
    } finally {
      this.#caughtUp()
    }
  }

  /** After applying: drops the notices applied, then tells (being current, acknowledging). */
  #caughtUp(): void {
    this.#notices = this.#notices.filter((n) => n.last > this.#applied)
    this.#options.caughtUp(this.#applied)
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
    this.#options.onError(new Error(`entistore cluster: ${why}; restart this process`))
    throw datastoreError('ClusterBehind', [why])
  }

  /** A notification heard: an acknowledgement, or a group of records committed. */
  #heardOf(message: pg.Notification): void {
    const payload = message.payload ?? ''
    if (message.channel === this.#log.ackChannel) {
      const ack = readAck(payload)
      if (ack) this.#options.heardAck(ack.seq, ack.origin)
      return
    }
    let notice: LogNotice | undefined
    // Its records are parsed only when they are to be applied here (see below).
    const applied = (n: Omit<LogNotice, 'records'>) =>
      n.origin === this.#log.origin || n.last <= this.#applied
    try {
      notice = readNotice(payload, applied)
    } catch {
      notice = undefined
    }
    // Unreadable: the log says what it is.
    if (notice === undefined) return this.catchUpSoon(true)
    // This process's own commit: applied already (its reply may race this notification).
    if (applied(notice)) return
    this.#notices.push(notice)
    this.#heard = Math.max(this.#heard, notice.last)
    // Applied and acknowledged at once when the store allows (even while this process's own
    // group waits for the log's lock); in a turn of the gate otherwise.
    if (!this.#writes?.applyNow(() => this.#applyNotices())) this.catchUpSoon()
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
    client.on('notification', (message) => this.#heardOf(message))
    await client.connect()
    await this.#log.listen(client, this.#acks)
    if (this.#options.signal.aborted) {
      await client.end()
      return
    }
    this.#listener = client
    this.#reconnectMs = 50
    // What was committed while nobody listened.
    this.catchUpSoon(true)
  }

  #relisten(): void {
    if (this.#options.signal.aborted) return
    const wait = this.#reconnectMs
    this.#reconnectMs = Math.min(2000, this.#reconnectMs * 2)
    setTimeout(() => {
      if (this.#options.signal.aborted) return
      this.#listen().catch(() => this.#relisten())
    }, wait).unref()
  }

  /** Stops the poll (the process stops; the signal stops the rest). */
  stop(): void {
    if (this.#poll) clearInterval(this.#poll)
  }

  /** Lets the listening connection go, last (the acknowledgements still to send go by it). */
  async end(): Promise<void> {
    const listener = this.#listener
    this.#listener = undefined
    await listener?.end().catch(() => undefined)
  }
}
