/**
 * @module The node:http listener: `createServer(toNodeListener(handler))`. A thin mapping from
 * IncomingMessage / ServerResponse onto the plain core (`RestCore.respond`): it never builds a web
 * Request, Headers or stream, which cost ten times the answer to a read by key. The path comes from
 * the request line only; the Host header is checked, never used. Bodies are read within the
 * handler's limit, the listener's budget of bytes in flight and its body timeout (read-body.ts),
 * replies written with backpressure (write-reply.ts).
 *
 * `respond` is synchronous (but for calls of async functions, below): a long query holds the event
 * loop, and the requests that arrive meanwhile are read only once it ends. While the loop is idle a
 * request is answered at once. Once one has run long (`SLOW_MS`), the next ones queue (FIFO) and
 * run two turns of the event loop or more after they were read, so that node has seen which of
 * their clients went away while they waited: those are skipped, their work never done. Each request
 * carries the time it was read (`receivedAt`), so the time it waited counts against its time budget
 * (`queryBudgetMs`).
 *
 * A call of an async function is answered with a Promise (`isPending`): the listener goes on with
 * the next requests and writes that reply when it settles, unless its client has gone meanwhile
 * (only the synchronous part of the call counts as running long). Every other reply is answered
 * at once, with no Promise, and written at the end of the turn with the others answered in it
 * (reply-batch.ts: one wake-up of the clients for a burst). The replies of one keep-alive connection
 * still leave in request order: node:http gives a connection's responses the socket one after the
 * other, and keeps what is written to a later one until the earlier ones have ended.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { datastoreError } from '@entistore/core'
import {
  bodyLimitOf,
  isPending,
  readsBody,
  type RefusedRequest,
  type RestCore,
  type RestReply,
  type RestRequest,
} from '../exchange.js'
import { isHostHeader, splitTarget, type RequestTarget } from '../url/request-target.js'
import {
  BodiesInFlight,
  type BodyCounters,
  type BodyReadOptions,
} from '../body/bodies-in-flight.js'
import { lingerAfterAnswer, type LingerBounds } from './linger.js'
import { readBody } from './read-body.js'
import { ReplyBatch } from './reply-batch.js'
import { Outbox, writeReply, type BackpressureOptions } from './write-reply.js'

export interface NodeListenerOptions extends BackpressureOptions, BodyReadOptions {
  /**
   * The request target to serve; Express under a mount path needs `(req) => req.originalUrl`.
   * @default req.url
   */
  readonly url?: (req: IncomingMessage) => string
  /**
   * The body of a request whose stream something in front of the listener has already read (a
   * framework's body parser), as it kept it: bytes or text as sent, or undefined when it kept none.
   * Asked only when the stream has ended before the listener could read it; without it, or when it
   * gives undefined, such a request is answered 400 (9030) saying the body was read before.
   */
  readonly parsedBody?: (req: IncomingMessage) => Uint8Array | string | undefined
  /**
   * Whether the server is stopping: a reply written while it says so carries `Connection: close`,
   * so that its client opens its next connection elsewhere (or to the server restarted). Asked as
   * each reply is written, those answered before the stop and written after it included.
   * @default never
   */
  readonly closing?: () => boolean
}

export interface NodeListener extends BodyCounters {
  (req: IncomingMessage, res: ServerResponse): void
  /** Bytes now held for replies waiting for their clients to read (what `maxUnsentBytes` bounds). */
  readonly unsentBytes: number
  /** Replies now waiting for their clients to read. */
  readonly stalledReplies: number
  /** Requests queued behind a long one, not yet answered. */
  readonly queuedRequests: number
  /** Requests never answered because their clients went away while they waited (since start). */
  readonly abandonedRequests: number
  /** Replies now waiting for an async function to settle. */
  readonly pendingReplies: number
  /** Replies answered in this turn of the event loop, written at its end (reply-batch.ts). */
  readonly batchedReplies: number
}

// The connection is closed after a refused body (413, 503, 408): the rest of it is not worth
// reading to keep the connection (but is read and dropped before the close, linger.ts).
const CLOSE = Object.freeze({ connection: 'close' })

const READ_BEFORE =
  'it was read before it reached Entistore (by a body parser in front of it?) and not handed ' +
  'over: mount Entistore before the body parser, or use an adapter that takes the parsed body'

/** A request that runs longer than this has held the loop: the ones read after it queue. */
const SLOW_MS = 10
/**
 * Turns of the event loop a queued request waits after it was read. Node reads a connection's
 * end in a later turn than its request, and closes the socket later still: with less than two
 * turns, clients that had gone away while the loop was held were not seen to (measured with the
 * server in a child process).
 */
