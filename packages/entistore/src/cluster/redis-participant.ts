/**
 * @module `--redis <url>`: the sessions, locks and entity sets of several processes serving one
 * datastore, shared through Redis. Each process keeps the core's in-memory stores as a mirror and
 * answers from them, synchronously as ever; Redis is the shared truth (keys and scripts in
 * redis-scripts.ts). What a reply did is seen by the next request through any process:
 *
 * - **Written before the reply.** What a request changes goes to Redis before its reply is sent
 *   (`wrap`, and `afterWrite` for a write, whose failure undoes it): a session opened (the
 *   cookie's), established or changed (its data: a login, a function's session storage), renewed
 *   (a login), closed (a logout); a set kept or released. Touches (PEXPIRE, coalesced into one
 *   pipeline per turn of the event loop and at most one per session per second) are not waited
 *   for. Lifetimes are Redis TTLs: the session's inactivity timeout, the set's timeout.
 * - **Sessions: told, and acknowledged.** A change of a session is written with its next version,
 *   published and the processes serving listed, in one script; its reply waits until each of them
 *   applied it (acknowledged through its own channel), or until the lease has run out for those
 *   that did not (redis-presence.ts): a process answers from its mirror only while it holds a
 *   lease, which says it has heard every message published before its last heartbeat. Without
 *   one, or for a cookie it does not know, it reads the session from Redis before it answers
 *   (`beforeRequest`), so it never answers an old state; what it hears of a session is applied
 *   only when newer than what it holds (versions), whatever the order it hears it in.
 * - **Sets: asked.** A request naming `$entityset/{id}` (or `$otherCollection`) asks Redis whether
 *   the set is still there (one round trip), so a set released through any process is gone at
 *   once; one unknown here is fetched and adopted. A set travels as its members' entity KEYS,
 *   mapped to this process's row ids when adopted, with its owner (its session, renamed there at
 *   a login, and its user), so that every process applies the same rules to it; the key that
 *   signs set ids to their owners is one for all (the first process to start chooses it).
 * - **Locks are Redis's first.** `$lock=true|false` is decided by an atomic script in Redis before
 *   the core runs: taken, the core takes it too; held by another session, that lock is adopted
 *   here and the core answers status 3 with the holder's `lockInfo`, as for a local lock; a claim
 *   the core did not keep (the entity was gone) is let go after the request (`afterRequest`).
 *   Before every write (`beforeWrite`), the lock mirror is refreshed from Redis, so that a write
 *   is refused on a lock taken through any process.
 *
 * A request that needs Redis while it cannot be reached is answered 503 (SharedStateUnavailable,
 * with Retry-After). What is not shared, and the other limits, are in docs/durability.md.
 */
import type { ConnectionOptions } from 'node:tls'
import {
  datastoreError,
  SESSION_USER_KEY,
  type DataClass,
  type DatastoreError,
  type Datastore,
  type KeyValue,
  type Lock,
  setOwnerOf,
  type Session,
  type SetOwner,
  type StoredSet,
} from '@entistore/core'
import {
  isPending,
  lockOwnerOf,
  readCookie,
  sessionCookieName,
  unrefSchedule,
  type RequestNames,
  type RestCore,
  type RestReply,
  type RestRequest,
  type Schedule,
  withRespond,
} from '@entistore/rest'
import type { ChainableCommander, Redis, RedisOptions } from 'ioredis'
import { importOptional } from './optional-package.js'
import { withoutPassword } from './redacted-url.js'
import type { ClusterParticipant } from './participant.js'
import { Presence } from './redis-presence.js'
import { ACQUIRE, CLOSE, HOLDER, LOCKS, RELEASE, RENEW, SAVE } from './redis-scripts.js'

/**
 * ioredis's connection options (its `RedisOptions`), passed to it as given. Declared here, the
 * same as ioredis's, so that entistore's types compile without ioredis installed; a value typed as
 * ioredis's own `RedisOptions` may be given too, with its other options.
 */
export interface RedisClientOptions {
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly path?: string | undefined
  readonly username?: string | undefined
  readonly password?: string | undefined
  readonly db?: number | undefined
  /** TLS: Node's `tls.connect` options (`ca`, `servername`…); `rediss://` turns it on too. */
  readonly tls?: ConnectionOptions | undefined
  readonly family?: number | undefined
  readonly connectionName?: string | undefined
  readonly connectTimeout?: number | undefined
  readonly keepAlive?: number | undefined
  readonly noDelay?: boolean | undefined
  /** Sentinel: the sentinels to ask, and the name of the master they watch. */
  readonly sentinels?: Array<Partial<{ host: string; port: number; family: number }>> | undefined
  readonly name?: string | undefined
  readonly role?: 'master' | 'slave' | undefined
  readonly sentinelUsername?: string | undefined
  readonly sentinelPassword?: string | undefined
  readonly sentinelTLS?: ConnectionOptions | undefined
  readonly enableTLSForSentinelMode?: boolean | undefined
}

export interface RedisParticipantOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). @default 'redis://127.0.0.1:6379' */
  readonly url?: string
  /** More ioredis options (TLS, Sentinel…); the participant sets its own for failing fast. */
  readonly redis?: RedisClientOptions
  /** Prefix of every key and of the channel. @default `entistore:<application name>:` */
  readonly prefix?: string
  /** The session cookie's name, as the REST handler's option. @default `4DSID_<application name>` */
  readonly sessionCookieName?: string
  /** How long a Redis command may take before the request that waits for it gets 503. @default 2000 */
  readonly commandTimeout?: number
  /**
   * The bound of read-your-writes of sessions, in milliseconds: how long a lease lasts (a process
   * that has not heard its heartbeat back for that long reads sessions from Redis before
   * answering), and how long a session's change waits for a process to acknowledge it.
   * @default 2000
   */
  readonly leaseMs?: number
  /** Milliseconds of a monotonic clock (the leases' clock). @default performance.now */
  readonly now?: () => number
  /** Runs the heartbeats and the acknowledgement waits. @default setTimeout, unref'd */
  readonly schedule?: Schedule
  /**
   * Told of a failure that no request waits for (a touch or release that could not be written).
   * @default a line on stderr, at most one every 10 seconds
   */
  readonly onError?: (error: unknown) => void
}

