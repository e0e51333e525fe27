/**
 * @module The locks of sessions as a mirror of Redis's, where they are decided: by atomic scripts
 * (redis-scripts.ts), before the core runs. `$lock=true|false` is claimed in Redis first
 * (`claim`): taken, the core takes it too; held by another session, that lock (and its session)
 * is adopted here and the core answers status 3 with the holder's `lockInfo`, as for a local lock;
 * a claim the core did not keep is let go after the request (`afterRequest`). Before every write,
 * the mirror is refreshed from Redis (`refresh`), so that a write is refused on a lock taken
 * through any process; a lock the core takes during a write is written through, and a conflict
 * found then fails the write (`takeConflict`).
 */
import {
  datastoreError,
  type DataClass,
  type Datastore,
  type KeyValue,
  type Lock,
} from '@entistore/core'
import { lockOwnerOf, type RequestNames, type RestRequest } from '@entistore/rest'
import type { Following } from './following.js'
import { LockTakenElsewhere, unavailable, type PendingWrites } from './pending-writes.js'
import {
  decodeLock,
  encodeLock,
  lockId,
  sharedLock,
  type RedisKeys,
  type SharedLock,
} from './wire.js'

/** The scripts the lock mirror runs (ACQUIRE, RELEASE, HOLDER, LOCKS of redis-scripts.ts). */
export interface LockCommands {
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
}

/** What the lock mirror needs of the session mirror: a lock's holder is a session. */
export interface LockHolders {
  /** Adopts session `id` as Redis has it; whether it is held here now. */
  adoptHolder(id: string, json: string, pttl: number): boolean
  /** Session `id` is gone from Redis: closed here too. */
  gone(id: string): void
}

export interface LockMirrorOptions {
  readonly ds: Datastore
  readonly redis: LockCommands
  readonly keys: RedisKeys
  readonly sessions: LockHolders
  readonly pending: PendingWrites
  readonly following: Following
}

export class LockMirror {
  readonly #o: LockMirrorOptions
  readonly #ds: Datastore
  /**
   * A lock found taken in Redis by another session after it was taken here, with the number of
   * the write it was taken during: that write fails (`takeConflict`), no other.
   */
  #conflict: { readonly write: number; readonly error: unknown } | undefined = undefined
  /**
   * The number of the write in the gate, or of the time between writes: moved on at each write's
   * begin and end, so a lock taken between writes is no write's.
   */
  #write = 0
  /** Locks claimed in Redis before a request, let go after it if the core did not take them. */
  readonly #claims = new Map<RestRequest, SharedLock>()
  /**
   * The `$lock=true` requests being answered, by lock id: a lock the core takes for one is its
   * reply's business (see `#take`). A client without a session yet has no claim (the core makes
   * the session and takes the lock in the same run); a claimed one may still be taken by the core
   * after Redis refused it, when the holder's lock left the mirror meanwhile (a write's refresh).
   */
  readonly #asking = new Map<string, RestRequest>()

  constructor(options: LockMirrorOptions) {
    this.#o = options
    this.#ds = options.ds
  }

