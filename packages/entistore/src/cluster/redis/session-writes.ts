/**
 * @module What a request does to a session, written through to Redis before its reply: opened
 * (the cookie's), established or changed (its data: a login, a function's session storage; once
 * per turn of the event loop however many entries changed), renewed (a login), closed (a logout).
 * A change is written by a script that gives it its next version, publishes it and lists the
 * processes serving (redis-scripts.ts); its reply waits until each of them applied it, or until
 * the lease has run out for those that did not (redis-presence.ts). What is heard of the session
 * while its write is in flight waits for that write's version (session-mirror.ts).
 */
import { SESSION_USER_KEY, type Datastore, type Session } from '@entistore/core'
import type { Following } from './following.js'
import type { PendingWrites } from './pending-writes.js'
import type { SessionMirror } from './session-mirror.js'
import type { Touches } from './touches.js'
import { encodeSession, toldStart, type RedisKeys } from './wire.js'

/** The scripts the session writes run (SAVE, CLOSE and RENEW of redis-scripts.ts). */
export interface SessionWriteCommands {
  esSave(
    sessionKey: string,
    prefix: string,
    session: string,
    ttl: number,
    mode: 'open' | 'save',
    message: string,
    user: Flag,
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
    user: Flag,
  ): Promise<unknown[]>
}

/** A script's yes (`1`) or no (`0`). */
type Flag = '0' | '1'

/** Whether `session` has a logged-in user, as the scripts' index of open sessions keeps it. */
const userFlag = (session: Session): Flag => (session.data.has(SESSION_USER_KEY) ? '1' : '0')

/** What the session writes need of the presence (redis-presence.ts's `Presence`). */
export interface ChangeTold {
  /** This process, in messages' `o`. */
  readonly id: string
  /** A number for the next change told to the others. */
  expect(): number
  /** Change `n` was not made. */
  forget(n: number): void
  /** Resolves once the processes `members` acknowledged change `n` (or their leases ran out). */
  acknowledged(n: number, members: readonly string[]): Promise<void>
}

export interface SessionWritesOptions {
  readonly ds: Datastore
  readonly redis: SessionWriteCommands
  readonly keys: RedisKeys
  readonly sessions: SessionMirror
  readonly presence: ChangeTold
  readonly pending: PendingWrites
  readonly touches: Touches
  readonly following: Following
  readonly report: (error: unknown) => void
}

export class SessionWrites {
  readonly #o: SessionWritesOptions
  readonly #ds: Datastore
  /** Sessions established or changed since the last write of them (written once per turn). */
  readonly #dirty = new Set<string>()
  #dirtyQueued = false

  constructor(options: SessionWritesOptions) {
    this.#o = options
    this.#ds = options.ds
  }

  /** Writes through what requests here do to sessions; answers the stops. */
  observe(): (() => void)[] {
    const sessions = this.#ds.sessions
    const own = () => this.#o.following.own
    return [
      sessions.observe!({
        opened: (s) => own() && this.#opened(s),
        touched: (s) => own() && this.#o.touches.touchSession(s.id, s.timeout),
        established: (s) => own() && this.#changed(s),
        changed: (s) => own() && this.#changed(s),
      }),
      sessions.onRenew((s, previous) => own() && this.#renewSession(s, previous)),
      sessions.onClose((s, reason) => {
        this.#o.touches.sessionClosed(s.id)
        this.#o.sessions.forget(s.id)
        this.#dirty.delete(s.id)
        // An expiry or an eviction is this process's own affair: Redis's TTL decides there.
        if (own() && reason === 'closed') this.#closeSession(s.id)
      }),
    ]
  }

  /** Writes now the sessions changed since the last write of them (a reply or a write ends). */
  flushDirty(): void {
    this.#dirtyQueued = false
    if (this.#dirty.size === 0) return
    const ids = [...this.#dirty]
    this.#dirty.clear()
    for (const id of ids) {
      const session = this.#ds.sessions.peek(id)
      if (session) this.#saveSession(session)
    }
  }

  /** A session opened here: written before the reply that carries its cookie. */
  #opened(session: Session): void {
    this.#o.touches.sessionWritten(session.id)
    const id = session.id
    // Encoded inside the write: data that JSON cannot carry fails it (503), as any failure.
    const user = userFlag(session)
    this.#op(() => this.#save(id, encodeSession(session), session.timeout, 'open', '', user), {
      held: id,
    })
  }