/** What the participant's scripts add to an ioredis client. */
interface Scripts {
  esAcquire(
    lockKey: string,
    index: string,
    lock: string,
    sid: string,
    prefix: string,
  ): Promise<unknown[]>
  esRelease(lockKey: string, index: string, sid: string, prefix: string): Promise<unknown[]>
  esHolder(lockKey: string, prefix: string): Promise<unknown[]>
  esLocks(index: string, prefix: string): Promise<unknown[]>
  esSave(
    sessionKey: string,
    prefix: string,
    session: string,
    ttl: number,
    mode: 'open' | 'save',
    message: string,
  ): Promise<unknown[]>
  esClose(
    sessionKey: string,
    index: string,
    sid: string,
    prefix: string,
    message: string,
  ): Promise<unknown[]>
  esRenew(
    oldKey: string,
    newKey: string,
    index: string,
    oldSid: string,
    newSid: string,
    session: string,
    ttl: number,
    prefix: string,
    message: string,
  ): Promise<unknown[]>
}
type Client = Redis & Scripts

/** A session as Redis holds it (`v`: its version, given by the scripts). */
interface SharedSession {
  readonly v: number
  readonly c: number
  readonly t: number
  readonly e: 0 | 1
  readonly d?: [string, unknown][]
}

/** A lock as Redis holds it. */
interface SharedLock {
  readonly i: string
  readonly d: string
  readonly k: KeyValue
  readonly n?: Lock['owner']['info']
}

/** An entity set as Redis holds it: keys, not row ids (those are this process's own slots). */
interface SharedSet {
  readonly dc: string
  readonly k: (KeyValue | null)[]
  readonly s: boolean
  readonly t: number
  readonly f?: string
  readonly o?: string
  /** Its owner: kind, id, user. Without it (a set written before owners were), the process. */
  readonly w?: { readonly k: SetOwner['kind']; readonly i: string; readonly u?: string }
}

/**
 * What processes tell each other: `o` the sender, `n` the number its acknowledgement names (a
 * session's change), the session as written (`s`) or the version of its close (`v`).
 */
type Message =
  | {
      readonly o: string
      readonly n: number
      readonly t: 'session'
      readonly id: string
      readonly s: SharedSession
    }
  | {
      readonly o: string
      readonly n: number
      readonly t: 'closed'
      readonly id: string
      readonly v: number
    }
  | { readonly o: string; readonly t: 'set-released'; readonly id: string }

/** What this process knows of a session it holds (or is fetching). */
interface Known {
  /** The version of its state here (0: none known yet). */
  v: number
  /** Its writes in flight from here: what is heard of it meanwhile waits in `deferred`. */
  writing: number
  deferred: Incoming[] | undefined
}

/** What Redis says a session is: its state (null: gone or closed) and version. */
interface Incoming {
  /** The version of the state, or of the close; 0 when a read found nothing. */
  readonly v: number
  readonly s: SharedSession | null
  /** Its remaining life in Redis, in ms. */
  readonly pttl: number
  /** The message it came in, to acknowledge once applied. */
  readonly ack?: { readonly origin: string; readonly n: number }
}

/**
 * A write to Redis that a reply waits for: `written` once Redis has it, `visible` once every
 * process serving has it too. Each resolves with the error the reply then answers, or undefined.
 */
interface Op {
  readonly written: Promise<DatastoreError | undefined>
  readonly visible: Promise<DatastoreError | undefined>
}

// A touch is written at most this often per session or set (and never above a tenth of its life).
const TOUCH_EVERY = 1000

/**
 * Connects to Redis and shares `ds`'s sessions, locks and entity sets through it. Needs the
 * package `ioredis` (an optional peer dependency): without it, rejects with MissingPackageError
 * (`connectRedis needs the package ioredis: npm install ioredis`).
 */
export async function connectRedis(
  ds: Datastore,
  target: string | RedisParticipantOptions = {},
): Promise<RedisParticipant> {
  const options = typeof target === 'string' ? { url: target } : target
  // Loaded here, not when entistore is imported.
  const { Redis } = await importOptional({
    name: 'ioredis',
    neededBy: 'connectRedis',
    load: () => import('ioredis'),
  })
  const settings: RedisOptions = {
    ...options.redis,
    lazyConnect: true,
    // A request waiting for Redis gets 503 at once while it is down, not a hang until it is back.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeout ?? 2000,
    retryStrategy: (times) => Math.min(50 * times, 1000),
  }
  const url = options.url ?? 'redis://127.0.0.1:6379'
  const redis = new Redis(url, settings) as Client
  const sub = new Redis(url, settings)
  const report = options.onError ?? throttledLog()
  // The first failure says why (ECONNREFUSED…); connect() itself rejects with a vaguer one.
  let first: unknown
  const starting = (error: unknown) => (first ??= error)
  redis.on('error', starting)
  sub.on('error', starting)
  try {
    await Promise.all([redis.connect(), sub.connect()])
  } catch (error) {
    redis.disconnect()
    sub.disconnect()
    throw datastoreError('SharedStateUnavailable', [
      `Redis at ${withoutPassword(url)}`,
      messageOf(first ?? error),
    ])
  }
  // ioredis reports a lost connection as an 'error' event too: without a listener, it logs it.
  for (const client of [redis, sub]) client.off('error', starting).on('error', report)
  redis.defineCommand('esAcquire', { numberOfKeys: 2, lua: ACQUIRE })
  redis.defineCommand('esRelease', { numberOfKeys: 2, lua: RELEASE })
  redis.defineCommand('esHolder', { numberOfKeys: 1, lua: HOLDER })
  redis.defineCommand('esLocks', { numberOfKeys: 1, lua: LOCKS })
  redis.defineCommand('esSave', { numberOfKeys: 1, lua: SAVE })
  redis.defineCommand('esClose', { numberOfKeys: 2, lua: CLOSE })
  redis.defineCommand('esRenew', { numberOfKeys: 3, lua: RENEW })
  const participant = new RedisParticipant(ds, redis, sub, options, report)
  try {
    await participant.listen()
  } catch (error) {
    await participant.close()
    throw datastoreError('SharedStateUnavailable', [
      `Redis at ${withoutPassword(url)}`,
      messageOf(error),
    ])
  }
  return participant
}

