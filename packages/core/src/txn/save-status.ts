/**
 * @module The result objects of 4D's ORDA writes: `entity.save()` and `drop()` answer `{ success:
 * true }` or `{ success: false, status, statusText, … }`, `entity.lock()` and `unlock()` the same
 * family; the REST interface writes them in `__STATUS`. Codes and texts are 4D's: `dk status wrong
 * permission` (1), `stamp has changed` (2), `locked` (3, with the lock's holder), `serious error`
 * (4: "a low-level database error (e.g. duplicated key)"), `entity does not exist anymore` (5),
 * `automerge failed` (6), and 4D 21's validation statuses (7, 8).
 *
 * Which failures become a status and which are thrown is decided here once (`isWriteRefusal`):
 * what the data or the store refused is answered, what the calling code got wrong is thrown.
 */
import { DatastoreError } from '../errors/datastore-error.js'
import type { Lock } from '../locks/lock-table.js'

export const SAVE_STATUS = {
  wrongPermission: { status: 1, statusText: 'Permission Error' },
  stampHasChanged: { status: 2, statusText: 'Stamp has changed' },
  locked: { status: 3, statusText: 'Already locked' },
  seriousError: { status: 4, statusText: 'Other error' },
  entityDoesNotExist: { status: 5, statusText: 'Entity does not exist' },
  autoMergeFailed: { status: 6, statusText: 'Auto merge failed' },
  mildValidationError: { status: 7, statusText: 'Mild Validation Error' },
  seriousValidationError: { status: 8, statusText: 'Serious Validation Error' },
} as const

export type SaveStatus = (typeof SAVE_STATUS)[keyof typeof SAVE_STATUS]

/** The status of a save or drop that failed with `error`. */
export function saveStatusOf(error: unknown): SaveStatus {
  if (!DatastoreError.is(error)) return SAVE_STATUS.seriousError
  switch (error.name) {
    case 'StampChanged':
      return SAVE_STATUS.stampHasChanged
    case 'EntityNotFound':
      return SAVE_STATUS.entityDoesNotExist
    case 'EntityLocked':
      return SAVE_STATUS.locked
    case 'EventRefused':
      return eventStatus(error.details?.fatalError)
    default:
      return error.category === 'forbidden' ? SAVE_STATUS.wrongPermission : SAVE_STATUS.seriousError
  }
}

// A validate event's refusal carries its `fatalError` (entity-events.ts); a saving or dropping
// event's does not, and 4D raises it as a plain serious error.
function eventStatus(fatalError: unknown): SaveStatus {
  if (fatalError === undefined) return SAVE_STATUS.seriousError
  return fatalError === true ? SAVE_STATUS.seriousValidationError : SAVE_STATUS.mildValidationError
}

/**
 * Whether `error` is a refusal that 4D's `save()` and `drop()` answer with a status rather than
 * raise: the session may not write (1), the entity changed (2), is locked (3) or is gone (5), an
 * entity event refused (4, 7, 8), a unique value or key is taken, or the store could not write (a
 * journal, a cluster, the heap: 4, 4D's "hardware error"). What the calling code got wrong (an
 * unknown or read-only attribute, a value of the wrong type, a bug) is not: it is thrown.
 */
export function isWriteRefusal(error: unknown): error is DatastoreError {
  if (!DatastoreError.is(error)) return false
  if (error.name === 'EntityNotFound' || error.name === 'EventRefused') return true
  switch (error.category) {
    case 'forbidden':
    case 'unauthorized':
    case 'conflict':
    case 'unavailable':
    case 'limit':
      return true
    default:
      return false
  }
}

/** 4D's lock kind of a pessimistic lock (`lockKind`). */
export const LOCK_KIND = 7

/** `lockInfo` of a refused lock: the holder's client, and the entity's record number. */
export interface LockInfo {
  readonly host?: string
  readonly IPAddr?: string
  readonly recordNumber: number
  readonly userAgent?: string
}

/** What a refusal by another owner's lock adds to a status (3): its kind and its holder. */
export interface LockedStatus {
  readonly success: false
  /** 3: another session or process holds the lock. */
  readonly status: 3
  readonly statusText: string
  readonly lockKind: typeof LOCK_KIND
  readonly lockKindText: 'Locked by session' | 'Locked by record'
  readonly lockInfo: LockInfo
}

/** The result for a lock held by another owner: status 3 with its kind and holder. */
export function lockedBy(lock: Lock, recordNumber: number): LockedStatus {
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
 * A failed save's or drop's result as 4D's `save()` and `drop()` return it. A refusal by another
 * owner's lock (3) adds `lockKind`, `lockKindText` and `lockInfo`.
 */
export interface SaveResult {
  readonly success: false
  readonly status: number
  readonly statusText: string
  /** The errors stacked, cause first: for a serious error (4) and a refusal by an event (7, 8). */
  readonly errors?: readonly SaveResultError[]
  readonly lockKind?: typeof LOCK_KIND
  readonly lockKindText?: LockedStatus['lockKindText']
  readonly lockInfo?: LockInfo
}

export interface SaveResultError {
  readonly errCode: number
  readonly message: string
  readonly componentSignature: string
}

/**
 * What 4D's `save()` and `drop()` answer: `{ success: true }` (with `autoMerged` when the save
 * asked for `dk auto merge`), or a failure's `SaveResult`.
 */
export type WriteResult = { readonly success: true; readonly autoMerged?: boolean } | SaveResult

/**
 * The result object of a save or drop that failed with `error`: its status, the lock's holder for
 * a lock (3), and the error stack in `errors` where 4D gives one (a serious error, an entity
 * event's refusal).
 */
export function saveResultOf(error: unknown): SaveResult {
  const { status, statusText } = saveStatusOf(error)
  if (!DatastoreError.is(error)) return { success: false, status, statusText }
  const details = error.details
  if (error.name === 'EntityLocked' && details?.lock)
    return lockedBy(details.lock as Lock, details.recordNumber as number)
  if (status !== 4 && status !== 7 && status !== 8) return { success: false, status, statusText }
  const errors = error.stack4D().map((e) => ({
    errCode: e.errCode,
    message: e.message,
    componentSignature: e.componentSignature,
  }))
  return { success: false, status, statusText, errors }
}

const SUCCESS: WriteResult = Object.freeze({ success: true })

/**
 * Runs a save or a drop the throwing way and answers 4D's result object: `{ success: true }`, or
 * the status of a refusal (`isWriteRefusal`). Anything else it throws is thrown on.
 */
export function attemptWrite(write: () => unknown): WriteResult {
  try {
    write()
    return SUCCESS
  } catch (error) {
    if (isWriteRefusal(error)) return saveResultOf(error)
    throw error
  }
}
