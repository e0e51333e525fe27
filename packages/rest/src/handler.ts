/**
 * @module The REST handler. Its core, `respond`, takes a plain request (method, path, query,
 * headers, body) and returns a plain reply, synchronously (exchange.ts): every transport is a thin
 * mapping onto it. `fetch(Request) → Promise<Response>`, the shape Hono, Bun, Deno and workers
 * share, is one (fetch/); the node:http listener is another (node/).
 *
 * Per request: resolve the session from the `4DSID_<app>` cookie, parse the URL (or find the HTTP
 * request handler that takes a path outside the interface), route to the core, render JSON; the
 * HTTP rules (web-server/http-rules.ts) see every reply last. Every failure becomes an `__ERROR` body: user errors are 4xx, never 5xx, and a 5xx
 * never carries the error's own text.
 */
import {
  accessRule,
  Actor,
  DatastoreError,
  datastoreError,
  fail,
  randomId,
  runActor,
  runAsProcess,
  type Datastore,
  type Session,
  type SliceScope,
} from '@entistore/core'
import { readJsonBody } from './body/read-json-body.js'
import { withCors, type CorsOptions } from './cors.js'
import { isReported, toErrorReply } from './errors/to-error-body.js'
import {
  bodyLimitOf,
  isPending,
  isStream,
  type RestStream,
  type RestBody,
  type RestCore,
  type RestReply,
  type RestRequest,
} from './exchange.js'
import { toFetchHandler } from './fetch/fetch-handler.js'
import { callLimits } from './call/call-limits.js'
import type { ChangesStreamOptions } from './resources/context.js'
import { Pictures, type PictureOptions } from './pictures/pictures.js'
import { ALLOWED_METHODS, type JsonBody, type Reply } from './reply.js'
import { route } from './route.js'
import { FairTurns, type Slice } from './slices/fair-turns.js'
import {
  LOOP_TURNS,
  nextTurn as realTurn,
  SLICE_MS,
  type NextTurn,
  type Turns,
} from './slices/turns.js'
import type { Schedule } from './schedule.js'
import { EntityWriter } from './serialize/entity.js'
import { EntityTexts } from './serialize/entity-texts.js'
import { readByKeyLane } from './resources/read-by-key.js'
import { firstPiece } from './serialize/first-piece.js'
import { JsonChunks, tooLarge } from './serialize/json-chunks.js'
import { utf8Bytes, type ReplyLimits } from './serialize/reply-parts.js'
import { Uris } from './serialize/uris.js'
import {
  clearSessionCookie,
  cookieAttributes,
  readCookie,
  sessionCookieName,
  sessionSetCookie,
} from './sessions/cookie.js'
import { MAX_SESSION_LENGTH, type AuthOptions } from './sessions/directory.js'
import { requestOwner } from './resources/context.js'
import { LoginThrottle } from './sessions/login-throttle.js'
import { readParams, type RestParams } from './url/params.js'
import { refuseJsonServerHabits } from './url/json-server-habits.js'
import { checkQueryLimits, DEFAULT_QUERY_LIMITS, type QueryLimits } from './url/query-limits.js'
import { parseRestUrl, type RestTarget } from './url/parse-rest-url.js'
import { parseQueryString } from './url/query-string.js'
import { sendsFileBytes } from './uploads/raw-target.js'
import { bodyBytes } from './uploads/uploaded-file.js'
import { UploadStore } from './uploads/upload-store.js'
import { checkHttpHandlers, HttpHandlers, type HttpHandlerDef } from './web-server/http-handlers.js'
import { withHttpRules, type HttpRuleDef } from './web-server/http-rules.js'
import { asLiveQuotas, type WebQuotas } from './quotas/web-quotas.js'
import type { SharedCounts } from './quotas/shared-counts.js'
import { withQuotas } from './quotas/with-quotas.js'

