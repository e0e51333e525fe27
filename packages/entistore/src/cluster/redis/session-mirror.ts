/**
 * @module The sessions of this process as a mirror of Redis's, following what is heard or read of
 * them: a message of another process, a read before a request (a session this process does not
 * hold, or may not vouch for without a lease: redis-presence.ts), a lock's holder. What comes is
 * applied only when newer than what is held (versions, given by the scripts), whatever the order
 * it comes in; while a write of the session from here is in flight (session-writes.ts), it waits
 * for that write's version, which may be newer.
 */
import type { Datastore, Session } from '@entistore/core'
import type { Following } from './following.js'
import {
  decodeSession,
  versionOf,
  type Message,
  type RedisKeys,
  type SharedSession,
} from './wire.js'

/** The commands of a MULTI or pipeline that reads sessions (an ioredis one is one). */
export interface SessionBatch {
  get(key: string): SessionBatch
  pttl(key: string): SessionBatch
  exec(): Promise<[Error | null, unknown][] | null>
}

/** The commands the session mirror sends: reads of sessions. */
export interface SessionCommands {
  multi(): SessionBatch
  pipeline(): SessionBatch
}

/** What the session mirror needs of the presence (redis-presence.ts's `Presence`). */
export interface Acknowledgements {
  /** Whether this process holds a lease (answers from its mirror). */
  vouches(): boolean
  /** Tells `origin` that its change `n` is applied here. */
  ack(origin: string, n: number): void
}

export interface SessionMirrorOptions {
  readonly ds: Datastore
  readonly redis: SessionCommands
  readonly keys: RedisKeys
  readonly presence: Acknowledgements
  readonly following: Following
  readonly report: (error: unknown) => void
  /** Milliseconds of a monotonic clock (how long a close is remembered). */
  readonly now: () => number
  /** How long a session's close is remembered against older reads of it still in flight. */
  readonly tombMs: number
}

/** What this process knows of a session it holds (or is fetching). */
export interface Known {
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

export class SessionMirror {
  readonly #o: SessionMirrorOptions
  readonly #ds: Datastore
  readonly #adopt: NonNullable<Datastore['sessions']['adopt']>
  /** The sessions this process holds or is fetching, with the version of their state. */
  readonly #known = new Map<string, Known>()
  /**
   * Sessions closed (here, or told by another process), with the version of the close (Infinity:
   * here) and when: a read of one that Redis answered before the close is not adopted.
   */
  readonly #tombs = new Map<string, { v: number; at: number }>()
  /** Reads of sessions in flight: a second request for one waits for the same read. */
  readonly #fetching = new Map<string, Promise<void>>()

  /** Throws unless `ds`'s session store can be mirrored (it offers observe and adopt). */
  static check(ds: Datastore): void {
    if (!ds.sessions.observe || !ds.sessions.adopt)
      throw new TypeError('redis: the datastore’s session store must offer observe and adopt')
  }

  constructor(options: SessionMirrorOptions) {
    SessionMirror.check(options.ds)
    const sessions = options.ds.sessions
    // Every process must find the session a cookie names before the core acts for it (a lock is
    // claimed in Redis under its session first): no guest on probation, each one is kept and
    // written, as it was before probation (security.md).
    sessions.keepEveryGuest?.()
    this.#o = options
    this.#ds = options.ds
    this.#adopt = sessions.adopt!.bind(sessions)
  }

  /** Whether the session `id` may be answered from the mirror: held here, with a lease. */
  vouchesFor(id: string): boolean {
    return this.#ds.sessions.peek(id) !== undefined && this.#o.presence.vouches()
  }

