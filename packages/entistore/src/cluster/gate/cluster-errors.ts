/**
 * @module What a participant's failure answers to the clients of a write: the one place that
 * turns any error into one of the interface's, so every piece of the gate refuses alike.
 */
import { datastoreError, DatastoreError } from '@entistore/core'

/**
 * What a participant's failure answers: its own error when it is one of the interface's (Redis
 * down is SharedStateUnavailable, 9140), else ClusterWriteFailed (9132) with it as the cause.
 */
export const asClusterError = (e: unknown): DatastoreError => (DatastoreError.is(e) ? e : failed(e))

/** ClusterWriteFailed (9132) for `cause`, which stays attached. */
export function failed(cause: unknown, extra?: string): DatastoreError {
  const why = cause instanceof Error ? cause.message : String(cause)
  return datastoreError('ClusterWriteFailed', [extra ? `${why}; ${extra}` : why], {
    cause,
    details: { retryAfter: 1 },
  })
}
