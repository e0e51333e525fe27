/**
 * @module One subscriber of a live feed (change-feed.ts): a cursor into the datastore's change
 * history, read when the subscriber asks for its next event, each event decided then
 * (change-check.ts). It holds no event of its own: between two reads it is a position, a stamp and
 * a few counters (and, for a filter or a `restrict`, the keys of Membership).
 *
 * Its hub (change-hub.ts) tells it of each commit: it then wakes a waiting reader, moves past
 * changes that do not concern it (so that an idle subscriber never falls out of the history), or,
 * when it has fallen `bufferLimit` events behind, is dropped with its resume point.
 */
import type { Authorize } from '../../access/authorize.js'
import type { Session } from '../../sessions/session-api.js'
import type { ChangeHistory } from '../../store/change-history.js'
import { FeedChecks } from './change-check.js'
import type { ChangeEvent, ChangeSubscription, FeedPlan } from './change-feed.js'
import type { FeedDatastore } from './feed-objects.js'

/** What a subscription needs of its hub. */
export interface SubscriptionHost {
  readonly ds: FeedDatastore
  readonly history: ChangeHistory
  /** Stops telling `sub` of commits and heartbeats. */
  remove(sub: Subscription<unknown>): void
}

const DONE: IteratorResult<never, undefined> = Object.freeze({ done: true, value: undefined })

export class Subscription<T> implements ChangeSubscription<T> {
  readonly #host: SubscriptionHost
  readonly #checks: FeedChecks<T>
  readonly #session: Session | undefined
  readonly #unchecked: boolean
  readonly #authorize: Authorize | undefined
  readonly #bufferLimit: number
  /** Milliseconds without an event before a heartbeat; undefined: none. */
  readonly heartbeatMs: number | undefined
  /** When (datastore's clock) the last event was handed out. */
  lastSentAt: number
  #position: number
  #stamp: number
  #epoch: number
  // Events of this subscription's tables read in this epoch: its backlog is the history's count
  // of them less this.
  #mineRead = 0
  #pending: ChangeEvent<T> | undefined
  #heartbeat = false
  #waiter: (() => void) | undefined
  #closed = false
  #chain: Promise<unknown> = Promise.resolve()

