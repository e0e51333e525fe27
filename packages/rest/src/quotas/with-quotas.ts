/**
 * @module 4D 21 R5's web server quotas in front of the REST interface: a wrapper around the core,
 * as CORS is, so that a request over a quota is refused before anything of it is processed (no
 * session resumed, no URL parsed): 429 with `Retry-After`, the seconds left in the quota's fixed
 * window, or empty for the concurrent limits (sessions, guest sessions). As 4D does, the session's
 * quotas are checked first, then the server's; a request refused is not counted.
 *
 * What is counted: every request answered (requests); its request line, headers and body (bytes
 * in, as the transport hands them over: the header block's bytes, not its exact wire form); its
 * reply's headers and body, uncompressed (bytes out). A reply sent in chunks that crosses an output
 * quota is cut there, as 4D interrupts it; a reply made whole is sent, and the next request is
 * refused. A session's counts are those of its cookie (or `$4DSID`) while the session is open:
 * they go when it closes, and follow it when a login renews its id. The per-session values are
 * those in force when the session opened (4D: "session default quotas apply to new sessions"),
 * read when the server first meets it; `nbEntitySetsPerSession` becomes its
 * `Session.quotas.nbEntitySets` then. `nbSessions` and `nbGuestSessions` count the sessions the
 * store keeps (a guest is kept once its client comes back, whatever it asks: a read by key
 * too), and those of the other processes serving the same clients when they are shared
 * (shared-sessions.ts).
 */
import { datastoreError, defaultEntitySetQuota, type Datastore } from '@entistore/core'
import {
  isPending,
  isStream,
  type RestCore,
  type RestReply,
  type RestRequest,
  type RestStream,
} from '../exchange.js'
import { LRUCache } from 'lru-cache'
import { utf8Bytes } from '../serialize/utf8-bytes.js'
import { readCookie } from '../sessions/cookie.js'
import { RateCounts, type Measure, type Reached } from './quota-windows.js'
import type { SharedCounts } from './shared-counts.js'
import type { SessionTotals, SharedSessions } from './shared-sessions.js'
import { changedAt, enforcesNone, SESSION_QUOTAS, type WebQuotas } from './web-quotas.js'

/** A session the quotas have met: its counts, and the per-session values it was given then. */
interface Metered {
  readonly counts: RateCounts
  readonly quotas: WebQuotas
}

// `$4DSID=<id>` in a query string, any case (the reserved parameter: url/params.ts).
const SID_PARAM = /(?:^|&)\$4dsid=([^&]*)/i

/** The session id a request comes with: its cookie's, or its `$4DSID`. */
function sidOf(request: RestRequest, cookieName: string): string | undefined {
  const cookie = request.headers.cookie
  return (
    readCookie(typeof cookie === 'string' ? cookie : cookie?.join('; '), cookieName) ??
    SID_PARAM.exec(request.query)?.[1]
  )
}

/** The session id a reply gives its client (its session cookie), if it gives one. */
function newSession(reply: RestReply, cookieName: string): string | undefined {
  const set = reply.headers['set-cookie']
  for (const cookie of typeof set === 'string' ? [set] : (set ?? [])) {
    const id = readCookie(cookie, cookieName)
    if (id) return id
  }
  return undefined
}

/** One count: what, how much, when. */
type Counted = [measure: Measure, amount: number, at: number]

/** Where a request's counts go: a session's, or a session's not met yet. */
interface Sink {
  readonly counts: Pick<RateCounts, 'add'> & Partial<Pick<RateCounts, 'reached'>>
  readonly quotas: WebQuotas
}

/** A request of no session (a reply with no cookie): counted server-wide only. */
const NOWHERE: Sink = { counts: { add: () => undefined }, quotas: {} }

/** Sessions whose first requests' counts are kept until they are met (see `unmet`). */
const UNMET_SESSIONS = 10_000

/** The bytes of a request as the transport gives it: its line, headers and body. */
function requestBytes(request: RestRequest): number {
  // "GET /rest/x?q HTTP/1.1\r\n", then "name: value\r\n" each, then "\r\n".
  let bytes = request.method.length + request.path.length + request.query.length + 13
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const v of typeof value === 'string' ? [value] : value)
      bytes += name.length + utf8Bytes(v) + 4
  }
  bytes += 2
  const body = request.body
  if (body != null) bytes += typeof body === 'string' ? utf8Bytes(body) : body.byteLength
  return bytes
}

