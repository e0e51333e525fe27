/**
 * @module `--redis <url>`: the sessions, locks and entity sets of several processes serving one
 * datastore, shared through Redis. Each process keeps the core's in-memory stores as a mirror and
 * answers from them, synchronously as ever; Redis is the shared truth (keys and scripts in
 * redis-scripts.ts):
 *
 * - **Write-through.** What happens here goes to Redis: a session opened (before its cookie is
 *   sent), touched (PEXPIRE, coalesced into one pipeline per turn of the event loop and at most one
 *   per session per second, never awaited by the request), established or changed (its data: a
 *   login, a function's session storage), closed; a set kept, read, released; a lock taken or
 *   released. Lifetimes are Redis TTLs: the session's inactivity timeout, the set's timeout.
 * - **Fetch before a request** (`beforeRequest`): a session cookie or an `$entityset/{id}` unknown
 *   here is fetched and adopted, so that a cookie given by one process works in any other. A set
 *   travels as its members' entity KEYS, mapped to this process's row ids when adopted.
 * - **Locks are Redis's first.** `$lock=true|false` is decided by an atomic script in Redis before
 *   the core runs: taken, the core takes it too; held by another session, that lock is adopted
 *   here and the core answers status 3 with the holder's `lockInfo`, as for a local lock; a claim
 *   the core did not keep (the entity was gone) is let go after the request (`afterRequest`).
 *   Before every write (`beforeWrite`), the lock mirror is refreshed from Redis, so that a write
 *   is refused on a lock taken through any process.
 * - **Pub/sub** tells the others of a session changed or closed and of a set released, so that
 *   their mirrors follow without waiting for their own expiry.
 *
 * A request that needs Redis while it cannot be reached is answered 503 (SharedStateUnavailable);
 * what the mirror holds keeps being served. What is not shared, and the other limits, are in
 * docs/durability.md.
 */
import type { ConnectionOptions } from 'node:tls'
import {
  datastoreError,
  SESSION_USER_KEY,
  type DataClass,
  type Datastore,
  type KeyValue,
  type Lock,
  type Session,
  type StoredSet,
} from '@entistore/core'
import {
  lockOwnerOf,
  parseQueryString,
  parseRestUrl,
  readCookie,
  sessionCookieName,
  unquote,
  type RestRequest,
} from '@entistore/rest'
import type { Redis, RedisOptions } from 'ioredis'
import { importOptional } from './optional-package.js'
import { withoutPassword } from './redacted-url.js'
import type { ClusterParticipant } from './participant.js'
import { ACQUIRE, CLOSE, HOLDER, LOCKS, RELEASE, RENEW } from './redis-scripts.js'

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
  /** Where the REST interface is mounted (to read `$entityset/{id}` in paths). @default '/rest' */
  readonly basePath?: string
  /** The session cookie's name, as the REST handler's option. @default `4DSID_<application name>` */
  readonly sessionCookieName?: string
  /** How long a Redis command may take before the request that waits for it gets 503. @default 2000 */
  readonly commandTimeout?: number
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
  esClose(sessionKey: string, index: string, sid: string): Promise<number>
  esRenew(
    oldKey: string,
    newKey: string,
    index: string,
    oldSid: string,
    newSid: string,
    session: string,
    ttl: number,
  ): Promise<number>
}
type Client = Redis & Scripts

/** A session as Redis holds it. */
interface SharedSession {
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
}

/** What processes tell each other (the sender's id, `o`, added). */
type Told =
  | { readonly t: 'session'; readonly id: string; readonly s: string }
  | { readonly t: 'closed'; readonly id: string }
  | { readonly t: 'set-released'; readonly id: string }
type Message = Told & { readonly o: string }

/** What a request names that another process may hold. */
interface Named {
  sid: string | undefined
  sets: string[]
  lock: { dataClass: string; key: string; wanted: boolean } | undefined
}

