/**
 * @module The entity sets as a mirror of Redis's. A set kept here is written before the reply
 * that names it, with its timeout as TTL, and listed under its owners (`os:` its session, `ou:`
 * its user) for `$info` through any process; released here, it is deleted and the others told. A
 * request naming a set asks Redis whether it is still there (`confirm`: one round trip), so a set
 * released through any process is gone at once; one unknown here is fetched and adopted. A set
 * travels as its members' entity KEYS, mapped to this process's row ids when adopted, with its
 * owner, so that every process applies the same rules to it; the key that signs set ids to their
 * owners is one for all (the first process to start chooses it: `shareIdKey`).
 */
import {
  setOwnerOf,
  type DataClass,
  type Datastore,
  type KeyValue,
  type Session,
  type StoredSet,
} from '@entistore/core'
import type { Following } from './following.js'
import type { PendingWrites } from './pending-writes.js'
import { extendOwner, type Touches } from './touches.js'
import { decodeSet, encodeSet, setReleasedMessage, type RedisKeys } from './wire.js'

/** The commands of a MULTI the set mirror sends (an ioredis one is one). */
export interface SetBatch {
  set(key: string, value: string, px: 'PX', ms: number): SetBatch
  sadd(key: string, member: string): SetBatch
  pexpire(key: string, ms: number, when: 'NX' | 'GT'): SetBatch
  get(key: string): SetBatch
  pttl(key: string): SetBatch
  del(key: string): SetBatch
  publish(channel: string, message: string): SetBatch
  exec(): Promise<[Error | null, unknown][] | null>
}

export interface SetCommands {
  multi(): SetBatch
  set(key: string, value: string, nx: 'NX'): Promise<unknown>
  get(key: string): Promise<string | null>
  exists(key: string): Promise<number>
  smembers(key: string): Promise<string[]>
  srem(key: string, ...members: string[]): Promise<number>
}

export interface SetMirrorOptions {
  readonly ds: Datastore
  readonly redis: SetCommands
  readonly keys: RedisKeys
  /** This process, in messages' `o`. */
  readonly origin: string
  readonly pending: PendingWrites
  readonly touches: Touches
  readonly following: Following
}

export class SetMirror {
  readonly #o: SetMirrorOptions
  readonly #ds: Datastore
  // Members of shared sets deleted here (or never here): negative row ids, one per key.
  readonly #tombstones = new Map<string, number>()
  readonly #tombstoneKeys = new Map<number, KeyValue | null>()

  constructor(options: SetMirrorOptions) {
    this.#o = options
    this.#ds = options.ds
  }

