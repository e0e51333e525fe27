/**
 * @module Which processes share one Redis now, and whether this one may answer from its mirror of
 * the sessions: the lease and the acknowledgements behind read-your-writes of sessions
 * (session-mirror.ts, docs/durability.md).
 *
 * **The lease.** Each process publishes a heartbeat on its own channel (`to:<id>`) every quarter
 * of `leaseMs`, in one MULTI with its membership key (`m:<id>`, TTL `leaseMs`, listed in
 * `members`), and hears it back on its subscriber connection. Redis sends a subscriber its
 * messages in the order it executed the PUBLISHes, so when a heartbeat comes back, every message
 * published before it has been heard, and applied (messages are applied as they are read). The
 * process then holds a lease until `leaseMs` after it *sent* that heartbeat (its own monotonic
 * clock), and answers from its mirror only while it holds one; without, it reads Redis first.
 *
 * **The acknowledgements.** A change of a session is written, published and the list of
 * processes serving read in one script; the change's reply waits until each of them acknowledged
 * (applied) it, or until `leaseMs` after the script answered. Why that is enough: a process that
 * did not acknowledge could only answer from its mirror with a lease from a heartbeat executed
 * before the change (one executed after it comes back after the change, so after it was
 * applied); such a heartbeat was sent before the script ran, so that lease ends before `leaseMs`
 * after the script's answer. A process that is not listed had no live membership key when the
 * script ran, and its membership outlives its lease (the key's TTL starts when Redis executes the
 * heartbeat, after it was sent): it held no lease either.
 *
 * A process whose heartbeat does not come back (its subscriber connection stalled, its event loop
 * held) stops renewing its membership (it sends bare pings until one comes back), so that the
 * others stop waiting for it within a lease. One whose subscriber connection was lost (messages
 * published meanwhile are lost with it) takes up no new lease until it subscribed again and read
 * every session it holds from Redis again (`resync`); the lease it held runs out as it would have,
 * so a short cut costs nothing.
 */
import type { Schedule } from '@entistore/rest'

/** The commands of a MULTI the presence sends (an ioredis one is one). */
export interface PresenceBatch {
  set(key: string, value: string, px: 'PX', ms: number): PresenceBatch
  sadd(key: string, member: string): PresenceBatch
  publish(channel: string, message: string): PresenceBatch
  del(key: string): PresenceBatch
  srem(key: string, member: string): PresenceBatch
  exec(): Promise<unknown>
}

/** The commands the presence sends (an ioredis client is one). */
export interface PresenceCommands {
  multi(): PresenceBatch
  publish(channel: string, message: string): Promise<unknown>
}

export interface PresenceOptions {
  /** The participant's key prefix. */
  readonly prefix: string
  /** How long a lease lasts, how long a change waits for an acknowledgement. */
  readonly leaseMs: number
  /** Milliseconds of a monotonic clock (the leases' clock). */
  readonly now: () => number
  /** Runs the heartbeats and the acknowledgement waits. */
  readonly schedule: Schedule
  readonly report: (error: unknown) => void
  /** Reads again from Redis what the mirror holds (after a subscriber connection was lost). */
  readonly resync: () => Promise<void>
}

/** A change waiting for the acknowledgements of the processes serving. */
interface AckWait {
  readonly acked: Set<string>
  missing: Set<string> | undefined
  done: (() => void) | undefined
}

/** What comes on this process's own channel: a heartbeat back, or an acknowledgement. */
type Direct =
  | { readonly h: number; readonly s: number; readonly f: 0 | 1 }
  | { readonly a: number; readonly f: string }

export class Presence {
  /** This process, in `members`, in messages' `o` and on its own channel. */
  readonly id = globalThis.crypto.randomUUID()
  /** The channel of this process's heartbeats and acknowledgements. */
  readonly channel: string
  readonly #redis: PresenceCommands
  readonly #o: PresenceOptions
  readonly #now: () => number
  readonly #memberKey: string
  readonly #index: string
  #leaseUntil = -Infinity
  // The subscriber connection's life: one more each time it is lost. Heartbeats carry it, so that
  // one sent before a loss grants nothing after it.
  #generation = 0
  // The generation subscribed again, and the one whose mirror was read again since.
  #subscribed = -1
  #synced = -1
  #resyncing = false
  // A heartbeat with the membership sent and not heard back yet: the next ones are bare pings.
  #fullOut = false
  #next = 0
  readonly #waits = new Map<number, AckWait>()
  #stopBeat: (() => void) | undefined
  #firstLease: (() => void) | undefined
  #closed = false

  constructor(redis: PresenceCommands, options: PresenceOptions) {
    this.#redis = redis
    this.#o = options
    this.#now = options.now
    this.channel = `${options.prefix}to:${this.id}`
    this.#memberKey = `${options.prefix}m:${this.id}`
    this.#index = `${options.prefix}members`
  }

  /** Whether this process may answer from its mirror now (it holds a lease). */
  vouches(): boolean {
    return this.#now() < this.#leaseUntil
  }

  /** The subscriber connection's generation (see `subscribedAgain`). */
  get generation(): number {
    return this.#generation
  }

  /**
   * Starts the heartbeats, once subscribed; resolves when the first lease is held (or after
   * `leaseMs`: requests then read Redis first until it is).
   */
  start(): Promise<void> {
    const first = new Promise<void>((resolve) => {
      const cancel = this.#o.schedule(() => this.#firstLease?.(), this.#o.leaseMs)
      this.#firstLease = () => {
        this.#firstLease = undefined
        cancel()
        resolve()
      }
    })
    this.subscribedAgain(this.#generation)
    this.#beatLater()
    return first
  }

