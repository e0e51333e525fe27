/**
 * @module CORS for browser clients, opt-in (`createRestHandler(ds, { cors })`, `serve --cors`). A
 * wrapper around the core: a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an
 * allowed origin lets through the method and headers it asks for (the interface then answers them
 * itself: a `PATCH` gets its clear 405, which the page can read, not an opaque CORS failure), and
 * every other reply to an allowed origin, errors included, carries `Access-Control-Allow-Origin`
 * and `Access-Control-Expose-Headers` (the headers a client reads that a browser hides from a page
 * unless told). A request from an origin that is not allowed gets the reply it gets today, with no
 * CORS header: the browser then keeps the reply from the page, and `onNotice` hears of the origin
 * (cors-notices.ts). Replies say `Vary: Origin`, since they depend on it.
 *
 * Named origins (one, a list, a function) are echoed, so that credentials (the session cookie) may
 * go with them, and a preflight that asks for Chrome's private network access gets it. `'*'` is the
 * wildcard browsers define: any page may read, none with credentials (a browser refuses a
 * credentialed reply to `*`, and any site reading with the user's cookie is what CORS is there to
 * prevent), and never private network access, which would let any public page read a server on the
 * developer's machine.
 */
import {
  bodyLimitOf,
  isPending,
  type RestCore,
  type RestReply,
  type RestRequest,
} from './exchange.js'
import { ALLOWED_METHODS } from './reply.js'
import {
  cookieNotice,
  header,
  oncePerOrigin,
  sameOrigin,
  withCookieHint,
  type CorsNotice,
} from './cors-notices.js'

export interface CorsOptions {
  /**
   * The origins allowed (`https://app.example.com`, as a browser sends it in `Origin`): one, a list,
   * a function that decides (`isLoopbackOrigin`: the pages on this machine), or `'*'` for any page,
   * answered without credentials or private network access.
   */
  readonly origin: string | readonly string[] | ((origin: string) => boolean)
  /**
   * Whether a browser may send cookies (the session) and the login headers. Not with `'*'` (a
   * TypeError when the handler is made). @default false
   */
  readonly credentials?: boolean
  /** How long, in seconds, a browser may keep a preflight's answer. @default none (the browser's) */
  readonly maxAge?: number
  /**
   * Told once per origin (the first few dozen) what a browser hides from the page and the server's
   * log alike: an origin refused, a cookie sent to a page on another site (cors-notices.ts).
   */
  readonly onNotice?: (notice: CorsNotice) => void
}

/**
 * The request headers a page may send: JSON bodies, the real server's login headers, an
 * `Authorization` an embedder's `authenticate` may read, and the conditional and resuming headers
 * of a picture's cache (`If-None-Match`) and of a live feed read with fetch (`Last-Event-ID`).
 */
export const CORS_ALLOWED_HEADERS =
  'content-type, username-4D, password-4D, session-4D-length, authorization, if-none-match, last-event-id'

/**
 * The reply headers a page may read besides the ones browsers always show (`Content-Type`,
 * `Content-Length`, `Cache-Control`…): what the interface sends for a client to act on. A file's
 * name (`Content-Disposition`), a picture's version (`ETag`), when to try again after a 503 or a
 * 429 (`Retry-After`), the methods a 405 names (`Allow`). `Content-Type` is named too, for clients
 * that read the list. The session is a cookie, which no page can read (`Set-Cookie` is never
 * exposed; the browser sends the cookie back by itself with `credentials: 'include'`); the
 * interface sends no `Location`. Headers a function's `OutgoingMessage` sets are added reply by
 * reply (`exposedHeaders`).
 */
export const CORS_EXPOSED_HEADERS = 'content-type, content-disposition, etag, retry-after, allow'

/**
 * Headers not worth naming: listed already, or never for a page to read (the cookie; directives to
 * the browser or a proxy).
 */
const NOT_EXPOSED = new Set([
  ...CORS_EXPOSED_HEADERS.split(', '),
  'set-cookie',
  'vary',
  'connection',
  'content-length',
  'cache-control',
  'content-security-policy',
  'x-content-type-options',
  'x-accel-buffering',
])

/** What `reply` lets a page read: the usual list, and any other header the reply carries. */
export function exposedHeaders(reply: RestReply): string {
  let more: string | undefined
  for (const name in reply.headers)
    if (!NOT_EXPOSED.has(name) && !name.startsWith('access-control-'))
      more = more === undefined ? name : `${more}, ${name}`
  return more === undefined ? CORS_EXPOSED_HEADERS : `${CORS_EXPOSED_HEADERS}, ${more}`
}

/**
 * Whether `origin` is a page on this machine: `http` or `https`, on `localhost`, `127.0.0.1` or
 * `[::1]`, any port, as a browser writes it in `Origin` (lower case, no path). Other names of this
 * machine (`app.localhost`, `127.0.0.2`, its network address) are not: list them.
 */
export function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK.test(origin)
}

const LOOPBACK = /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/

/** An HTTP token (RFC 9110): a method's or a header's name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/**
 * `listed`, with the names a preflight `asked` for (`Access-Control-Request-Method` or `-Headers`)
 * that it lacks: a browser lets a request through only when all are granted. The interface answers
 * what it does not take (a 405 for a method, nothing for a header it ignores), as it answers curl.
 * Headers are compared in lower case, methods as written (`patch` is not `PATCH`).
 */