  /** Writes through the locks sessions take and release here; answers the stop. */
  observe(): () => void {
    const { following, pending } = this.#o
    return this.#ds.locks.observe({
      taken: (lock) => {
        if (following.own && lock.owner.kind === 'session') this.#take(lock)
      },
      released: (lock, reason) => {
        if (!following.own || lock.owner.kind !== 'session') return
        // A closed session's locks go with it (CLOSE), an expired one's with its key.
        if (reason === 'released')
          pending.release(this.release(lock.dataClass, lock.key, lock.owner.id))
        else if (reason === 'deleted') pending.release(this.release(lock.dataClass, lock.key, ''))
      },
    })
  }

  /**
   * `$lock=true|false` decided in Redis first, for session `sid`: the mirror then holds what
   * Redis says, and the core's synchronous lock or unlock answers from it as a single server would.
   */
  async claim(
    request: RestRequest,
    sid: string,
    lock: NonNullable<RequestNames['lock']>,
  ): Promise<void> {
    const found = this.#entityOf(lock)
    if (!found) return // status 5 from the core (or its error): nothing to claim
    const { dc, key: entityKey } = found
    if (lock.wanted) this.#asking.set(lockId(dc.name, entityKey), request)
    const info = lockOwnerOf(sid, request.headers, request.remoteAddress).info
    const shared = sharedLock(sid, dc.name, entityKey, info)
    const { keys, redis } = this.#o
    const key = keys.lock(dc.name, entityKey)
    if (!lock.wanted) {
      const answer = await redis.esRelease(key, keys.locks, sid, keys.prefix)
      if (answer[0] === 0) this.#followHolder(answer)
      return
    }
    const answer = await redis.esAcquire(key, keys.locks, encodeLock(shared), sid, keys.prefix)
    if (answer[0] === 1) {
      this.#claims.set(request, shared)
      this.#o.following.run(() => {
        const held = this.#ds.locks.holder(dc.name, entityKey)
        if (held && !(held.owner.kind === 'session' && held.owner.id === sid))
          this.#ds.locks.drop(dc.name, entityKey)
      })
    } else if (answer[0] === 0) this.#followHolder(answer)
    else this.#o.sessions.gone(sid)
  }

  /**
   * The mirror made to hold the lock on `lock`'s entity as Redis does (held, or free), for
   * `request`, a `$lock` of a client without a session: the core then refuses it as Redis would,
   * or takes it, and its reply waits for Redis to agree (`#take`).
   */
  async fetchHolder(request: RestRequest, lock: NonNullable<RequestNames['lock']>): Promise<void> {
    const found = this.#entityOf(lock)
    if (!found) return
    const { dc, key } = found
    if (lock.wanted) this.#asking.set(lockId(dc.name, key), request)
    const answer = await this.#o.redis.esHolder(
      this.#o.keys.lock(dc.name, key),
      this.#o.keys.prefix,
    )
    if (answer[0] === 0) this.#followHolder(answer)
    else
      this.#o.following.run(() => {
        if (this.#ds.locks.holder(dc.name, key)?.owner.kind === 'session')
          this.#ds.locks.drop(dc.name, key)
      })
  }

  /** After a request: its claim let go in Redis if the core did not take the lock. */
  afterRequest(request: RestRequest): void {
    for (const [id, asking] of this.#asking) if (asking === request) this.#asking.delete(id)
    const claim = this.#claims.get(request)
    if (!claim) return
    this.#claims.delete(request)
    const held = this.#ds.locks.holder(claim.d, claim.k)
    if (held?.owner.kind !== 'session' || held.owner.id !== claim.i)
      this.#o.pending.release(this.release(claim.d, claim.k, claim.i))
  }

  /**
   * Every session's lock as Redis has it, adopted here; those Redis no longer has (released or
   * expired through another process) dropped. Rejects with 503 when Redis cannot be read.
   */
  async refresh(): Promise<void> {
    const { keys, redis } = this.#o
    let rows: unknown[]
    try {
      rows = await redis.esLocks(keys.locks, keys.prefix)
    } catch (error) {
      throw unavailable(error)
    }
    this.#o.following.run(() => {
      const shared = new Set<string>()
      for (let i = 0; i + 2 < rows.length; i += 3) {
        const lock = decodeLock(rows[i] as string)
        if (this.#adopt(lock, rows[i + 1] as string, Number(rows[i + 2])))
          shared.add(lockId(lock.d, lock.k))
      }
      for (const lock of this.#ds.locks.list())
        if (lock.owner.kind === 'session' && !shared.has(lockId(lock.dataClass, lock.key)))
          this.#ds.locks.drop(lock.dataClass, lock.key)
    })
  }

  /** A group of writes enters the gate: a lock the core takes from now is its first write's. */
  writeBegins(): void {
    this.#write++
    this.#conflict = undefined
  }

  /**
   * A write ended: the conflict a lock it took met (Redis gave it another session), taken away;
   * a lock taken from now is the next write's. A conflict of a lock taken outside a write is no
   * write's: the lock was let go, and the mirror holds the other session's.
   */
  takeConflict(): unknown {
    const conflict = this.#conflict
    this.#conflict = undefined
    const mine = conflict?.write === this.#write
    this.#write++
    return mine ? conflict.error : undefined
  }

  /** Releases a lock in Redis for session `sid` ('' whoever holds it: the entity was deleted). */
  async release(dataClass: string, key: KeyValue, sid: string): Promise<void> {
    const { keys, redis } = this.#o
    const answer = await redis.esRelease(keys.lock(dataClass, key), keys.locks, sid, keys.prefix)
    if (answer[0] === 0) this.#followHolder(answer)
  }

  /**
   * A lock the core took here, written to Redis. Taken by a `$lock` request (`#asking`), the
   * reply waits for Redis, and a conflict makes it answered again (`LockTakenElsewhere`): the
   * mirror holds the other session's lock by then, so the core refuses it (status 3), as Redis
   * did — never a `result: true` for a lock another session holds, and never an error pinned on
   * another request. Taken during a write, a conflict fails that write (`takeConflict`); taken
   * outside both, the lock is only let go.
   */
  #take(lock: Lock): void {
    const shared = sharedLock(lock.owner.id, lock.dataClass, lock.key, lock.owner.info)
    const { keys, redis } = this.#o
    const key = keys.lock(lock.dataClass, lock.key)
    const id = lockId(lock.dataClass, lock.key)
    const asking = this.#asking.get(id) ?? this.#claimant(lock)
    this.#asking.delete(id)
    const write = this.#write
    const written = redis
      .esAcquire(key, keys.locks, encodeLock(shared), lock.owner.id, keys.prefix)
      .then((answer) => {
        if (answer[0] === 1) return
        // Taken here while Redis gave it to another (or the session is gone): not kept.
        this.#o.following.run(() => this.#ds.locks.drop(lock.dataClass, lock.key))
        if (answer[0] === 0) this.#followHolder(answer)
        else this.#o.sessions.gone(lock.owner.id)
        if (asking) throw new LockTakenElsewhere()
        const error = datastoreError('EntityLocked', [lock.key, lock.dataClass, 'another session'])
        this.#conflict = { write, error }
      })
    if (asking) this.#o.pending.add(written, written, asking)
    else this.#o.pending.track(written)
  }

  /** The `$lock` request whose claim in Redis is `lock` (the core taking it for that request). */
  #claimant(lock: Lock): RestRequest | undefined {
    for (const [request, claim] of this.#claims)
      if (claim.d === lock.dataClass && claim.k === lock.key && claim.i === lock.owner.id)
        return request
    return undefined
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

  /** A script's answer `{0, lock, its session, TTL}`: the holder, adopted here. */
  #followHolder(answer: unknown[]): void {
    const lock = decodeLock(answer[1] as string)
    this.#o.following.run(() => this.#adopt(lock, answer[2] as string, Number(answer[3])))
  }

  /** Makes the mirror hold `lock` as Redis does (its session adopted too); false if it cannot. */
  #adopt(lock: SharedLock, session: string, pttl: number): boolean {
    if (!this.#ds.findDataClass(lock.d)) return false
    // Its holder, adopted as Redis has it (unless a close of it was heard since, or no room).
    if (!this.#o.sessions.adoptHolder(lock.i, session, pttl)) return false
    const held = this.#ds.locks.holder(lock.d, lock.k)
    if (held?.owner.kind === 'session' && held.owner.id === lock.i) return true
    if (held) this.#ds.locks.drop(lock.d, lock.k)
    const owner = { id: lock.i, kind: 'session' as const, ...(lock.n ? { info: lock.n } : {}) }
    this.#ds.locks.take(lock.d, lock.k, owner)
    return true
  }
}
