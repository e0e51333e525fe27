/**
 * @module Serving a datastore over node:http: the REST interface at /rest, a health endpoint
 * beside it, the data explorer's page at / when asked (explorer/explorer-files.ts), and a graceful
 * stop.
 *
 * The health endpoint (`GET /health` by default) is for load balancers and orchestrators: 200
 * while the server takes requests, 503 once it is stopping (or when its journal has failed), so
 * that they stop sending before the port closes. Real 4D has none; it lives outside the REST base
 * path and says nothing of the data. It answers anyone, without a login (a balancer has none), so
 * by default it says only `{"status": …}`: the process id, uptime, session counts and worker
 * number tell an attacker when the server restarted and how a flood of sessions is doing, and are
 * shown only when `healthDetails` asks for them.
 *
 * `shutdown()` stops the way a deployment needs: optionally a delay first, serving but failing the
 * health check so that a load balancer polling it moves away; then no new connections, every
 * request already read answered (writes included), idle keep-alive connections closed, then the
 * steps registered with `onShutdown` (a journal's close, a pool's end) run, last registered
 * first. A deadline bounds it all after the delay: past it, the connections left are destroyed
 * and the result says `forced`.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { Datastore } from '@entistore/core'
import {
  asLiveQuotas,
  createRestHandler,
  sessionCookieName,
  type RestCore,
  type RestHandlerOptions,
  type WebQuotas,
} from '@entistore/rest'
import {
  clientErrorListener,
  toNodeListener,
  type BackpressureOptions,
  type BodyReadOptions,
  type NodeListener,
} from '@entistore/rest/node'
import type { ExplorerOptions } from '../explorer/explorer-files.js'
import { realSchedule, type Schedule } from './chaos.js'
import { memoryNow, type HealthMemory } from './memory-now.js'
import { persistenceOf } from '../persist/persistences.js'
import type { RequestLogEntry } from './request-log.js'
import { http } from '../node-http.js'
import { logClosed, tappedResponse } from './request-tap.js'
import { announceServing } from '../project/web-server-host.js'

/**
 * Something to close when the server stops, after the last request is answered: a journal, a
 * database pool, a subscription. May be async; a rejection is reported, not thrown.
 */
export type ShutdownStep = () => void | Promise<void>

export interface ShutdownOptions {
  /**
   * How long the server keeps serving, with the health endpoint answering 503, before it stops
   * taking connections: the time a load balancer that polls it needs to stop sending it any.
   * Every reply meanwhile says `Connection: close`, so that clients open new connections, which
   * the balancer sends elsewhere. @default 0
   */
  readonly delayMs?: number
  /**
   * How long in-flight requests and the shutdown steps may take, in milliseconds; past it, the
   * connections left are destroyed and steps still running are left behind. @default 10_000
   */
  readonly timeoutMs?: number
}

export interface ShutdownResult {
  /** The time ran out: connections were destroyed, or a step had not finished. */
  readonly forced: boolean
  /** Requests that were still unanswered when their connections were destroyed. */
  readonly dropped: number
  /** What the shutdown steps threw or rejected with. */
  readonly errors: readonly unknown[]
}

