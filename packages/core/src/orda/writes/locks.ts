/**
 * @module `entity.lock()` and `entity.unlock()`: 4D's pessimistic locks, with 4D's result objects.
 * The lock table (locks/) records who holds what; the transaction refuses another owner's writes.
 */
import { heldFor, type LockOwner } from '../../locks/lock-table.js'
import { lockedBy, SAVE_STATUS, type LockedStatus } from '../../txn/save-status.js'
import type { WrittenEntity } from './written-class.js'
import { currentOwner, openTransaction } from '../calls/owners.js'
import { needLock } from '../restrict/access-checks.js'

// The status objects shared with save and drop live with them, below the public objects.
export { LOCK_KIND, lockedBy, type LockInfo } from '../../txn/save-status.js'

/** The result of `entity.lock()` / `entity.unlock()`, as 4D's ORDA and `$lock` write it. */
export type LockResult =
  | { readonly success: true }
  | {
      readonly success: false
      /** 2 stamp has changed, 4 other error, 5 entity does not exist. */
      readonly status: 2 | 4 | 5
      readonly statusText: string
    }
  | LockedStatus

export interface LockOptions {
  /** Who locks: an HTTP session for the REST adapter. @default whoever acts now (`ds.runAs`), else the datastore's process */
  readonly owner?: LockOwner
}

/** `lock()`'s options: 4D's `dk reload if stamp changed` besides who locks. */
export interface LockingOptions extends LockOptions {
  /**
   * 4D's `dk reload if stamp changed`: a version saved since this one was read is locked all the
   * same, and the result says `wasReloaded` and gives the current version (`entity`): an Entity
   * cannot be reloaded in place. @default false
   */
  readonly reload?: boolean
}

const SUCCESS: LockResult = Object.freeze({ success: true })

const failure = (s: { status: number; statusText: string }): LockResult =>
  ({ success: false, status: s.status, statusText: s.statusText }) as LockResult

/**
 * Locks `entity` for its owner. Refused with 5 if it no longer exists, 3 if another owner holds
 * it, 2 if it was saved since this version was read (unless `reload`), 4 if the owner is a
 * session that is closed. Locking again by the holder succeeds (one lock: one unlock releases it).
 */
export function lockEntity<E extends WrittenEntity>(
  entity: E,
  options: LockingOptions = {},
): LockResult | { readonly success: true; readonly wasReloaded: boolean; readonly entity: E } {
  const dc = entity.dataClass
  needLock(dc)
  const ds = dc.datastore
  const owner = options.owner ?? currentOwner(ds)
  // Inside a transaction, the entity as the calling process wrote it (its stamp), and the locks
  // of that transaction its own.
  const tx = openTransaction(ds)
  // The stored version of the entity's own dataclass: of its type.
  const current = (tx ? tx.read(dc.table, entity.key) : dc.table.recordByKey(entity.key)) as
    E | undefined
  if (!current) return failure(SAVE_STATUS.entityDoesNotExist)
  const held = ds.locks.holder(dc.name, entity.key)
  if (held && !heldFor(held, owner, tx?.id)) return lockedBy(held, current.rowId)
  const changed = current.stamp !== entity.stamp
  if (changed && options.reload !== true) return failure(SAVE_STATUS.stampHasChanged)
  if (!ds.locks.isLive(owner)) return failure(SAVE_STATUS.seriousError)
  // A guest that locks holds state now: established first, so that a flood of guests cannot evict
  // it (and, when no session can be established, refused with SessionLimit before it locks).
  if (owner.kind === 'session') ds.sessions.establish(owner.id)
  ds.locks.take(dc.name, entity.key, owner)
  return options.reload === true
    ? { success: true, wasReloaded: changed, entity: changed ? current : entity }
    : SUCCESS
}

/**
 * Unlocks `entity` if its owner holds the lock. Refused with 3 if another owner holds it, 5 if the
 * entity no longer exists; an entity nobody locks is unlocked already (success).
 */
export function unlockEntity(entity: WrittenEntity, options: LockOptions = {}): LockResult {
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
