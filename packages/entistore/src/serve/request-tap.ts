/**
 * @module What the request log needs of one request, measured at the edge of serve()'s node:http
 * server, for every request it takes (the REST interface, the explorer's page, the health check,
 * and the refusals made before the REST interface saw a request): when it arrived, its reply's
 * status, how long until the reply's last byte was handed to the system, the bytes of its body,
 * and the user of its session. Only when a log is asked for (`onRequestDone`): otherwise serve()
 * never calls it, and a request costs no clock read, closure or string.
 *
 * The reply's body is counted as node:http is given it (`write`, `end`; a body handed whole at the
 * length its head declared is not measured again), its session's cookie read where the reply sets
 * it (`writeHead`): serve()'s responses are then of a class of their own (`tappedResponse`) whose
 * three methods do so before node:http's. Its entry is read once it is
 * closed, by the 'close' listener serve() has on every response (`entryOf`). The user is the
 * session's after the request (a login's line names who logged in), or, when the request ended
 * its session (a logout), the one it had before.
 */
import type {
  IncomingMessage,
  OutgoingHttpHeader,
  OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http'
import type { Session, SessionStoreApi } from '@entistore/core'
import { readCookie, readRequestNames, sessionUser } from '@entistore/rest'
import { http } from '../node-http.js'
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
 * each response keeps when it began, counts its own body and keeps its session's cookie as it is
 * written; serve()'s own 'close' listener, which every response has, then asks `entryOf`. The
 * least that measures a reply: a class of its own rather than the response's methods wrapped on
 * each request (three closures and a listener a request, and the responses' changed shapes, were
 * most of what the log first cost a GET), three fields set in its constructor (one shape for all),
 * and no hook on `emit`, which node:http calls several times a reply (issue 66).
 */
export function tappedResponse(sessions: () => SessionsServed): typeof ServerResponse {
  class TappedResponse extends Tapped {
    constructor(req: IncomingMessage, options?: unknown) {
      // Passed as given, not spread from a list: a call a response.
      super(req, options)
      // Most requests come with no session: no cookie, no `$4DSID` in their URL.
      if (req.headers.cookie === undefined && !namesSessionId(req.url)) return
      const before = sessionOf(req, sessions())
      if (before === undefined) return
      this.before = before.id
      this.userBefore = userOf(before)
    }
  }
  return TappedResponse as unknown as typeof ServerResponse
}

/**
 * Whether a URL may name a session (`$4DSID`, `%244DSID`, any case): a `4` then a `d` found
 * first, without the regex, which most URLs (no such pair) then never run.
 */
function namesSessionId(url: string | undefined): boolean {
  if (url === undefined) return false
  for (let at = url.indexOf('4'); at >= 0; at = url.indexOf('4', at + 1)) {
    const next = url.charCodeAt(at + 1)
    if (next === 0x64 || next === 0x44) return /4dsid/i.test(url)
  }
  return false
}

// node:http constructs a response with (req, options); its types name only the request.
const Response = http.ServerResponse as unknown as new (
  req: IncomingMessage,
  options?: unknown,
) => ServerResponse

/** A response that measures itself (see `tappedResponse`); `entryOf` reads it. */
class Tapped extends Response {
  /** When it began (performance.now()). */
  readonly start = performance.now()
  /** The bytes of the body handed to node:http so far. */
  bytes = 0
  /**
   * The body's length its head declared (`content-length` given to `writeHead`), -1 for none: a
   * body handed whole to `end` is not measured again (the REST interface's replies, whose length
   * it measured to declare it).
   */
  declared = -1
  /** The `set-cookie` given to `writeHead`, if any. */
  setCookie: unknown = undefined
  /** The session the request came with, and its user then (a logout's line names them). */
  before: string | undefined = undefined
  userBefore: string | undefined = undefined

  override writeHead(status: number, reason?: unknown, headers?: unknown): this {
    const given = headers ?? reason
    if (typeof given === 'object' && given !== null) this.#read(given as Headers)
    return (super.writeHead as (...a: unknown[]) => this)(status, reason, headers)
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    this.bytes += byteLength(chunk, encoding)
    return (super.write as (...a: unknown[]) => boolean)(chunk, encoding, callback)
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    // The whole body in one call, of the length declared: counted without a pass over it.
    if (this.bytes === 0 && this.declared >= 0 && chunk != null && typeof chunk !== 'function')
      this.bytes = this.declared
    else this.bytes += byteLength(chunk, encoding)
    return (super.end as (...a: unknown[]) => this)(chunk, encoding, callback)
  }

  /** Reads `set-cookie` and `content-length` among the headers given to `writeHead`. */
  #read(headers: Headers): void {
    if (!Array.isArray(headers)) {
      // An object, its names in any case.
      const object = headers as OutgoingHttpHeaders
      for (const name in object) this.#header(name, object[name])
      return
    }
    // A list of pairs, or a flat list of names and values (the REST listener's, in lower case).
    const pairs = Array.isArray(headers[0])
    const list = headers as readonly unknown[]
    for (let i = 0; i < list.length; i += pairs ? 1 : 2) {
      if (pairs)
        this.#header((list[i] as readonly unknown[])[0], (list[i] as readonly unknown[])[1])
      else this.#header(list[i], list[i + 1])
    }
  }

  #header(name: unknown, value: unknown): void {
    if (isNamed(name, 'set-cookie')) this.setCookie = value
    else if (isNamed(name, 'content-length')) this.declared = lengthOf(value)
  }
}