export interface ServeOptions extends RestHandlerOptions, BackpressureOptions, BodyReadOptions {
  /** 0 picks a free port. @default 8080 */
  readonly port?: number
  /** @default '127.0.0.1' */
  readonly host?: string
  /**
   * Largest request line and headers, in bytes; a larger request head is refused with 431.
   * @default 16_384 (Node's)
   */
  readonly maxHeaderBytes?: number
  /**
   * Wraps the node listener before the server uses it: the CLI's `--delay` and `--fail-rate` slow
   * down or fail requests this way (chaos.ts), in front of an unchanged REST interface. `core`
   * gives the interface's own error replies (`core.refuse(error)`).
   */
  readonly wrapListener?: (listener: NodeListener, core: RestCore) => RequestListener
  /**
   * Serve the data explorer, a page that browses the datastore through this REST interface
   * (docs/explorer.md): `true` at `/`, or `{ path }`. The CLI turns it on. @default false
   */
  readonly explorer?: boolean | Omit<ExplorerOptions, 'restPath'>
  /**
   * Wraps the REST interface before the listener uses it: `joinCluster`'s `wrap` puts writes in
   * line across processes this way (cluster/cluster-core.ts).
   */
  readonly wrapCore?: (core: RestCore) => RestCore
  /**
   * The path of the health endpoint (GET and HEAD, outside authentication), or false for none. It
   * is matched before the REST interface, so it must not be a path the interface serves.
   * @default '/health'
   */
  readonly healthPath?: string | false
  /**
   * Whether the health reply shows more than its status: the process id, uptime, global stamp,
   * sessions, requests in flight, the journal's state, the process's memory (heap used, the heap's
   * limit, RSS) and `healthFields`. The endpoint answers
   * anyone, logged in or not: turn this on only where its port is reachable by operators alone (a
   * private network, a balancer's health port). @default false: `{"status": "ok"}` and the like
   */
  readonly healthDetails?: boolean
  /**
   * More fields for the detailed health reply (`healthDetails`; the CLI adds its worker's
   * number). Called on every health request: it must be cheap, and say nothing about the data.
   */
  readonly healthFields?: () => Readonly<Record<string, unknown>>
  /**
   * Why this process should not be sent requests now, or undefined: the health endpoint then
   * answers 503 `failing`, with it as `reason` (a process of a cluster that cannot vouch for what
   * it holds: `cluster.unavailable()`). Called on every health request: it must be cheap.
   */
  readonly healthProblem?: () => string | undefined
  /**
   * Called for each request the server takes, once its reply is sent or cut short, with what a
   * request log writes: method, target, status, time, bytes of the body, the session's user
   * (`entistore serve` prints a line each: `requestLogLine`). The target is as sent: mask it before
   * writing it anywhere (`requestLogLine` does). Without it nothing is measured.
   */
  readonly onRequestDone?: (entry: RequestLogEntry) => void
  /** Steps to run when the server stops (`shutdown`, `close`); `onShutdown` adds more later. */
  readonly onShutdown?: readonly ShutdownStep[]
  /**
   * Runs the shutdown deadline and, in the REST handler, the time limit of function calls (tests
   * decide when they pass). @default setTimeout
   */
  readonly schedule?: Schedule
}

export interface RunningServer {
  /** `http://HOST:PORT`, with the port actually bound. */
  readonly url: string
  readonly port: number
  readonly server: Server
  /**
   * The listener: its `unsentBytes` and `stalledReplies` say what slow clients hold, its
   * `pendingReplies` how many calls of async functions are not answered yet.
   */
  readonly listener: NodeListener
  /**
   * The web server quotas in force (4D's `WebServer.quotas`, docs/web-server.md): set one to
   * change it for the next requests, undefined to stop enforcing it.
   */
  readonly quotas: WebQuotas
  /** The datastore served now (the last one given to `replace`). */
  readonly ds: Datastore
  /**
   * Serves `ds` from now on, on the same port and with the same options (the CLI's `--watch`).
   * Requests already being answered finish on the previous datastore; its sessions, entity sets
   * and locks are not carried over.
   */
  replace(ds: Datastore): void
  /** True once `shutdown` or `close` was called: the health endpoint answers 503. */
  readonly stopping: boolean
  /** Requests read and not answered yet. */
  readonly inFlight: number
  /** Adds a step to run when the server stops; returns the function that removes it. */
  onShutdown(step: ShutdownStep): () => void
  /**
   * Stops gracefully: after `delayMs` (serving, the health check failing), refuses new connections, answers the requests already read (their replies
   * say `Connection: close`), closes idle connections, then runs the shutdown steps, last added
   * first, each awaited. Bounded by `timeoutMs`. Calling it again returns the same promise.
   */
  shutdown(options?: ShutdownOptions): Promise<ShutdownResult>
  /**
   * Stops now: every connection is destroyed at once, then the shutdown steps run, each awaited
   * without a deadline. Rejects with the first error of a step. After `shutdown`, waits for it.
   */
  close(): Promise<void>
}

/**
 * The health reply: `status` alone, or with `healthDetails` what an operator wants at a glance
 * after it (undefined without).
 */
export interface HealthReply {
  readonly status: 'ok' | 'stopping' | 'failing'
  readonly pid?: number
  /** Seconds since the server started listening. */
  readonly uptime?: number
  /** The datastore's global stamp: it grows with every write, so two polls tell writes apart. */
  readonly globalStamp?: number
  /** Open REST sessions, guests included. */
  readonly sessions?: number
  readonly inFlight?: number
  /** The worker threads of its reads over many rows, and the runs they were asked for so far. */
  readonly parallel?: { readonly threads: number; readonly runs: number }
  /** With `--persist`: the journal's state; `failed` makes the status `failing` (503). */
  readonly persist?: 'open' | 'failed' | 'closed'
  /** Why the status is `failing`, when `healthProblem` says (shown without `healthDetails` too). */
  readonly reason?: string
  /** This process's memory, in bytes (see `memoryNow`). */
  readonly memory?: HealthMemory
  readonly [field: string]: unknown
}

