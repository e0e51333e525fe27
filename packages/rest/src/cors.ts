/**
 * @module CORS for browser clients, opt-in (`createRestHandler(ds, { cors })`). A wrapper around
 * the core: a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is
 * answered with what the interface accepts, and every other reply to an allowed origin carries
 * `Access-Control-Allow-Origin` (the origin itself, never `*`, so that credentials can be allowed).
 * A request from an origin that is not allowed gets the reply it gets today, with no CORS header: the
 * browser then keeps the reply from the page. Replies say `Vary: Origin`, since they depend on it.
 */
import {
  bodyLimitOf,
  isPending,
  type RestCore,
  type RestHeaders,
  type RestReply,
  type RestRequest,
} from './exchange.js'
import { ALLOWED_METHODS } from './reply.js'

export interface CorsOptions {
  /**
   * The origins allowed (`https://app.example.com`, as a browser sends it in `Origin`): one, a list,
   * `'*'` for any, or a function that decides.
   */
  readonly origin: string | readonly string[] | ((origin: string) => boolean)
  /** Whether a browser may send cookies (the session) and the login headers. @default false */
  readonly credentials?: boolean
  /** How long, in seconds, a browser may keep a preflight's answer. @default none (the browser's) */
  readonly maxAge?: number
}

/** The request headers a page may send: JSON bodies, and the real server's login headers. */
export const CORS_ALLOWED_HEADERS = 'content-type, username-4D, password-4D, session-4D-length'

function header(headers: RestHeaders, name: string): string | undefined {
  const v = headers[name]
  return Array.isArray(v) ? v[0] : v
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

/** `core` with CORS headers on its replies for the origins `options` allow. */
export function withCors(core: RestCore, options: CorsOptions): RestCore {
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
    options.credentials
      ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' }
      : { 'access-control-allow-origin': origin }

  /** `reply`, to `request`, with the CORS headers its origin gets. */
  const withHeaders = (request: RestRequest, reply: RestReply): RestReply => {
    const origin = header(request.headers, 'origin')
    if (origin === undefined || !allows(options.origin, origin)) return add(reply, {})
    const preflight =
      request.method === 'OPTIONS' &&
      header(request.headers, 'access-control-request-method') !== undefined
    if (!preflight) return add(reply, allowed(origin))
    return add(reply, {
      ...allowed(origin),
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      ...(maxAge !== undefined ? { 'access-control-max-age': maxAge } : {}),
    })
  }

  return {
    maxBodyBytes: core.maxBodyBytes,
    bodyLimit: (path) => bodyLimitOf(core, path),
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
    // A refusal before `respond` (a body too large) has no request to read an origin from.
    refuse: (error) => add(core.refuse(error), {}),
  }
}