/** A line on stderr per failure, at most one every 10 seconds (an outage fails every touch). */
function throttledLog(): (error: unknown) => void {
  let last = 0
  return (error) => {
    const now = Date.now()
    if (now - last < 10_000) return
    last = now
    process.stderr.write(`entistore: redis: ${messageOf(error)}\n`)
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)

function cookieHeader(request: RestRequest): string | undefined {
  const value = request.headers.cookie
  return typeof value === 'string' ? value : value?.join('; ')
}

export class RedisParticipant implements ClusterParticipant {
  readonly name = 'redis'
  readonly #ds: Datastore
  readonly #redis: Client
  readonly #sub: Redis
  readonly #report: (error: unknown) => void
  readonly #prefix: string
  readonly #channel: string
  readonly #index: string
  readonly #cookie: string
  readonly #adopt: NonNullable<Datastore['sessions']['adopt']>
  readonly #now: () => number
  /** How long a session's close is remembered against older reads of it still in flight. */
  readonly #tombMs: number
  readonly #presence: Presence
  /** Above 0 while the mirror follows Redis: the changes it makes are not written back. */
  #following = 0
  readonly #stops: (() => void)[] = []
  // Touches waiting for the next flush: id → the lifetime its TTL is set to again.
  readonly #touchSessions = new Map<string, number>()
  readonly #touchSets = new Map<string, StoredSet>()
  // When each session or set was last written.
  readonly #sessionWritten = new Map<string, number>()
  readonly #setWritten = new Map<string, number>()
  #flushing = false
  /** The sessions this process holds or is fetching, with the version of their state. */
  readonly #known = new Map<string, Known>()
  /**
   * Sessions closed (here, or told by another process), with the version of the close (Infinity:
   * here) and when: a read of one that Redis answered before the close is not adopted.
   */
  readonly #tombs = new Map<string, { v: number; at: number }>()
  /** Reads of sessions in flight: a second request for one waits for the same read. */
  readonly #fetching = new Map<string, Promise<void>>()
  /** Sessions established or changed since the last write of them (written once per turn). */
  readonly #dirty = new Set<string>()
  #dirtyQueued = false
  /** Writes a reply waits for, by number; `#opSeq` is the number of the last one. */
  readonly #ops = new Map<number, Op>()
  #opSeq = 0
  /** The number of the last write before the write in the gate began (see afterWrite). */
  #writeFrom = 0
  /** Lock writes in flight: a write waits for them, so that its checks see them in Redis. */
  readonly #pending = new Set<Promise<void>>()
  /** A lock found taken in Redis by another session after it was taken here: the write fails. */
  #conflict: unknown = undefined
  /** Locks claimed in Redis before a request, let go after it if the core did not take them. */
  readonly #claims = new Map<RestRequest, SharedLock>()
  // Members of shared sets deleted here (or never here): negative row ids, one per key.
  readonly #tombstones = new Map<string, number>()
  readonly #tombstoneKeys = new Map<number, KeyValue | null>()

  /**
   * @internal Made by `connectRedis`. Left out of the published types (stripInternal): its clients
   * are ioredis's, which a user without ioredis cannot name.
   */
  constructor(
    ds: Datastore,
    redis: Client,
    sub: Redis,
    options: RedisParticipantOptions,
    report: (error: unknown) => void,
  ) {
    const sessions = ds.sessions
    if (!sessions.observe || !sessions.adopt)
      throw new TypeError('redis: the datastore’s session store must offer observe and adopt')
    const leaseMs = options.leaseMs ?? 2000
    if (!Number.isSafeInteger(leaseMs) || leaseMs < 4)
      throw new TypeError(`redis: leaseMs must be an integer of 4 or more: ${leaseMs}`)
    this.#ds = ds
    this.#redis = redis
    this.#sub = sub
    this.#report = report
    this.#prefix = options.prefix ?? `entistore:${ds.name}:`
    this.#channel = `${this.#prefix}events`
    this.#index = `${this.#prefix}locks`
    this.#cookie = options.sessionCookieName ?? sessionCookieName(ds.name)
    this.#adopt = sessions.adopt.bind(sessions)
    this.#now = options.now ?? (() => performance.now())
    this.#tombMs = 2 * (options.commandTimeout ?? 2000) + leaseMs
    this.#presence = new Presence(redis, {
      prefix: this.#prefix,
      leaseMs,
      now: this.#now,
      schedule: options.schedule ?? unrefSchedule,
      report,
      resync: () => this.#resync(),
    })
    this.#stops.push(
      sessions.observe({
        opened: (s) => this.#following === 0 && this.#opened(s),
        touched: (s) => this.#following === 0 && this.#touchSession(s),
        established: (s) => this.#following === 0 && this.#changed(s),
        changed: (s) => this.#following === 0 && this.#changed(s),
      }),
      sessions.onRenew((s, previous) => this.#following === 0 && this.#renewSession(s, previous)),
      sessions.onClose((s, reason) => {
        this.#sessionWritten.delete(s.id)
        this.#known.delete(s.id)
        this.#dirty.delete(s.id)
        // An expiry or an eviction is this process's own affair: Redis's TTL decides there.
        if (this.#following === 0 && reason === 'closed') this.#closeSession(s.id)
      }),
      ds.locks.observe({
        taken: (lock) => {
          if (this.#following === 0 && lock.owner.kind === 'session') this.#takeLock(lock)
        },
        released: (lock, reason) => {
          if (this.#following > 0 || lock.owner.kind !== 'session') return
          // A closed session's locks go with it (CLOSE), an expired one's with its key.
          if (reason === 'released')
            this.#track(this.#release(lock.dataClass, lock.key, lock.owner.id))
          else if (reason === 'deleted') this.#track(this.#release(lock.dataClass, lock.key, ''))
        },
      }),
      ds.entitySets.observe({
        kept: (set) => this.#following === 0 && this.#keepSet(set),
        touched: (set) => this.#following === 0 && this.#touchSet(set),
        // Released, or with its session logged out here: gone everywhere. A session that expired
        // or was evicted here is this process's affair (as for sessions): Redis's TTL decides.
        released: (id, reason) =>
          this.#following === 0 &&
          (reason === 'released' || reason === 'closed') &&
          this.#releaseSet(id),
        // Its session renewed here (a login): the others read the new owner from Redis.
        renamed: (set, remaining) => this.#following === 0 && this.#keepSet(set, remaining),
      }),
    )
  }

  /**
   * @internal Subscribes to the others' messages and to this process's own channel, and takes up
   * its first lease. A subscriber connection lost and back is subscribed again, and the sessions
   * held read again from Redis (messages sent meanwhile were lost) before a lease is taken up.
   */
  async listen(): Promise<void> {
    const direct = this.#presence.channel
    this.#sub.on('message', (channel: string, text: string) => {
      if (channel === this.#channel) this.#onMessage(text)
      else if (channel === direct) this.#presence.onDirect(text)
    })
    await this.#sub.subscribe(this.#channel, direct)
    let subscribed = true
    this.#sub.on('close', () => {
      if (!subscribed) return
      subscribed = false
      this.#presence.lost()
    })
    this.#sub.on('ready', () => {
      if (subscribed) return
      subscribed = true
      const generation = this.#presence.generation
      this.#sub.subscribe(this.#channel, direct).then(
        () => this.#presence.subscribedAgain(generation),
        (error: unknown) => {
          this.#report(error)
          this.#sub.disconnect(true) // and again, until it can
        },
      )
    })
    this.#redis.on('ready', () => this.#presence.commandsAgain())
    await this.#shareSetIdKey()
    await this.#presence.start()
  }

  /**
   * The key that signs entity-set ids to their owners, one for every process (the first to start
   * chooses it): a gone set is then remade by its owner through any of them.
   */
  async #shareSetIdKey(): Promise<void> {
    const key = `${this.#prefix}set-id-key`
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
    const mine = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    await this.#redis.set(key, mine, 'NX')
    const shared = await this.#redis.get(key)
    if (shared !== null && /^[0-9a-fA-F]{32}$/.test(shared)) this.#ds.entitySets.useIdKey(shared)
  }

  /**
   * `core` (the cluster's wrapped REST core) with each reply sent once what its request changed in
   * Redis is there and, for a session, known to every process serving (see the module note): a
   * reply that changed nothing shared is returned as it is, synchronously. If the change could not
   * be written, the reply is 503 (SharedStateUnavailable) instead.
   * @example toNodeListener(redis.wrap(writes.wrap(createRestHandler(ds))))
   */
  wrap(core: RestCore): RestCore {
    const settle = (from: number, reply: RestReply): RestReply | Promise<RestReply> => {
      this.#flushDirty()
      if (this.#opSeq === from) return reply
      const waits: Promise<DatastoreError | undefined>[] = []
      for (const [seq, op] of this.#ops) if (seq > from) waits.push(op.visible)
      if (waits.length === 0) return reply
      return Promise.all(waits).then((errors) => {
        const error = errors.find((e) => e !== undefined)
        return error === undefined ? reply : core.refuse(error)
      })
    }
    return withRespond(core, (request) => {
      const from = this.#opSeq
      const reply = core.respond(request)
      return isPending(reply) ? reply.then((r) => settle(from, r)) : settle(from, reply)
    })
  }

  /**
   * Whether this process answers the sessions it holds from its mirror now (it holds a lease);
   * otherwise it reads each from Redis first.
   */
  get leased(): boolean {
    return this.#presence.vouches()
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
    const cookie = readCookie(cookieHeader(request), this.#cookie)
    // The hot path: a session held here, with a lease, is answered from the mirror at once.
    const stale = cookie !== undefined && !this.#vouchesFor(cookie)
    const sid = cookie ?? names.sessionId
    const fetchSession = sid !== undefined && (stale || !this.#vouchesFor(sid))
    const { entitySets: sets, lock } = names
    // `$info` lists the session's sets, wherever they were made.
    const lists = names.target?.kind === 'info' && !names.target.privileges && sid !== undefined
    if (!fetchSession && sets.length === 0 && lock === undefined && !lists) return undefined
    return this.#prepare(request, fetchSession ? sid : undefined, sets, sid, lock, lists)
  }

  async beforeWrite(): Promise<void> {
    this.#writeFrom = this.#opSeq
    await this.#settled()
    let rows: unknown[]
    try {
      rows = await this.#redis.esLocks(this.#index, this.#prefix)
    } catch (error) {
      throw this.#unavailable(error)
    }
    this.#follow(() => {
      const shared = new Set<string>()
      for (let i = 0; i + 2 < rows.length; i += 3) {
        const lock = JSON.parse(rows[i] as string) as SharedLock
        if (this.#adoptLock(lock, rows[i + 1] as string, Number(rows[i + 2])))
          shared.add(lockId(lock.d, lock.k))
      }
      // A session's lock that Redis no longer has was released or expired through another process.
      for (const lock of this.#ds.locks.list())
        if (lock.owner.kind === 'session' && !shared.has(lockId(lock.dataClass, lock.key)))
          this.#ds.locks.drop(lock.dataClass, lock.key)
    })
  }

  /**
   * After each write: its lock writes settled, with no conflict, and the sessions it changed
   * written to Redis (their acknowledgements are waited for by the reply, outside the gate); if
   * they cannot be, it rejects and the write is undone.
   */
  async afterWrite(): Promise<void> {
    this.#flushDirty()
    await this.#settled()
    const from = this.#writeFrom
    this.#writeFrom = this.#opSeq
    const written: Promise<DatastoreError | undefined>[] = []
    for (const [seq, op] of this.#ops) if (seq > from) written.push(op.written)
    const error = (await Promise.all(written)).find((e) => e !== undefined)
    const conflict = this.#conflict
    this.#conflict = undefined
    if (conflict !== undefined) throw conflict
    if (error !== undefined) throw error
  }

  afterRequest(request: RestRequest): void {
    const claim = this.#claims.get(request)
    if (!claim) return
    this.#claims.delete(request)
    const held = this.#ds.locks.holder(claim.d, claim.k)
    if (held?.owner.kind !== 'session' || held.owner.id !== claim.i)
      this.#track(this.#release(claim.d, claim.k, claim.i))
  }

  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0)) stop()
    this.#flushDirty()
    this.#flush()
    await this.#settled()
    // What was written reaches Redis; the waits for acknowledgements end with the presence.
    await Promise.all([...this.#ops.values()].map((op) => op.written))
    await this.#presence.close()
    await Promise.allSettled([this.#redis.quit(), this.#sub.quit()])
  }

  // ---- before a request ----

  /** Whether the session `id` may be answered from the mirror: held here, with a lease. */
  #vouchesFor(id: string): boolean {
    return this.#ds.sessions.peek(id) !== undefined && this.#presence.vouches()
  }

  async #prepare(
    request: RestRequest,
    session: string | undefined,
    sets: readonly string[],
    sid: string | undefined,
    lock: RequestNames['lock'],
    lists = false,
  ): Promise<void> {
    try {
      await Promise.all([
        session === undefined ? undefined : this.#fetchSession(session),
        sets.length === 0 ? undefined : this.#confirmSets(sets),
      ])
      const held = lists && sid !== undefined ? this.#ds.sessions.peek(sid) : undefined
      if (held) await this.#listSets(held)
      if (!lock) return
      if (sid !== undefined && this.#ds.sessions.peek(sid)) await this.#claim(request, sid, lock)
      // A client without a session yet: the core makes one, then the lock is written. Its
      // holder, if any, is fetched first, so that the core refuses it as Redis would.
      else await this.#fetchHolder(lock)
    } catch (error) {
      throw this.#unavailable(error)
    }
  }

  /** Reads session `id` from Redis into the mirror (or out of it, when Redis has it no more). */
  #fetchSession(id: string): Promise<void> {
    const running = this.#fetching.get(id)
    if (running) return running
    // Known while it is read: what is heard of it meanwhile is kept (see #incoming).
    if (!this.#known.has(id)) this.#known.set(id, { v: 0, writing: 0, deferred: undefined })
    const key = this.#sessionKey(id)
    const read = this.#redis
      .multi()
      .get(key)
      .pttl(key)
      .exec()
      .then((results) => {
        const [[, json], [, pttl]] = results as [[null, string | null], [null, number]]
        const s = json !== null && pttl > 0 ? (JSON.parse(json) as SharedSession) : null
        this.#incoming(id, { v: versionOf(s), s, pttl })
      })
      .finally(() => {
        this.#fetching.delete(id)
        const known = this.#known.get(id)
        if (known?.writing === 0 && !this.#ds.sessions.peek(id)) this.#known.delete(id)
      })
    this.#fetching.set(id, read)
    return read
  }

  /**
   * The sets a request names, as Redis has them: one held here that Redis no longer has is
   * released here (another process released it, or it expired), one unknown here is fetched.
   */
  async #confirmSets(ids: readonly string[]): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        if (!this.#ds.entitySets.has(id)) return this.#fetchSet(id)
        if ((await this.#redis.exists(this.#setKey(id))) === 0)
          this.#follow(() => this.#ds.entitySets.release(id))
      }),
    )
  }

  async #fetchSet(id: string): Promise<void> {
    const key = this.#setKey(id)
    const [[, json], [, pttl]] = (await this.#redis.multi().get(key).pttl(key).exec()) as [
      [null, string | null],
      [null, number],
    ]
    if (json === null || !(pttl > 0)) return
    const shared = JSON.parse(json) as SharedSet
    const dc = this.#ds.findDataClass(shared.dc)
    if (!dc) return
    const rowIds = shared.k.map((key) => this.#rowIdOf(dc, key))
    const w = shared.w
    const owner: SetOwner = w
      ? { kind: w.k, id: w.i, ...(w.u === undefined ? {} : { user: w.u }) }
      : { kind: 'process', id: 'process' }
    this.#follow(() =>
      this.#ds.entitySets.keep(dc.selection(rowIds), {
        id,
        owner,
        timeout: shared.t / 1000,
        remaining: pttl,
        sorted: shared.s,
        ...(shared.f === undefined ? {} : { savedFilter: shared.f }),
        ...(shared.o === undefined ? {} : { savedOrderBy: shared.o }),
      }),
    )
  }

  /** The mirror made to hold the lock on `lock`'s entity as Redis does (held, or free). */
  async #fetchHolder(lock: NonNullable<RequestNames['lock']>): Promise<void> {
    const found = this.#entityOf(lock)
    if (!found) return
    const { dc, key } = found
    const answer = await this.#redis.esHolder(this.#lockKey(dc.name, key), this.#prefix)
    if (answer[0] === 0) this.#followHolder(answer)
    else
      this.#follow(() => {
        if (this.#ds.locks.holder(dc.name, key)?.owner.kind === 'session')
          this.#ds.locks.drop(dc.name, key)
      })
  }

  /** The dataclass and typed key of the entity a `$lock` names, if it exists here. */
  #entityOf(lock: NonNullable<RequestNames['lock']>): { dc: DataClass; key: KeyValue } | undefined {
    const dc = this.#ds.findDataClass(lock.dataClass)
    try {
      const entity = dc?.get(lock.key)
      return dc && entity ? { dc, key: entity.key } : undefined
    } catch {
      return undefined // a key of the wrong form: the core answers it
    }
  }

  /**
   * `$lock=true|false` decided in Redis first: the mirror then holds what Redis says, and the
   * core's synchronous lock or unlock answers from it as a single server would.
   */
  async #claim(
    request: RestRequest,
    sid: string,
    lock: NonNullable<RequestNames['lock']>,
  ): Promise<void> {
    const found = this.#entityOf(lock)
    if (!found) return // status 5 from the core (or its error): nothing to claim
    const { dc, key: entityKey } = found
    const info = lockOwnerOf(sid, request.headers, request.remoteAddress).info
    const shared: SharedLock = { i: sid, d: dc.name, k: entityKey, ...(info ? { n: info } : {}) }
    const key = this.#lockKey(dc.name, entityKey)
    if (!lock.wanted) {
      const answer = await this.#redis.esRelease(key, this.#index, sid, this.#prefix)
      if (answer[0] === 0) this.#followHolder(answer)
      return
    }
    const answer = await this.#redis.esAcquire(
      key,
      this.#index,
      JSON.stringify(shared),
      sid,
      this.#prefix,
    )
    if (answer[0] === 1) {
      this.#claims.set(request, shared)
      this.#follow(() => {
        const held = this.#ds.locks.holder(dc.name, entityKey)
        if (held && !(held.owner.kind === 'session' && held.owner.id === sid))
          this.#ds.locks.drop(dc.name, entityKey)
      })
    } else if (answer[0] === 0) this.#followHolder(answer)
    else this.#gone(sid)
  }

  // ---- the mirror following Redis ----

  #follow<T>(fn: () => T): T {
    this.#following++
    try {
      return fn()
    } finally {
      this.#following--
    }
  }

  /**
   * What Redis says of session `id` (a message, a read, a lock's answer), applied when this
   * process holds it or is reading it, and acknowledged. While a write of it from here is in
   * flight, it waits for that write's version (which may be newer).
   */
  #incoming(id: string, incoming: Incoming): void {
    const known = this.#known.get(id)
    if (known && known.writing > 0) {
      ;(known.deferred ??= []).push(incoming)
      return
    }
    if (known) this.#apply(id, known, incoming)
    if (incoming.ack) this.#presence.ack(incoming.ack.origin, incoming.ack.n)
  }

  #apply(id: string, known: Known, { v, s, pttl }: Incoming): void {
    if (s === null) {
      // Closed (a version), or found gone by a read (none): gone here too.
      if (v > 0) this.#tomb(id, v)
      this.#gone(id)
      this.#known.delete(id)
      return
    }
    // Older than what is held, or than a close heard: a read answered before that change.
    if (v <= known.v || v <= (this.#tombs.get(id)?.v ?? 0)) return
    known.v = v
    try {
      this.#follow(() => this.#adoptSession(id, s, pttl))
    } catch (error) {
      this.#report(error) // no room for it here (SessionLimit in refuse mode)
    }
  }

  /** A write of session `id` from here settled: what was heard of it meanwhile is applied. */
  #doneWriting(id: string, known: Known): void {
    if (--known.writing > 0) return
    const deferred = known.deferred
    known.deferred = undefined
    for (const incoming of deferred ?? []) {
      // Closed here meanwhile: only the acknowledgements are still owed.
      if (this.#known.get(id) === known) this.#apply(id, known, incoming)
      if (incoming.ack) this.#presence.ack(incoming.ack.origin, incoming.ack.n)
    }
  }

  /** The entry of a session this process holds (made when it has none yet). */
  #hold(id: string): Known {
    let known = this.#known.get(id)
    if (!known) this.#known.set(id, (known = { v: 0, writing: 0, deferred: undefined }))
    return known
  }

  /** Remembers that session `id` was closed at version `v`, against reads older than that. */
  #tomb(id: string, v: number): void {
    const now = this.#now()
    if (this.#tombs.size >= 1024)
      for (const [old, { at }] of this.#tombs) if (now - at > this.#tombMs) this.#tombs.delete(old)
    this.#tombs.set(id, { v: Math.max(v, this.#tombs.get(id)?.v ?? 0), at: now })
  }

  #adoptSession(id: string, shared: SharedSession, pttl: number): Session {
    return this.#adopt({
      id,
      createdAt: shared.c,
      lastAccess: this.#ds.clock.now() - Math.max(0, shared.t - pttl),
      timeout: shared.t,
      established: shared.e === 1,
      ...(shared.d ? { data: shared.d } : {}),
    })
  }

  /** A script's answer `{0, lock, its session, TTL}`: the holder, adopted here. */
  #followHolder(answer: unknown[]): void {
    const lock = JSON.parse(answer[1] as string) as SharedLock
    this.#follow(() => this.#adoptLock(lock, answer[2] as string, Number(answer[3])))
  }

  /** Makes the mirror hold `lock` as Redis does (its session adopted too); false if it cannot. */
  #adoptLock(lock: SharedLock, session: string, pttl: number): boolean {
    if (!this.#ds.findDataClass(lock.d)) return false
    if (!this.#ds.sessions.peek(lock.i)) {
      // Its holder, not held here: adopted as Redis has it (unless a close of it was heard since).
      const shared = JSON.parse(session) as SharedSession
      const known = this.#hold(lock.i)
      if (known.writing === 0) this.#apply(lock.i, known, { v: versionOf(shared), s: shared, pttl })
      if (!this.#ds.sessions.peek(lock.i)) {
        if (known.writing === 0 && !this.#fetching.has(lock.i)) this.#known.delete(lock.i)
        return false // no room for it here, or closed
      }
    }
    const held = this.#ds.locks.holder(lock.d, lock.k)
    if (held?.owner.kind === 'session' && held.owner.id === lock.i) return true
    if (held) this.#ds.locks.drop(lock.d, lock.k)
    const owner = { id: lock.i, kind: 'session' as const, ...(lock.n ? { info: lock.n } : {}) }
    this.#ds.locks.take(lock.d, lock.k, owner)
    return true
  }

  /** The session is gone from Redis: closed here too (its locks with it). */
  #gone(id: string): void {
    this.#follow(() => this.#ds.sessions.close(id))
  }

  /**
   * Reads again from Redis every session held here (after the subscriber connection was lost:
   * what was told meanwhile was lost with it), in pipelines of 500.
   */
  async #resync(): Promise<void> {
    const ids = [...this.#known.keys()].filter((id) => this.#ds.sessions.peek(id))
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500)
      const pipeline = this.#redis.pipeline()
      for (const id of chunk) pipeline.get(this.#sessionKey(id)).pttl(this.#sessionKey(id))
      const results = (await pipeline.exec()) ?? []
      chunk.forEach((id, j) => {
        const [error, json] = results[2 * j] ?? [new Error('no answer')]
        const [failed, pttl] = results[2 * j + 1] ?? [new Error('no answer')]
        if (error || failed) throw error ?? failed
        const s =
          typeof json === 'string' && (pttl as number) > 0
            ? (JSON.parse(json) as SharedSession)
            : null
        this.#incoming(id, { v: versionOf(s), s, pttl: pttl as number })
      })
    }
  }

  #onMessage(text: string): void {
    let message: Message
    try {
      message = JSON.parse(text) as Message
    } catch {
      return
    }
    if (message.o === this.#presence.id) return
    if (message.t === 'set-released') {
      this.#follow(() => this.#ds.entitySets.release(message.id))
      return
    }
    const ack = { origin: message.o, n: message.n }
    // Only a session this process holds (or is reading) is updated: another is read when it comes.
    if (message.t === 'closed') this.#incoming(message.id, { v: message.v, s: null, pttl: 0, ack })
    else this.#incoming(message.id, { v: message.s.v, s: message.s, pttl: message.s.t, ack })
  }

  // ---- write-through ----

  /** A session opened here: written before the reply that carries its cookie. */
  #opened(session: Session): void {
    this.#sessionWritten.set(session.id, this.#ds.clock.now())
    const id = session.id
    this.#op(
      () =>
        this.#redis.esSave(
          this.#sessionKey(id),
          this.#prefix,
          sessionJson(session),
          session.timeout,
          'open',
          '',
        ),
      { held: id },
    )
  }

  #touchSession(session: Session): void {
    if (!this.#due(this.#sessionWritten, session.id, session.timeout)) return
    this.#touchSessions.set(session.id, session.timeout)
    this.#scheduleFlush()
  }

  /**
   * A session established or changed: written once per turn of the event loop however many of its
   * entries changed (or at once when a reply or a write's end comes first: #flushDirty).
   */
  #changed(session: Session): void {
    this.#dirty.add(session.id)
    if (this.#dirtyQueued) return
    this.#dirtyQueued = true
    queueMicrotask(() => this.#flushDirty())
  }

  #flushDirty(): void {
    this.#dirtyQueued = false
    if (this.#dirty.size === 0) return
    const ids = [...this.#dirty]
    this.#dirty.clear()
    for (const id of ids) {
      const session = this.#ds.sessions.peek(id)
      if (session) this.#saveSession(session)
    }
  }

  /** A session established or changed: written whole, and the others' mirrors told. */
  #saveSession(session: Session): void {
    let json: string
    try {
      json = sessionJson(session)
    } catch (error) {
      this.#report(error) // data that JSON cannot carry stays in this process
      return
    }
    const id = session.id
    this.#sessionWritten.set(id, this.#ds.clock.now())
    const n = this.#presence.expect()
    this.#op(
      // XX: a session gone from Redis is not brought back; it is gone here too.
      () =>
        this.#redis.esSave(
          this.#sessionKey(id),
          this.#prefix,
          json,
          session.timeout,
          'save',
          this.#told(n, 'session', id),
        ),
      { held: id, n },
    )
  }

  /**
   * A session renewed (a login): its key and its locks given to the new id in Redis at once, and
   * the others told that the old id is closed. Waited for by the next write too (#track), so
   * that its check sees the locks under their new holder.
   */
  #renewSession(session: Session, previous: string): void {
    this.#sessionWritten.delete(previous)
    this.#touchSessions.delete(previous)
    this.#known.delete(previous)
    this.#dirty.delete(previous)
    this.#tomb(previous, Infinity)
    let json: string
    try {
      json = sessionJson(session)
    } catch (error) {
      // Data that JSON cannot carry stays in this process; the user (a login's) travels.
      this.#report(error)
      json = sessionJson(session, [SESSION_USER_KEY])
    }
    const id = session.id
    this.#sessionWritten.set(id, this.#ds.clock.now())
    const n = this.#presence.expect()
    const written = this.#op(
      () =>
        this.#redis.esRenew(
          this.#sessionKey(previous),
          this.#sessionKey(id),
          this.#index,
          previous,
          id,
          json,
          session.timeout,
          this.#prefix,
          this.#told(n, 'closed', previous),
        ),
      // Not renewed in Redis: the old id is read from there again when it comes back.
      { held: id, n, failed: () => this.#tombs.delete(previous) },
    )
    this.#track(
      written.then(
        () => undefined,
        () => undefined,
      ),
    )
  }

  /** A session closed here (a logout): gone from Redis with its locks, and the others told. */
  #closeSession(id: string): void {
    this.#tomb(id, Infinity)
    const n = this.#presence.expect()
    this.#op(
      () =>
        this.#redis.esClose(
          this.#sessionKey(id),
          this.#index,
          id,
          this.#prefix,
          this.#told(n, 'closed', id),
        ),
      // Not closed in Redis: a request that comes back with it reads it from there again.
      { n, failed: () => this.#tombs.delete(id) },
    )
  }

  /** The beginning of a message telling the others of session `id` (the script ends it). */
  #told(n: number, t: 'session' | 'closed', id: string): string {
    return `{"o":${JSON.stringify(this.#presence.id)},"n":${n},"t":"${t}","id":${JSON.stringify(id)}`
  }

  /**
   * A write to Redis that the reply of the request making it waits for (`wrap`, `afterWrite`).
   * `write` answers `{version, processes serving...}` (`{0}`: the session was gone from Redis).
   * `held`: the session it writes, which stays here (what is heard of it meanwhile waits for its
   * version); `n`: the change told to the others, whose acknowledgements the reply waits for.
   * On failure the reply is 503 and the session is dropped here (read again from Redis next).
   */
  #op(
    write: () => Promise<unknown[]>,
    o: { held?: string; n?: number; failed?: () => void },
  ): Promise<readonly string[]> {
    const { held, n } = o
    const known = held === undefined ? undefined : this.#hold(held)
    if (known) known.writing++
    const written = (async (): Promise<readonly string[]> => {
      try {
        const answer = await write()
        const v = Number(answer[0])
        if (held !== undefined && v === 0) this.#gone(held)
        else if (known && this.#known.get(held!) === known) known.v = Math.max(known.v, v)
        return answer.slice(1) as string[]
      } catch (error) {
        if (n !== undefined) this.#presence.forget(n)
        if (held !== undefined) this.#gone(held)
        o.failed?.()
        throw error
      } finally {
        if (known) this.#doneWriting(held!, known)
      }
    })()
    const visible = written.then((members) =>
      n === undefined ? undefined : this.#presence.acknowledged(n, members),
    )
    this.#addOp(written, visible)
    return written
  }

  /** Registers a write a reply waits for; its failure is told (a reply may not wait for it). */
  #addOp(written: Promise<unknown>, visible: Promise<unknown> = written): void {
    const seq = ++this.#opSeq
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (error: unknown) => this.#unavailable(error),
      )
    const op: Op = { written: outcome(written), visible: outcome(visible) }
    this.#ops.set(seq, op)
    written.catch(this.#report)
    void op.visible.then(() => this.#ops.delete(seq))
  }

  #takeLock(lock: Lock): void {
    const shared: SharedLock = {
      i: lock.owner.id,
      d: lock.dataClass,
      k: lock.key,
      ...(lock.owner.info ? { n: lock.owner.info } : {}),
    }
    const key = this.#lockKey(lock.dataClass, lock.key)
    this.#track(
      this.#redis
        .esAcquire(key, this.#index, JSON.stringify(shared), lock.owner.id, this.#prefix)
        .then((answer) => {
          if (answer[0] === 1) return
          // Taken here while Redis gave it to another (or the session is gone): not kept.
          this.#follow(() => this.#ds.locks.drop(lock.dataClass, lock.key))
          if (answer[0] === 0) this.#followHolder(answer)
          else this.#gone(lock.owner.id)
          this.#conflict = datastoreError('EntityLocked', [
            lock.key,
            lock.dataClass,
            'another session',
          ])
        }),
    )
  }

  /** Releases a lock in Redis for session `sid` ('' whoever holds it: the entity was deleted). */
  async #release(dataClass: string, key: KeyValue, sid: string): Promise<void> {
    const answer = await this.#redis.esRelease(
      this.#lockKey(dataClass, key),
      this.#index,
      sid,
      this.#prefix,
    )
    if (answer[0] === 0) this.#followHolder(answer)
  }

  /** A set kept here (or renamed with its session): written with `ttl` ms of life (its whole). */
  #keepSet(set: StoredSet, ttl = set.timeout): void {
    if (!(ttl > 0)) return
    const dc = this.#ds.dataClass(set.dataClass)
    const { kind, id, user } = set.owner
    const shared: SharedSet = {
      dc: set.dataClass,
      k: Array.from(set.rowIds, (r) => this.#keyOf(dc, r)),
      s: set.sorted,
      t: set.timeout,
      ...(set.savedFilter === undefined ? {} : { f: set.savedFilter }),
      ...(set.savedOrderBy === undefined ? {} : { o: set.savedOrderBy }),
      w: { k: kind, i: id, ...(user === undefined ? {} : { u: user }) },
    }
    this.#setWritten.set(set.id, this.#ds.clock.now())
    // Sets that expired here tell nothing: their entries go now and then, in one sweep.
    if (this.#setWritten.size > 2 * this.#ds.entitySets.size + 1000)
      for (const id of this.#setWritten.keys())
        if (!this.#ds.entitySets.has(id)) this.#setWritten.delete(id)
    // Written before the reply that names it: another process asked next finds it. Its owners'
    // lists name it too, for `$info` through any process (#listSets).
    const write = this.#redis
      .multi()
      .set(this.#setKey(set.id), JSON.stringify(shared), 'PX', Math.ceil(ttl))
    for (const key of this.#ownerKeys(set.owner))
      this.#extendOwner(write.sadd(key, set.id), key, ttl)
    this.#addOp(write.exec())
  }

  /**
   * The lists of set ids kept in Redis per owner: the session's, and its user's (any session of
   * theirs manages the sets, and `$info` lists them). Not for the process's own sets.
   */
  #ownerKeys(owner: SetOwner): string[] {
    if (owner.kind !== 'session') return []
    const keys = [`${this.#prefix}os:${owner.id}`]
    if (owner.user !== undefined) keys.push(`${this.#prefix}ou:${owner.user}`)
    return keys
  }

  /**
   * An owner's list lives as long as its longest-lived set: given the set's life when it has
   * none, lengthened when the set outlives it. Ids of sets gone before it are dropped when read.
   */
  #extendOwner(chain: ChainableCommander, key: string, ttl: number): ChainableCommander {
    const ms = Math.ceil(ttl)
    return chain.pexpire(key, ms, 'NX').pexpire(key, ms, 'GT')
  }

  /**
   * The sets `session` may list in `$info` (its own and its user's), as Redis has them: those
   * made through another process are fetched, those gone from Redis are let go here too.
   */
  async #listSets(session: Session): Promise<void> {
    const keys = this.#ownerKeys(setOwnerOf(session))
    const lists = await Promise.all(keys.map((key) => this.#redis.smembers(key)))
    const ids = new Set(lists.flat())
    const gone: string[] = []
    await Promise.all(
      [...ids].map(async (id) => {
        if ((await this.#redis.exists(this.#setKey(id))) === 1) {
          if (!this.#ds.entitySets.has(id)) await this.#fetchSet(id)
        } else {
          gone.push(id)
          if (this.#ds.entitySets.has(id)) this.#follow(() => this.#ds.entitySets.release(id))
        }
      }),
    )
    if (gone.length > 0) await Promise.all(keys.map((key) => this.#redis.srem(key, ...gone)))
  }

  #touchSet(set: StoredSet): void {
    if (!this.#due(this.#setWritten, set.id, set.timeout)) return
    this.#touchSets.set(set.id, set)
    this.#scheduleFlush()
  }

  /**
   * A set released here: gone from Redis before the reply (every read of a set asks Redis), and
   * the others told, so that their mirrors let it go too.
   */
  #releaseSet(id: string): void {
    this.#setWritten.delete(id)
    const message = JSON.stringify({ o: this.#presence.id, t: 'set-released', id })
    this.#addOp(this.#redis.multi().del(this.#setKey(id)).publish(this.#channel, message).exec())
  }

  /** Whether a touch of `id` is worth writing: none written for a second (or a tenth of its life). */
  #due(written: Map<string, number>, id: string, timeout: number): boolean {
    const now = this.#ds.clock.now()
    const last = written.get(id)
    if (last !== undefined && now - last < Math.min(TOUCH_EVERY, timeout / 10)) return false
    written.set(id, now)
    return true
  }

  #scheduleFlush(): void {
    if (this.#flushing) return
    this.#flushing = true
    setImmediate(() => this.#flush())
  }

  /** Every touch since the last flush, in one pipeline; what Redis no longer has goes here too. */
  #flush(): void {
    this.#flushing = false
    const sessions = [...this.#touchSessions]
    const sets = [...this.#touchSets]
    this.#touchSessions.clear()
    this.#touchSets.clear()
    if (sessions.length === 0 && sets.length === 0) return
    const pipeline = this.#redis.pipeline()
    for (const [id, timeout] of sessions) pipeline.pexpire(this.#sessionKey(id), timeout)
    for (const [id, set] of sets) pipeline.pexpire(this.#setKey(id), set.timeout)
    // The owners' lists after every set's own key, so that the results' indexes stay the sets'.
    for (const [, set] of sets)
      for (const key of this.#ownerKeys(set.owner)) this.#extendOwner(pipeline, key, set.timeout)
    this.#send(
      pipeline.exec().then((results) => {
        results?.forEach(([error, done], i) => {
          if (error || done !== 0 || i >= sessions.length + sets.length) return
          if (i < sessions.length) this.#gone(sessions[i]![0])
          else this.#follow(() => this.#ds.entitySets.release(sets[i - sessions.length]![0]))
        })
      }),
    )
  }

  /** A write no request waits for: its failure is reported, never thrown. */
  #send(work: Promise<unknown>): void {
    work.catch(this.#report)
  }

  /** A lock write: a write (`afterWrite`, `beforeWrite`) waits for it. */
  #track(work: Promise<void>): void {
    const tracked = work.catch(this.#report)
    this.#pending.add(tracked)
    void tracked.then(() => this.#pending.delete(tracked))
  }

  async #settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending)
  }

  /** The error a request that needed Redis answers: 503, try again in a second. */
  #unavailable(error: unknown): DatastoreError {
    if ((error as { name?: unknown }).name === 'DatastoreError') return error as DatastoreError
    return datastoreError('SharedStateUnavailable', ['Redis', messageOf(error)], {
      details: { retryAfter: 1 },
    })
  }

  // ---- keys ----

  #sessionKey(id: string): string {
    return `${this.#prefix}s:${id}`
  }

  #setKey(id: string): string {
    return `${this.#prefix}e:${id}`
  }

  #lockKey(dataClass: string, key: KeyValue): string {
    return `${this.#prefix}l:${lockId(dataClass, key)}`
  }

  /** The key of row `rowId` for a shared set: null for a member deleted here. */
  #keyOf(dc: DataClass, rowId: number): KeyValue | null {
    if (rowId < 0) return this.#tombstoneKeys.get(rowId) ?? null
    return dc.table.keyOf(rowId) ?? null
  }

  /** The row id of `key` here; a member deleted (or unknown) here gets a negative one. */
  #rowIdOf(dc: DataClass, key: KeyValue | null): number {
    if (key !== null) {
      const rowId = dc.table.rowIdOf(key)
      if (rowId !== undefined) return rowId
    }
    // A null key (deleted before the set was kept) is a member of its own: a new row id each time.
    const id = key === null ? undefined : `${dc.name}:${JSON.stringify(key)}`
    const known = id === undefined ? undefined : this.#tombstones.get(id)
    if (known !== undefined) return known
    const rowId = -(this.#tombstoneKeys.size + 1)
    this.#tombstoneKeys.set(rowId, key)
    if (id !== undefined) this.#tombstones.set(id, rowId)
    return rowId
  }
}

/**
 * The version of a session read from Redis: 0 when there is none; one written before sessions had
 * versions (by an older entistore) counts as older than any written since.
 */
const versionOf = (s: SharedSession | null): number => (s === null ? 0 : (s.v ?? 0.5))

/** A lock's dataclass and key as one string (keys are numbers or strings: JSON tells them apart). */
const lockId = (dataClass: string, key: KeyValue): string => `${dataClass}:${JSON.stringify(key)}`

/**
 * The session as Redis holds it, but its version (the script puts it first): its data whole, or
 * only the entries named in `only`.
 */
function sessionJson(session: Session, only?: readonly string[]): string {
  const data = only ? [...session.data].filter(([key]) => only.includes(key)) : [...session.data]
  const shared: Omit<SharedSession, 'v'> = {
    c: session.createdAt,
    t: session.timeout,
    e: session.established ? 1 : 0,
    ...(data.length > 0 ? { d: data } : {}),
  }
  return JSON.stringify(shared)
}

export { withoutPassword }
