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
 *
 * Beside it: its options (handler-options.ts) and the settings read from them (handler-settings.ts),
 * the URL parsed (parse-request.ts), the headers of each reply (reply-headers.ts), and what
 * `respond` asks of a request or an error (respond-checks.ts).
 */
import {
  Actor,
  datastoreError,
  runActor,
  runAsProcess,
  type Datastore,
  type Session,
  type SliceScope,
} from '@entistore/core'
import { readJsonBody } from './body/read-json-body.js'
import { withCors } from './cors.js'
import { isReported, toErrorReply } from './errors/to-error-body.js'
import {
  bodyLimitOf,
  isPending,
  isStream,
  type RestBody,
  type RestCore,
  type RestReply,
  type RestRequest,
} from './exchange.js'
import { toFetchHandler } from './fetch/fetch-handler.js'
import type { Reply } from './reply.js'
import { route } from './route.js'
import { FairTurns, type Slice } from './slices/fair-turns.js'
import { nextTurn as realTurn } from './slices/turns.js'
import { readByKeyLane } from './resources/read-by-key.js'
import { oneByFilterLane } from './resources/one-by-filter.js'
import { firstPiece } from './serialize/first-piece.js'
import { JsonChunks, tooLarge } from './serialize/json-chunks.js'
import { clearSessionCookie, readCookie, sessionSetCookie } from './sessions/cookie.js'
import { requestOwner } from './resources/context.js'
import { sendsFileBytes } from './uploads/raw-target.js'
import { bodyBytes } from './uploads/uploaded-file.js'
import { withHttpRules } from './web-server/http-rules.js'
import { asLiveQuotas } from './quotas/web-quotas.js'
import { withQuotas } from './quotas/with-quotas.js'
import type { RestHandlerOptions, RestHandler } from './handler-options.js'
import {
  OPTIONS_REPLY,
  replyHeaders,
  streamHeaders,
  fileHeaders,
  textBytes,
  cookieHeader,
} from './reply-headers.js'
import { handlerSettings } from './handler-settings.js'
import { parseRequest, type Parsed } from './parse-request.js'
import {
  clientOf,
  handledBy,
  indexBuilding,
  keepsSet,
  quickSessionId,
  suspended,
  answered,
  type Answered,
} from './respond-checks.js'

// The handler's options and its type are read with it: importers keep taking them from here.
export type { RestHandler, RestHandlerOptions } from './handler-options.js'

export function createRestHandler(ds: Datastore, options: RestHandlerOptions = {}): RestHandler {
  const settings = handlerSettings(ds, options)
  const {
    basePath,
    cookieName,
    cookieFlags,
    maxBodyBytes,
    uploads,
    maxUploadBytes,
    maxBodyDepth,
    queryBudgetMs,
    maxReplyBytes,
    replyLimits,
    loopTurns,
    replyClock,
    calls,
    changesOptions,
    rule,
    auth,
    logins,
    uris,
    writer,
    texts,
    pictures,
    handlers,
  } = settings

  /** Tells the embedder of an error answered with `status`, 500 or more. */
  const report = (error: unknown, request: RestRequest | undefined, status = 500): void => {
    if (status === 500) options.onInternalError?.(error, request)
    options.onServerError?.(error, request, status)
  }

  const parse = (request: RestRequest): Parsed => parseRequest(settings, request)

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
  // `late`: the slice of a read that waited for its turn (FairTurns), which keeps at least half
  // a slice whatever the requests of the turn read first: it comes after them, and got one step a
  // turn for as long as they kept coming (slices/turns.ts says how the turn's deadline is shared).
  const startSlice = (late: boolean): void => {
    if (!turnCounted && sliceMs !== Infinity) {
      turnCounted = true
      realTurn(newTurn)
    }
    sliceStart = performance.now()
    const left = sliceMs - turnSpent
    sliceEnd = sliceStart + Math.max(late ? sliceMs / 2 : 0, left)
  }
  const endSlice = (): void => {
    turnSpent += performance.now() - sliceStart
  }

  // Nothing checked, nothing forced: reads by key, and filters one index answers with no more
  // rows than a page, may take the quick lanes (read-by-key.ts, one-by-filter.ts).
  const lanes = options.quickReads !== false && rule === undefined && !auth.forceLogin
  const byKey = lanes ? readByKeyLane(ds, basePath, writer, texts, maxReplyBytes) : undefined
  const byFilter = lanes
    ? oneByFilterLane(ds, basePath, writer, settings.queryLimits, maxReplyBytes)
    : undefined
  const quick = (request: RestRequest): string | undefined =>
    request.query === ''
      ? byKey!(request.path)
      : handlers.handles(request.path)
        ? undefined
        : byFilter!(request.path, request.query)

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
      if (lanes && request.method === 'GET' && !ds.restricting) {
        // A quick lane's read holds nothing for its session. A client without a cookie is sent
        // one as 4D sends it, its session kept when it comes back (as on the general path), or
        // at once where the store keeps every guest (quickSessionId); a live session's timer
        // restarts.
        // A cookie that names no live session (a guest coming back, an expired or made-up id) is
        // the general path's, which takes its session up or opens one: every session a client
        // keeps is one the per-session quotas, nbSessions and nbGuestSessions count.
        const sid = readCookie(cookieHeader(request), cookieName)
        const body = sid === undefined || ds.sessions.touch(sid) ? quick(request) : undefined
        if (body !== undefined) {
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
      const timed = <T>(fn: () => T, late = false): T => {
        const start = ds.clock.now()
        startSlice(late)
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
            ? runActor(actor, () => timed(() => slices!.drive(), true))
            : timed(() => slices!.drive(), true)
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
      // A scope that stopped is told of every commit until the read is answered; every scope lets
      // go of its kept results then (SliceScope.close).
      if (slices)
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
  const { sharedCounts, sharedSessions } = options
  const metered = withQuotas(core, ds, quotas, cookieName, sharedCounts, sharedSessions)
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
