/**
 * @module The entity-set cache: selections kept server-side under an id, each with a lifetime that
 * every access restarts (4D: "the timeout is continually being reset … each time you use it").
 *
 * Backed by lru-cache, read on the datastore's clock (`perf.now`, with `ttlResolution: 0` so that
 * a clock moved by a test is seen at once, not up to 1 ms later). Expiry is lazy: a set past its
 * lifetime is gone the next time anyone looks, and `purge()` sweeps them all (called before each
 * new set, so abandoned sets never pile up).
 *
 * Memory is bounded twice: by the number of sets and by the total of their members. Past either, the
 * least recently used sets are evicted (the default), or, with `whenFull: 'refuse'`, the new set is
 * refused with EntitySetQuota (HTTP 429, as the real server answers past its quotas).
 *
 * Several processes serving one datastore share their sets through another service (Redis): an
 * observer (`observe`) is told of each set kept, read (its lifetime restarted) and released here,
 * and a set made elsewhere is kept again under its id with the life it has left (`remaining`).
 * Expiry and eviction tell nothing: they are this process's own memory matters.
 */
import { LRUCache } from 'lru-cache'
import type { Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'
import type { RowIds } from './row-ids.js'

/** One kept set. Its members never change; a new set is made instead. */
export interface StoredSet {
  readonly id: string
  readonly dataClass: string
  /** Row ids, in the set's order. */
  readonly rowIds: RowIds
  /** True when the set was made from an ordered read (`$orderby`): `sorted` in `$info`. */
  readonly sorted: boolean
  /** Lifetime in milliseconds, restarted by every access. */
  readonly timeout: number
  /** `$savedfilter` / `$savedorderby`: what remakes the set once it is gone. */
  readonly savedFilter: string | undefined
  readonly savedOrderBy: string | undefined
}

export interface EntitySetStoreOptions {
  /** Most sets kept at once. @default 10_000 */
  readonly maxSets?: number
  /** Most members (row ids) kept in all sets together. @default 20_000_000 (about 160 MB) */
  readonly maxMembers?: number
  /** Lifetime of a set made without `$timeout`, in seconds. @default 7200 (4D's two hours) */
  readonly defaultTimeout?: number
  /** Longest lifetime a `$timeout` may ask for, in seconds. @default 86_400 */
  readonly maxTimeout?: number
  /** Past a limit: evict the least recently used sets, or refuse the new one (429). @default 'evict' */
  readonly whenFull?: 'evict' | 'refuse'
}

export interface KeepOptions {
  /** Lifetime in seconds (capped at `maxTimeout`). */
  readonly timeout?: number
  readonly sorted?: boolean
  readonly savedFilter?: string
  readonly savedOrderBy?: string
  /** Reuse this id (a set remade from its saved filter keeps its id). */
  readonly id?: string
  /**
   * Milliseconds of life the set has left now, when less than its whole lifetime (a set made by
   * another process, last read there some time ago). @default the whole lifetime
   */
  readonly remaining?: number
}

/** What an entity-set store tells of its sets, synchronously, after the change. */
export interface EntitySetObserver {
  kept?(set: StoredSet): void
  /** The set was read (`get`): its lifetime restarted. */
  touched?(set: StoredSet): void
  released?(id: string): void
}

/** A set as `$info` shows it. */
export interface SetInfo {
  readonly id: string
  readonly dataClass: string
  readonly selectionSize: number
  readonly sorted: boolean
  /** Epoch ms of the last access. */
  readonly refreshed: number
  /** Epoch ms when it expires unless accessed. */
  readonly expires: number
}

export class EntitySetStore {
  readonly #cache: LRUCache<string, StoredSet>
  readonly #clock: Clock
  readonly #newId: () => string
  readonly #maxSets: number
  readonly #maxMembers: number
  readonly #defaultTimeout: number
  readonly #maxTimeout: number
  readonly #refuse: boolean
  readonly #observers: EntitySetObserver[] = []

  constructor(clock: Clock, newId: () => string, options: EntitySetStoreOptions = {}) {
    this.#clock = clock
    this.#newId = newId
    this.#maxSets = options.maxSets ?? 10_000
    this.#maxMembers = options.maxMembers ?? 20_000_000
    this.#defaultTimeout = 1000 * (options.defaultTimeout ?? 7200)
    this.#maxTimeout = 1000 * (options.maxTimeout ?? 86_400)
    this.#refuse = options.whenFull === 'refuse'
    this.#cache = new LRUCache<string, StoredSet>({
      max: this.#maxSets,
      maxSize: this.#maxMembers,
      // An empty set still takes a slot and a little memory: it counts as one member.
      sizeCalculation: (set) => Math.max(1, set.rowIds.length),
      ttl: this.#defaultTimeout,
      updateAgeOnGet: true,
      perf: { now: () => clock.now() },
      ttlResolution: 0,
    })
  }

  /** The most members all sets may hold together. */
  get maxMembers(): number {
    return this.#maxMembers
  }

  /** Number of sets kept (expired ones swept first). */
  get size(): number {
    this.purge()
    return this.#cache.size
  }

  /** Members kept in all sets together. */
  get members(): number {
    this.purge()
    return this.#cache.calculatedSize
  }

  /**
   * Keeps `rowIds` (not copied: they must not change afterwards) as a set of `dataClass`; returns it
   * with its id (32 upper-case hex digits, like the real server's). Throws EntitySetQuota when
   * `whenFull` is 'refuse' and a limit would be passed, or when one set alone exceeds `maxMembers`.
   */
  keep(dataClass: string, rowIds: RowIds, options: KeepOptions = {}): StoredSet {
    this.purge()
    const size = Math.max(1, rowIds.length)
    if (size > this.#maxMembers) {
      fail('EntitySetQuota', [
        `it has ${rowIds.length} members, more than the limit of ${this.#maxMembers} for all sets`,
      ])
    }
    const replacing = options.id !== undefined && this.#cache.has(options.id)
    if (this.#refuse && !replacing) {
      if (this.#cache.size >= this.#maxSets)
        fail('EntitySetQuota', [`${this.#maxSets} entity sets are kept already (the limit)`])
      if (this.#cache.calculatedSize + size > this.#maxMembers)
        fail('EntitySetQuota', [`the sets kept would hold more than ${this.#maxMembers} members`])
    }
    const timeout =
      options.timeout === undefined
        ? this.#defaultTimeout
        : Math.min(this.#maxTimeout, Math.max(1000, Math.round(options.timeout * 1000)))
    const set: StoredSet = {
      id: options.id ?? this.#newId(),
      dataClass,
      rowIds,
      sorted: options.sorted ?? false,
      timeout,
      savedFilter: options.savedFilter,
      savedOrderBy: options.savedOrderBy,
    }
    const remaining = options.remaining
    if (remaining !== undefined && remaining < timeout) {
      if (!(remaining > 0)) return set
      this.#cache.set(set.id, set, { ttl: timeout, start: this.#clock.now() - timeout + remaining })
    } else this.#cache.set(set.id, set, { ttl: timeout })
    for (const o of this.#observers) o.kept?.(set)
    return set
  }

  /** Tells `observer` of sets kept, read and released; returns the function that stops. */
  observe(observer: EntitySetObserver): () => void {
    this.#observers.push(observer)
    return () => {
      const i = this.#observers.indexOf(observer)
      if (i >= 0) this.#observers.splice(i, 1)
    }
  }

  /** The set `id`, its lifetime restarted; undefined if it expired, was released or never was. */
  get(id: string): StoredSet | undefined {
    const set = this.#cache.get(id)
    if (set) for (const o of this.#observers) o.touched?.(set)
    return set
  }

  /** The set `id` without touching its lifetime. */
  peek(id: string): StoredSet | undefined {
    return this.#cache.peek(id)
  }

  /** Forgets the set `id`; false if there was none (an expired set is none: lru-cache's delete would say true). */
  release(id: string): boolean {
    if (this.#cache.peek(id) === undefined) {
      this.#cache.delete(id)
      return false
    }
    this.#cache.delete(id)
    for (const o of this.#observers) o.released?.(id)
    return true
  }

  /** Forgets every set (a datastore restored to a snapshot: their row ids may name other entities). */
  clear(): void {
    this.#cache.clear()
  }

  /** Drops every expired set now. */
  purge(): void {
    this.#cache.purgeStale()
  }

  /** Every set kept, most recently used first, as `$info` lists them (no lifetime touched). */
  list(): SetInfo[] {
    this.purge()
    const out: SetInfo[] = []
    for (const [id, set] of this.#cache.entries()) {
      const remaining = this.#cache.getRemainingTTL(id)
      const expires = this.#clock.now() + remaining
      out.push({
        id,
        dataClass: set.dataClass,
        selectionSize: set.rowIds.length,
        sorted: set.sorted,
        refreshed: expires - set.timeout,
        expires,
      })
    }
    return out
  }
}
