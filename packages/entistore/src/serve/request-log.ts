/**
 * @module The request log of `entistore serve`: one line for each request once its reply is sent
 * (serve.ts's `onRequestDone` measures it: request-tap.ts), on stdout beside the URL line, in text
 * for a person or in JSON for a program (`--log json`), none with `--quiet`:
 *
 *     GET /rest/Employee(1) 200 0.41 ms 312 B ada
 *     POST /rest/$directory/login 200 1.9 ms 15 B ada
 *     GET /rest/Employee?$filter=… 404 0.22 ms 187 B -
 *     GET /rest/Employee?_sort=salary 400 0.19 ms 301 B - (json-server parameters: _sort)
 *     {"time":"2026-11-23T10:00:00.000Z","method":"GET","url":"/rest/Employee(1)","status":200,"ms":0.41,"bytes":312,"user":"ada"}
 *
 * The URL is masked as the 5xx lines' is (masked-target.ts): no header, no body, no secret in the
 * query. `bytes` counts the reply's body, not its headers. A reply cut short (its client went
 * away, the server stopped) ends with `(cut off)` (`"complete": false`), and its status is `-`
 * (`null`) if none was sent. A line is short (its URL is cut at 500 characters), so that the
 * writes of whole lines (line-batch.ts) keep it whole however many processes share the output
 * (`--workers`).
 */
import { jsonServerNamesOf } from '@entistore/rest'
import { maskedTarget, oneLine } from './masked-target.js'

/** One answered request, as serve() measured it. */
export interface RequestLogEntry {
  /** When the request arrived, in epoch milliseconds. */
  readonly at: number
  readonly method: string
  /** The request target as sent (`/rest/Employee?$top=1`): mask it before writing it anywhere. */
  readonly target: string
  /** The status sent, or undefined when the reply was cut off before its head was sent. */
  readonly status: number | undefined
  /** From the request's arrival to its reply's last byte handed to the system, in milliseconds. */
  readonly ms: number
  /** The bytes of the reply's body. */
  readonly bytes: number
  /** The name of the user logged in on the request's session, if any. */
  readonly user: string | undefined
  /** False when the connection ended before the reply did. */
  readonly complete: boolean
}

export type RequestLogFormat = 'text' | 'json'

/** The methods a line writes as they are, without looking into them. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const MAX_TARGET = 500
const MAX_USER = 100
const MAX_HABITS = 8

/**
 * `ms` as a person reads it: two decimals under 100 ms, whole milliseconds above. Hundredths
 * counted in integers: `toFixed` converts a double exactly, the costliest part of a line.
 */
export function milliseconds(ms: number): string {
  if (!(ms < 99.995)) return String(Math.round(ms))
  const hundredths = Math.round(ms * 100)
  const cents = hundredths % 100
  return `${(hundredths - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`
}

/**
 * The json-server parameters of a request refused for them (400, 9023: rest's json-server-habits.ts),
 * so that the log says why a read a front-end developer wrote failed; only a 400's query is read.
 */
function habitsOf(entry: RequestLogEntry): string[] | undefined {
  if (entry.status !== 400) return undefined
  const names = jsonServerNamesOf(entry.target)
  if (names.length === 0) return undefined
  // A line stays short however many a URL crafted sends.
  const shown = names.slice(0, MAX_HABITS).map((name) => oneLine(name, 40))
  return names.length > MAX_HABITS ? [...shown, '…'] : shown
}

/**
 * The line of one request. `worker`: the worker's number under `--workers` (a text line then
 * starts as the primary's other worker lines do, `[worker 2] `; a JSON line has a `worker` field).
 */
export function requestLogLine(
  entry: RequestLogEntry,
  format: RequestLogFormat,
  worker?: number,
): string {
  const query = entry.target.indexOf('?')
  const url =
    query < 0
      ? maskedTarget(entry.target, '', MAX_TARGET)
      : maskedTarget(entry.target.slice(0, query), entry.target.slice(query + 1), MAX_TARGET)
  const user = entry.user === undefined ? undefined : oneLine(entry.user, MAX_USER)
  const method = METHODS.has(entry.method) ? entry.method : oneLine(entry.method, 20)
  const habits = habitsOf(entry)
  if (format === 'json')
    return JSON.stringify({
      time: new Date(entry.at).toISOString(),
      ...(worker === undefined ? {} : { worker }),
      method,
      url,
      status: entry.status ?? null,
      ms: Math.round(entry.ms * 1000) / 1000,
      bytes: entry.bytes,
      user: user ?? null,
      ...(entry.complete ? {} : { complete: false }),
      ...(habits === undefined ? {} : { jsonServer: habits }),
    })
  const line =
    `${method} ${url} ${entry.status ?? '-'} ${milliseconds(entry.ms)} ms ${entry.bytes} B ` +
    `${user ?? '-'}${entry.complete ? '' : ' (cut off)'}` +
    (habits === undefined ? '' : ` (json-server parameters: ${habits.join(', ')})`)
  return worker === undefined ? line : `[worker ${worker}] ${line}`
}
