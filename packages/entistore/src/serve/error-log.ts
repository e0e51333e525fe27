/**
 * @module What `entistore serve` writes on stderr for each reply of status 500 or more (the REST
 * handler's `onServerError`): one line with the time, the status, the request line and what went
 * wrong, so that an operator sees every failure and which request met it:
 *
 *     entistore: 2026-11-23T10:00:00.000Z 500 GET /rest/$catalog/report?$top=1: TypeError: boom
 *     entistore: 2026-11-23T10:00:30.000Z 504 POST /rest/$catalog/sync: 9106 The function "sync" did not answer within 30000 ms, …
 *
 * With `--verbose`, a 500's stack follows its line, indented. The request line is method, path and
 * query with every secret masked (masked-target.ts). Lines are cut to a readable length.
 */
import { DatastoreError } from '@entistore/core'
import type { RestRequest } from '@entistore/rest'
import { maskedTarget, oneLine } from './masked-target.js'

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
  return oneLine(
    `${request.method} ${maskedTarget(request.path, request.query, MAX_TARGET)}`,
    MAX_TARGET,
  )
}

/** A DatastoreError as its code and message; anything else as its name and message. */
function errorText(error: unknown): string {
  if (DatastoreError.is(error)) return oneLine(`${error.errCode} ${error.message}`, MAX_TEXT)
  if (error instanceof Error) return oneLine(`${error.name}: ${error.message}`, MAX_TEXT)
  return oneLine(String(error), MAX_TEXT)
}