export interface RestHandlerOptions extends AuthOptions {
  /** Where the interface is mounted. @default '/rest' */
  readonly basePath?: string
  /** The session cookie's name. @default `4DSID_<application name>` */
  readonly sessionCookieName?: string
  /**
   * The session cookie's `SameSite`: 4D's documented default, Strict, sends it only with requests
   * from pages of the same site (`localhost:5173` calling `localhost:8080` is one). `'None'` (a page
   * of another site, with CORS credentials) adds `Secure`. @default 'Strict'
   */
  readonly sessionCookieSameSite?: 'Strict' | 'Lax' | 'None'
  /** Whether the session cookie is `HttpOnly` (no page script reads it), as 4D's is. @default true */
  readonly sessionCookieHttpOnly?: boolean
  /**
   * Whether the session cookie is `Secure` (sent over HTTPS only), as 4D's is on HTTPS: for a server
   * behind a proxy that ends TLS. @default false, true with `sessionCookieSameSite: 'None'`
   */
  readonly sessionCookieSecure?: boolean
  /**
   * Largest `$top`/`$limit` accepted; a larger one is refused with 400 (9011). Off by default, as on
   * the real server: clients send `$top=1000000000` to mean "all", and a page past the end of the
   * selection is simply the whole selection (sent in chunks, as the client reads it).
   * @default Infinity
   */
  readonly maxTop?: number
  /**
   * The live feed's pacing over REST (`/rest/$changes`): `heartbeatMs` (15 s), a subscriber's
   * `bufferLimit` in events before it is dropped and reconnects (1000), the `retryMs` a browser
   * waits before it reconnects (3 s). See docs/change-tracking.md.
   */
  readonly changes?: ChangesStreamOptions
  /** Longest `$filter` / `$orderby` (and saved forms), in characters; 400 (9011) past it. @default 65_536 */
  readonly maxFilterLength?: number
  /** Deepest `$filter` (NOT, alternating AND/OR/EXCEPT, relation steps); at most 256. @default 256 */
  readonly maxFilterDepth?: number
  /** Most values in a request's IN lists (in `$filter` and arrays in `$params`). @default 100_000 */
  readonly maxInTerms?: number
  /**
   * Largest request body, in bytes, that the transports read; a larger one is refused with 413
   * (9033) before it is read whole. 4D's web server's "Maximum Request Size" and its default.
   * @default 2_000_000
   */
  readonly maxBodyBytes?: number
  /**
   * Largest file, in bytes, a request may send as raw bytes: `POST /rest/$upload` and a POST of a
   * picture or BLOB to its attribute (`/rest/Employee(3)/photo?$rawPict=image/png`). A larger one is
   * refused with 413 (9033) before it is read whole, and nothing is stored; JSON bodies keep
   * `maxBodyBytes`. At most `maxUploadStoreBytes`. @default 16_777_216 (16 MiB)
   */
  readonly maxUploadBytes?: number
  /**
   * Most bytes the files kept by `$upload` may hold together (each is kept for its `$timeout`, 120 s
   * by default, at most an hour). Past it, the least recently used uploads are evicted: a write that
   * names one then gets 400 (9120), as for an expired one. @default 268_435_456 (256 MiB)
   */
  readonly maxUploadStoreBytes?: number
  /**
   * Largest reply, in UTF-8 bytes: a larger one is refused with 400 ReplyTooLarge (9091) before
   * its status is sent. A reply that writes relations out (`$attributes=staff.employer.staff.ID`,
   * `$expand`) multiplies with each level: it is measured whole first, in slices of the event loop
   * (serialize/first-piece.ts); any other is estimated from its first 64K characters. Infinity:
   * no limit. @default 268_435_456 (256 MiB)
   */
  readonly maxReplyBytes?: number
  /**
   * Most bytes a reply may spend writing again related entities that write relations out: the
   * same company with its page of staff under each of its employees
   * (`Employee?$top=20000&$attributes=employer.staff.ID`, 50 bytes, once 160 MB of the same 24
   * pages). Counted by the measure of such a reply, each time whole; past it, 400
   * ReplyRepeatsTooLarge (9093) before the status is sent. A related entity written whole in
   * each row (`$attributes=employer.*`) is not counted: it grows with the rows, as the rows do.
   * Infinity: no limit. @default 16_777_216 (16 MiB)
   */
  readonly maxRepeatedBytes?: number
  /**
   * Deepest nesting of objects and arrays accepted in a request body and in the URL's `$params`,
   * which go through the same reader (400 past it: 9030 for a body, 1806 for `$params`). @default 64
   */
  readonly maxBodyDepth?: number
  /**
   * Time budget, in milliseconds on the datastore's clock, for the query work of one request (its
   * filter, ordering, `$compute`, `$distinct`, and the ordering of the first page): past it the
   * request is answered 400 QueryBudgetExceeded (9090) instead of holding every other client
   * (`respond` is synchronous). It counts from the request's arrival when the transport says when
   * that was (`RestRequest.receivedAt`; the node listener does). Lookups by key are never
   * stopped. 0 or Infinity: no budget.
   * @default 2000
   */
  readonly queryBudgetMs?: number
  /**
   * Most arguments a call of a class function may pass (a POST's array, or `$params`); a call with
   * more is refused with 400 (9011) before the function runs. Infinity: no limit. @default 1000
   */
  readonly maxFunctionArguments?: number
  /**
   * How long, in milliseconds, an async class function may take to settle: past it the request is
   * answered 504 (9106) and a later settlement is ignored (the function itself is not stopped).
   * 0 or Infinity: no limit. @default 30_000
   */
  readonly functionTimeoutMs?: number
  /** Runs the timers of `functionTimeoutMs` (tests decide when they fire). @default setTimeout */
  readonly schedule?: Schedule
  /**
   * How long, in milliseconds, one slice of a read's heavy work (a filter, an ordering, an
   * aggregate over many rows) may hold the event loop: past it the work goes on in later turns,
   * one slice a turn, client by client, and every request that arrived meanwhile is answered
   * between two slices (slices/fair-turns.ts, core's query/slices.ts). 0: every step of 4,096 rows
   * is a slice (tests count them); Infinity: reads run to their end in one piece. @default 5
   */
  readonly sliceMs?: number
  /** Runs the next slice of a read in slices (tests decide when). @default setImmediate */
  readonly nextTurn?: NextTurn
  /**
   * The deadline that the slices of one turn of the event loop share: a read's (`sliceMs`), a
   * reply's measure and pieces (10 ms), and any other work of the process in slices
   * (slices/turns.ts). Tests give one on a clock of their own, to count what a turn does.
   * @default the event loop's, `performance.now()`
   */
  readonly turns?: Turns
  /**
   * Called with every error that became a 500 (a bug), for logging: the reply itself says only
   * "Internal error". A 501 for a feature this version lacks is not one. `request` is undefined
   * when the transport failed before `respond`.
   */
  readonly onInternalError?: (error: unknown, request: RestRequest | undefined) => void
  /**
   * Called with every error answered with a status of 500 or more, with that status: a bug's 500
   * (as `onInternalError`), a 501, a 503, a function past its time limit (504), and a reply cut
   * short by an error once its status was sent (as 500). For a log of the server's failures:
   * `entistore serve` writes one line on stderr for each. `request` is undefined when the
   * transport refused the request before `respond` (a chaos listener's injected 503).
   */
  readonly onServerError?: (
    error: unknown,
    request: RestRequest | undefined,
    status: number,
  ) => void
  /**
   * CORS for browser clients (cors.ts): the origins allowed, whether credentials are, how long a
   * preflight is kept. @default none: no CORS header on any reply
   */
  readonly cors?: CorsOptions
  /**
   * Most bytes kept of entities as a read by key sends them (`GET /rest/Employee(3)`), so that the
   * next read of the same version copies them instead of rendering it again; a write drops the
   * versions it replaces. 0: none kept. Only the form a reader who may see every attribute gets is
   * kept (serialize/entity-texts.ts). @default 33_554_432 (32 MiB)
   */
  readonly entityCacheBytes?: number
  /**
   * Whether a read by key with no query string, on a datastore where nothing is checked (no roles
   * file, `authorize`, `restrict` or forced login), is answered by a quick lane that skips what a
   * query needs (resources/read-by-key.ts). Its replies are the general path's, byte for byte;
   * false only to compare the two. @default true
   */
  readonly quickReads?: boolean
  /**
   * Pictures asked in another format (`$imageformat=png`): the converter (sharp by default, loaded
   * on the first conversion) and the bytes of conversions kept for the next request.
   * @default { cacheBytes: 64 MiB }
   */
  readonly pictures?: PictureOptions
  /**
   * HTTP request handlers (4D 20 R8, a project's `HTTPHandlers.json`): paths outside `basePath`
   * answered by a shared singleton's function, which receives an IncomingMessage
   * (web-server/http-handlers.ts). Checked when the handler is made (InvalidHttpSettings, 9172).
   * @default none
   */
  readonly handlers?: readonly HttpHandlerDef[]
  /**
   * HTTP rules (4D 21, a project's `HTTPRules.json`): headers added, set or removed, access denied
   * (403), redirections (302) and statuses, by regular expression on the path, for every reply,
   * the REST interface's included (web-server/http-rules.ts). @default none
   */
  readonly rules?: readonly HttpRuleDef[]
  /**
   * 4D 21 R5's web server quotas (`QuotaManager.json`'s names): requests and bytes in and out per
   * minute and per hour, server-wide and per session, sessions, guest sessions, entity sets per
   * session. Over one, a request is refused before any processing: 429 with `Retry-After`
   * (quotas/with-quotas.ts, docs/web-server.md). They can be changed while serving (`quotas`);
   * given live quotas (`liveQuotas`), the handler enforces that very object.
   * @default none enforced
   */
  readonly quotas?: WebQuotas
  /**
   * The quotas' rate counts shared with the other processes serving the same clients (the
   * workers of `serve --workers N`, the machines of one Redis): quotas/shared-counts.ts.
   * @default each process counts its own
   */
  readonly sharedCounts?: SharedCounts
}