  #save(id: string, json: string, ttl: number, mode: 'open' | 'save', told: string, user: Flag) {
    return this.#o.redis.esSave(
      this.#o.keys.session(id),
      this.#o.keys.prefix,
      json,
      ttl,
      mode,
      told,
      user,
    )
  }

  /**
   * A session established or changed: written once per turn of the event loop however many of its
   * entries changed (or at once when a reply or a write's end comes first: flushDirty).
   */
  #changed(session: Session): void {
    this.#dirty.add(session.id)
    if (this.#dirtyQueued) return
    this.#dirtyQueued = true
    queueMicrotask(() => this.flushDirty())
  }

  /** A session established or changed: written whole, and the others' mirrors told. */
  #saveSession(session: Session): void {
    let json: string
    try {
      json = encodeSession(session)
    } catch (error) {
      this.#o.report(error) // data that JSON cannot carry stays in this process
      return
    }
    const id = session.id
    this.#o.touches.sessionWritten(id)
    const n = this.#o.presence.expect()
    // XX: a session gone from Redis is not brought back; it is gone here too.
    const told = toldStart(this.#o.presence.id, n, 'session', id)
    const user = userFlag(session)
    this.#op(() => this.#save(id, json, session.timeout, 'save', told, user), { held: id, n })
  }

  /**
   * A session renewed (a login): its key and its locks given to the new id in Redis at once, and
   * the others told that the old id is closed. Waited for by the next write too (track), so that
   * its check sees the locks under their new holder.
   */
  #renewSession(session: Session, previous: string): void {
    this.#o.touches.sessionRenamed(previous)
    this.#o.sessions.forget(previous)
    this.#dirty.delete(previous)
    this.#o.sessions.tomb(previous, Infinity)
    let json: string
    try {
      json = encodeSession(session)
    } catch (error) {
      // Data that JSON cannot carry stays in this process; the user (a login's) travels.
      this.#o.report(error)
      json = encodeSession(session, [SESSION_USER_KEY])
    }
    const id = session.id
    const { keys, presence } = this.#o
    this.#o.touches.sessionWritten(id)
    const n = presence.expect()
    const told = toldStart(presence.id, n, 'closed', previous)
    const user = userFlag(session)
    const written = this.#op(
      () =>
        this.#o.redis.esRenew(
          keys.session(previous),
          keys.session(id),
          keys.locks,
          previous,
          id,
          json,
          session.timeout,
          keys.prefix,
          told,
          user,
        ),
      // Not renewed in Redis: the old id is read from there again when it comes back.
      { held: id, n, failed: () => this.#o.sessions.untomb(previous) },
    )
    this.#o.pending.track(
      written.then(
        () => undefined,
        () => undefined,
      ),
    )
  }

  /** A session closed here (a logout): gone from Redis with its locks, and the others told. */
  #closeSession(id: string): void {
    this.#o.sessions.tomb(id, Infinity)
    const { keys, presence } = this.#o
    const n = presence.expect()
    const told = toldStart(presence.id, n, 'closed', id)
    this.#op(
      () => this.#o.redis.esClose(keys.session(id), keys.locks, id, keys.prefix, told),
      // Not closed in Redis: a request that comes back with it reads it from there again.
      { n, failed: () => this.#o.sessions.untomb(id) },
    )
  }

  /**
   * A write to Redis that the reply of the request making it waits for. `write` answers
   * `{version, processes serving...}` (`{0}`: the session was gone from Redis). `held`: the
   * session it writes, which stays here (what is heard of it meanwhile waits for its version);
   * `n`: the change told to the others, whose acknowledgements the reply waits for. On failure
   * the reply is 503 and the session is dropped here (read again from Redis next).
   */
  #op(
    write: () => Promise<unknown[]>,
    o: { held?: string; n?: number; failed?: () => void },
  ): Promise<readonly string[]> {
    const { held, n } = o
    const presence = this.#o.presence
    const known = held === undefined ? undefined : this.#o.sessions.hold(held)
    if (known) known.writing++
    const written = (async (): Promise<readonly string[]> => {
      try {
        const answer = await write()
        const v = Number(answer[0])
        if (held !== undefined && v === 0) this.#o.sessions.gone(held)
        else if (known) this.#o.sessions.written(held!, known, v)
        return answer.slice(1) as string[]
      } catch (error) {
        if (n !== undefined) presence.forget(n)
        if (held !== undefined) this.#o.sessions.gone(held)
        o.failed?.()
        throw error
      } finally {
        if (known) this.#o.sessions.doneWriting(held!, known)
      }
    })()
    const visible = written.then((members) =>
      n === undefined ? undefined : presence.acknowledged(n, members),
    )
    this.#o.pending.add(written, visible)
    return written
  }
}
