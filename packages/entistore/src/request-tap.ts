/**
 * @module What the request log needs of one request, measured at the edge of serve()'s node:http
 * server, for every request it takes (the REST interface, the explorer's page, the health check,
 * and the refusals made before the REST interface saw a request): when it arrived, its reply's
 * status, how long until the reply's last byte was handed to the system, the bytes of its body,
 * and the user of its session. Only when a log is asked for (`onRequestDone`): otherwise serve()
 * never calls it, and a request costs no clock read, closure or string.
 *
 * The reply's body is counted as node:http is given it (`write`, `end`), its session's cookie read
 * where the reply sets it (`writeHead`): the response's own three methods are wrapped, on that
 * response only. The user is the session's after the request (a login's line names who logged
 * in), or, when the request ended its session (a logout), the one it had before.
 */
import type {
  IncomingMessage,
  OutgoingHttpHeader,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http'
import type { Session, SessionStoreApi } from '@entistore/core'
import { readCookie, readRequestNames, sessionUser } from '@entistore/rest'
import type { RequestLogEntry } from './request-log.js'

/** Where the sessions of the datastore served now are, and how a request names its own. */
export interface SessionsServed {
  readonly store: SessionStoreApi
  /** The session cookie's name (`4DSID_<datastore>`). */
  readonly cookieName: string
  /** The REST interface's base path, to read a `$4DSID` given in the URL. */
  readonly basePath: string
}

type Headers = OutgoingHttpHeaders | readonly OutgoingHttpHeader[] | undefined

/** Calls `done` with `req`'s entry once `res` is closed (sent, or cut short). */
export function tapRequest(
  req: IncomingMessage,
  res: ServerResponse,
  sessions: SessionsServed,
  done: (entry: RequestLogEntry) => void,
): void {
  const at = Date.now()
  const start = performance.now()
  const before = sessionOf(req, sessions)
  const userBefore = before && sessionUser(before)?.name
  let bytes = 0
  let setCookie: unknown
  const { writeHead, write, end } = res
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.at(-1)
    if (typeof headers === 'object' && headers !== null) setCookie = setCookieOf(headers as Headers)
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as ServerResponse['writeHead']
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    bytes += byteLength(chunk, rest[0])
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest)
  } as ServerResponse['write']
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    bytes += byteLength(chunk, rest[0])
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest)
  } as ServerResponse['end']
  res.once('close', () => {
    const ms = performance.now() - start
    const sent = res.headersSent
    // A reply with no body (HEAD, 204, 304) sends none of what it was given.
    const empty = req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304
    const id = cookieValue(setCookie ?? res.getHeader('set-cookie'), sessions.cookieName)
    const after =
      id !== undefined ? sessions.store.peek(id) : before && sessions.store.peek(before.id)
    done({
      at,
      method: req.method ?? 'GET',
      target: req.url ?? '',
      status: sent ? res.statusCode : undefined,
      ms,
      bytes: sent && !empty ? bytes : 0,
      user: after ? sessionUser(after)?.name : userBefore,
      complete: res.writableFinished,
    })
  })
}

/** The live session a request comes with: its cookie's, else the `$4DSID` of its URL. */
function sessionOf(req: IncomingMessage, sessions: SessionsServed): Session | undefined {
  const header = req.headers.cookie
  const cookie = readCookie(header, sessions.cookieName)
  if (cookie !== undefined) return sessions.store.peek(cookie)
  const target = req.url ?? ''
  if (!/4dsid/i.test(target)) return undefined
  const q = target.indexOf('?')
  const { sessionId } = readRequestNames(
    {
      method: req.method ?? 'GET',
      path: q < 0 ? target : target.slice(0, q),
      query: q < 0 ? '' : target.slice(q + 1),
    },
    sessions.basePath,
  )
  return sessionId === undefined ? undefined : sessions.store.peek(sessionId)
}

/** The `set-cookie` value among headers given to `writeHead`, as an object or a flat list. */
function setCookieOf(headers: Headers): unknown {
  if (headers === undefined) return undefined
  if (!Array.isArray(headers)) return (headers as OutgoingHttpHeaders)['set-cookie']
  // A flat list of names and values (the REST listener's), or a list of pairs.
  const pairs = Array.isArray(headers[0])
  for (let i = 0; i < headers.length; i += pairs ? 1 : 2) {
    const [name, value] = pairs ? (headers[i] as unknown[]) : [headers[i], headers[i + 1]]
    if (String(name).toLowerCase() === 'set-cookie') return value
  }
  return undefined
}

/** The value a `Set-Cookie` (one or several) gives cookie `name`; undefined for none or a removal. */
function cookieValue(header: unknown, name: string): string | undefined {
  const all = Array.isArray(header) ? header : header === undefined ? [] : [header]
  for (const cookie of all) {
    const text = String(cookie)
    if (!text.startsWith(`${name}=`)) continue
    const value = text
      .slice(name.length + 1)
      .split(';', 1)[0]!
      .trim()
    return value === '' ? undefined : value
  }
  return undefined
}

/** The bytes of a chunk given to `write` or `end` (a callback counts none). */
function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string')
    return Buffer.byteLength(
      chunk,
      typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
    )
  if (chunk instanceof Uint8Array) return chunk.byteLength
  return 0
}
