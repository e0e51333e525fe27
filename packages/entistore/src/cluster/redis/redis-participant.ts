/**
 * @module `--redis <url>`: the sessions, locks and entity sets of several processes serving one
 * datastore, shared through Redis. Each process keeps the core's in-memory stores as a mirror and
 * answers from them, synchronously as ever; Redis is the shared truth (keys and scripts in
 * redis-scripts.ts, JSON in wire.ts). What a request changes goes to Redis before its reply
 * (pending-writes.ts); touches are not waited for (touches.ts). Sessions are told and
 * acknowledged (session-writes.ts, session-mirror.ts, redis-presence.ts), sets asked
 * (set-mirror.ts), locks decided in Redis first (lock-mirror.ts); what a request names is fetched
 * before it runs (before-request.ts). This participant puts them around the core's requests and
 * writes (participant.ts). A request that needs Redis while it cannot be reached is answered 503
 * (SharedStateUnavailable, with Retry-After). What is not shared, and the other limits, are in
 * docs/durability.md.
 */
import type { Datastore } from '@entistore/core'
import { isPending, readCookie, sessionCookieName, withRespond } from '@entistore/rest'
import type { RequestNames, RestCore, RestReply, RestRequest } from '@entistore/rest'
import type { SharedCounts, SharedSessions } from '@entistore/rest'
import type { Redis } from 'ioredis'
import type { ClusterParticipant } from '../participant.js'
import { createMirrors, type MirrorCommands, type Mirrors } from './mirrors.js'
import type { RedisParticipantOptions } from './options.js'
import { prepare } from './before-request.js'
import { redisQuotaCounts } from './redis-quotas.js'
import { RedisSessionCounts } from './redis-sessions.js'
import { LockTakenElsewhere, unavailable, type Refusal } from './pending-writes.js'
import { subscribe } from './subscription.js'

/**
 * @internal The command connection: ioredis's client, with the scripts of redis-scripts.ts
 * defined. Left out of the published types, which name no type of ioredis (it is optional).
 */
export type Commands = Redis & MirrorCommands

/** How many times a `$lock` Redis gave another session meanwhile is answered again (see `wrap`). */
const MAX_ANSWERED_AGAIN = 2

export class RedisParticipant implements ClusterParticipant {
  readonly name = 'redis'
  readonly #redis: Commands
  readonly #sub: Redis
  readonly #report: (error: unknown) => void
  readonly #cookie: string
  readonly #m: Mirrors
  readonly #stops: (() => void)[]
  readonly #now: () => number
  readonly #ds: Datastore

  /**
   * @internal Made by `connectRedis`. Left out of the published types (stripInternal): its clients
   * are ioredis's, which a user without ioredis cannot name.
   */
  constructor(
    ds: Datastore,
    redis: Commands,
    sub: Redis,
    options: RedisParticipantOptions,
    report: (error: unknown) => void,
  ) {
    this.#redis = redis
    this.#sub = sub
    this.#report = report
    this.#cookie = options.sessionCookieName ?? sessionCookieName(ds.name)
    this.#m = createMirrors(ds, redis, options, report)
    this.#now = () => ds.clock.now()
    this.#ds = ds
    this.#stops = this.#m.observe()
  }