export interface RestHandler extends RestCore {
  /**
   * The web server quotas in force (4D's `WebServer.quotas`): set one to change it for the next
   * requests, undefined to stop enforcing it; a value 4D refuses throws a RangeError.
   */
  readonly quotas: WebQuotas
  /**
   * Where the interface is served, without a trailing slash (`/rest`; '' for the root): the
   * framework adapters serve the requests under it and pass the others on.
   */
  readonly basePath: string
  /** The handler's own body limits are always there: `maxUploadBytes` for files, else `maxBodyBytes`. */
  bodyLimit(path: string): number
  /** Answers one web Request. Never rejects: every failure is an `__ERROR` response. */
  fetch(request: Request): Promise<Response>
  /** Test helper: `request('/rest/$catalog')` without a server (Hono's `app.request`). */
  request(path: string, init?: RequestInit): Promise<Response>
}

const JSON_TYPE = 'application/json; charset=utf-8'
// Shared by every reply that sets no cookie: nothing to allocate per request.
// `nosniff` on every reply: a browser never reads a JSON or BLOB reply as HTML or script.
const NOSNIFF = 'nosniff'
const JSON_HEADERS = Object.freeze({ 'content-type': JSON_TYPE, 'x-content-type-options': NOSNIFF })
const JSON_405_HEADERS = Object.freeze({ ...JSON_HEADERS, allow: ALLOWED_METHODS })
// A CORS preflight or a capability probe: say which methods exist, open no session.
const OPTIONS_REPLY: RestReply = Object.freeze({
  status: 204,
  headers: Object.freeze({ allow: ALLOWED_METHODS, 'x-content-type-options': NOSNIFF }),
  body: null,
})