  /**
   * The subscriber connection was lost: no lease is taken up again until it is back and the
   * mirror read again. The lease held runs out as it would have: a change published since waits
   * for it (see the module note), whether this process heard it or not.
   */
  lost(): void {
    this.#generation++
    this.#fullOut = false
  }

  /** Subscribed again in `generation`: the mirror is read again, then a heartbeat sent. */
  subscribedAgain(generation: number): void {
    if (generation !== this.#generation) return
    this.#subscribed = generation
    void this.#resync()
  }

  /**
   * The command connection is back: a mirror not read again yet (it failed for want of it) is
   * read now rather than at the next heartbeat.
   */
  commandsAgain(): void {
    void this.#resync()
  }

  /** A message on this process's own channel. */
  onDirect(text: string): void {
    let message: Direct
    try {
      message = JSON.parse(text) as Direct
    } catch {
      return
    }
    if ('a' in message) return this.#acked(message.a, message.f)
    if (message.h !== this.#generation || this.#synced !== this.#generation) return
    if (message.f === 1) {
      this.#fullOut = false
      this.#leaseUntil = Math.max(this.#leaseUntil, message.s + this.#o.leaseMs)
      this.#firstLease?.()
    } else if (!this.#fullOut) this.#beat() // heard again after a stall: a membership at once
  }

  /** A number for the next change told to the others, whose acknowledgements are kept from now. */
  expect(): number {
    const n = ++this.#next
    this.#waits.set(n, { acked: new Set(), missing: undefined, done: undefined })
    return n
  }

  /** Change `n` was not made: nothing to wait for. */
  forget(n: number): void {
    this.#waits.delete(n)
  }

  /**
   * Resolves once every process of `members` (but this one) acknowledged change `n`, or `leaseMs`
   * from now: those that did not then hold no lease from before it (see the module note).
   */
  acknowledged(n: number, members: readonly string[]): Promise<void> {
    const wait = this.#waits.get(n)
    const missing = new Set(members.filter((m) => m !== this.id && !wait?.acked.has(m)))
    if (!wait || missing.size === 0) {
      this.#waits.delete(n)
      return Promise.resolve()
    }
    return new Promise<void>((resolve) => {
      let cancel: (() => void) | undefined
      const done = () => {
        if (!this.#waits.delete(n)) return
        cancel?.()
        resolve()
      }
      wait.missing = missing
      wait.done = done
      cancel = this.#o.schedule(() => {
        if (!this.#waits.has(n)) return
        this.#o.report(
          new Error(
            `${[...wait.missing!].join(', ')} did not acknowledge a session's change within ${this.#o.leaseMs} ms: answered without them (they read Redis first until they hear again)`,
          ),
        )
        done()
      }, this.#o.leaseMs)
    })
  }

  /** Tells `origin` that its change `n` is applied here. */
  ack(origin: string, n: number): void {
    const to = `${this.#o.prefix}to:${origin}`
    // Lost, the writer waits out the lease instead.
    this.#redis.publish(to, JSON.stringify({ a: n, f: this.id })).catch(() => undefined)
  }

  /** Stops the heartbeats and leaves `members`, so that nobody waits for this process. */
  async close(): Promise<void> {
    this.#closed = true
    this.#stopBeat?.()
    for (const wait of [...this.#waits.values()]) wait.done?.()
    this.#leaseUntil = -Infinity
    await this.#redis
      .multi()
      .del(this.#memberKey)
      .srem(this.#index, this.id)
      .exec()
      .catch(() => undefined)
  }

  #acked(n: number, from: string): void {
    const wait = this.#waits.get(n)
    if (!wait) return
    wait.acked.add(from)
    if (wait.missing?.delete(from) && wait.missing.size === 0) wait.done!()
  }

  async #resync(): Promise<void> {
    if (this.#resyncing || this.#closed) return
    const generation = this.#generation
    if (this.#subscribed !== generation || this.#synced === generation) return
    this.#resyncing = true
    try {
      await this.#o.resync()
      if (generation !== this.#generation) return
      this.#synced = generation
    } catch (error) {
      this.#o.report(error) // the next heartbeat tries again
      return
    } finally {
      this.#resyncing = false
    }
    this.#beat()
  }

  #beatLater(): void {
    if (this.#closed) return
    this.#stopBeat = this.#o.schedule(
      () => {
        this.#beat()
        this.#beatLater()
      },
      Math.max(1, Math.floor(this.#o.leaseMs / 4)),
    )
  }

  /**
   * A heartbeat: with the membership renewed when the last one came back, else a bare ping (this
   * process may be stalled: the others need not wait for it meanwhile).
   */
  #beat(): void {
    if (this.#closed) return
    const generation = this.#generation
    if (this.#synced !== generation) return void this.#resync()
    const full = !this.#fullOut
    const ping = JSON.stringify({ h: generation, s: this.#now(), f: full ? 1 : 0 })
    if (!full) {
      this.#redis.publish(this.channel, ping).catch(this.#o.report)
      return
    }
    this.#fullOut = true
    this.#redis
      .multi()
      .set(this.#memberKey, '1', 'PX', this.#o.leaseMs)
      .sadd(this.#index, this.id)
      .publish(this.channel, ping)
      .exec()
      .catch((error: unknown) => {
        if (generation === this.#generation) this.#fullOut = false
        this.#o.report(error)
      })
  }
}
