/**
 * @module What the request log needs of one request, measured at the edge of serve()'s node:http
 * server, for every request it takes (the REST interface, the explorer's page, the health check,
 * and the refusals made before the REST interface saw a request): when it arrived, its reply's
 * status, how long until the reply's last byte was handed to the system, the bytes of its body,
 * and the user of its session. Only when a log is asked for (`onRequestDone`): otherwise serve()
 * never calls it, and a request costs no clock read, closure or string.
 *
 * The reply's body is counted as node:http is given it (`write`, `end`), its session's cookie read
 * where the reply sets it (`writeHead`), its end heard as it is emitted (`emit('close')`):
 * serve()'s responses are then of a class of their own (`tappedResponse`) whose four methods do
 * so before node:http's. The user is the session's after the request (a login's line names who
 * logged in), or, when the request ended its session (a logout), the one it had before.
 */
import {
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
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

/**
 * The class of serve()'s responses when a log is asked for (node:http's `ServerResponse` option):
 * each response counts its own body and keeps its session's cookie as it is written, and calls
 * `done` with its entry once closed (sent, or cut short). A class of its own rather than the
 * response's methods wrapped on each request: three closures and a listener a request, and the
 * responses' changed shapes, were most of what the log cost a GET (issue 66).
 */
export function tappedResponse(
  sessions: () => SessionsServed,
  done: (entry: RequestLogEntry) => void,
): typeof ServerResponse {
  // node:http constructs a response with (req, options); its types name only the request.
  const Response = ServerResponse as unknown as new (
    req: IncomingMessage,
    options?: unknown,
  ) => ServerResponse
  class TappedResponse extends Response {
    // One field on node:http's response, not one for each thing measured: its objects already
    // carry some fifty properties, and each added one grew their property store.
    readonly #tap: Tap

    constructor(req: IncomingMessage, options?: unknown) {
      // Passed as given, not spread from a list: a call a response.
      super(req, options)
      const served = sessions()
      const before = sessionOf(req, served)
      this.#tap = new Tap(served, before, before && userOf(before))
    }

    // The response hears its own 'close' (sent, or cut short) before its listeners: a listener
    // added to every response, and the closure it was, cost a GET more than its line did. Its
    // arguments handed on as they came: a rest list and its spread were an array and a spread
    // call at each of a response's events.
    override emit(event: string | symbol): boolean {
      if (event === 'close') this.#closed()
      return (super.emit as (...a: unknown[]) => boolean).apply(this, arguments as never)
    }

    override writeHead(status: number, reason?: unknown, headers?: unknown): this {
      const given = headers ?? reason
      if (typeof given === 'object' && given !== null)
        this.#tap.setCookie = setCookieOf(given as Headers)
      return (super.writeHead as (...a: unknown[]) => this)(status, reason, headers)
    }

    override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
      this.#tap.bytes += byteLength(chunk, encoding)
      return (super.write as (...a: unknown[]) => boolean)(chunk, encoding, callback)
    }

    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      this.#tap.bytes += byteLength(chunk, encoding)
      return (super.end as (...a: unknown[]) => this)(chunk, encoding, callback)
    }

    #closed(): void {
      const tap = this.#tap
      const req = this.req
      const sent = this.headersSent
      // A reply with no body (HEAD, 204, 304) sends none of what it was given.
      const empty = req.method === 'HEAD' || this.statusCode === 204 || this.statusCode === 304
      const store = tap.sessions.store
      const id = cookieValue(tap.setCookie ?? this.getHeader('set-cookie'), tap.sessions.cookieName)
      const after = id !== undefined ? store.peek(id) : tap.before && store.peek(tap.before.id)
      done({
        at: tap.at,
        method: req.method ?? 'GET',
        target: req.url ?? '',
        status: sent ? this.statusCode : undefined,
        ms: performance.now() - tap.start,
        bytes: sent && !empty ? tap.bytes : 0,
        user: after ? userOf(after) : tap.userBefore,
        complete: this.writableFinished,
      })
    }
  }
  return TappedResponse as unknown as typeof ServerResponse
}

/** What the tap keeps of one response while it is written. */
class Tap {
  readonly at = Date.now()
  readonly start = performance.now()
  /** The bytes of the body handed to node:http so far. */
  bytes = 0
  /** The `set-cookie` given to `writeHead`, if any. */
  setCookie: unknown = undefined

  constructor(
    /** Where the sessions are, as served when the request came. */
    readonly sessions: SessionsServed,
    /** The session the request came with, and its user then (a logout's line names them). */
    readonly before: Session | undefined,
    readonly userBefore: string | undefined,
  ) {}
}

/**
 * The name of the user logged in on `session`. A session of the store's own says whether it ever
 * stored anything: asking its data of one that did not would make its map (a Map and a closure
 * for each anonymous request, most of the garbage the log made).
 */
function userOf(session: Session): string | undefined {
  if ((session as { readonly hasData?: boolean }).hasData === false) return undefined
  return sessionUser(session)?.name
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
    // Its length first: a lower-cased copy of every name of every reply was garbage.
    if (String(name).length === 10 && String(name).toLowerCase() === 'set-cookie') return value
  }
  return undefined
}

/** The value a `Set-Cookie` (one or several) gives cookie `name`; undefined for none or a removal. */
function cookieValue(header: unknown, name: string): string | undefined {
  // Most replies set no cookie: no list made for them.
  if (header === undefined) return undefined
  const all = Array.isArray(header) ? header : [header]
  for (const cookie of all) {
    const text = String(cookie)
    if (text.charCodeAt(name.length) !== 0x3d || !text.startsWith(name)) continue
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
