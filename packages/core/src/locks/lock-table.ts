/**
 * @module Pessimistic locks (4D's `entity.lock()`, REST `$lock=true`): which owner holds which
 * entity, and since when. An owner is an HTTP session or a "process" (4D's name for a caller of the
 * language API: in Entistore, the TypeScript code that holds the datastore).
 *
 * The table only records locks; the transaction refuses a write by another owner than the holder
 * (txn/transaction.ts), the Datastore drops a closed session's locks (`releaseOwner`), and a commit
 * that deletes an entity drops its lock. A lock held by an owner that `isLive` says is gone (a
 * session that expired and was not swept yet) is dropped the moment it is consulted, so it never
 * blocks anyone: no timers.
 *
 * Several processes serving one datastore share their locks through another service (Redis): each
 * keeps this table as a mirror, told of the locks taken and released here by an observer
 * (`observe`) and following the others with `take` and `drop` while it stops listening.
 */
import type { Clock } from '../clock/clock.js'
import type { KeyValue } from '../values/value-types.js'

/** What the real server reports of a lock's holder (`lockInfo`): the client of a REST session. */
export interface LockOwnerInfo {
  /** The Host header of the request that took the lock. */
  readonly host?: string
  readonly IPAddr?: string
  readonly userAgent?: string
}

/** Who holds a lock: a REST session (by its id) or a process (TS API callers). */
export interface LockOwner {
  readonly id: string
  readonly kind: 'session' | 'process'
  readonly info?: LockOwnerInfo
}

/** One lock: its holder and when it was taken (epoch ms on the datastore's clock). */
export interface Lock {
  readonly dataClass: string
  readonly key: KeyValue
  readonly owner: LockOwner
  readonly since: number
  /**
   * The transaction that holds it until it ends (4D locks what a transaction writes), by its id:
   * its owner's other calls are refused too, as 4D's other processes are. Absent: the owner's
   * own lock (`entity.lock()`, `$lock=true`), which every call of the owner passes.
   */
  readonly transaction?: string
}

/** Whether two owners are the same (same kind, same id; `info` does not count). */
export const sameOwner = (a: LockOwner, b: LockOwner): boolean => a.id === b.id && a.kind === b.kind

/**
 * Whether `lock` lets `owner` write or lock its entity, `transaction` being the id of the
 * transaction the writer runs in, if any: the owner's own lock does; a transaction's lock only
 * for that transaction.
 */
export const heldFor = (lock: Lock, owner: LockOwner, transaction?: string): boolean =>
  sameOwner(lock.owner, owner) &&
  (lock.transaction === undefined || lock.transaction === transaction)

const ownerKey = (o: LockOwner): string => `${o.kind}:${o.id}`

/**
 * Why a lock went: its owner let go (`release`), its entity was deleted (`drop`), its owner is gone
 * (`releaseOwner`: a session closed or found expired), or every lock was (`clear`).
 */
export type LockReleaseReason = 'released' | 'deleted' | 'owner' | 'cleared'

/** What a lock table tells of its locks, synchronously, after the change. */
export interface LockObserver {
  taken?(lock: Lock): void
  released?(lock: Lock, reason: LockReleaseReason): void
}

export class LockTable {
  readonly #clock: Clock
  readonly #isLive: (owner: LockOwner) => boolean
  // dataclass name → key → lock; and each owner's locks, to release them at once.
  readonly #byEntity = new Map<string, Map<KeyValue, Lock>>()
  readonly #byOwner = new Map<string, Set<Lock>>()
  readonly #observers: LockObserver[] = []

  /** `isLive` says whether an owner still exists (a session not closed); by default, always. */
  constructor(clock: Clock, isLive: (owner: LockOwner) => boolean = () => true) {
    this.#clock = clock
    this.#isLive = isLive
  }

  /** Tells `observer` of every lock taken and released; returns the function that stops. */
  observe(observer: LockObserver): () => void {
    this.#observers.push(observer)
    return () => {
      const i = this.#observers.indexOf(observer)
      if (i >= 0) this.#observers.splice(i, 1)
    }
  }

  /** Whether `owner` still exists (a session not closed or expired). */
  isLive(owner: LockOwner): boolean {
    return this.#isLive(owner)
  }