  /** Writes through the sets kept, touched and released here; answers the stop. */
  observe(): () => void {
    const own = () => this.#o.following.own
    return this.#ds.entitySets.observe({
      kept: (set) => own() && this.#keep(set),
      touched: (set) => own() && this.#o.touches.touchSet(set),
      // Released, or with its session logged out here: gone everywhere. A session that expired
      // or was evicted here is this process's affair (as for sessions): Redis's TTL decides.
      released: (id, reason) =>
        own() && (reason === 'released' || reason === 'closed') && this.#release(id),
      // Its session renewed here (a login): the others read the new owner from Redis.
      renamed: (set, remaining) => own() && this.#keep(set, remaining),
    })
  }

  /**
   * The key that signs entity-set ids to their owners, one for every process (the first to start
   * chooses it): a gone set is then remade by its owner through any of them.
   */
  async shareIdKey(): Promise<void> {
    const key = this.#o.keys.setIdKey
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
    const mine = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    await this.#o.redis.set(key, mine, 'NX')
    const shared = await this.#o.redis.get(key)
    if (shared !== null && /^[0-9a-fA-F]{32}$/.test(shared)) this.#ds.entitySets.useIdKey(shared)
  }

  /**
   * The sets a request names, as Redis has them: one held here that Redis no longer has is
   * released here (another process released it, or it expired), one unknown here is fetched.
   */
  async confirm(ids: readonly string[]): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        if (!this.#ds.entitySets.has(id)) return this.fetch(id)
        if ((await this.#o.redis.exists(this.#o.keys.set(id))) === 0) this.gone(id)
      }),
    )
  }

  /** Set `id` read from Redis and adopted here (nothing when Redis has it no more). */
  async fetch(id: string): Promise<void> {
    const key = this.#o.keys.set(id)
    const [[, json], [, pttl]] = (await this.#o.redis.multi().get(key).pttl(key).exec()) as [
      [null, string | null],
      [null, number],
    ]
    if (json === null || !(pttl > 0)) return
    const shared = decodeSet(json)
    const dc = this.#ds.findDataClass(shared.dataClass)
    if (!dc) return
    const rowIds = shared.keys.map((key) => this.#rowIdOf(dc, key))
    this.#o.following.run(() =>
      this.#ds.entitySets.keep(dc.select(rowIds), {
        id,
        owner: shared.owner,
        timeout: shared.timeout / 1000,
        remaining: pttl,
        sorted: shared.sorted,
        ...(shared.savedFilter === undefined ? {} : { savedFilter: shared.savedFilter }),
        ...(shared.savedOrderBy === undefined ? {} : { savedOrderBy: shared.savedOrderBy }),
        view: shared.view,
        ...(shared.access === undefined ? {} : { access: shared.access }),
      }),
    )
  }

  /**
   * The sets `session` may list in `$info` (its own and its user's), as Redis has them: those
   * made through another process are fetched, those gone from Redis are let go here too.
   */
  async list(session: Session): Promise<void> {
    const keys = this.#o.keys.owners(setOwnerOf(session))
    const { redis } = this.#o
    const lists = await Promise.all(keys.map((key) => redis.smembers(key)))
    const ids = new Set(lists.flat())
    const gone: string[] = []
    await Promise.all(
      [...ids].map(async (id) => {
        if ((await redis.exists(this.#o.keys.set(id))) === 1) {
          if (!this.#ds.entitySets.has(id)) await this.fetch(id)
        } else {
          gone.push(id)
          if (this.#ds.entitySets.has(id)) this.gone(id)
        }
      }),
    )
    if (gone.length > 0) await Promise.all(keys.map((key) => redis.srem(key, ...gone)))
  }

  /** Set `id` is gone from Redis (or another process released it): released here too. */
  gone(id: string): void {
    this.#o.following.run(() => this.#ds.entitySets.release(id))
  }

  /** A set kept here (or renamed with its session): written with `ttl` ms of life (its whole). */
  #keep(set: StoredSet, ttl = set.timeout): void {
    if (!(ttl > 0)) return
    const dc = this.#ds.dataClass(set.dataClass)
    const json = encodeSet(
      set,
      Array.from(set.rowIds, (r) => this.#keyOf(dc, r)),
    )
    const sets = this.#ds.entitySets
    this.#o.touches.setWritten(set.id, sets.size, (id) => sets.has(id))
    // Written before the reply that names it: another process asked next finds it. Its owners'
    // lists name it too, for `$info` through any process (list).
    const write = this.#o.redis.multi().set(this.#o.keys.set(set.id), json, 'PX', Math.ceil(ttl))
    for (const key of this.#o.keys.owners(set.owner)) extendOwner(write.sadd(key, set.id), key, ttl)
    this.#o.pending.add(write.exec())
  }

  /**
   * A set released here: gone from Redis before the reply (every read of a set asks Redis), and
   * the others told, so that their mirrors let it go too.
   */
  #release(id: string): void {
    this.#o.touches.forgetSet(id)
    const { keys, redis } = this.#o
    const message = setReleasedMessage(this.#o.origin, id)
    this.#o.pending.add(redis.multi().del(keys.set(id)).publish(keys.channel, message).exec())
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