/**
 * The headers of a JSON reply; a 405 says which methods the resource takes (`allow`), an error may
 * ask for others (`retry-after`: to-error-body.ts).
 */
function replyHeaders(
  status: number,
  setCookie: string | undefined,
  extra?: Readonly<Record<string, string>>,
): RestReply['headers'] {
  const base =
    extra !== undefined
      ? { ...(status === 405 ? JSON_405_HEADERS : JSON_HEADERS), ...extra }
      : status === 405
        ? JSON_405_HEADERS
        : JSON_HEADERS
  return setCookie === undefined ? base : { ...base, 'set-cookie': setCookie }
}

/**
 * Headers of server-sent events (`$changes`): never cached, nor held back by a proxy that buffers
 * (`x-accel-buffering`, nginx's).
 */
function streamHeaders(setCookie: string | undefined): RestReply['headers'] {
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'x-content-type-options': NOSNIFF,
  }
  if (setCookie !== undefined) headers['set-cookie'] = setCookie
  return headers
}

/** Headers of a picture or BLOB reply: its own media type instead of JSON's. */
function fileHeaders(
  file: NonNullable<Reply['file']>,
  setCookie: string | undefined,
): RestReply['headers'] {
  const headers: Record<string, string> = {
    'content-type': file.type,
    'x-content-type-options': NOSNIFF,
  }
  if (file.disposition) headers['content-disposition'] = file.disposition
  // A function's OutgoingMessage may set others (never these: it cannot set the cookie).
  if (file.headers) for (const [name, value] of Object.entries(file.headers)) headers[name] = value
  if (setCookie !== undefined) headers['set-cookie'] = setCookie
  return headers
}

/**
 * The UTF-8 bytes of `text` when they may pass `limit`; else its length, which is then below the
 * limit too (a character takes at most 3 bytes): most replies are far below it, and are not counted.
 */
function textBytes(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : utf8Bytes(text)
}

function cookieHeader(request: RestRequest): string | undefined {
  const value = request.headers.cookie
  return typeof value === 'string' ? value : value?.join('; ')
}

type Parsed = { target: RestTarget; params: RestParams } | { error: unknown }