/** Starts an HTTP server for `ds`; resolves once it is listening. */
export async function serve(ds: Datastore, options: ServeOptions = {}): Promise<RunningServer> {
  const maxHeaderBytes = options.maxHeaderBytes ?? http.maxHeaderSize
  const explorer = options.explorer === true ? {} : options.explorer || undefined
  // The page's module only when the page is served: a server without it does not import it.
  const page = explorer && (await import('../explorer/explorer-files.js'))
  // Everything made from the datastore, in one object so that `replace` swaps it in one step.
  // One set of quotas for every datastore served: `replace` keeps what was set at run time.
  const quotas = asLiveQuotas(options.quotas, ds.clock)
  const host = options.host ?? '127.0.0.1'
  let boundPort = options.port ?? 8080
  const build = (served: Datastore) => {
    const handler = createRestHandler(served, { ...options, quotas })
    // What the project's 4D code reads with `WEB Server` and `WEB Get server info`.
    const counted = announceServing(served, {
      name: served.name,
      get HTTPPort() {
        return boundPort
      },
      IPAddressToListen: host,
      maxRequestSize: options.maxBodyBytes ?? 2_000_000,
      sessionCookieName: options.sessionCookieName ?? sessionCookieName(served.name),
      sessionCookieSameSite: options.sessionCookieSameSite ?? 'Strict',
      quotas: quotas as Record<string, number | undefined>,
      rules: options.rules ?? [],
    })
    // With `persist`, a reply waits until the writes before it are on disk (a picture's record
    // is written off the event loop: persist/durable-replies.ts).
    const durable = persistenceOf(served)?.wrap(handler) ?? handler
    const listener = toNodeListener(options.wrapCore ? options.wrapCore(durable) : durable, {
      ...options,
      // Once the server stops, the replies still on their way tell their clients it closes.
      closing: () => stopping,
    })
    const outer = options.wrapListener ? options.wrapListener(listener, handler) : listener
    const wrapped = counted(outer)
    return {
      ds: served,
      listener,
      wrapped: page
        ? page.explorerListener(wrapped, {
            ...explorer,
            restPath: handler.basePath,
            // 4D's setAdminProtection(true) turns off its Data Explorer: this one too.
            disabled: () => served.isAdminProtected() || explorer.disabled?.() === true,
          })
        : wrapped,
      clientError: clientErrorListener(handler, { maxHeaderBytes }),
      // Whose session a request is, for the request log.
      sessions: {
        store: served.sessions,
        cookieName: options.sessionCookieName ?? sessionCookieName(served.name),
        basePath: handler.basePath,
      },
    }
  }
  let current = build(ds)
  const healthPath = options.healthPath ?? '/health'
  const steps = [...(options.onShutdown ?? [])]
  // How many replies are not sent yet: a shutdown waits for them (the listener marks those it
  // writes after the stop `Connection: close`). A count, not a Set of the responses: a response
  // put in a long-lived Set or Map for its short life, even deleted at once, left about a quarter
  // of what each request allocated alive at the next scavenge, carried into the old generation
  // and collected there (V8's --trace-gc-nvp, GETs by key: 393 MB of 1,513 MB survived, against
  // 23 MB with a count; the collector's pauses 485 → 80 ms over 4 s).
  let inFlight = 0
  // Those of them that are live feeds (server-sent events): a stop ends them rather than wait.
  const feeds = new Set<ServerResponse>()
  let stopping = false
  let started = 0
  let drained: (() => void) | undefined
  const requestDone = options.onRequestDone
  // One listener for every reply (no closure per request), which also hands a log its entry.
  function forget(this: ServerResponse): void {
    inFlight--
    // Only where there are feeds (server-sent events, rare): most replies are in no Set.
    if (feeds.size > 0) feeds.delete(this)
    if (requestDone !== undefined) logClosed(this, current.sessions, requestDone)
    if (!stopping) return
    // The connection of the reply just sent is idle now: close it rather than keep it alive.
    server.closeIdleConnections()
    if (inFlight === 0) drained?.()
  }

  const health = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-length': '0' }).end()
      return
    }
    const persist = persistenceOf(current.ds)?.state
    const problem = stopping ? undefined : options.healthProblem?.()
    const status = stopping
      ? 'stopping'
      : persist === 'failed' || problem !== undefined
        ? 'failing'
        : 'ok'
    const reason = problem === undefined ? {} : { reason: problem }
    const reply: HealthReply = !options.healthDetails
      ? { status, ...reason }
      : {
          status,
          ...reason,
          pid: process.pid,
          uptime: Math.round(performance.now() - started) / 1000,
          globalStamp: current.ds.globalStamp,
          sessions: current.ds.sessions.size,
          inFlight: inFlight - 1, // not this one
          ...(current.ds.parallel === undefined
            ? {}
            : {
                parallel: {
                  threads: current.ds.parallel.threads,
                  runs: current.ds.parallel.runs ?? 0,
                },
              }),
          ...(persist === undefined ? {} : { persist }),
          memory: memoryNow(),
          ...options.healthFields?.(),
        }
    const body = JSON.stringify(reply)
    res.writeHead(reply.status === 'ok' ? 200 : 503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  const server = http.createServer(
    {
      maxHeaderSize: maxHeaderBytes,
      ...(requestDone === undefined
        ? {}
        : { ServerResponse: tappedResponse(() => current.sessions) }),
    },
    (req, res) => {
      inFlight++
      res.on('close', forget)
      if (isFeedPath(pathOf(req.url))) {
        feeds.add(res)
      }
      if (stopping) res.setHeader('connection', 'close')
      if (healthPath !== false && pathOf(req.url) === healthPath) health(req, res)
      else current.wrapped(req, res)
    },
  )
  // Node answers a request head past maxHeaderSize, or bytes that are not HTTP, with a bare status;
  // this answers with the __ERROR body every other refusal has.
  server.on('clientError', (error: Error, socket) => current.clientError(error, socket))

  /** Stops the server: see RunningServer.shutdown; `boundSteps` false lets the steps run on. */
  const stop = async (
    delayMs: number,
    timeoutMs: number,
    boundSteps: boolean,
  ): Promise<ShutdownResult> => {
    stopping = true
    const schedule = options.schedule ?? realSchedule
    if (delayMs > 0) await new Promise<void>((resolve) => schedule(resolve, delayMs))
    let timedOut = false
    let cancel = (): void => {}
    const deadline = new Promise<void>((resolve) => {
      const expire = (): void => {
        timedOut = true
        resolve()
      }
      if (timeoutMs <= 0) expire()
      else cancel = schedule(expire, timeoutMs)
    })
    // A live feed's stream (`/rest/$changes`) never finishes by itself: ended now, its client
    // reconnects (to another process, or to this one restarted) with its Last-Event-ID and
    // misses nothing. Waiting for it would hold the stop until its timeout.
    for (const res of feeds) res.end()
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeIdleConnections()
    const allAnswered = new Promise<void>((resolve) => {
      drained = resolve
      if (inFlight === 0) resolve()
    })
    await Promise.race([allAnswered.then(() => closed), deadline])
    let dropped = 0
    if (timedOut) {
      dropped = inFlight
      server.closeAllConnections()
      await closed
    }
    const errors: unknown[] = []
    let unfinished = false
    for (const step of steps.splice(0).reverse()) {
      // Called at once, even past the deadline: a synchronous step (a journal's close) always runs.
      let ran: unknown
      try {
        ran = step()
      } catch (e) {
        errors.push(e)
        continue
      }
      if (!(ran instanceof Promise)) continue
      const settled = ran.then(
        () => true,
        (e: unknown) => (errors.push(e), true),
      )
      if (!boundSteps) await settled
      else if (!(await Promise.race([settled, deadline.then(() => false)]))) unfinished = true
    }
    cancel()
    return { forced: timedOut || unfinished, dropped, errors }
  }
  let stopped: Promise<ShutdownResult> | undefined

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject)
      started = performance.now()
      const { port } = server.address() as AddressInfo
      boundPort = port
      const shown = host.includes(':') ? `[${host}]` : host
      resolve({
        url: `http://${shown}:${port}`,
        port,
        server,
        quotas,
        get listener() {
          return current.listener
        },
        get ds() {
          return current.ds
        },
        get stopping() {
          return stopping
        },
        get inFlight() {
          return inFlight
        },
        replace: (next) => {
          current = build(next)
        },
        onShutdown: (step) => {
          steps.push(step)
          return () => {
            const at = steps.indexOf(step)
            if (at >= 0) steps.splice(at, 1)
          }
        },
        shutdown: ({ delayMs = 0, timeoutMs = 10_000 } = {}) =>
          (stopped ??= stop(delayMs, timeoutMs, true)),
        close: async () => {
          const { errors } = await (stopped ??= stop(0, 0, false))
          if (errors.length > 0) throw errors[0]
        },
      })
    })
  })
}

/** The path of a request target, without its query. */
const pathOf = (url: string | undefined): string => {
  const q = url?.indexOf('?') ?? -1
  return q < 0 ? (url ?? '') : url!.slice(0, q)
}

/** Whether `path` asks for the live feed (`/rest/$changes`, `/rest/Employee/$changes`). */
const isFeedPath = (path: string): boolean => /\/\$changes\/?$/.test(path)
