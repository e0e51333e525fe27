/**
 * @module The status of a failed save or drop, as 4D's ORDA reports it (`entity.save()` returns
 * `{ success: false, status, statusText }`; the REST interface writes the same in `__STATUS`).
 * Codes and texts are 4D's: `dk status wrong permission` (1), `stamp has changed` (2), `locked`
 * (3), `serious error` (4: "a low-level database error (e.g. duplicated key)"), `entity does not
 * exist anymore` (5).
 */
import { DatastoreError } from '../errors/datastore-error.js'

export const SAVE_STATUS = {
  wrongPermission: { status: 1, statusText: 'Permission Error' },
  stampHasChanged: { status: 2, statusText: 'Stamp has changed' },
  locked: { status: 3, statusText: 'Already locked' },
  seriousError: { status: 4, statusText: 'Other error' },
  entityDoesNotExist: { status: 5, statusText: 'Entity does not exist' },
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

/** A failed save's or drop's result as 4D's `save()` and `drop()` return it. */
export interface SaveResult {
  readonly success: false
  readonly status: number
  readonly statusText: string
  /** The errors stacked, cause first: for a serious error (4) and a refusal by an event (7, 8). */
  readonly errors?: readonly SaveResultError[]
}

export interface SaveResultError {
  readonly errCode: number
  readonly message: string
  readonly componentSignature: string
}

/**
 * The result object of a save or drop that failed with `error`: its status, and the error stack in
 * `errors` where 4D gives one (a serious error, an entity event's refusal).
 */
export function saveResultOf(error: unknown): SaveResult {
  const { status, statusText } = saveStatusOf(error)
  if (!DatastoreError.is(error) || (status !== 4 && status !== 7 && status !== 8))
    return { success: false, status, statusText }
  const errors = error.stack4D().map((e) => ({
    errCode: e.errCode,
    message: e.message,
    componentSignature: e.componentSignature,
  }))
  return { success: false, status, statusText, errors }
}
