/**
 * @module `entity.lock()` and `entity.unlock()`: 4D's pessimistic locks, with 4D's result objects.
 * The lock table (locks/) records who holds what; the transaction refuses another owner's writes.
 */
import { heldFor, type Lock, type LockOwner } from '../locks/lock-table.js'
import { SAVE_STATUS } from '../txn/save-status.js'
import type { Entity } from './entity.js'
import { currentOwner, openTransaction } from './writes.js'
import { needLock } from './access-checks.js'

/** 4D's lock kind of a pessimistic lock (`lockKind`). */
export const LOCK_KIND = 7

/** `lockInfo` of a refused lock: the holder's client, and the entity's record number. */
export interface LockInfo {
  readonly host?: string
  readonly IPAddr?: string
  readonly recordNumber: number
  readonly userAgent?: string
}

/** The result of `entity.lock()` / `entity.unlock()`, as 4D's ORDA and `$lock` write it. */
export type LockResult =
  | { readonly success: true }
  | {
      readonly success: false
      /** 2 stamp has changed, 4 other error, 5 entity does not exist. */
      readonly status: 2 | 4 | 5
      readonly statusText: string
    }
  | {
      readonly success: false
      /** 3: another session or process holds the lock. */
      readonly status: 3
      readonly statusText: string
      readonly lockKind: typeof LOCK_KIND
      readonly lockKindText: 'Locked by session' | 'Locked by record'
      readonly lockInfo: LockInfo
    }

export interface LockOptions {
  /** Who locks: an HTTP session for the REST adapter. @default whoever acts now (`ds.runAs`), else the datastore's process */
  readonly owner?: LockOwner
}

const SUCCESS: LockResult = Object.freeze({ success: true })

const failure = (s: { status: number; statusText: string }): LockResult =>
  ({ success: false, status: s.status, statusText: s.statusText }) as LockResult

/** The result for a lock held by another owner: status 3 with its kind and holder. */
export function lockedBy(lock: Lock, recordNumber: number): LockResult {
  const info = lock.owner.info ?? {}
  return {
    success: false,
    status: 3,
    statusText: SAVE_STATUS.locked.statusText,
    lockKind: LOCK_KIND,
    lockKindText: lock.owner.kind === 'session' ? 'Locked by session' : 'Locked by record',
    lockInfo: {
      ...(info.host !== undefined ? { host: info.host } : {}),
      ...(info.IPAddr !== undefined ? { IPAddr: info.IPAddr } : {}),
      recordNumber,
      ...(info.userAgent !== undefined ? { userAgent: info.userAgent } : {}),
    },
  }
}

/**
 * Locks `entity` for its owner. Refused with 5 if it no longer exists, 3 if another owner holds
 * it, 2 if it was saved since this version was read, 4 if the owner is a session that is closed.
 * Locking again by the holder succeeds (one lock: one unlock releases it).
 */
export function lockEntity(entity: Entity, options: LockOptions = {}): LockResult {
  const dc = entity.dataClass
  needLock(dc)
  const ds = dc.datastore
  const owner = options.owner ?? currentOwner(ds)
  // Inside a transaction, the entity as the calling process wrote it (its stamp), and the locks
  // of that transaction its own.
  const tx = openTransaction(ds)
  const current = tx ? tx.read(dc.table, entity.key) : dc.table.recordByKey(entity.key)
  if (!current) return failure(SAVE_STATUS.entityDoesNotExist)
  const held = ds.locks.holder(dc.name, entity.key)
  if (held && !heldFor(held, owner, tx?.id)) return lockedBy(held, current.rowId)
  if (current.stamp !== entity.stamp) return failure(SAVE_STATUS.stampHasChanged)
  if (!ds.locks.isLive(owner)) return failure(SAVE_STATUS.seriousError)
  // A guest that locks holds state now: established first, so that a flood of guests cannot evict
  // it (and, when no session can be established, refused with SessionLimit before it locks).
  if (owner.kind === 'session') ds.sessions.establish(owner.id)
  ds.locks.take(dc.name, entity.key, owner)
  return SUCCESS
}

/**
 * Unlocks `entity` if its owner holds the lock. Refused with 3 if another owner holds it, 5 if the
 * entity no longer exists; an entity nobody locks is unlocked already (success).
 */
export function unlockEntity(entity: Entity, options: LockOptions = {}): LockResult {
  const dc = entity.dataClass
  needLock(dc)
  const ds = dc.datastore
  const owner = options.owner ?? currentOwner(ds)
  const tx = openTransaction(ds)
  const current = tx ? tx.read(dc.table, entity.key) : dc.table.recordByKey(entity.key)
  if (!current) return failure(SAVE_STATUS.entityDoesNotExist)
  const other = ds.locks.release(dc.name, entity.key, owner)
  // The calling process's own transaction holds it until it ends (4D's lock of what a
  // transaction writes): unlocked as far as the caller can ask.
  if (other && tx?.id !== undefined && other.transaction === tx.id) return SUCCESS
  return other ? lockedBy(other, current.rowId) : SUCCESS
}
