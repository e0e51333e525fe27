/**
 * @module The live feed of one datastore (change-feed.ts): its change history, fed from the
 * datastore's constructor on, and its subscribers. After each commit it tells every subscriber
 * (each then wakes, moves on, or is dropped: change-subscription.ts); one timer, for all of them,
 * sends the heartbeats that are due. With no subscriber it listens to nothing but the history's
 * own commit listener, and sets no timer.
 */
import { ChangeHistory } from '../../store/change-history.js'
import {
  feedPlan,
  type ChangeFeedOptions,
  type ChangeSubscription,
  type ChangedEntity,
  type FeedSchedule,
} from './change-feed.js'
import { Subscription, type SubscriptionHost } from './change-subscription.js'
import type { FeedDatastore, FeedOptions } from './feed-objects.js'
import { fail } from '../../errors/datastore-error.js'
import type { Session } from '../../sessions/session-api.js'
import { sessionUser } from '../../sessions/session-user.js'

/** setTimeout, keeping no process alive. */
const unrefSchedule: FeedSchedule = (fn, ms) => {
  const timer = setTimeout(fn, ms)
  // A number in some runtimes (a worker), an object in Node.
  if (typeof timer === 'object') timer.unref()
  return () => clearTimeout(timer)
}

export class ChangeHub implements SubscriptionHost {
  readonly ds: FeedDatastore
  readonly history: ChangeHistory
  readonly #schedule: FeedSchedule
  readonly #subs = new Set<Subscription<unknown>>()
  #untrack: (() => void) | undefined
  #unobserve: (() => void) | undefined
  #cancelTimer: (() => void) | undefined
  #timerAt = Infinity
  readonly #limits: { perSession: number; perUser: number; perGuests: number; total: number }

  /** The feed of `ds`, its history kept from now on (called from the Datastore's constructor). */
  constructor(ds: FeedDatastore, options: ChangeFeedOptions = {}) {
    this.ds = ds
    this.history = ChangeHistory.attach(ds.store, options)
    this.#schedule = options.schedule ?? unrefSchedule
    this.#limits = {
      perSession: options.maxSubscriptionsPerSession ?? 16,
      perUser: options.maxSubscriptionsPerUser ?? 256,
      perGuests: options.maxGuestSubscriptions ?? 1_000,
      total: options.maxSubscriptions ?? 10_000,
    }
    // A session that ends (a logout, an expiry, an eviction) takes its subscriptions with it:
    // they act as it, and must not outlive its rights. (Its client may subscribe again, as whoever
    // it is then.)
    ds.sessions.onClose((session) => {
      for (const sub of this.#subs) if (sub.session === session) sub.close()
    })
  }

  /** Subscribers now. */
  get size(): number {
    return this.#subs.size
  }

  /**
   * A new subscription (see `Datastore.changes`).
   * @throws DatastoreError FeedSubscriptionLimit (9063) past one of the bounds (ChangeFeedOptions)
   */
  open<T = ChangedEntity>(options: FeedOptions<T>): ChangeSubscription<T> {
    this.#bound(options.session)
    const sub = new Subscription(this, feedPlan(this.ds, options))
    this.#add(sub as Subscription<unknown>)
    // It acts as its session until it ends: a guest on probation is kept (SessionStoreApi.visit).
    if (options.session !== undefined) this.ds.sessions.hold?.(options.session.id)
    return sub
  }

  // Refuses one more subscription past the server's, the session's or its user's bound: each is
  // decided at every commit, so their number is what a commit costs.
  #bound(session: Session | undefined): void {
    const { perSession, perUser, perGuests, total } = this.#limits
    if (this.#subs.size >= total)
      fail('FeedSubscriptionLimit', ['the server', total, 'maxSubscriptions'])
    if (session === undefined) return
    const user = sessionUser(session)?.name.toLowerCase()
    let own = 0
    let users = 0
    let guests = 0
    for (const sub of this.#subs) {
      const other = sub.session
      if (other === undefined) continue
      if (other === session) own++
      const name = sessionUser(other)?.name.toLowerCase()
      if (name === undefined) guests++
      else if (name === user) users++
    }
    if (own >= perSession)
      fail('FeedSubscriptionLimit', ['the session', perSession, 'maxSubscriptionsPerSession'])
    if (user !== undefined && users >= perUser)
      fail('FeedSubscriptionLimit', [`the user ${user}`, perUser, 'maxSubscriptionsPerUser'])
    // Sessions without a user are anyone's: they share a pool of their own, so that they never
    // take the feeds the logged-in users may open.
    if (user === undefined && guests >= perGuests)
      fail('FeedSubscriptionLimit', ['sessions without a user', perGuests, 'maxGuestSubscriptions'])
  }

  remove(sub: Subscription<unknown>): void {
    if (!this.#subs.delete(sub) || this.#subs.size > 0) return
    this.#untrack?.()
    this.#unobserve?.()
    this.#cancelTimer?.()
    this.#untrack = this.#unobserve = this.#cancelTimer = undefined
    this.#timerAt = Infinity
  }

  #add(sub: Subscription<unknown>): void {
    if (this.#subs.size === 0) {
      this.#untrack = this.history.track()
      this.#unobserve = this.history.observe(this.#committed)
    }
    this.#subs.add(sub)
    if (sub.heartbeatMs !== undefined) this.#arm(sub.lastSentAt + sub.heartbeatMs)
  }

  readonly #committed = (reset: boolean): void => {
    // A subscriber dropped here leaves the set: deleting while iterating a Set is safe.
    for (const sub of this.#subs) sub.noteCommit(reset)
  }

  // The timer set to fire by `at` (datastore's clock), unless one fires sooner already.
  #arm(at: number): void {
    if (at >= this.#timerAt) return
    this.#cancelTimer?.()
    this.#timerAt = at
    const delay = Math.max(0, at - this.ds.clock.now())
    this.#cancelTimer = this.#schedule(this.#beat, delay)
  }

  readonly #beat = (): void => {
    this.#cancelTimer = undefined
    this.#timerAt = Infinity
    const now = this.ds.clock.now()
    let next = Infinity
    for (const sub of this.#subs) {
      const at = sub.heartbeatAt(now)
      if (at !== undefined && at < next) next = at
    }
    // At least a millisecond on: a subscriber whose time has come but who is busy is asked later.
    if (next !== Infinity) this.#arm(Math.max(next, now + 1))
  }
}
