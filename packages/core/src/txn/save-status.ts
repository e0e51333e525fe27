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
    default:
      return error.category === 'forbidden' ? SAVE_STATUS.wrongPermission : SAVE_STATUS.seriousError
  }
}