  /** Reads session `id` from Redis into the mirror (or out of it, when Redis has it no more). */
  fetch(id: string): Promise<void> {
    const running = this.#fetching.get(id)
    if (running) return running
    // Known while it is read: what is heard of it meanwhile is kept (see #incoming).
    if (!this.#known.has(id)) this.#known.set(id, { v: 0, writing: 0, deferred: undefined })
    const key = this.#o.keys.session(id)
    const read = this.#o.redis
      .multi()
      .get(key)
      .pttl(key)
      .exec()
      .then((results) => {
        const [[, json], [, pttl]] = results as [[null, string | null], [null, number]]
        const s = json !== null && pttl > 0 ? decodeSession(json) : null
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
   * A lock's holder `id`, as Redis has it (`json`, `pttl`), adopted unless a close of it was heard
   * since or there is no room for it; whether it is held here now.
   */
  adoptHolder(id: string, json: string, pttl: number): boolean {
    if (this.#ds.sessions.peek(id)) return true
    const shared = decodeSession(json)
    const known = this.hold(id)
    if (known.writing === 0) this.#apply(id, known, { v: versionOf(shared), s: shared, pttl })
    if (this.#ds.sessions.peek(id)) return true
    if (known.writing === 0 && !this.#fetching.has(id)) this.#known.delete(id)
    return false
  }

  /** The session is gone from Redis: closed here too (its locks with it). */
  gone(id: string): void {
    this.#o.following.run(() => this.#ds.sessions.close(id))
  }

  /** A message of another process about a session (`session` or `closed`). */
  onMessage(message: Exclude<Message, { t: 'set-released' }>): void {
    const ack = { origin: message.o, n: message.n }
    // Only a session this process holds (or is reading) is updated: another is read when it comes.
    if (message.t === 'closed') this.#incoming(message.id, { v: message.v, s: null, pttl: 0, ack })
    else this.#incoming(message.id, { v: message.s.v, s: message.s, pttl: message.s.t, ack })
  }

  /**
   * Reads again from Redis every session held here (after the subscriber connection was lost:
   * what was told meanwhile was lost with it), in pipelines of 500.
   */
  async resync(): Promise<void> {
    const ids = [...this.#known.keys()].filter((id) => this.#ds.sessions.peek(id))
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500)
      const pipeline = this.#o.redis.pipeline()
      for (const id of chunk) pipeline.get(this.#o.keys.session(id)).pttl(this.#o.keys.session(id))
      const results = (await pipeline.exec()) ?? []
      chunk.forEach((id, j) => {
        const [error, json] = results[2 * j] ?? [new Error('no answer')]
        const [failed, pttl] = results[2 * j + 1] ?? [new Error('no answer')]
        if (error || failed) throw error ?? failed
        const s = typeof json === 'string' && (pttl as number) > 0 ? decodeSession(json) : null
        this.#incoming(id, { v: versionOf(s), s, pttl: pttl as number })
      })
    }
  }

  /** A write of session `id` from here answered its version `v`: held at it (if still held). */
  written(id: string, known: Known, v: number): void {
    if (this.#known.get(id) === known) known.v = Math.max(known.v, v)
  }

  /** Session `id` is no longer held here (closed, or renewed under another id). */
  forget(id: string): void {
    this.#known.delete(id)
  }

  /** A close of session `id` from here did not reach Redis: a read of it is adopted again. */
  untomb(id: string): void {
    this.#tombs.delete(id)
  }

  // ---- following Redis ----

  #incoming(id: string, incoming: Incoming): void {
    const known = this.#known.get(id)
    if (known && known.writing > 0) {
      ;(known.deferred ??= []).push(incoming)
      return
    }
    if (known) this.#apply(id, known, incoming)
    if (incoming.ack) this.#o.presence.ack(incoming.ack.origin, incoming.ack.n)
  }

  #apply(id: string, known: Known, { v, s, pttl }: Incoming): void {
    if (s === null) {
      // Closed (a version), or found gone by a read (none): gone here too.
      if (v > 0) this.tomb(id, v)
      this.gone(id)
      this.#known.delete(id)
      return
    }
    // Older than what is held, or than a close heard: a read answered before that change.
    if (v <= known.v || v <= (this.#tombs.get(id)?.v ?? 0)) return
    known.v = v
    try {
      this.#o.following.run(() => this.#adoptSession(id, s, pttl))
    } catch (error) {
      this.#o.report(error) // no room for it here (SessionLimit in refuse mode)
    }
  }

  /** A write of session `id` from here settled: what was heard of it meanwhile is applied. */
  doneWriting(id: string, known: Known): void {
    if (--known.writing > 0) return
    const deferred = known.deferred
    known.deferred = undefined
    for (const incoming of deferred ?? []) {
      // Closed here meanwhile: only the acknowledgements are still owed.
      if (this.#known.get(id) === known) this.#apply(id, known, incoming)
      if (incoming.ack) this.#o.presence.ack(incoming.ack.origin, incoming.ack.n)
    }
  }

  /** The entry of a session this process holds (made when it has none yet). */
  hold(id: string): Known {
    let known = this.#known.get(id)
    if (!known) this.#known.set(id, (known = { v: 0, writing: 0, deferred: undefined }))
    return known
  }

  /** Remembers that session `id` was closed at version `v`, against reads older than that. */
  tomb(id: string, v: number): void {
    const now = this.#o.now()
    if (this.#tombs.size >= 1024)
      for (const [old, { at }] of this.#tombs)
        if (now - at > this.#o.tombMs) this.#tombs.delete(old)
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
}