  /** Number of locks held (those of owners gone included until they are consulted or released). */
  get size(): number {
    let n = 0
    for (const locks of this.#byEntity.values()) n += locks.size
    return n
  }

  /** The lock on (dataClass, key) if its holder is live; a dead holder's locks are dropped. */
  holder(dataClass: string, key: KeyValue): Lock | undefined {
    const lock = this.#byEntity.get(dataClass)?.get(key)
    if (!lock) return undefined
    if (this.#isLive(lock.owner)) return lock
    this.releaseOwner(lock.owner)
    return undefined
  }

  /**
   * Locks (dataClass, key) for `owner` (for its transaction `transaction`, when given). Returns
   * the lock held afterwards: `owner`'s own (new, or the one it held already: locking twice is one
   * lock, never two), or another's that refused it: the caller compares (`heldFor`).
   */
  take(dataClass: string, key: KeyValue, owner: LockOwner, transaction?: string): Lock {
    const held = this.holder(dataClass, key)
    if (held) return held
    const lock: Lock =
      transaction === undefined
        ? { dataClass, key, owner, since: this.#clock.now() }
        : { dataClass, key, owner, since: this.#clock.now(), transaction }
    let locks = this.#byEntity.get(dataClass)
    if (!locks) this.#byEntity.set(dataClass, (locks = new Map()))
    locks.set(key, lock)
    const k = ownerKey(owner)
    let mine = this.#byOwner.get(k)
    if (!mine) this.#byOwner.set(k, (mine = new Set()))
    mine.add(lock)
    for (const o of this.#observers) o.taken?.(lock)
    return lock
  }

  /**
   * Unlocks (dataClass, key) if `owner` holds it. Returns undefined when it is unlocked afterwards
   * (released now, or held by nobody), or the other owner's lock that stays. A transaction's lock
   * is not released here: it lasts until its transaction ends (`releaseTransaction`).
   */
  release(dataClass: string, key: KeyValue, owner: LockOwner): Lock | undefined {
    const held = this.holder(dataClass, key)
    if (!held) return undefined
    if (!sameOwner(held.owner, owner) || held.transaction !== undefined) return held
    this.#remove(held, 'released')
    return undefined
  }

  /**
   * Releases the lock transaction `transaction` holds on (dataClass, key), if it still holds it
   * (the transaction ended). Found by the transaction's id, not by the Lock object: a login renews
   * a session's locks as new objects (`renameSession`).
   */
  releaseTransaction(dataClass: string, key: KeyValue, transaction: string): void {
    const held = this.#byEntity.get(dataClass)?.get(key)
    if (held !== undefined && held.transaction === transaction) this.#remove(held, 'released')
  }

  /** Drops the lock on (dataClass, key) whoever holds it (the entity was deleted). */
  drop(dataClass: string, key: KeyValue): void {
    const lock = this.#byEntity.get(dataClass)?.get(key)
    if (lock) this.#remove(lock, 'deleted')
  }

  /**
   * Drops every lock the session `sessionId` holds (it closed); returns how many. Called for every
   * session that closes, most often a guest evicted to make room for a cookie-less client's: while
   * nobody holds a lock it costs nothing, not even the owner's key.
   */
  releaseSession(sessionId: string): number {
    return this.#byOwner.size === 0 ? 0 : this.releaseOwner(sessionOwnerKey(sessionId))
  }

  /** Drops every lock `owner` holds (its session closed); returns how many. */
  releaseOwner(owner: LockOwner | string): number {
    const k = typeof owner === 'string' ? owner : ownerKey(owner)
    const mine = this.#byOwner.get(k)
    if (!mine) return 0
    this.#byOwner.delete(k)
    for (const lock of mine) {
      const locks = this.#byEntity.get(lock.dataClass)
      if (locks?.get(lock.key) === lock) {
        locks.delete(lock.key)
        if (locks.size === 0) this.#byEntity.delete(lock.dataClass)
      }
    }
    for (const o of this.#observers) for (const lock of mine) o.released?.(lock, 'owner')
    return mine.size
  }

  /**
   * Gives the locks of session `fromId` to session `toId` (the session was renewed at a login: the
   * same session under a new id), each with its `since`; returns how many. Observers are not told:
   * the lock changes hands with its session, which the session store tells of (`onRenew`), and a
   * shared store moves it with the session.
   */
  renameSession(fromId: string, toId: string): number {
    const mine = this.#byOwner.get(sessionOwnerKey(fromId))
    if (!mine) return 0
    this.#byOwner.delete(sessionOwnerKey(fromId))
    const key = sessionOwnerKey(toId)
    let theirs = this.#byOwner.get(key)
    if (!theirs) this.#byOwner.set(key, (theirs = new Set()))
    for (const lock of mine) {
      // A plain owner with the new id: one whose id follows the session (the REST adapter's) is
      // read now, once.
      const moved: Lock = { ...lock, owner: { ...lock.owner, id: toId } }
      const locks = this.#byEntity.get(lock.dataClass)
      if (locks?.get(lock.key) === lock) locks.set(lock.key, moved)
      theirs.add(moved)
    }
    return mine.size
  }

  /** Drops every lock (a datastore restored to a snapshot). */
  clear(): void {
    const all = this.#observers.length > 0 ? this.list() : []
    this.#byEntity.clear()
    this.#byOwner.clear()
    for (const o of this.#observers) for (const lock of all) o.released?.(lock, 'cleared')
  }

  /** The locks `owner` holds, oldest first. */
  heldBy(owner: LockOwner): Lock[] {
    return [...(this.#byOwner.get(ownerKey(owner)) ?? [])]
  }

  /** Every lock whose holder is live. */
  list(): Lock[] {
    const out: Lock[] = []
    for (const locks of [...this.#byEntity.values()]) {
      for (const lock of [...locks.values()]) {
        if (this.holder(lock.dataClass, lock.key) === lock) out.push(lock)
      }
    }
    return out
  }

  #remove(lock: Lock, reason: LockReleaseReason): void {
    const locks = this.#byEntity.get(lock.dataClass)
    if (locks?.get(lock.key) === lock) {
      locks.delete(lock.key)
      if (locks.size === 0) this.#byEntity.delete(lock.dataClass)
    }
    const k = ownerKey(lock.owner)
    const mine = this.#byOwner.get(k)
    mine?.delete(lock)
    if (mine?.size === 0) this.#byOwner.delete(k)
    for (const o of this.#observers) o.released?.(lock, reason)
  }
}

/** A session's owner key, for `releaseOwner` when only the session id is known. */
export const sessionOwnerKey = (sessionId: string): string => `session:${sessionId}`