const WAIT_TURNS = 2
/**
 * Turns, after the last one that ran long or skipped a request, during which queued requests wait
 * `WAIT_TURNS`. After a long run node accepts the connections that queued meanwhile about one a
 * turn, so abandoned requests trickle in for a while; then the queue drains without waiting, so
 * that a pause (a garbage collection) under steady load does not add turns to every request.
 */
const STRICT_TURNS = 8

interface Job {
  readonly turn: number
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly run: () => void
}

/** Whether a body was refused because it stopped arriving (its client no longer sends). */
const isTimeout = (refusal: object): boolean =>
  (refusal as { name?: string }).name === 'BodyTimeout'

/** Whether the reply can no longer reach the client: its connection is closed or ending. */
function gone(req: IncomingMessage, res: ServerResponse): boolean {
  const socket = req.socket as IncomingMessage['socket'] | undefined
  return res.destroyed || (socket !== undefined && (socket.destroyed || !socket.writable))
}

/** The plain request `respond` takes, from node's request and what the listener read of it. */
function plainRequest(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  target: RequestTarget,
  receivedAt: number,
  body: Uint8Array | string | undefined,
): RestRequest {
  return {
    method,
    path: target.path,
    query: target.query,
    headers: req.headers,
    remoteAddress: req.socket.remoteAddress,
    receivedAt,
    body,
    closed: () => gone(req, res),
  }
}