// The parameters and path segments through which a request names shared state.
const NAMES_SHARED = /\$(?:entityset|lock|othercollection|4dsid)/i
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
  redis.defineCommand('esClose', { numberOfKeys: 2, lua: CLOSE })
  redis.defineCommand('esRenew', { numberOfKeys: 3, lua: RENEW })
  const participant = new RedisParticipant(ds, redis, sub, options, report)
  await participant.listen()
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
  readonly #basePath: string
  readonly #cookie: string
  readonly #adopt: NonNullable<Datastore['sessions']['adopt']>
  /** This process, to ignore its own messages. */
  readonly #instance = globalThis.crypto.randomUUID()
  /** Above 0 while the mirror follows Redis: the changes it makes are not written back. */
  #following = 0
  readonly #stops: (() => void)[] = []
  // When each session or set was last written.
  // Touches waiting for the next flush: id → the lifetime its TTL is set to again.
  readonly #touchSessions = new Map<string, number>()
  readonly #touchSets = new Map<string, number>()
  readonly #sessionWritten = new Map<string, number>()
  readonly #setWritten = new Map<string, number>()
  #flushing = false
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
    this.#ds = ds
    this.#redis = redis
    this.#sub = sub
    this.#report = report
    this.#prefix = options.prefix ?? `entistore:${ds.name}:`
    this.#channel = `${this.#prefix}events`
    this.#index = `${this.#prefix}locks`
    this.#basePath = (options.basePath ?? '/rest').replace(/\/+$/, '')
    this.#cookie = options.sessionCookieName ?? sessionCookieName(ds.name)
    this.#adopt = sessions.adopt.bind(sessions)
    this.#stops.push(
      sessions.observe({
        opened: (s) => this.#following === 0 && this.#opened(s),
        touched: (s) => this.#following === 0 && this.#touchSession(s),
        established: (s) => this.#following === 0 && this.#saveSession(s),
        changed: (s) => this.#following === 0 && this.#saveSession(s),
      }),
      sessions.onRenew((s, previous) => this.#following === 0 && this.#renewSession(s, previous)),
      sessions.onClose((s, reason) => {
        this.#sessionWritten.delete(s.id)
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
        released: (id) => this.#following === 0 && this.#releaseSet(id),
      }),
    )
  }

  /** @internal Subscribes to the others' messages. */
  async listen(): Promise<void> {
    this.#sub.on('message', (channel: string, text: string) => {
      if (channel === this.#channel) this.#onMessage(text)
    })
    await this.#sub.subscribe(this.#channel)
  }

  beforeRequest(request: RestRequest): Promise<void> | undefined {
    const cookie = readCookie(cookieHeader(request), this.#cookie)
    const unknown = cookie !== undefined && this.#ds.sessions.peek(cookie) === undefined
    const named =
      NAMES_SHARED.test(request.path) || (request.query !== '' && NAMES_SHARED.test(request.query))
    if (!unknown && !named) return undefined
    const names = named ? this.#namesOf(request) : undefined
    const sid = cookie ?? names?.sid
    const fetchSession = sid !== undefined && (unknown || this.#ds.sessions.peek(sid) === undefined)
    const sets = names?.sets.filter((id) => !this.#ds.entitySets.has(id)) ?? []
    const lock = names?.lock
    if (!fetchSession && sets.length === 0 && lock === undefined) return undefined
    return this.#prepare(request, fetchSession ? sid : undefined, sets, sid, lock)
  }

  async beforeWrite(): Promise<void> {
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

  async afterWrite(): Promise<void> {
    await this.#settled()
    const conflict = this.#conflict
    this.#conflict = undefined
    if (conflict !== undefined) throw conflict
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
    this.#flush()
    await this.#settled()
    await Promise.allSettled([this.#redis.quit(), this.#sub.quit()])
  }

  // ---- before a request ----

  /** Reads the request's target and parameters for the session, sets and lock it names. */
  #namesOf(request: RestRequest): Named {
    const named: Named = { sid: undefined, sets: [], lock: undefined }
    let parsed
    try {
      parsed = parseRestUrl(request.path, request.query, this.#basePath)
    } catch {
      return named // the handler answers the malformed URL itself
    }
    if (!parsed) return named
    let wanted: boolean | undefined
    for (const { name, value } of parseQueryString(parsed.search)) {
      const lower = name.toLowerCase()
      if (lower === '$4dsid') named.sid = unquote(value)
      else if (lower === '$othercollection') named.sets.push(unquote(value))
      else if (lower === '$lock') {
        const v = unquote(value).toLowerCase()
        wanted =
          v === 'true' || v === '1' || v === ''
            ? true
            : v === 'false' || v === '0'
              ? false
              : undefined
      }
    }
    const target = parsed.target
    if (target.kind !== 'dataClass') return named
    if (target.entitySet !== undefined) named.sets.push(target.entitySet)
    if (wanted !== undefined && target.key !== undefined)
      named.lock = { dataClass: target.dataClass, key: target.key, wanted }
    return named
  }

  async #prepare(
    request: RestRequest,
    session: string | undefined,
    sets: readonly string[],
    sid: string | undefined,
    lock: Named['lock'],
  ): Promise<void> {
    try {
      await Promise.all([
        session === undefined ? undefined : this.#fetchSession(session),
        ...sets.map((id) => this.#fetchSet(id)),
      ])
      if (!lock) return
      if (sid !== undefined && this.#ds.sessions.peek(sid)) await this.#claim(request, sid, lock)
      // A client without a session yet: the core makes one, then the lock is written. Its
      // holder, if any, is fetched first, so that the core refuses it as Redis would.
      else await this.#fetchHolder(lock)
    } catch (error) {
      throw this.#unavailable(error)
    }
  }

  async #fetchSession(id: string): Promise<void> {
    const [[, json], [, pttl]] = (await this.#redis
      .multi()
      .get(this.#sessionKey(id))
      .pttl(this.#sessionKey(id))
      .exec()) as [[null, string | null], [null, number]]
    if (json !== null && pttl > 0) this.#follow(() => this.#adoptSession(id, json, pttl))
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
    this.#follow(() =>
      this.#ds.entitySets.keep(dc.selection(rowIds), {
        id,
        timeout: shared.t / 1000,
        remaining: pttl,
        sorted: shared.s,
        ...(shared.f === undefined ? {} : { savedFilter: shared.f }),
        ...(shared.o === undefined ? {} : { savedOrderBy: shared.o }),
      }),
    )
  }

  /** The mirror made to hold the lock on `lock`'s entity as Redis does (held, or free). */
  async #fetchHolder(lock: NonNullable<Named['lock']>): Promise<void> {
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
  #entityOf(lock: NonNullable<Named['lock']>): { dc: DataClass; key: KeyValue } | undefined {
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
  async #claim(request: RestRequest, sid: string, lock: NonNullable<Named['lock']>): Promise<void> {
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

  #adoptSession(id: string, json: string, pttl: number): Session {
    const shared = JSON.parse(json) as SharedSession
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
    try {
      if (!this.#ds.sessions.peek(lock.i)) this.#adoptSession(lock.i, session, pttl)
    } catch (error) {
      this.#report(error) // no room for it here (SessionLimit in refuse mode)
      return false
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

  #onMessage(text: string): void {
    let message: Message
    try {
      message = JSON.parse(text) as Message
    } catch {
      return
    }
    if (message.o === this.#instance) return
    this.#follow(() => {
      if (message.t === 'closed') this.#ds.sessions.close(message.id)
      else if (message.t === 'set-released') this.#ds.entitySets.release(message.id)
      // Only a session this process holds is updated: another is fetched when it comes.
      else if (message.t === 'session' && this.#ds.sessions.peek(message.id)) {
        const timeout = (JSON.parse(message.s) as SharedSession).t
        this.#adoptSession(message.id, message.s, timeout)
      }
    })
  }

  // ---- write-through ----

  #opened(session: Session): void {
    this.#sessionWritten.set(session.id, this.#ds.clock.now())
    // Sent now, before the reply that carries the cookie: another process asked next finds it.
    this.#send(
      this.#redis.set(this.#sessionKey(session.id), sessionJson(session), 'PX', session.timeout),
    )
  }

  #touchSession(session: Session): void {
    if (!this.#due(this.#sessionWritten, session.id, session.timeout)) return
    this.#touchSessions.set(session.id, session.timeout)
    this.#scheduleFlush()
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
    this.#sessionWritten.set(session.id, this.#ds.clock.now())
    const key = this.#sessionKey(session.id)
    this.#send(
      // XX: a session gone from Redis is not brought back; it is gone here too.
      this.#redis.set(key, json, 'PX', session.timeout, 'XX').then((ok) => {
        if (ok === null) this.#gone(session.id)
        else return this.#publish({ t: 'session', id: session.id, s: json })
      }),
    )
  }

  /**
   * A session renewed (a login): its key and its locks given to the new id in Redis at once, and
   * the others told that the old id is closed. A lock write, waited for by the next write, so
   * that its check sees the locks under their new holder.
   */
  #renewSession(session: Session, previous: string): void {
    this.#sessionWritten.delete(previous)
    this.#touchSessions.delete(previous)
    let json: string
    try {
      json = sessionJson(session)
    } catch (error) {
      // Data that JSON cannot carry stays in this process; the user (a login's) travels.
      this.#report(error)
      json = sessionJson(session, [SESSION_USER_KEY])
    }
    this.#sessionWritten.set(session.id, this.#ds.clock.now())
    this.#track(
      this.#redis
        .esRenew(
          this.#sessionKey(previous),
          this.#sessionKey(session.id),
          this.#index,
          previous,
          session.id,
          json,
          session.timeout,
        )
        .then(() => this.#publish({ t: 'closed', id: previous }))
        .then(() => undefined),
    )
  }

  #closeSession(id: string): void {
    this.#send(
      this.#redis
        .esClose(this.#sessionKey(id), this.#index, id)
        .then(() => this.#publish({ t: 'closed', id })),
    )
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

  #keepSet(set: StoredSet): void {
    const dc = this.#ds.dataClass(set.dataClass)
    const shared: SharedSet = {
      dc: set.dataClass,
      k: set.rowIds.map((r) => this.#keyOf(dc, r)),
      s: set.sorted,
      t: set.timeout,
      ...(set.savedFilter === undefined ? {} : { f: set.savedFilter }),
      ...(set.savedOrderBy === undefined ? {} : { o: set.savedOrderBy }),
    }
    this.#setWritten.set(set.id, this.#ds.clock.now())
    // Sets that expired here tell nothing: their entries go now and then, in one sweep.
    if (this.#setWritten.size > 2 * this.#ds.entitySets.size + 1000)
      for (const id of this.#setWritten.keys())
        if (!this.#ds.entitySets.has(id)) this.#setWritten.delete(id)
    this.#send(this.#redis.set(this.#setKey(set.id), JSON.stringify(shared), 'PX', set.timeout))
  }

  #touchSet(set: StoredSet): void {
    if (!this.#due(this.#setWritten, set.id, set.timeout)) return
    this.#touchSets.set(set.id, set.timeout)
    this.#scheduleFlush()
  }

  #releaseSet(id: string): void {
    this.#setWritten.delete(id)
    this.#send(
      this.#redis.del(this.#setKey(id)).then(() => this.#publish({ t: 'set-released', id })),
    )
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
    for (const [id, timeout] of sets) pipeline.pexpire(this.#setKey(id), timeout)
    this.#send(
      pipeline.exec().then((results) => {
        results?.forEach(([error, done], i) => {
          if (error || done !== 0) return
          if (i < sessions.length) this.#gone(sessions[i]![0])
          else this.#follow(() => this.#ds.entitySets.release(sets[i - sessions.length]![0]))
        })
      }),
    )
  }

  #publish(message: Told): Promise<unknown> {
    return this.#redis.publish(this.#channel, JSON.stringify({ o: this.#instance, ...message }))
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

  #unavailable(error: unknown): unknown {
    if ((error as { name?: unknown }).name === 'DatastoreError') return error
    return datastoreError('SharedStateUnavailable', ['Redis', messageOf(error)])
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

/** A lock's dataclass and key as one string (keys are numbers or strings: JSON tells them apart). */
const lockId = (dataClass: string, key: KeyValue): string => `${dataClass}:${JSON.stringify(key)}`

/** The session as Redis holds it: its data whole, or only the entries named in `only`. */
function sessionJson(session: Session, only?: readonly string[]): string {
  const data = only ? [...session.data].filter(([key]) => only.includes(key)) : [...session.data]
  const shared: SharedSession = {
    c: session.createdAt,
    t: session.timeout,
    e: session.established ? 1 : 0,
    ...(data.length > 0 ? { d: data } : {}),
  }
  return JSON.stringify(shared)
}

export { withoutPassword }
