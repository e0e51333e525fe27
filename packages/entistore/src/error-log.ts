/**
 * @module What `entistore serve` writes on stderr for each reply of status 500 or more (the REST
 * handler's `onServerError`): one line with the time, the status, the request line and what went
 * wrong, so that an operator sees every failure and which request met it:
 *
 *     entistore: 2026-11-23T10:00:00.000Z 500 GET /rest/$catalog/report?$top=1: TypeError: boom
 *     entistore: 2026-11-23T10:00:30.000Z 504 POST /rest/$catalog/sync: 9106 The function "sync" did not answer within 30000 ms, …
 *
 * With `--verbose`, a 500's stack follows its line, indented. A request line is method, path and
 * query as sent, never a header (so never a cookie or an Authorization), and never a secret in the
 * query: the value of `$4DSID` (a session id is a login), of `$params` (a function's arguments may
 * be a password) and of any parameter whose name says it holds one (`password`, `token`, `secret`,
 * `key`, `auth`…) is replaced with `…`. Lines are cut to a readable length, and control characters
 * in them escaped: a request cannot add lines of its own to the log.
 */
import { DatastoreError } from '@entistore/core'
import type { RestRequest } from '@entistore/rest'

/** Parameters whose values are never written: a session id, a function's arguments. */
const HIDDEN = new Set(['$4dsid', '$params'])
/** Names that say a parameter holds a secret. */
const SECRET = /pass|pwd|secret|token|auth|key|session|sid|cookie|credential/i

/** The longest request line and the longest error text written. */
const MAX_TARGET = 500
const MAX_TEXT = 300

export interface ErrorLogOptions {
  /** Write a 500's stack after its line (`--verbose`). */
  readonly stacks: boolean
  /** The time of a line. @default the wall clock */
  readonly now?: () => Date
}

/** The lines for one error answered with `status`: its line, and with `stacks` a 500's stack. */
export function serverErrorLines(
  error: unknown,
  request: RestRequest | undefined,
  status: number,
  options: ErrorLogOptions,
): string[] {
  const time = (options.now?.() ?? new Date()).toISOString()
  const line = `entistore: ${time} ${status} ${requestLine(request)}: ${errorText(error)}`
  const stack = status === 500 && options.stacks && error instanceof Error ? error.stack : undefined
  if (stack === undefined) return [line]
  // The stack's first line is the message, already on the line.
  const frames = stack
    .split('\n')
    .slice(1)
    .map((frame) => `    ${oneLine(frame.trim(), MAX_TEXT)}`)
  return [line, ...frames]
}

/** `GET /rest/Employee?$top=1&$params=…`, or what stands for a request refused before it was read. */
export function requestLine(request: RestRequest | undefined): string {
  if (request === undefined) return '(refused before the request was read)'
  const query = request.query === '' ? '' : `?${maskQuery(request.query)}`
  return oneLine(`${request.method} ${request.path}${query}`, MAX_TARGET)
}

/** The query string with the values of secret parameters replaced with `…`. */
function maskQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0) return pair
      const name = decoded(pair.slice(0, eq)).toLowerCase()
      return HIDDEN.has(name) || SECRET.test(name) ? `${pair.slice(0, eq)}=…` : pair
    })
    .join('&')
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** A DatastoreError as its code and message; anything else as its name and message. */
function errorText(error: unknown): string {
  if (DatastoreError.is(error)) return oneLine(`${error.errCode} ${error.message}`, MAX_TEXT)
  if (error instanceof Error) return oneLine(`${error.name}: ${error.message}`, MAX_TEXT)
  return oneLine(String(error), MAX_TEXT)
}

/** `text` cut to `max` characters, its control characters escaped (`\n` → `\x0a`). */
function oneLine(text: string, max: number): string {
  const clipped = text.length > max ? `${text.slice(0, max - 1)}…` : text
  return clipped.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0)
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`
  })
}