/** A request answered, before its headers: the status, the rendered body, and for bytes their type. */
interface Answered {
  readonly status: number
  readonly body: string | Uint8Array | Iterable<string> | RestStream
  readonly file?: Reply['file']
  /**
   * Headers an error asks for (`allow` when not the interface's own methods, `retry-after`), or a
   * JSON reply (`$asArray`'s `x-total-count`…).
   */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

export function createRestHandler(ds: Datastore, options: RestHandlerOptions = {}): RestHandler {
  const basePath = (options.basePath ?? '/rest').replace(/\/+$/, '')
  const cookieName = options.sessionCookieName ?? sessionCookieName(ds.name)
  const cookieFlags = cookieAttributes({
    sameSite: options.sessionCookieSameSite,
    httpOnly: options.sessionCookieHttpOnly,
    secure: options.sessionCookieSecure,
  })
  const maxTop = options.maxTop ?? Infinity
  const queryLimits: QueryLimits = {
    maxFilterLength: options.maxFilterLength ?? DEFAULT_QUERY_LIMITS.maxFilterLength,
    // The engine's own bound is the most: deeper would not be answered anyway.
    maxFilterDepth: Math.min(
      options.maxFilterDepth ?? DEFAULT_QUERY_LIMITS.maxFilterDepth,
      DEFAULT_QUERY_LIMITS.maxFilterDepth,
    ),
    maxInTerms: options.maxInTerms ?? DEFAULT_QUERY_LIMITS.maxInTerms,
  }
  const maxBodyBytes = options.maxBodyBytes ?? 2_000_000
  const uploads = new UploadStore(ds.clock, { maxBytes: options.maxUploadStoreBytes })
  // One upload alone may fill the store, never more: a larger one could not be kept.
  const maxUploadBytes = Math.min(options.maxUploadBytes ?? 16_777_216, uploads.maxBytes)
  const maxBodyDepth = options.maxBodyDepth ?? 64
  const queryBudgetMs = options.queryBudgetMs ?? 2000
  const maxReplyBytes = options.maxReplyBytes ?? 268_435_456
  const replyLimits: ReplyLimits = {
    bytes: maxReplyBytes,
    repeatedBytes: options.maxRepeatedBytes ?? 16_777_216,
  }
  const loopTurns = options.turns ?? LOOP_TURNS
  const replyClock = loopTurns.clock(SLICE_MS)
  const calls = callLimits(options)
  const changesOptions = options.changes ?? {}
  // The one decision of every access: the roles file (the datastore's) and the embedder's hook,
  // both of which must allow. Each request acts as its session under it (its Actor), and so does
  // the code it runs.
  const roles = ds.roles
  const rule = accessRule(roles, options.authorize)
  const auth: AuthOptions = {
    authenticate: options.authenticate,
    forceLogin: options.forceLogin ?? roles?.forceLogin,
    authorize: options.authorize,
    maxSessionLength: options.maxSessionLength ?? MAX_SESSION_LENGTH,
  }
  if (!(auth.maxSessionLength! >= 60))
    throw new RangeError('createRestHandler: maxSessionLength must be at least 60 minutes')
  const logins =
    options.loginThrottle === false ? undefined : new LoginThrottle(ds.clock, options.loginThrottle)
  // A login needs a way in: `$directory/login` with `authenticate`, or 4D's datastore function
  // `authentify` (called with `POST /rest/$catalog/authentify`).
  if (
    auth.forceLogin &&
    !auth.authenticate &&
    !ds.functions.find('dataStore', '', 'authentify')?.exposed
  )
    throw new TypeError(
      'createRestHandler: forceLogin needs an authenticate function or an exposed authentify datastore function',
    )
  const uris = new Uris(basePath)
  const writer = new EntityWriter(uris)
  const entityCacheBytes = options.entityCacheBytes ?? 33_554_432
  if (!(entityCacheBytes >= 0))
    throw new RangeError('createRestHandler: entityCacheBytes must be 0 or more')
  const texts = entityCacheBytes > 0 ? new EntityTexts(ds, entityCacheBytes) : undefined
  const pictures = new Pictures(options.pictures)
  // Most reads have no query string: their parameters are the same every time.
  const paramLimits = { maxTop, maxDepth: maxBodyDepth }
  const noParams = readParams([], paramLimits)
  const handlers = new HttpHandlers(checkHttpHandlers(options.handlers ?? [], 'handlers'), basePath)

  /** Tells the embedder of an error answered with `status`, 500 or more. */
  const report = (error: unknown, request: RestRequest | undefined, status = 500): void => {
    if (status === 500) options.onInternalError?.(error, request)
    options.onServerError?.(error, request, status)
  }

  const parse = (request: RestRequest): Parsed => {
    try {
      // A path outside the interface that a handler takes (a verb none takes: 405).
      const handled = handlers.target(request.method, request.path, request.query)
      if (handled !== undefined) return { target: handled, params: noParams }
      const parsed = parseRestUrl(request.path, request.query, basePath)
      if (!parsed) fail('UnknownResource', [request.path])
      const raw = parsed.search === '' ? undefined : parseQueryString(parsed.search)
      const params = raw === undefined ? noParams : readParams(raw, paramLimits)
      if (raw !== undefined) {
        checkQueryLimits(params, queryLimits)
        // A read of a dataclass: json-server's `_sort`, `_page`… would be ignored, silently.
        if (
          parsed.target.kind === 'dataClass' &&
          (request.method === 'GET' || request.method === 'HEAD')
        )
          refuseJsonServerHabits(raw)
      }
      return { target: parsed.target, params }
    } catch (error) {
      return { error }
    }
  }

  // A selection's first chunk is rendered here, once the reply is known to be within
  // maxReplyBytes (first-piece.ts: measured, maybe over several turns of the event loop, or
  // estimated), so that an error in it is still an `__ERROR` reply; one in a later chunk, once the
  // status is sent, can only cut the reply short.
  const settle = (reply: Reply, request: RestRequest): Answered | Promise<Answered> => {
    const { body } = reply
    // Events as they come (`$changes`): no size to check, nothing rendered yet.
    if (isStream(body)) return answered(reply, body)
    if (body instanceof JsonChunks) {
      body.sliceBy(replyClock)
      const first = firstPiece(body, replyLimits, replyClock)
      return isPending(first)
        ? first.then(
            (text) => answered(reply, body.done ? text : rest(text, body, request)),
            (error: unknown) => failed(error, request),
          )
        : answered(reply, body.done ? first : rest(first, body, request))
    }
    const out = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body)
    // A text made whole (a function's result) is held already: only its size is checked.
    const size = typeof out === 'string' ? textBytes(out, maxReplyBytes) : out.byteLength
    if (size > maxReplyBytes) throw tooLarge(size, maxReplyBytes)
    return answered(reply, out)
  }
  function* rest(first: string, chunks: JsonChunks, request: RestRequest): Iterable<string> {
    yield first
    try {
      while (!chunks.done) yield chunks.take()
    } catch (error) {
      // A reply cut at its limit is the client's request, not a bug.
      if (!isReported(error)) report(error, request)
      throw error
    }
  }
  const answered = (
    reply: Reply,
    out: string | Uint8Array | Iterable<string> | RestStream,
  ): Answered =>
    reply.file
      ? { status: reply.status, body: out, file: reply.file }
      : { status: reply.status, body: out, headers: reply.headers }