/** A `content-length` value as a number of bytes, -1 for none or one that is not. */
function lengthOf(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN
  return Number.isSafeInteger(n) && n >= 0 ? n : -1
}

// Its length first: a lower-cased copy of every name of every reply was garbage. The REST
// listener's names are lower case already: found without a copy.
const isNamed = (name: unknown, lower: string): boolean => {
  if (name === lower) return true
  const text = typeof name === 'string' ? name : String(name)
  return text.length === lower.length && text.toLowerCase() === lower
}

// Read once: a getter's call a request.
const TIME_ORIGIN = performance.timeOrigin

/** Hands `done` the entry of `res` once closed, if it is a logging server's. */
export function logClosed(
  res: ServerResponse,
  sessions: SessionsServed,
  done: (entry: RequestLogEntry) => void,
): void {
  const entry = entryOf(res, sessions)
  if (entry !== undefined) done(entry)
}

/**
 * The log's entry of `res` once closed (sent, or cut short), or undefined for a response of no
 * logging server. `sessions`: where the sessions are now.
 */
function entryOf(res: ServerResponse, sessions: SessionsServed): RequestLogEntry | undefined {
  if (!(res instanceof Tapped)) return undefined
  const req = res.req
  const sent = res.headersSent
  // A reply with no body (HEAD, 204, 304) sends none of what it was given.
  const status = res.statusCode
  const empty = req.method === 'HEAD' || status === 204 || status === 304
  const id =
    cookieValue(res.setCookie ?? res.getHeader('set-cookie'), sessions.cookieName) ?? res.before
  const after = id === undefined ? undefined : sessions.store.peek(id)
  return {
    at: TIME_ORIGIN + res.start,
    method: req.method ?? 'GET',
    target: req.url ?? '',
    status: sent ? status : undefined,
    ms: performance.now() - res.start,
    bytes: sent && !empty ? res.bytes : 0,
    // The session's user after the request (a login's line names who logged in), or, when the
    // request ended its session (a logout), the one it had before.
    user: after ? userOf(after) : res.userBefore,
    complete: res.writableFinished,
  }
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
  if (!namesSessionId(target)) return undefined
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

/** The value a `Set-Cookie` (one or several) gives cookie `name`; undefined for none or a removal. */
function cookieValue(header: unknown, name: string): string | undefined {
  // Most replies set no cookie: no list made for them.
  if (header === undefined) return undefined
  if (!Array.isArray(header)) return valueIn(String(header), name) ?? undefined
  for (const cookie of header as readonly unknown[]) {
    const value = valueIn(String(cookie), name)
    if (value !== null) return value
  }
  return undefined
}

/** The value one `Set-Cookie` gives cookie `name`: undefined for a removal, null for another cookie. */
function valueIn(cookie: string, name: string): string | undefined | null {
  if (cookie.charCodeAt(name.length) !== 0x3d || !cookie.startsWith(name)) return null
  const end = cookie.indexOf(';', name.length + 1)
  const value = cookie.slice(name.length + 1, end < 0 ? cookie.length : end).trim()
  return value === '' ? undefined : value
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