  constructor(host: SubscriptionHost, plan: FeedPlan<T>) {
    this.#host = host
    const { options } = plan
    this.#session = options.session
    this.#authorize = options.authorize
    this.#unchecked = Subscription.#actsAsNobody(host.ds, options.authorize)
    this.#bufferLimit = plan.bufferLimit
    this.heartbeatMs = options.heartbeatMs
    // Its filter is bound as the session (what a computed attribute's query function answers is
    // the session's), and what it asks is checked now (a refusal throws before anything is sent),
    // and at every event.
    this.#checks = this.#act(() => {
      const checks = new FeedChecks(plan.classes, options)
      checks.checkNow()
      return checks
    })
    const history = host.history
    this.lastSentAt = host.ds.clock.now()
    this.#epoch = history.epoch
    const since = options.since ?? history.last
    const from = history.positionAfter(since)
    if (from === undefined) {
      this.#pending = { type: 'reset', stamp: history.last }
      this.#position = history.end
      this.#stamp = history.last
    } else {
      this.#position = from
      this.#stamp = since
    }
    let unread = 0
    for (let p = this.#position; p < history.end; p++)
      if (this.#checks.has(history.tableAt(p))) unread++
    this.#mineRead = this.#mineCount() - unread
  }

  get closed(): boolean {
    return this.#closed
  }

  get position(): number {
    return this.#stamp
  }

  [Symbol.asyncIterator](): this {
    return this
  }

  next(): Promise<IteratorResult<ChangeEvent<T>>> {
    // One read at a time: a second `next()` waits for the first.
    const read = this.#chain.then(() => this.#read())
    this.#chain = read.catch(() => undefined)
    return read
  }

  return(): Promise<IteratorResult<ChangeEvent<T>>> {
    this.close()
    return Promise.resolve(DONE)
  }

  /** The session it acts as, if any. */
  get session(): Session | undefined {
    return this.#session
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#host.remove(this as Subscription<unknown>)
    this.#wake()
  }

  /** After each commit (`reset`: the history started a new epoch). */
  noteCommit(reset: boolean): void {
    if (this.#closed) return
    const history = this.#host.history
    // A new epoch: the reader restarts (a reset), whatever it had read.
    if (reset || history.epoch !== this.#epoch) return this.#wake()
    const backlog = this.#mineCount() - this.#mineRead
    if (backlog === 0) {
      // Nothing of this subscription unread: it moves with the history, and so never falls out
      // of it however long it stays idle.
      this.#position = history.end
      this.#stamp = history.last
    } else if (this.#waiter !== undefined) this.#wake()
    // A reset not read yet is kept: its reader pulls again, whatever came since. A drop in its
    // place told it to resume from the reset's stamp with data it never pulled.
    else if (backlog > this.#bufferLimit && this.#pending?.type !== 'reset') this.#drop()
  }

  /**
   * At `now`, sends a heartbeat if it is waiting with nothing sent for `heartbeatMs`; returns when
   * to ask again (undefined: never).
   */
  heartbeatAt(now: number): number | undefined {
    const ms = this.heartbeatMs
    if (ms === undefined || this.#closed) return undefined
    if (this.#waiter === undefined) return Math.max(now, this.lastSentAt) + ms
    if (now - this.lastSentAt < ms) return this.lastSentAt + ms
    this.#heartbeat = true
    this.#wake()
    return now + ms
  }

  async #read(): Promise<IteratorResult<ChangeEvent<T>>> {
    const history = this.#host.history
    for (;;) {
      if (this.#closed) return DONE
      let event = this.#pending
      if (event !== undefined) {
        this.#pending = undefined
        if (event.type === 'dropped') this.close()
        return this.#sent(event)
      }
      if (history.epoch !== this.#epoch || this.#position < history.start) {
        this.#restart()
        continue
      }
      event = this.#scan()
      if (event !== undefined) return this.#sent(event)
      this.#stamp = history.last
      if (this.#heartbeat) {
        this.#heartbeat = false
        return this.#sent({ type: 'heartbeat', stamp: this.#stamp })
      }
      await new Promise<void>((resolve) => (this.#waiter = resolve))
    }
  }

  #sent(event: ChangeEvent<T>): IteratorResult<ChangeEvent<T>> {
    this.lastSentAt = this.#host.ds.clock.now()
    return { done: false, value: event }
  }

  // The next event to send from the history, as the session; undefined once at its end.
  #scan(): ChangeEvent<T> | undefined {
    const history = this.#host.history
    const end = history.end
    if (this.#position >= end) return undefined
    return this.#act(() => {
      while (this.#position < end) {
        const p = this.#position++
        this.#stamp = history.stampAt(p)
        if (!this.#checks.has(history.tableAt(p))) continue
        this.#mineRead++
        const event = this.#checks.event(history, p)
        if (event !== undefined) return event
      }
      return undefined
    })
  }

  #act<R>(fn: () => R): R {
    const session = this.#session
    if (session === undefined || this.#unchecked) return fn()
    return this.#host.ds.actAs(session, fn, { authorize: this.#authorize })
  }

  // Whether acting as the session would change nothing: no roles file, no `authorize`, no
  // `restrict` (nor change tracking's deleted rows), no session singleton a computed attribute
  // could reach. Then each event skips making an Actor and entering its async context.
  static #actsAsNobody(ds: FeedDatastore, authorize: unknown): boolean {
    const fns = ds.functions
    return (
      ds.roles === undefined &&
      authorize === undefined &&
      !ds.restricting &&
      !fns.singletonNames().some((name) => fns.isSessionSingleton(name))
    )
  }

  // The history cannot continue from here: the subscriber pulls again from the current stamp.
  #restart(): void {
    const history = this.#host.history
    this.#epoch = history.epoch
    this.#position = history.end
    this.#stamp = history.last
    this.#mineRead = this.#mineCount()
    this.#checks.clear()
    this.#pending = { type: 'reset', stamp: this.#stamp }
  }

  #drop(): void {
    this.#pending = { type: 'dropped', stamp: this.#stamp }
    // Nothing more is counted for it: its reader gets `dropped` next, then the end.
    this.#host.remove(this as Subscription<unknown>)
  }

  #mineCount(): number {
    let n = 0
    for (const table of this.#checks.tables) n += this.#host.history.count(table)
    return n
  }

  #wake(): void {
    const waiter = this.#waiter
    this.#waiter = undefined
    waiter?.()
  }
}