  /** @internal Subscribes, shares the set-id key, and takes up the first lease. */
  async listen(): Promise<void> {
    const { keys, presence, sets, onMessage } = this.#m
    const [sub, commands, report] = [this.#sub, this.#redis, this.#report]
    await subscribe({ sub, commands, channel: keys.channel, presence, onMessage, report })
    await sets.shareIdKey()
    await presence.start()
  }

  /**
   * `core` (the cluster's wrapped REST core) with each reply sent once what its request changed in
   * Redis is there and, for a session, known to every process serving: a reply that changed
   * nothing shared is returned as it is, synchronously. If the change could not be written, the
   * reply is 503 (SharedStateUnavailable) instead.
   * @example toNodeListener(redis.wrap(writes.wrap(createRestHandler(ds))))
   */
  wrap(core: RestCore): RestCore {
    const settle = (
      request: RestRequest,
      from: number,
      again: number,
      reply: RestReply,
    ): RestReply | Promise<RestReply> => {
      this.#m.sessionWrites.flushDirty()
      return this.#m.pending.settle(from, reply, (error) => refused(request, error, again), request)
    }
    const respond = (request: RestRequest, again: number): RestReply | Promise<RestReply> => {
      const from = this.#m.pending.seq
      const reply = core.respond(request)
      return isPending(reply)
        ? reply.then((r) => settle(request, from, again, r))
        : settle(request, from, again, reply)
    }
    // A `$lock` another process granted first: answered again (and settled again: the answer may
    // write too), refused as Redis decided; 503 past two tries, Redis changing its mind each time.
    const refused = (request: RestRequest, error: Refusal, again: number) =>
      !(error instanceof LockTakenElsewhere)
        ? core.refuse(error)
        : again < MAX_ANSWERED_AGAIN
          ? respond(request, again + 1)
          : core.refuse(unavailable(error))
    return withRespond(core, (request) => respond(request, 0))
  }

  /**
   * The web server quotas' counts shared through this Redis with every process serving (the
   * handler's `sharedCounts`): a request is checked on this process's counts plus the others' as
   * of its last report, never waiting for Redis (redis-quotas.ts).
   */
  quotaCounts(): SharedCounts {
    return redisQuotaCounts(this.#redis, this.#m.keys, this.#now, this.#report)
  }

  /**
   * The sessions of every process serving, which `nbSessions` and `nbGuestSessions` count (the
   * handler's `sharedSessions`): read from Redis's index of open sessions, never waited for
   * (redis-sessions.ts).
   */
  sessionCounts(): SharedSessions {
    const counts = new RedisSessionCounts(this.#ds, this.#redis, this.#m.keys, this.#report)
    this.#stops.push(counts.stop)
    return counts
  }

  /**
   * Whether this process answers the sessions it holds from its mirror now (it holds a lease);
   * otherwise it reads each from Redis first.
   */
  get leased(): boolean {
    return this.#m.presence.vouches()
  }

  /** @internal The subscriber connection (a test stalls or cuts it). */
  get subscriber(): Redis {
    return this.#sub
  }

  /** @internal The command connection (a test stalls it). */
  get commands(): Redis {
    return this.#redis
  }

  beforeRequest(request: RestRequest, names: RequestNames): Promise<void> | undefined {
    const header = request.headers.cookie
    const cookies = typeof header === 'string' ? header : header?.join('; ')
    return prepare(this.#m, request, names, readCookie(cookies, this.#cookie))
  }

  async beforeWrite(): Promise<void> {
    this.#m.pending.writeBegins()
    this.#m.locks.writeBegins()
    await this.#m.pending.settled()
    await this.#m.locks.refresh()
  }

  /**
   * After each write: its lock writes settled, with no conflict, and the sessions it changed
   * written to Redis (their acknowledgements are waited for by the reply, outside the gate); if
   * they cannot be, it rejects and the write is undone.
   */
  async afterWrite(): Promise<void> {
    this.#m.sessionWrites.flushDirty()
    await this.#m.pending.settled()
    const error = await this.#m.pending.writeEnded()
    const conflict = this.#m.locks.takeConflict()
    if (conflict !== undefined) throw conflict
    if (error !== undefined) throw error
  }

  afterRequest(request: RestRequest): void {
    this.#m.locks.afterRequest(request)
  }

  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0)) stop()
    this.#m.sessionWrites.flushDirty()
    this.#m.touches.flush()
    await this.#m.pending.settled()
    // What was written reaches Redis; the waits for acknowledgements end with the presence.
    await this.#m.pending.written()
    await this.#m.presence.close()
    await Promise.allSettled([this.#redis.quit(), this.#sub.quit()])
  }
}
