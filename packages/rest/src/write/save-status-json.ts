/**
 * @module The `__STATUS` of a refused write or lock. A write refused by another session's lock
 * carries what `$lock` reports (status 3 with `lockKind`, `lockKindText` and `lockInfo`), as 4D's
 * `entity.save()` result does.
 */
import {
  lockedBy,
  saveStatusOf,
  type DatastoreError,
  type JsonObject,
  type Lock,
  type LockResult,
} from '@entistore/core'

/** A failed lock result without its `success` member, in 4D's member order. */
export function refusedStatus(result: LockResult & { success: false }): JsonObject {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(result)) if (k !== 'success') out[k] = v
  return out as JsonObject
}

/** `__STATUS` of an item that was not saved or deleted, `success: false` last. */
export function saveStatusJson(error: DatastoreError): string {
  const details = error.details
  if (error.name === 'EntityLocked' && details?.lock) {
    const result = lockedBy(details.lock as Lock, details.recordNumber as number)
    if (!result.success) return JSON.stringify({ ...refusedStatus(result), success: false })
  }
  const s = saveStatusOf(error)
  return JSON.stringify({ status: s.status, statusText: s.statusText, success: false })
}
