/**
 * @module The entity-set cache: selections kept server-side under an id, each with a lifetime that
 * every access restarts (4D: "the timeout is continually being reset … each time you use it").
 *
 * Backed by lru-cache, read on the datastore's clock (`perf.now`, with `ttlResolution: 0` so that
 * a clock moved by a test is seen at once, not up to 1 ms later). Expiry is lazy: a set past its
 * lifetime is gone the next time anyone looks, and `purge()` sweeps them all (called when a new
 * set meets a bound, and before counting or listing, so abandoned sets never take a live one's
 * room).
 *
 * Each set has an owner (set-owners.ts): the session that made it, or the process. A session's
 * sets count against its own quota (`maxSetsPerSession`, `maxMembersPerSession`, as 4D 21 R4
 * counts `nbEntitySets` per session): past it, that session's own least recently used set is
 * evicted (the default), or, with `whenFull: 'refuse'`, the new set is refused with EntitySetQuota
 * (HTTP 429, as the real server answers past its quotas). The process has no quota. Within those
 * bounds a session may have quotas of its own (4D's `Session.quotas`, session-quota.ts, asked of
 * the resolver given to the constructor): past its `nbEntitySets` a new set is always refused
 * (EntitySetSessionQuota, 429), since 4D answers so "until at least one entity set is released".
 *
 * Memory is bounded globally too, by the number of sets and by the total of their members. Past
 * either, sets are taken back from the owner holding the largest share of the cache first
 * (set-accounts.ts), and from the one making the new set when its share, with it, is that large:
 * a session filling its quota again and again only ever evicts its own sets, and another session's
 * set goes only when that session holds at least as large a share. With the defaults (10,000 sets,
 * 1,000 a session) it takes ten sessions at their quota to reach the global bound at all.
 *
 * The member bounds are bounds on bytes: a set keeps its members as an Int32Array alone in its
 * buffer (row-ids.ts `compactRowIds`), 4 bytes a member, whatever list of row ids made it.
 *
 * A session's sets follow it when a login renews its id (`renameSession`), and go with it when it
 * closes (`releaseSession`), as 4D releases a session's sets with the session.
 *
 * Several processes serving one datastore share their sets through another service (Redis): an
 * observer (`observe`) is told of each set kept, read (its lifetime restarted), released and
 * renamed here, and a set made elsewhere is kept again under its id with the life it has left
 * (`remaining`) and its owner. Expiry and eviction tell nothing: they are this process's own
 * memory matters.
 */
