/**
 * @module What an embedder may set on the REST handler (its limits, sessions, access, functions,
 * changes, quotas, CORS and HTTP rules, each with its default) and what createRestHandler returns.
 */
import type { CorsOptions } from './cors.js'
import type { RestCore, RestRequest } from './exchange.js'
import type { ChangesStreamOptions } from './resources/context.js'
import type { PictureOptions } from './pictures/pictures.js'
import type { NextTurn, Turns } from './slices/turns.js'
import type { Schedule } from './schedule.js'
import type { AuthOptions } from './sessions/directory.js'
import type { HttpHandlerDef } from './web-server/http-handlers.js'
import type { HttpRuleDef } from './web-server/http-rules.js'
import type { WebQuotas } from './quotas/web-quotas.js'
import type { SharedCounts } from './quotas/shared-counts.js'
import type { SharedSessions } from './quotas/shared-sessions.js'

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
  /**
   * Runs the next slice of a read in slices (tests decide when). @default a place in core's
   * `sliceLine`, one slice of any work in slices a turn of the event loop
   */
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
   * Whether, on a datastore where nothing is checked (no roles file, `authorize`, `restrict` or
   * forced login), a read by key with no query string, and a read whose one parameter is a
   * `$filter` of one equality on a unique attribute or the key (`code='C12'`), are answered by quick
   * lanes that skip what a query needs (resources/read-by-key.ts, one-by-filter.ts). Their replies
   * are the general path's, byte for byte; false only to compare the two. @default true
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
  /**
   * The sessions open on the other processes serving the same clients, counted with this one's
   * by `nbSessions` and `nbGuestSessions` (quotas/shared-sessions.ts). @default each process
   * counts its own
   */
  readonly sharedSessions?: SharedSessions
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
