/**
 * @module Errors on the wire: the `__ERROR` array (`message`, `componentSignature`, `errCode`, in
 * that order), outermost error first, and the HTTP status chosen from the error's category. The
 * core never picks a status: this table is the only place that does.
 */
import { DatastoreError, datastoreError, type ErrorCategory } from '@entistore/core'
import type { JsonObject } from '../serialize/entity.js'

/** The HTTP status of each error category: the only place statuses are chosen. */
export const STATUS_BY_CATEGORY: Readonly<Record<ErrorCategory, number>> = {
  badRequest: 400,
  notFound: 404,
  conflict: 409,
  forbidden: 403,
  notImplemented: 501,
  methodNotAllowed: 405,
  limit: 400,
  bodyTooLarge: 413,
  headersTooLarge: 431,
  unsupportedMediaType: 415,
  quota: 429,
  unauthorized: 401,
  sessionLimit: 402,
  unavailable: 503,
  tooManyRequests: 429,
  requestTimeout: 408,
  // An async class function did not settle in time: like a gateway whose upstream did not answer.
  timeout: 504,
  // A class function threw: the request was read, the application's code refused it.
  failed: 422,
  internal: 500,
}

export interface ErrorReply {
  readonly status: number
  readonly body: JsonObject
  /**
   * Headers the error asks for: `allow` for a 405 on a resource that takes other methods than the
   * interface's (a function: POST); `retry-after` (seconds) for a refusal that ends with time
   * (a 429 or 503 whose error says when: `details.retryAfter`; '' for a concurrent limit).
   */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * What a client reads for every internal error. The error's own text (a stack overflow, a
 * TypeError, a message from a calculated attribute) says how the server is built and may hold data:
 * it goes to `onInternalError`, never into a reply.
 */
export const INTERNAL_ERROR_DETAIL = 'the server could not answer this request'

/**
 * The status and `__ERROR` body for `error`. Anything that is not a DatastoreError is a bug: 500,
 * with a fixed message whatever the error says.
 */
export function toErrorReply(error: unknown): ErrorReply {
  const e =
    DatastoreError.is(error) && error.category !== 'internal'
      ? error
      : datastoreError('Internal', [INTERNAL_ERROR_DETAIL])
  const status = STATUS_BY_CATEGORY[e.category]
  const body = { __ERROR: errorList(e.stack4D()) }
  return { status, body, headers: errorHeaders(e) }
}

/** The headers an error asks for (see `ErrorReply.headers`), or undefined: most ask for none. */
function errorHeaders(e: DatastoreError): Record<string, string> | undefined {
  const details = e.details
  if (details === undefined) return undefined
  const { allow, retryAfter } = details
  if (typeof allow !== 'string' && typeof retryAfter !== 'number' && retryAfter !== '')
    return undefined
  const headers: Record<string, string> = {}
  if (typeof allow === 'string') headers.allow = allow
  // Empty: a concurrent limit (sessions, entity sets), over when something is released, not in
  // a time a server can tell (4D's web server quotas send it so).
  if (retryAfter === '') headers['retry-after'] = ''
  // Whole seconds, at least 1: `Retry-After: 0` would invite the client straight back.
  if (typeof retryAfter === 'number')
    headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfter)))
  return headers
}

/** The members of an `__ERROR` array, in the wire's key order. */
export function errorList(errors: readonly DatastoreError[]): JsonObject[] {
  return errors.map((x) => ({
    message: x.message,
    componentSignature: x.componentSignature,
    errCode: x.errCode,
  }))
}

/** Whether `error` is a client's or the data's failure (a DatastoreError), not a bug. */
export function isReported(error: unknown): error is DatastoreError {
  return DatastoreError.is(error) && error.category !== 'internal'
}