  const failed = (error: unknown, request: RestRequest): Answered => {
    const reply = toErrorReply(error)
    if (reply.status >= 500) report(error, request, reply.status)
    return { status: reply.status, body: JSON.stringify(reply.body), headers: reply.headers }
  }

  const answer = (
    request: RestRequest,
    session: Session,
    actor: Actor | undefined,
    parsed: Parsed,
    slices: SliceScope | undefined,
    restoreSession: (session: Session) => void,
  ): Answered | Promise<Answered> => {
    try {
      if ('error' in parsed) throw parsed.error
      const method = request.method === 'HEAD' ? 'GET' : request.method
      const { target, params } = parsed
      const body = (): unknown =>
        readJsonBody(request.body, request.headers['content-type'], { maxDepth: maxBodyDepth })
      const bytes = (): Uint8Array => bodyBytes(request.body, maxUploadBytes)
      const headers = request.headers
      const reply = route({
        ds,
        uris,
        cookieName,
        writer,
        texts,
        session,
        actor,
        method,
        target,
        params,
        headers,
        remoteAddress: request.remoteAddress,
        body,
        bytes,
        uploads,
        auth,
        pictures,
        calls,
        changes: changesOptions,
        logins,
        slices,
        restoreSession,
      })
      // An async function's call: answered when it settles (its first chunk rendered then, so
      // that an error in it is still an `__ERROR` reply).
      if (isPending(reply))
        return reply.then(
          (r) => {
            try {
              return settle(r, request)
            } catch (error) {
              return failed(error, request)
            }
          },
          (error: unknown) => failed(error, request),
        )
      return settle(reply, request)
    } catch (error) {
      // A read that needs an index still being built, or whose work goes on in slices: respond()
      // waits for it and runs it again.
      if (indexBuilding(error) !== undefined || suspended(error)) throw error
      return failed(error, request)
    }
  }

  // The reply with its headers: the session cookie set when the session's id is not the one the
  // client sent (a new session, or one renewed by a login), or cleared when the request closed the
  // session (logout); HEAD answered as GET, status and headers included, without the body.
  const finish = (
    { status, body, file, headers: extra }: Answered,
    request: RestRequest,
    session: Session,
    sent: string | undefined,
  ): RestReply => {
    const setCookie = !ds.sessions.peek(session.id)
      ? clearSessionCookie(cookieName, '/', cookieFlags)
      : session.id !== sent
        ? sessionSetCookie(cookieName, session.id, '/', cookieFlags)
        : undefined
    ds.sessions.settle?.(session)
    // A 204 or a 304 has no body either (a web Response refuses one).
    const out: RestBody =
      request.method === 'HEAD' || status === 304 || status === 204 ? null : body
    // A stream not sent (HEAD) ends here: its subscription would otherwise wait for nobody.
    if (out === null && isStream(body)) body.close()
    const headers = isStream(out)
      ? streamHeaders(setCookie)
      : file
        ? fileHeaders(file, setCookie)
        : replyHeaders(status, setCookie, extra)
    return { status, headers, body: out }
  }

  /** The index a read waits for, when `error` is IndexBuilding (9143) from `ds.withoutIndexBuilds`. */
  const indexBuilding = (error: unknown): { dataClass: string; attribute: string } | undefined => {
    if (!DatastoreError.is(error) || error.name !== 'IndexBuilding') return undefined
    const { dataClass, attribute } = error.details ?? {}
    return typeof dataClass === 'string' && typeof attribute === 'string'
      ? { dataClass, attribute }
      : undefined
  }

  /**
   * Whose turn a read in slices waits for: its session's when the client came back with one, else
   * its address's (a session made for this request is the request's own).
   */
  const clientOf = (session: Session, created: boolean, request: RestRequest): string =>
    created ? (request.remoteAddress ?? '') : session.id

  /** Whether `error` is QuerySuspended (9144): the read's work goes on in slices. */
  const suspended = (error: unknown): boolean =>
    DatastoreError.is(error) && error.name === 'QuerySuspended'

  // Reads in slices: each slice ends `sliceMs` after it starts (every step when 0).
  const sliceMs = options.sliceMs ?? 5
  const turns = new FairTurns(options.nextTurn)
  // Arrivals of the reads that went on in slices: their order in their client's line.
  let arrivals = 0
  // One slice's worth a turn of the event loop, shared by every request of that turn: four heavy
  // reads arriving together run one slice between them before the GETs behind them, not four.
  let sliceStart = 0
  let sliceEnd = 0
  let turnSpent = 0
  let turnCounted = false
  // Without reads waiting for their slice, the turn ends here; with some, it ends after the one
  // of them that runs this turn (which gets what the requests read this turn left of the slice).
  const newTurn = (): void => {
    turnCounted = false
    if (turns.waiting === 0) turnSpent = 0
  }
  // The slice also ends with the turn's deadline, which every slice of the turn shares (replies
  // measured and written, a save: slices/turns.ts), asked only by work that goes on in slices.
  const timeUp = (): boolean => {
    if (sliceMs <= 0) return true
    if (performance.now() >= sliceEnd) return true
    return sliceMs !== Infinity && loopTurns.now() >= loopTurns.deadline(sliceMs)
  }
  const startSlice = (): void => {
    if (!turnCounted && sliceMs !== Infinity) {
      turnCounted = true
      realTurn(newTurn)
    }
    sliceStart = performance.now()
    sliceEnd = sliceStart + Math.max(0, sliceMs - turnSpent)
  }
  const endSlice = (): void => {
    turnSpent += performance.now() - sliceStart
  }

