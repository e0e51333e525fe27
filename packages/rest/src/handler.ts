/**
 * @module The REST handler: `fetch(Request) → Promise<Response>`, the shape Hono, Bun, Deno, workers
 * and Node's own fetch all share. Framework shims (node:http in ./node) only convert to and from it.
 *
 * Per request: resolve the session from the `4DSID_<app>` cookie, parse the URL, route to the core,
 * render JSON. Every failure becomes an `__ERROR` body: user errors are 4xx, never 5xx.
 */
import { fail, type Datastore, type Session } from '@entistore/core'
import { toErrorReply } from './errors/to-error-body.js'
import { ALLOWED_METHODS, route, type Reply } from './route.js'
import { EntityWriter } from './serialize/entity.js'
import { Uris } from './serialize/uris.js'
import { readCookie, sessionCookieName, sessionSetCookie } from './sessions/cookie.js'
import { readParams, type RestParams } from './url/params.js'
import { parseRestUrl, type RestTarget } from './url/parse-rest-url.js'
import { parseQueryString } from './url/query-string.js'

export interface RestHandlerOptions {
  /** Where the interface is mounted. @default '/rest' */
  readonly basePath?: string
  /** The session cookie's name. @default `4DSID_<application name>` */
  readonly sessionCookieName?: string
  /** Largest `$top`/`$limit` accepted; a larger one is refused with 400. @default 100_000 */
  readonly maxTop?: number
  /** Called with every error that became a 5xx (bugs), for logging. */
  readonly onInternalError?: (error: unknown, request: Request) => void
}

export interface RestHandler {
  /** Answers one request. Never rejects: every failure is an `__ERROR` response. */
  fetch(request: Request): Promise<Response>
  /** Test helper: `request('/rest/$catalog')` without a server (Hono's `app.request`). */
  request(path: string, init?: RequestInit): Promise<Response>
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

export function createRestHandler(ds: Datastore, options: RestHandlerOptions = {}): RestHandler {
  const basePath = (options.basePath ?? '/rest').replace(/\/+$/, '')
  const cookieName = options.sessionCookieName ?? sessionCookieName(ds.name)
  const maxTop = options.maxTop ?? 100_000
  const uris = new Uris(basePath)
  const writer = new EntityWriter(uris)

  const errorReply = (error: unknown, request: Request): Reply => {
    const reply = toErrorReply(error)
    if (reply.status >= 500) options.onInternalError?.(error, request)
    return reply
  }

  type Read = { target: RestTarget; params: RestParams } | { error: unknown }
  const readRequest = (request: Request): Read => {
    try {
      const url = new URL(request.url)
      const parsed = parseRestUrl(url.pathname, url.search.slice(1), basePath)
      if (!parsed) fail('UnknownResource', [url.pathname])
      return {
        target: parsed.target,
        params: readParams(parseQueryString(parsed.search), { maxTop }),
      }
    } catch (error) {
      return { error }
    }
  }

  const answer = (request: Request, session: Session, read: Read): Reply => {
    if ('error' in read) return errorReply(read.error, request)
    try {
      const method = request.method === 'HEAD' ? 'GET' : request.method
      return route({ ds, uris, writer, session, method, ...read })
    } catch (error) {
      return errorReply(error, request)
    }
  }

  const handler: RestHandler = {
    async fetch(request) {
      // A CORS preflight or a capability probe: say which methods exist, open no session.
      if (request.method === 'OPTIONS') {
        return new Response(null, { status: 204, headers: { allow: ALLOWED_METHODS } })
      }
      const read = readRequest(request)
      // The cookie, else the reserved $4DSID parameter read like every other one (any case, quotes
      // removed, also when written in the path): so the URL is parsed before the session is resumed.
      const sid =
        readCookie(request.headers.get('cookie'), cookieName) ??
        ('params' in read ? read.params.sessionId : undefined)
      const { session, created } = ds.sessions.resume(sid)
      const reply = answer(request, session, read)
      const headers = new Headers(JSON_HEADERS)
      if (created) headers.append('set-cookie', sessionSetCookie(cookieName, session.id, '/'))
      if (reply.status === 405) headers.set('allow', ALLOWED_METHODS)
      const body = request.method === 'HEAD' ? null : JSON.stringify(reply.body)
      return new Response(body, { status: reply.status, headers })
    },
    request(path, init) {
      // A path is appended to the origin, not resolved against it: `//x/rest` is a path, not a host.
      const url = path.startsWith('/')
        ? `http://localhost${path}`
        : new URL(path, 'http://localhost')
      return handler.fetch(new Request(url, init))
    },
  }
  return handler
}