import { LRUCache } from 'lru-cache'
import type { Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'
import { compactRowIds, type RowIds } from './row-ids.js'
import { Account, AccountHeap, weightOf } from './set-accounts.js'
import { PROCESS_OWNER, SetIdSigner, signingName, type SetOwner } from './set-owners.js'
import { lifetimeOf, type SessionQuota } from './session-quota.js'
import type {
  StoredSet,
  EntitySetStoreOptions,
  KeepOptions,
  SetReleaseReason,
  EntitySetObserver,
  SetUsage,
  SetInfo,
} from './stored-set.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to stored-set.js once that lands.
export {
  type EntitySetStoreOptions,
  BYTES_PER_MEMBER,
  type EntitySetObserver,
  type KeepOptions,
  type SetAccess,
  type SetInfo,
  type SetReleaseReason,
  type SetUsage,
  type StoredSet,
} from './stored-set.js'

/** 128 random bits as 32 hex digits: a key nobody outside this process knows. */
function randomKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The account key of `owner`. */
const keyOf = (owner: SetOwner): string => `${owner.kind}:${owner.id}`

/** A set's owner as the store keeps it: its own copy, whose id `renameSession` changes. */
type OwnerCopy = { kind: SetOwner['kind']; id: string; user?: string }

export class EntitySetStore {
  readonly #cache: LRUCache<string, StoredSet>
  readonly #clock: Clock
  readonly #newId: () => string
  readonly #maxSets: number
  readonly #maxMembers: number
  readonly #maxSetsPerSession: number
  readonly #maxMembersPerSession: number
  readonly #defaultTimeout: number
  readonly #maxTimeout: number
  readonly #refuse: boolean
  readonly #quotaOf: (owner: SetOwner) => SessionQuota | undefined
  readonly #observers: EntitySetObserver[] = []
  readonly #accounts = new Map<string, Account>()
  readonly #heap: AccountHeap
  #signer: SetIdSigner
  #members = 0
  #tick = 0
  #purgedAt = Number.NaN

  /** `quotaOf`: the quota a session has set itself, if any (asked at each keep of its sets). */
  constructor(
    clock: Clock,
    newId: () => string,
    options: EntitySetStoreOptions = {},
    quotaOf: (owner: SetOwner) => SessionQuota | undefined = () => undefined,
  ) {
    this.#clock = clock
    this.#quotaOf = quotaOf
    this.#newId = newId
    this.#maxSets = options.maxSets ?? 10_000
    this.#maxMembers = options.maxMembers ?? 20_000_000
    this.#maxSetsPerSession = Math.min(this.#maxSets, options.maxSetsPerSession ?? 1_000)
    this.#maxMembersPerSession = Math.min(
      this.#maxMembers,
      options.maxMembersPerSession ?? 10_000_000,
    )
    this.#defaultTimeout = 1000 * (options.defaultTimeout ?? 7200)
    this.#maxTimeout = 1000 * (options.maxTimeout ?? 86_400)
    this.#refuse = options.whenFull === 'refuse'
    this.#heap = new AccountHeap(this.#maxSets, this.#maxMembers)
    this.#signer = new SetIdSigner(options.idKey ?? randomKey())
    this.#cache = new LRUCache<string, StoredSet>({
      // Room is made before each set is kept (#makeRoom), owner by owner: these bounds are a
      // backstop that never has to act.
      max: this.#maxSets,
      maxSize: this.#maxMembers,
      sizeCalculation: (set) => weightOf(set.rowIds),
      ttl: this.#defaultTimeout,
      updateAgeOnGet: true,
      perf: { now: () => clock.now() },
      ttlResolution: 0,
      // Every way a set leaves (expired, released, evicted, replaced, cleared) passes here.
      dispose: (set) => this.#forget(set),
    })
  }

  /** The most members all sets may hold together. */
  get maxMembers(): number {
    return this.#maxMembers
  }

  /** Lifetime of a set kept without a timeout, in milliseconds. */
  get defaultTimeout(): number {
    return this.#defaultTimeout
  }

  /** Longest lifetime of a set, in milliseconds. */
  get maxTimeout(): number {
    return this.#maxTimeout
  }

  /** Number of sets kept (expired ones swept first). */
  get size(): number {
    this.purge()
    return this.#cache.size
  }

  /** Members kept in all sets together (an empty set counts as one). */
  get members(): number {
    this.purge()
    return this.#members
  }

  /**
   * Keeps `rowIds` as a set of `dataClass` for
   * `options.owner` (the process by default); returns it with its id (32 upper-case hex digits,
   * like the real server's, signed for its owner). The set holds them as an Int32Array alone in
   * its buffer: `rowIds` itself when it is one (it must not change afterwards), else a copy.
   * Throws EntitySetQuota when `whenFull` is 'refuse' and a limit would be passed, or when one
   * set alone exceeds its owner's member bound; EntitySetSessionQuota past the session's own
   * `nbEntitySets`.
   */
  keep(dataClass: string, rows: RowIds, options: KeepOptions = {}): StoredSet {
    const given = options.owner ?? PROCESS_OWNER
    const owner: OwnerCopy = { kind: given.kind, id: given.id }
    if (given.user !== undefined) owner.user = given.user
    const key = keyOf(owner)
    const limited = owner.kind === 'session'
    const size = weightOf(rows)
    const most = limited ? this.#maxMembersPerSession : this.#maxMembers
    if (size > most)
      fail('EntitySetQuota', [
        `it has ${rows.length} members, more than the limit of ${most} for ${limited ? 'one session’s sets' : 'all sets'}`,
      ])
    const remaining = options.remaining
    // A set adopted from another process (`remaining`) was counted and timed where it was made.
    const quota = limited && remaining === undefined ? this.#quotaOf(owner) : undefined
    const timeout = lifetimeOf(options.timeout, quota, this)
    const dead = remaining !== undefined && remaining < timeout && !(remaining > 0)
    // A set kept again under its id replaces the one there (a remake, a set adopted from another
    // process): that one goes first, without telling.
    if (!dead && options.id !== undefined && this.#cache.peek(options.id) !== undefined)
      this.#cache.delete(options.id)
    if (!dead) this.#makeRoom(this.#accounts.get(key), limited, size, quota?.nbEntitySets)
    const set: StoredSet = {
      id: options.id ?? this.#freshId(signingName(owner)),
      dataClass,
      rowIds: compactRowIds(rows),
      sorted: options.sorted ?? false,
      timeout,
      savedFilter: options.savedFilter,
      savedOrderBy: options.savedOrderBy,
      owner,
      ...(options.view == null ? {} : { view: options.view, access: options.access }),
    }
    if (dead) return set
    if (remaining !== undefined && remaining < timeout) {
      this.#cache.set(set.id, set, { ttl: timeout, start: this.#clock.now() - timeout + remaining })
    } else this.#cache.set(set.id, set, { ttl: timeout })
    let account = this.#accounts.get(key)
    if (!account) this.#accounts.set(key, (account = new Account(key, limited)))
    account.sets.set(set.id, size)
    account.members += size
    if (owner.user !== undefined) account.userSets++
    account.used = ++this.#tick
    this.#heap.update(account)
    this.#members += size
    for (const o of this.#observers) o.kept?.(set)
    return set
  }

  /**
   * Room for a set of `size` members of `account`'s owner (undefined: one holding none yet): the
   * session's own `nbEntitySets` (refused, never evicted), its quota, then the global bounds.
   * Evicts, or refuses (EntitySetQuota) in refuse mode.
   */
  #makeRoom(
    account: Account | undefined,
    limited: boolean,
    size: number,
    nbEntitySets: number | undefined,
  ): void {
    if (account && nbEntitySets !== undefined && account.sets.size >= nbEntitySets) {
      // Expired sets are released sets: they never hold a session at its quota.
      this.#purgeIfTimeMoved()
      // 429 with an empty Retry-After: over when a set is released (4D 21 R5's concurrent quotas).
      if (account.sets.size >= nbEntitySets)
        fail('EntitySetSessionQuota', [nbEntitySets], { details: { retryAfter: '' } })
    }
    if (account && limited) {
      const full = () =>
        account.sets.size >= this.#maxSetsPerSession ||
        account.members + size > this.#maxMembersPerSession
      if (full()) this.#purgeIfTimeMoved()
      if (this.#refuse && full()) {
        fail('EntitySetQuota', [
          account.sets.size >= this.#maxSetsPerSession
            ? `the session keeps ${this.#maxSetsPerSession} entity sets already (its limit)`
            : `the session’s sets would hold more than ${this.#maxMembersPerSession} members`,
        ])
      }
      for (let oldest = account.oldest; oldest !== undefined && full(); oldest = account.oldest)
        this.#cache.delete(oldest)
    }
    const full = () => this.#cache.size >= this.#maxSets || this.#members + size > this.#maxMembers
    if (full()) this.#purgeIfTimeMoved()
    if (this.#refuse && full()) {
      fail(
        'EntitySetQuota',
        this.#cache.size >= this.#maxSets
          ? [`${this.#maxSets} entity sets are kept already (the limit)`]
          : [`the sets kept would hold more than ${this.#maxMembers} members`],
      )
    }
    while (full()) {
      // The largest share goes first; the maker's own when its share, with the new set, is as
      // large: one session alone never evicts another's sets.
      let victim = this.#heap.top()
      if (!victim) return // nothing kept: the lru-cache's own bounds are the last word
      if (
        account &&
        account.sets.size > 0 &&
        this.#heap.share(account, account.sets.size + 1, account.members + size) >=
          this.#heap.share(victim)
      )
        victim = account
      const oldest = victim.oldest
      if (oldest === undefined) return
      this.#cache.delete(oldest)
    }
  }

  /** A new id signed for `name`, not one kept now (64 random bits rarely meet; never overwrite). */
  #freshId(name: string): string {
    for (;;) {
      const id = this.#signer.sign(this.#newId(), name)
      if (!this.#cache.has(id)) return id
    }
  }

  /** Drops a set that left the cache from its owner's account. */
  #forget(set: StoredSet): void {
    const account = this.#accounts.get(keyOf(set.owner))
    const weight = account?.sets.get(set.id)
    if (!account || weight === undefined) return
    account.sets.delete(set.id)
    account.members -= weight
    if (set.owner.user !== undefined) account.userSets--
    this.#members -= weight
    if (account.sets.size > 0) this.#heap.update(account)
    else {
      this.#heap.remove(account)
      this.#accounts.delete(account.key)
    }
  }

  /** Tells `observer` of sets kept, read, released and renamed; returns the function that stops. */
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
    if (!set) return undefined
    const account = this.#accounts.get(keyOf(set.owner))
    const weight = account?.sets.get(id)
    if (account && weight !== undefined) {
      // The most recently used of its owner's sets now (a Map re-inserted goes last).
      account.sets.delete(id)
      account.sets.set(id, weight)
      account.used = ++this.#tick
      this.#heap.update(account)
    }
    for (const o of this.#observers) o.touched?.(set)
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
    for (const o of this.#observers) o.released?.(id, 'released')
    return true
  }

  /** Releases every set of session `id` (it closed, for `reason`); how many. */
  releaseSession(id: string, reason: Exclude<SetReleaseReason, 'released'>): number {
    const account = this.#accounts.get(`session:${id}`)
    if (!account) return 0
    let n = 0
    for (const setId of [...account.sets.keys()]) {
      const live = this.#cache.peek(setId) !== undefined
      this.#cache.delete(setId)
      if (!live) continue
      n++
      for (const o of this.#observers) o.released?.(setId, reason)
    }
    return n
  }

  /** Session `previous` is now `next` (a login renewed it): its sets follow it. */
  renameSession(previous: string, next: string): void {
    const account = this.#accounts.get(`session:${previous}`)
    if (!account) return
    this.#accounts.delete(account.key)
    const renamed: StoredSet[] = []
    for (const setId of account.sets.keys()) {
      const set = this.#cache.peek(setId)
      if (!set) continue
      ;(set.owner as OwnerCopy).id = next
      renamed.push(set)
    }
    // The new id is new: no account can hold it yet, but merge rather than lose one if it does.
    const there = this.#accounts.get(`session:${next}`)
    if (there) {
      for (const [setId, weight] of account.sets) there.sets.set(setId, weight)
      there.members += account.members
      there.userSets += account.userSets
      this.#heap.remove(account)
      this.#heap.update(there)
    } else {
      account.key = `session:${next}`
      this.#accounts.set(account.key, account)
    }
    for (const set of renamed)
      for (const o of this.#observers) o.renamed?.(set, this.#cache.getRemainingTTL(set.id))
  }

  /** How much `owner`'s account holds, against its bounds (the global ones for the process). */
  usage(owner: SetOwner): SetUsage {
    this.purge()
    const account = this.#accounts.get(keyOf(owner))
    const limited = owner.kind === 'session'
    return {
      sets: account?.sets.size ?? 0,
      members: account?.members ?? 0,
      maxSets: limited ? this.#maxSetsPerSession : this.#maxSets,
      maxMembers: limited ? this.#maxMembersPerSession : this.#maxMembers,
    }
  }

  /** Whether `id` is one this cache signed for one of `names` (set-owners.ts `actorNames`). */
  signedFor(id: string, names: readonly string[]): boolean {
    return this.#signer.signedFor(id, names)
  }

  /**
   * Signs ids with `key` from now on (32 hex digits): processes that share their sets share it
   * (the first to start chooses it). Ids signed before cannot be remade once gone.
   */
  useIdKey(key: string): void {
    this.#signer = new SetIdSigner(key)
  }

  /** Forgets every set (a datastore restored to a snapshot: their row ids may name other entities). */
  clear(): void {
    this.#cache.clear()
    this.#accounts.clear()
    this.#heap.clear()
    this.#members = 0
  }

  /** Drops every expired set now. */
  purge(): void {
    this.#purgedAt = this.#clock.now()
    this.#cache.purgeStale()
  }

  /**
   * `purge`, unless the clock has not moved since the last one (no set can have expired since).
   * A purge walks every set (about 0.1 µs each): it runs when a bound is reached, not for every set
   * kept, so that a session at its quota makes sets in time that does not grow with the cache.
   */
  #purgeIfTimeMoved(): void {
    if (this.#clock.now() !== this.#purgedAt) this.purge()
  }

  /**
   * Every set kept (or those `which` lets through), most recently used first, as `$info` lists
   * them (no lifetime touched).
   */
  list(which?: (set: StoredSet) => boolean): SetInfo[] {
    this.purge()
    const out: SetInfo[] = []
    for (const [id, set] of this.#cache.entries()) {
      if (which && !which(set)) continue
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