/** The bytes of a reply's headers, as they go out (the status line included). */
function headerBytes(reply: RestReply): number {
  let bytes = 17
  for (const [name, value] of Object.entries(reply.headers))
    for (const v of typeof value === 'string' ? [value] : value)
      bytes += name.length + utf8Bytes(v) + 4
  return bytes + 2
}

/**
 * A live feed (`$changes`) whose events pass through `admit` as they go: it may end the feed by
 * throwing, which the transport takes as a cut (the client reconnects, and meets the 429).
 */
function countedStream(stream: RestStream, admit: (chunk: string) => string): RestStream {
  return {
    stream: true,
    close: () => stream.close(),
    [Symbol.asyncIterator]() {
      const chunks = stream[Symbol.asyncIterator]()
      return {
        async next() {
          const next = await chunks.next()
          return next.done ? next : { done: false, value: admit(next.value) }
        },
        return: async () => chunks.return?.() ?? { done: true, value: undefined },
      }
    },
  }
}

const refusal = (reached: Reached) =>
  datastoreError(
    'WebServerQuota',
    [reached.name, reached.limit, `try again in ${reached.retryAfter} s`],
    { details: { retryAfter: reached.retryAfter } },
  )

/**
 * `core` under the quotas `quotas` holds (read at each request: they may change), its rate counts
 * `shared` with other processes when given (server-wide, and each session's under its id), and
 * its open sessions counted with theirs (`sharedSessions`).
 */