  // Nothing checked, nothing forced: reads by key may take the quick lane (read-by-key.ts).
  const quick =
    options.quickReads !== false && rule === undefined && !auth.forceLogin
      ? readByKeyLane(ds, basePath, writer, texts, maxReplyBytes)
      : undefined

  const core: RestCore = {
    maxBodyBytes,
    // Asked by the transports before they read a POST's body: only then is the path parsed here.
    bodyLimit: (path) => (sendsFileBytes(ds, path, basePath) ? maxUploadBytes : maxBodyBytes),
    handles: (path) => handlers.handles(path),
    respond(request) {
      // OPTIONS is a handler's when one takes the path, except a CORS preflight (cors.ts).
      if (
        request.method === 'OPTIONS' &&
        (request.headers['access-control-request-method'] !== undefined ||
          !handlers.handles(request.path))
      )
        return OPTIONS_REPLY
      if (
        quick !== undefined &&
        request.method === 'GET' &&
        request.query === '' &&
        !ds.restricting
      ) {
        const body = quick(request.path)
        if (body !== undefined) {
          // A read by key keeps nothing for its session (it holds nothing): a client without a
          // cookie is sent one as 4D sends it, for a session opened only when it takes something
          // (its first other request); a known session's timer restarts; an unknown id (the
          // one given here, or an expired session's) is left to that first other request. A
          // store that keeps every guest (sessions shared through Redis) keeps this one too, or
          // the cookie would name a session no process finds: the client's next request would
          // be sent a new one.
          const sid = readCookie(cookieHeader(request), cookieName)
          if (sid !== undefined) ds.sessions.touch(sid)
          const setCookie =
            sid === undefined
              ? sessionSetCookie(cookieName, quickSessionId(ds), '/', cookieFlags)
              : undefined
          return { status: 200, headers: replyHeaders(200, setCookie), body }
        }
      }
      const parsed = parse(request)
      const given = 'params' in parsed ? parsed.params.sessionId : undefined
      // `$4DSID=<token>` naming a one-time passcode (4D's `Session.createOTP()`) restores its
      // session, cookie or not, and the reply sets that session's cookie; a token that names none
      // (used, expired, unknown, its session ended) leaves the request to its cookie, as 4D does.
      const restored = given === undefined ? undefined : ds.sessionTokens.restore(given)
      // The cookie, else the reserved $4DSID parameter read like every other one (any case, quotes
      // removed, also when written in the path): so the URL is parsed before the session is resumed.
      const sid = restored ? undefined : (readCookie(cookieHeader(request), cookieName) ?? given)
      // A guest coming back stays a guest: only a lock or a login establishes a session. A new
      // one is on probation (`visit`): forgotten once answered unless it came to hold something
      // (a set, a lock, a login, session data), so that a client without a cookie costs nothing
      // once answered. Its cookie is sent all the same, as 4D sends one.
      let session: Session
      let created: boolean
      try {
        ;({ session, created } = (ds.sessions.visit ?? ds.sessions.resume).call(
          ds.sessions,
          restored?.id ?? sid,
        ))
      } catch (error) {
        return core.refuse(error)
      }
      // A function's `restore(token)` hands the client another session: its cookie goes out.
      const restore = (other: Session): void => {
        ds.sessions.settle?.(session)
        session = other
      }
      // One time budget for the request's queries, counted from its arrival: the time it waited
      // for its turn (wall time, measured by the transport) is taken off. answer() turns the
      // budget's error into a reply.
      const waited = request.receivedAt === undefined ? 0 : Date.now() - request.receivedAt
      // Who the request acts as, when anything is checked or restricted: everything it does, the
      // code it calls and its reply (written later, in pieces: json-chunks.ts) run as it.
      const actor =
        rule !== undefined || ds.restricting
          ? new Actor({
              scope: ds,
              schema: ds.schema,
              session,
              owner: requestOwner(session, request.headers, request.remoteAddress),
              rule,
            })
          : undefined
      // A request that may keep an entity set notes what it needs: another view reading the set
      // is asked the same (core's access-log.ts).
      if (actor !== undefined && 'params' in parsed && keepsSet(parsed.params)) actor.record()
      // A read's heavy work runs in slices (`sliceMs`): its first slice now, the others one a turn
      // among other clients' (FairTurns), then the read runs again and finds its results kept.
      // The budget counts the time of its runs and slices, not the turns it waited between them.
      // A handler's function is never run again: its reads run whole.
      const slices =
        sliceMs !== Infinity &&
        (request.method === 'GET' || request.method === 'HEAD') &&
        !handledBy(parsed)
          ? ds.sliceScope(timeUp)
          : undefined
      // Work parked on a worker pool asks it between parts; a park that settles once the client
      // has gone closes the scope (the work's `finally` cancels what it still runs).
      if (slices) {
        slices.wanted = () => !request.closed?.()
        // The pool takes its clients' parts in turn, as FairTurns takes their slices.
        slices.client = clientOf(session, created, request)
      }
      let spent = waited
      let arrival: number | undefined
      // Measured on the datastore's clock, as the budget is (a test's clock decides). A slice that
      // parks (its work waits for a worker pool) ends there: the wait is not the budget's, the
      // rows the pool's kernels go through are (the work spends them as its parts are done).
      const timed = <T>(fn: () => T): T => {
        const start = ds.clock.now()
        startSlice()
        try {
          return ds.withBudget(queryBudgetMs, fn, spent)
        } finally {
          endSlice()
          spent += ds.clock.now() - start
        }
      }
      const slice = (): Slice => {
        if (request.closed?.()) {
          // Nobody reads the answer: the work stops here and frees what it held.
          slices!.close()
          throw datastoreError('RequestAbandoned', [])
        }
        try {
          return actor
            ? runActor(actor, () => timed(() => slices!.drive()))
            : timed(() => slices!.drive())
        } finally {
          // The one slice of this turn's check phase: the next requests read start a new turn.
          turnSpent = 0
        }
      }
      // A read that needs an index being built waits for it (built in slices meanwhile, other
      // requests going on), then runs again: the wait is not the query budget's.
      const run = (): Answered | Promise<Answered> => {
        try {
          return timed(() => answer(request, session, actor, parsed, slices, restore))
        } catch (error) {
          if (slices?.pending && suspended(error))
            return turns
              .run(
                clientOf(session, created, request),
                slice,
                (arrival ??= arrivals++),
                slices.parked,
              )
              .then(() => (actor ? runActor(actor, run) : run()))
          const index = indexBuilding(error)
          if (index === undefined) throw error
          return ds.indexesReady(index.dataClass, [index.attribute]).then(run)
        }
      }
      // A 4D process of its own (core's processes.ts): a transaction its function leaves open
      // is cancelled once it is answered.
      let answered = runAsProcess(() => (actor ? runActor(actor, run) : run()))
      // A scope that stopped is told of every commit until the read is answered.
      if (slices?.tracking)
        answered = isPending(answered)
          ? answered.finally(() => slices.close())
          : (slices.close(), answered)
      // A failure is still an `__ERROR` reply. Either way a guest on probation is settled.
      return isPending(answered)
        ? answered.then(
            (a) => finish(a, request, session, sid),
            (error: unknown) => (ds.sessions.settle?.(session), core.refuse(error)),
          )
        : finish(answered, request, session, sid)
    },
    refuse(error) {
      const reply = toErrorReply(error)
      if (reply.status >= 500) report(error, undefined, reply.status)
      return {
        status: reply.status,
        headers: replyHeaders(reply.status, undefined, reply.headers),
        body: JSON.stringify(reply.body),
      }
    },
  }
  // Quotas first, CORS around them (a page reads a 429's Retry-After), rules last: they see
  // every reply, CORS's headers included (4D applies them to every response).
  const quotas = asLiveQuotas(options.quotas, ds.clock)
  const metered = withQuotas(core, ds, quotas, cookieName, options.sharedCounts)
  const cors = options.cors ? withCors(metered, options.cors) : metered
  const noRules =
    options.rules === undefined || (Array.isArray(options.rules) && !options.rules.length)
  const edge = noRules ? cors : withHttpRules(cors, options.rules, 'rules')
  const fetch = toFetchHandler(edge)