/** A node:http request listener serving `core` (the object `createRestHandler` returns). */
export function toNodeListener(core: RestCore, options: NodeListenerOptions = {}): NodeListener {
  const outbox = new Outbox(options)
  const bodies = new BodiesInFlight(options)
  // A refused body's rest is read for the body timeout at most, and up to twice what the path
  // takes: every 503 (a body the path takes) and a 413 just past the limit reach their clients,
  // and a refusal never costs more than reading two bodies the server would have taken.
  const lingerBounds = (limit: number): LingerBounds => ({
    maxBytes: 2 * bodies.limit(limit),
    ms: bodies.timeoutMs,
    schedule: bodies.schedule,
  })
  const targetOf = options.url ?? ((req: IncomingMessage) => req.url ?? '/')

  const closing = options.closing
  /**
   * Writes `reply`. A reply node refuses to write (a header value it does not allow) becomes a 500,
   * like any other failure, while its status can still be sent; after that, the connection is cut.
   */
  const deliver = (res: ServerResponse, reply: RestReply): void => {
    try {
      writeReply(res, reply, outbox, closing?.() === true ? CLOSE : undefined)
    } catch (error) {
      if (res.headersSent) res.destroy()
      else {
        // What the failed write set is undone: its headers, its reason phrase.
        for (const name of res.getHeaderNames()) res.removeHeader(name)
        res.statusMessage = ''
        writeReply(res, core.refuse(error), outbox, closing?.() === true ? CLOSE : undefined)
      }
    }
  }

  // The replies answered in this turn, written together at its end (reply-batch.ts says why).
  // One whose client went away meanwhile is not written; nothing thrown stops the others.
  const batch = new ReplyBatch<RestReply>((res, reply) => {
    try {
      if (res.destroyed || res.writableEnded) return
      const socket = res.socket
      if (socket !== null && (socket.destroyed || !socket.writable)) res.destroy()
      else deliver(res, reply)
    } catch {
      res.destroy()
    }
  })

  let pending = 0

  /**
   * Writes the reply of an async function's call once it settles, unless its client went away
   * meanwhile. The Promise should not reject; if it does, the reply is the core's 500. Nothing
   * here throws: no rejection is left unhandled.
   */
  const later = (req: IncomingMessage, res: ServerResponse, reply: Promise<RestReply>): void => {
    pending++
    reply.then(
      (settled) => arrived(req, res, settled, undefined),
      (error: unknown) => arrived(req, res, undefined, error),
    )
  }
  const arrived = (
    req: IncomingMessage,
    res: ServerResponse,
    reply: RestReply | undefined,
    error: unknown,
  ): void => {
    pending--
    try {
      // The core's 500 also reports the error (onInternalError), client gone or not.
      const settled = reply ?? core.refuse(error, req)
      if (gone(req, res)) res.destroy()
      else deliver(res, settled)
    } catch {
      res.destroy()
    }
  }

  const respond = (req: IncomingMessage, res: ServerResponse, request: RestRequest): void => {
    let reply
    try {
      reply = core.respond(request)
    } catch (error) {
      reply = core.refuse(error, request)
    }
    if (isPending(reply)) later(req, res, reply)
    else batch.add(res, reply)
  }

  // The queue of requests read while, or after, the loop was held. `pumping` while it is in use
  // (a pump is scheduled): requests arriving then queue behind the others, in order.
  let queue: (Job | undefined)[] = []
  let head = 0
  let turn = 0
  let strict = 0
  let pumping = false
  let abandoned = 0

  // Runs the queued requests whose turn has come, within SLOW_MS. True when one ran long or was
  // abandoned: then the next ones keep waiting their turns.
  const drain = (): boolean => {
    const start = performance.now()
    let held = false
    while (head < queue.length) {
      const job = queue[head]!
      if (strict > 0 && job.turn + WAIT_TURNS > turn) break
      queue[head++] = undefined
      if (gone(job.req, job.res)) {
        abandoned++
        held = true
        job.res.destroy()
        continue
      }
      job.run()
      if (performance.now() - start > SLOW_MS) return true
    }
    return held
  }

  const pump = (): void => {
    turn++
    let held = true
    try {
      held = drain()
    } finally {
      // Also after a throw (an embedder's uncaughtException handler): the queue must go on.
      settle(held)
    }
  }

  const settle = (held: boolean): void => {
    strict = held ? STRICT_TURNS : strict > 0 ? strict - 1 : 0
    if (head === queue.length) {
      if (head > 0) queue = []
      head = 0
      if (strict === 0) {
        pumping = false
        return
      }
    }
    setImmediate(pump)
  }

  /** Runs `run` now while the loop is free, else queues it. */
  const schedule = (req: IncomingMessage, res: ServerResponse, run: () => void): void => {
    if (!pumping) {
      const start = performance.now()
      run()
      if (performance.now() - start <= SLOW_MS) return
      // It held the loop: the requests read meanwhile queue, and wait to be seen to be still
      // wanted.
    } else {
      queue.push({ turn, req, res, run })
      return
    }
    pumping = true
    strict = STRICT_TURNS
    setImmediate(pump)
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const receivedAt = Date.now()
    const target = targetOf(req)
    const split = splitTarget(target)
    if (split === undefined) {
      // An absolute-form target whose authority is no host (`GET http://[/rest/…`).
      writeReply(
        res,
        core.refuse(datastoreError('UrlMalformed', [target, 'not a valid URL']), req),
        outbox,
      )
      return
    }
    const host = req.headers.host
    if (host !== undefined && !isHostHeader(host)) {
      const why = `its Host header "${host}" is not a host`
      const refused = { headers: req.headers, path: split.path }
      writeReply(res, core.refuse(datastoreError('UrlMalformed', [target, why]), refused), outbox)
      return
    }
    const method = req.method ?? 'GET'
    // A request without a body (most) makes no closure to wait for one.
    if (!readsBody(core, method, split.path)) {
      const request = plainRequest(req, res, method, split, receivedAt, undefined)
      schedule(req, res, () => respond(req, res, request))
      return
    }
    const run = (body: Uint8Array | string): void => {
      const request = plainRequest(req, res, method, split, receivedAt, body)
      schedule(req, res, () => respond(req, res, request))
    }
    // A file POSTed as raw bytes ($upload) may be larger than a JSON body: the core says.
    const limit = bodyLimitOf(core, split.path)
    // What a refusal of the body knows of the request: HTTP rules match its path.
    const refused = { headers: req.headers, path: split.path }
    if (req.readableEnded) runRead(req, res, run, limit, refused)
    else
      readBody(req, limit, bodies, (body) => {
        if (body instanceof Buffer) return run(body)
        // A client still sending reads its 413 or 503 (408: it stopped sending, nothing to wait for).
        if (!isTimeout(body)) lingerAfterAnswer(req, lingerBounds(limit))
        writeReply(res, core.refuse(body, refused), outbox, CLOSE)
      })
  }

  /** A request whose body was read before the listener saw it: takes what the reader kept. */
  const runRead = (
    req: IncomingMessage,
    res: ServerResponse,
    run: (body: Uint8Array | string) => void,
    limit: number,
    refused: RefusedRequest,
  ): void => {
    // A body parser turns an empty body into `{}`: a zero length says there was none.
    const body = req.headers['content-length'] === '0' ? '' : options.parsedBody?.(req)
    if (body === undefined) {
      const unread = datastoreError('BadRequestBody', [READ_BEFORE])
      writeReply(res, core.refuse(unread, refused), outbox)
      return
    }
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
    if (size > limit) {
      const tooLarge = datastoreError('BodyTooLarge', [limit])
      writeReply(res, core.refuse(tooLarge, refused), outbox)
      return
    }
    run(body)
  }

  return Object.defineProperties(listener, {
    unsentBytes: { get: () => outbox.unsentBytes },
    stalledReplies: { get: () => outbox.waiting.size },
    queuedRequests: { get: () => queue.length - head },
    abandonedRequests: { get: () => abandoned },
    pendingReplies: { get: () => pending },
    batchedReplies: { get: () => batch.size },
    ...bodies.counters(),
  }) as NodeListener
}