export function withQuotas(
  core: RestCore,
  ds: Datastore,
  quotas: WebQuotas,
  cookieName: string,
  shared?: SharedCounts,
  sharedSessions?: SharedSessions,
): RestCore {
  const server = new RateCounts(shared)
  const sessions = new Map<string, Metered>()
  ds.sessions.onClose((session) => sessions.delete(session.id))
  ds.sessions.onRenew((session, previous) => {
    const metered = sessions.get(previous)
    if (metered === undefined) return
    sessions.delete(previous)
    sessions.set(session.id, metered)
    metered.counts.scope = session.id
  })

  // The counts of requests answered before their session was kept (the one that opened it, the
  // first one back with its cookie: a guest is kept once it comes back), by session id, handed to
  // the session when it is met. Bounded: the entries of clients that never came back are pushed
  // out by newer ones.
  const unmet = new LRUCache<string, Counted[]>({ max: UNMET_SESSIONS })

  /** The session `sid` names, if it is open: met now if it was not yet. */
  const meter = (sid: string | undefined): Metered | undefined => {
    if (sid === undefined) return undefined
    const known = sessions.get(sid)
    if (known !== undefined) return known
    const session = ds.sessions.peek(sid)
    if (session === undefined) return undefined
    // The defaults in force when it opened: a value set later is for the sessions opened since.
    const own: WebQuotas = {}
    for (const name of SESSION_QUOTAS)
      if (quotas[name] !== undefined && session.createdAt >= changedAt(quotas, name))
        own[name] = quotas[name]
    if (own.nbEntitySetsPerSession !== undefined)
      defaultEntitySetQuota(session, own.nbEntitySetsPerSession)
    const metered = { counts: new RateCounts(shared, sid), quotas: own }
    sessions.set(sid, metered)
    for (const [measure, amount, at] of unmet.get(sid) ?? [])
      metered.counts.add(measure, amount, at)
    unmet.delete(sid)
    return metered
  }

  /**
   * Where the counts of a request that came without an open session go once it is answered: its
   * session, when the request opened or established one that is kept now; else the session's
   * entry among the unmet ones (`reply`'s cookie names it), for when it is.
   */
  const afterwards = (sid: string | undefined, reply: RestReply, counted: Counted[]): Sink => {
    // A new cookie wins: the request's id may have named a session that is gone.
    const id = newSession(reply, cookieName) ?? sid
    if (id === undefined) return NOWHERE
    const metered = meter(id)
    if (metered !== undefined) {
      for (const [measure, amount, at] of counted) metered.counts.add(measure, amount, at)
      return metered
    }
    const entry = unmet.get(id) ?? []
    entry.push(...counted)
    unmet.set(id, entry)
    return {
      counts: { add: (measure, amount, at) => void entry.push([measure, amount, at]) },
      quotas: {},
    }
  }

  /** Whether a session quota is enforced: only then are sessions counted. */
  const countsSessions = (): boolean =>
    quotas.nbSessions !== undefined || quotas.nbGuestSessions !== undefined

  /**
   * The sessions open: those the store keeps, with the other processes' when they are shared
   * (which are told of this process's when they changed).
   */
  const open = (): SessionTotals => {
    const { established, users, guests } = ds.sessions.counts
    const here = { sessions: established + guests, users }
    return sharedSessions?.totals(here) ?? here
  }

  /** A refusal of a request that would open a session past `nbSessions` or `nbGuestSessions`. */
  const sessionsFull = (): unknown => {
    if (!countsSessions()) return undefined
    const { nbSessions, nbGuestSessions } = quotas
    const { sessions: all, users } = open()
    const full =
      nbSessions !== undefined && all >= nbSessions
        ? { name: 'nbSessions', limit: nbSessions }
        : nbGuestSessions !== undefined && all - users >= nbGuestSessions
          ? { name: 'nbGuestSessions', limit: nbGuestSessions }
          : undefined
    if (full === undefined) return undefined
    return datastoreError(
      'WebServerQuota',
      [full.name, full.limit, 'try again when a session has closed'],
      { details: { retryAfter: '' } },
    )
  }

  /** `reply` counted as bytes out; a reply in chunks is cut where it crosses an output quota. */
  const sent = (reply: RestReply, metered: Sink, now: number): RestReply => {
    const out = (bytes: number, at: number): void => {
      server.add('outBytes', bytes, at)
      metered.counts.add('outBytes', bytes, at)
    }
    out(headerBytes(reply), now)
    const { body } = reply
    if (body === null) return reply
    if (typeof body === 'string' || body instanceof Uint8Array) {
      out(typeof body === 'string' ? utf8Bytes(body) : body.byteLength, now)
      return reply
    }
    // Each chunk counted as it goes; the first one past an output quota cuts the reply there.
    const admit = (chunk: string): string => {
      const at = ds.clock.now()
      const over =
        metered.counts.reached?.(metered.quotas, 'PerSession', at) ?? server.reached(quotas, '', at)
      if (over !== undefined && over.name.startsWith('outBytes')) throw refusal(over)
      out(utf8Bytes(chunk), at)
      return chunk
    }
    if (isStream(body)) return { ...reply, body: countedStream(body, admit) }
    const chunks = body
    function* counted(): Iterable<string> {
      for (const chunk of chunks) yield admit(chunk)
    }
    return { ...reply, body: counted() }
  }

  return {
    get maxBodyBytes() {
      return core.maxBodyBytes
    },
    ...(core.bodyLimit ? { bodyLimit: (path: string) => core.bodyLimit!(path) } : {}),
    // The paths an HTTP request handler takes (web-server/http-handlers.ts) pass through.
    ...(core.handles ? { handles: (path: string) => core.handles!(path) } : {}),
    refuse: (error, request) => core.refuse(error, request),
    respond(request) {
      if (enforcesNone(quotas)) return core.respond(request)
      const now = ds.clock.now()
      const sid = sidOf(request, cookieName)
      const metered = meter(sid)
      const reached =
        (metered && metered.counts.reached(metered.quotas, 'PerSession', now)) ??
        server.reached(quotas, '', now)
      if (reached !== undefined) return core.refuse(refusal(reached), request)
      if (metered === undefined) {
        const full = sessionsFull()
        if (full !== undefined) return core.refuse(full, request)
      }
      const counted: Counted[] = [
        ['nbRequests', 1, now],
        ['inBytes', requestBytes(request), now],
      ]
      for (const [measure, amount, at] of counted) {
        server.add(measure, amount, at)
        metered?.counts.add(measure, amount, at)
      }
      const answered = (reply: RestReply, at: number): RestReply => {
        // A session the request opened, kept or closed is told to the other processes.
        if (sharedSessions !== undefined && countsSessions()) open()
        return sent(reply, metered ?? afterwards(sid, reply, counted), at)
      }
      const reply = core.respond(request)
      return isPending(reply)
        ? reply.then((r) => answered(r, ds.clock.now()))
        : answered(reply, now)
    },
  }
}