  return {
    basePath,
    quotas,
    maxBodyBytes,
    bodyLimit: (path) => bodyLimitOf(edge, path),
    handles: edge.handles!,
    respond: edge.respond,
    refuse: edge.refuse,
    fetch,
    request(path, init) {
      // A path is appended to the origin, not resolved against it: `//x/rest` is a path, not a host.
      const url = path.startsWith('/')
        ? `http://localhost${path}`
        : new URL(path, 'http://localhost')
      return fetch(new Request(url, init))
    },
  }
}

// Whether an HTTP request handler takes the request.
const handledBy = (parsed: Parsed): boolean =>
  'target' in parsed && parsed.target.kind === 'httpHandler'

// Whether a request may keep an entity set: `$method=entityset` (or a relation's subentityset),
// or a gone set remade from its saved filter or order.
const keepsSet = (params: RestParams): boolean =>
  params.method === 'entityset' ||
  params.method === 'subentityset' ||
  params.savedFilter !== undefined ||
  params.savedOrderBy !== undefined

// The id a read by key's cookie names for a client without one: a new id, nothing kept for it
// (the quick lane in `respond`); where the store keeps every guest, a guest of its own.
const quickSessionId = (ds: Datastore): string =>
  ds.sessions.keepsEveryGuest === true
    ? ds.sessions.resume(undefined).session.id
    : (ds.sessions.newId?.() ?? randomId())