function granted(listed: string, asked: string | undefined, fold: boolean): string {
  if (asked === undefined) return listed
  const have = new Set(listed.split(', ').map((n) => (fold ? n.toLowerCase() : n)))
  let out = listed
  for (const raw of asked.split(',')) {
    const name = fold ? raw.trim().toLowerCase() : raw.trim()
    if (!TOKEN.test(name) || have.has(name)) continue
    have.add(name)
    out = `${out}, ${name}`
  }
  return out
}

/** Whether `origin` is allowed by the option; a function that throws allows nothing. */
function allows(option: CorsOptions['origin'], origin: string): boolean {
  if (typeof option === 'function') {
    try {
      return option(origin) === true
    } catch {
      return false
    }
  }
  if (typeof option === 'string') return option === '*' || option === origin
  return option.includes(origin)
}

/**
 * `core` with CORS headers on its replies for the origins `options` allow.
 * @throws TypeError for `'*'` with credentials
 */
export function withCors(core: RestCore, options: CorsOptions): RestCore {
  const any = options.origin === '*'
  if (any && options.credentials)
    throw new TypeError(
      "cors: origin '*' cannot go with credentials: any site could read the replies with the " +
        "user's session; name the origins (a list, or a function such as isLoopbackOrigin)",
    )
  const maxAge =
    options.maxAge !== undefined && Number.isFinite(options.maxAge)
      ? String(Math.max(0, Math.floor(options.maxAge)))
      : undefined
  const add = (reply: RestReply, extra: Record<string, string>): RestReply => {
    const vary = reply.headers.vary
    return {
      status: reply.status,
      headers: { ...reply.headers, ...extra, vary: vary ? `${String(vary)}, origin` : 'origin' },
      body: reply.body,
    }
  }
  const allowed = (origin: string): Record<string, string> =>
    any
      ? { 'access-control-allow-origin': '*' }
      : options.credentials
        ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' }
        : { 'access-control-allow-origin': origin }

  const notify = options.onNotice === undefined ? undefined : oncePerOrigin(options.onNotice)
  /** `reply`, to a request with these headers, with the CORS headers its origin gets. */
  const withHeaders = (
    request: Pick<RestRequest, 'headers'> & Partial<Pick<RestRequest, 'method'>>,
    reply: RestReply,
  ): RestReply => {
    const origin = header(request.headers, 'origin')
    if (origin === undefined) return add(reply, {})
    if (!allows(options.origin, origin)) {
      // A browser sends Origin with a page's own writes too: those need no CORS.
      if (!sameOrigin(origin, request.headers)) notify?.({ kind: 'refused', origin })
      return add(reply, {})
    }
    const preflight =
      request.method === 'OPTIONS' &&
      header(request.headers, 'access-control-request-method') !== undefined
    if (!preflight) {
      // Only a page sending credentials keeps a cookie, or should have sent one.
      const cookies = options.credentials === true
      const notice = cookies && notify ? cookieNotice(reply, request, origin) : undefined
      if (notice) notify!(notice)
      const answer = cookies ? withCookieHint(reply, request, origin) : reply
      return add(answer, {
        ...allowed(origin),
        'access-control-expose-headers': exposedHeaders(answer),
      })
    }
    return add(reply, {
      ...allowed(origin),
      'access-control-allow-methods': granted(
        ALLOWED_METHODS,
        header(request.headers, 'access-control-request-method'),
        false,
      ),
      'access-control-allow-headers': granted(
        CORS_ALLOWED_HEADERS,
        header(request.headers, 'access-control-request-headers'),
        true,
      ),
      ...(maxAge !== undefined ? { 'access-control-max-age': maxAge } : {}),
      // Chrome's Private Network Access: a page on a public address (a deployed preview) asks
      // before it calls a server on the developer's machine; an origin named may, '*' never.
      ...(!any && header(request.headers, 'access-control-request-private-network') === 'true'
        ? { 'access-control-allow-private-network': 'true' }
        : {}),
    })
  }

  return {
    maxBodyBytes: core.maxBodyBytes,
    bodyLimit: (path) => bodyLimitOf(core, path),
    ...(core.handles ? { handles: (path: string) => core.handles!(path) } : {}),
    respond(request: RestRequest): RestReply | Promise<RestReply> {
      const reply = core.respond(request)
      if (!isPending(reply)) return withHeaders(request, reply)
      // An async function's reply gets the same headers once it settles; should the core's
      // Promise reject (it must not), its 500 still reaches the page, which may then read it.
      return reply.then(
        (settled) => withHeaders(request, settled),
        (error: unknown) => withHeaders(request, core.refuse(error)),
      )
    },
    // A refusal before `respond` (a body too large, a chaos listener's 503) reaches the page when
    // the transport says whose request it was; without its headers there is no origin to answer.
    refuse: (error, request) =>
      request === undefined
        ? add(core.refuse(error), {})
        : withHeaders({ headers: request.headers }, core.refuse(error, request)),
  }
}
