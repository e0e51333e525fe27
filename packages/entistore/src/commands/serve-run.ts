/**
 * @module `entistore serve`, running: loads the files, joins PostgreSQL and Redis when asked,
 * listens, says what it serves, watches and saves as asked, and stops gracefully. Imported only
 * when `serve` runs (commands/serve.ts reads its flags), and what one flag needs (the cluster's
 * drivers, Redis, the forking of workers) is imported only when that flag is given.
 */
import { readFile } from 'node:fs/promises'
import { availableParallelism, totalmem } from 'node:os'
import type { DatastoreWith, ParallelPool } from '@entistore/core'
import { clusterWorker } from './cluster-worker.js'
import { createWorkerPool } from '../parallel/worker-pool.js'
import type { RestCore, RestHandlerOptions } from '@entistore/rest'
import { chaosListener, seededRandom } from '../serve/chaos.js'
import type { ClusterWrites } from '../cluster/cluster-core.js'
import { importOptionals } from '../cluster/optional-package.js'
import type { RedisParticipant } from '../cluster/redis/redis-participant.js'
import { withoutPassword } from '../cluster/redacted-url.js'
import { serverErrorLines } from '../serve/error-log.js'
import {
  requestLogLine,
  type RequestLogEntry,
  type RequestLogFormat,
} from '../serve/request-log.js'
import { dataBytesOf, heapAdvice } from '../load/heap-advice.js'
import { oldSpaceLimitNow } from '../load/heap-limit.js'
import { FileError } from '../files/file-error.js'
import { readJsonFile } from '../files/json-file.js'
import { clusterOf, loadDatastoreFiles } from '../load/load-files.js'
import { persistenceOf } from '../persist/persistences.js'
import { ServedCode } from '../project/code-changes.js'
import { projectFiles } from '../project/project-files.js'
import { projectHttpSettings } from '../project/http-settings.js'
import { serveQuotas } from '../project/quota-file.js'
import { serve, type RunningServer } from '../serve/serve.js'
import { stopSignal } from '../serve/signals.js'
import type { CliIo } from './cli-io.js'
import type { ServeCliOptions } from './serve-options.js'
import { hasChaos, Stops, watchedFiles, whileServing } from './serve-life.js'
import type { ServeLimits } from './serve-limits.js'
import { corsOptions } from './serve-cors.js'

async function loadUsers(file: string): Promise<RestHandlerOptions['authenticate']> {
  const json = await readJsonFile(file, 'users')
  const { usersAuthenticate } = await import('../serve/users.js')
  try {
    return usersAuthenticate(json)
  } catch (e) {
    throw new FileError(file, `the users file is not valid: ${(e as Error).message}`)
  }
}

/**
 * Loads the files of the command line. With --functions, a load after the first imports the module
 * again (a new version, `?v=N`) only when its bytes changed since the last import: a reload for a
 * data change reuses the module Node holds, and only versions the user wrote are kept in memory.
 */
function filesLoader(
  o: ServeCliOptions,
  io: CliIo,
  parallel: ParallelPool | undefined,
): (how?: { inSlices?: boolean }) => Promise<DatastoreWith<string>> {
  const files = {
    // One pool for every datastore this process serves (a reload's too).
    ...(parallel === undefined ? {} : { parallel }),
    ...(o.model === undefined ? {} : { model: o.model }),
    ...(o.project === undefined ? {} : { project: o.project }),
    // A model inferred from the data (what inference chose), or a project's (what Entistore does
    // not serve as 4D would): on stderr, before the URL line.
    onNote: (note: string) => io.err(`entistore: ${o.project ?? o.data}: ${note}`),
    progress: io.err,
    ...(o.data === undefined ? {} : { data: o.data }),
    ...(o.functions === undefined ? {} : { functions: o.functions }),
    ...(o.roles === undefined ? {} : { roles: o.roles }),
    ...(o.allowHttp.length === 0 ? {} : { allowHttp: o.allowHttp }),
    ...(o.allowSmtp.length === 0 ? {} : { allowSmtp: o.allowSmtp }),
    ...(o.allowExec.length === 0 ? {} : { allowExec: o.allowExec }),
    ...(o.codeLimits === undefined ? {} : { codeLimits: o.codeLimits }),
    ...(o.components.length === 0 ? {} : { components: o.components }),
    ...(o.persist === undefined ? {} : { persist: o.persist }),
    ...(o.postgres === undefined ? {} : { postgres: o.postgres }),
    eagerIndexes: o.eagerIndexes,
    ...io.datastoreOptions,
    ...(o.limits.maxSessions === undefined
      ? {}
      : {
          sessions: { ...io.datastoreOptions?.sessions, maxSessions: o.limits.maxSessions },
        }),
  }
  const loadFiles = watchedCode(o, io, loadDatastoreFiles)
  const module = o.functions
  if (module === undefined) return (how) => loadFiles({ ...files, ...how })
  let first = true
  let version = 0
  let imported: string | undefined
  return async (how) => {
    // A module that cannot be read is left to loadDatastoreFiles to report, naming it.
    const text = await readFile(module, 'utf8').catch(() => undefined)
    if (!first && text !== imported) version++
    first = false
    imported = text
    return loadFiles({ ...files, ...how, functionsVersion: version })
  }
}

/**
 * `load` as `serve --project --watch` runs it: a reload whose 4D code has a syntax error the served
 * code does not have fails (the last good version keeps running), and one that changes functions
 * says which in one line (project/code-changes.ts). `load` itself otherwise.
 */
function watchedCode(
  o: ServeCliOptions,
  io: CliIo,
  load: typeof loadDatastoreFiles,
): typeof loadDatastoreFiles {
  if (o.project === undefined || !o.watch) return load
  const code = new ServedCode()
  return async (options) => {
    const ds = await load({ ...options, onProjectCode: (facts) => code.check(facts) })
    const change = code.served()
    if (change !== undefined) io.out(change)
    return ds
  }
}

/**
 * The primary of `--workers N`: forks N workers running this same command line (each one, a
 * cluster worker, serves as one process does) and supervises them until the stop signal.
 */
async function runPrimary(o: ServeCliOptions, count: number, io: CliIo): Promise<number> {
  const { clusterFork, superviseWorkers } = await import('../serve/workers.js')
  if (!o.redis)
    io.err(
      'entistore: without --redis, each worker keeps its own sessions, locks and entity sets: ' +
        'a client whose next request reaches another worker is not known there',
    )
  return superviseWorkers({
    count,
    fork: io.forkWorker ?? clusterFork,
    out: io.out,
    err: io.err,
    stopSignal: io.stopSignal ?? stopSignal(),
    // Each worker stops within its own --shutdown-timeout; the margin is for its steps and exit.
    stopTimeoutMs: o.shutdownDelayMs + o.shutdownTimeoutMs + 2000,
  })
}

export async function runServe(o: ServeCliOptions, io: CliIo): Promise<number> {
  const worker = await clusterWorker()
  // pg and ioredis are optional peer dependencies: one not installed is said in one line before
  // anything starts (by the primary of --workers, once), and neither is loaded when not asked for.
  await importOptionals([
    ...(o.postgres === undefined
      ? []
      : [{ name: 'pg', neededBy: '--postgres', load: () => import('pg') }]),
    ...(o.redis === undefined
      ? []
      : [{ name: 'ioredis', neededBy: '--redis', load: () => import('ioredis') }]),
  ])
  // `auto` is one per CPU Node may use.
  const count = o.workers === 'auto' ? availableParallelism() : o.workers
  // Said once, before the load that would die at the heap's limit (workers inherit NODE_OPTIONS).
  if (worker === undefined && o.postgres === undefined) {
    const { bytes, what } = dataBytesOf(o.data, o.persist)
    const advice = heapAdvice({
      dataBytes: bytes,
      what,
      heapLimit: oldSpaceLimitNow(),
      totalMemory: totalmem(),
    })
    if (advice !== undefined) io.err(advice)
  }
  if (count > 1 && worker === undefined) return runPrimary(o, count, io)
  // Worker threads for reads over many rows (--threads): started by the first such read.
  const parallel =
    o.threads === 0
      ? undefined
      : createWorkerPool(o.threads === 'auto' ? {} : { threads: o.threads })
  const load = filesLoader(o, io, parallel)
  // A project's HTTP request handlers and rules, read at start only, as 4D reads them: a mistake
  // in one of their files stops the start, in one line naming the file and the place.
  const http = o.project === undefined ? {} : await projectHttpSettings(o.project)
  // Before the files are read: what --watch compares with once it watches (see noteServed).
  const loaded = o.watch
    ? await (await import('../serve/watch.js')).fileStamps(watchedFiles(o))
    : undefined
  let ds: DatastoreWith<string>
  try {
    ds = await load()
  } catch (e) {
    // A PostgreSQL that cannot be reached or refuses us (a system error's code, or its SQLSTATE:
    // a wrong password, no such database) is said in one line, like a file, not as a stack.
    const code = (e as { code?: unknown }).code
    if (o.postgres === undefined || typeof code !== 'string' || e instanceof FileError) throw e
    const target = typeof o.postgres === 'string' ? o.postgres : o.postgres.postgres
    const where = typeof target === 'string' ? ` at ${withoutPassword(target)}` : ''
    io.err(`entistore: cannot use PostgreSQL${where}: ${(e as Error).message} (${code})`)
    return 1
  }
  io.onLoaded?.()
  const auth =
    o.users === undefined ? {} : { authenticate: await loadUsers(o.users), forceLogin: true }
  // --quotas, else the project's QuotaManager.json: one that is malformed stops the start.
  const quotas = await serveQuotas(o.quotas, o.project, (f) => projectFiles(f).project)
  const chaos = hasChaos(o)
  const random = o.seed === undefined ? Math.random : seededRandom(o.seed)
  let shared: RedisParticipant | undefined
  if (o.redis !== undefined) {
    try {
      // Loaded only when asked: the driver costs every other start-up its import.
      const { connectRedis } = await import('../cluster/redis/connect.js')
      // One bound of read-your-writes: --max-lag is the sessions' lease too.
      const maxLagMs = typeof o.postgres === 'object' ? o.postgres.maxLagMs : undefined
      shared = await connectRedis(ds, {
        url: o.redis,
        ...(maxLagMs === undefined ? {} : { leaseMs: maxLagMs }),
      })
    } catch (e) {
      io.err(`entistore: ${(e as Error).message}`)
      return 1
    }
  }
  // Writes go through PostgreSQL's gate when there is one (Redis joins it), else Redis's alone.
  const pgCluster = clusterOf(ds)
  if (pgCluster && shared) pgCluster.share(shared)
  const writes =
    pgCluster ??
    (shared
      ? new (await import('../cluster/cluster-core.js')).ClusterWrites(ds, [shared])
      : undefined)
  // The PostgreSQL cluster closes the services it shares (Redis with it); Redis alone, here.
  const closeShared = async (): Promise<void> => {
    if (pgCluster) return pgCluster.close()
    await (writes as ClusterWrites | undefined)?.close()
    await shared?.close()
  }
  // The cluster's gate next to the handler, a test's wrapper around it all: a test's wrapper
  // sees the replies a client gets.
  const { wrapCore: outer, ...handlerOptions } = io.serveOptions ?? {}
  // Redis's outermost of the two: a reply waits until what it changed in Redis is known everywhere.
  const inner =
    writes && ((core: RestCore) => (shared ? shared.wrap(writes.wrap(core)) : writes.wrap(core)))
  const wrapCore = inner && outer ? (core: RestCore) => outer(inner(core)) : (inner ?? outer)
  // The quotas counted with every process serving, only when there are quotas (none, no
  // message): through Redis across machines, else through the primary across the workers.
  const viaPrimary = quotas !== undefined && !shared && worker !== undefined
  const { workerQuotaCounts, workerSessionCounts } = viaPrimary
    ? await import('./worker-io.js')
    : {}
  const sharedCounts =
    quotas === undefined
      ? undefined
      : shared
        ? shared.quotaCounts()
        : workerQuotaCounts?.(() => ds.clock.now())
  // The sessions nbSessions and nbGuestSessions count: those of every process, the same way.
  const sharedSessions =
    quotas === undefined ? undefined : shared ? shared.sessionCounts() : workerSessionCounts?.()
  let server: RunningServer
  try {
    server = await serve(ds, {
      ...http,
      ...handlerOptions,
      port: o.port,
      ...auth,
      ...(o.explorer === undefined ? {} : { explorer: { path: o.explorer } }),
      // Every 5xx, one line each on stderr (error-log.ts).
      onServerError: (error, request, status) => {
        for (const line of serverErrorLines(error, request, status, { stacks: o.verbose }))
          io.err(line)
      },
      ...(o.functionTimeoutMs === undefined ? {} : { functionTimeoutMs: o.functionTimeoutMs }),
      healthDetails: o.healthDetails,
      // The handler's options among them; maxSessions went to the datastore.
      ...withoutMaxSessions(o.limits),
      // A refused origin, a cookie that cannot come back: one line each on stderr (cors-notice-line.ts).
      ...(o.cors === undefined ? {} : { cors: corsOptions(o.cors, io.err) }),
      ...(quotas === undefined ? {} : { quotas }),
      ...(sharedCounts === undefined ? {} : { sharedCounts }),
      ...(sharedSessions === undefined ? {} : { sharedSessions }),
      ...(o.log === undefined ? {} : { onRequestDone: await requestLog(o.log, io, worker?.id) }),
      // A process that cannot vouch for what it holds (fenced, cut off) fails its health check.
      ...(pgCluster ? { healthProblem: () => pgCluster.unavailable() } : {}),
      // Which process answered, when there are several, and whether it runs the writes (with
      // --health-details): an operator, and the fault tests, find the writer this way.
      ...(worker || pgCluster?.writer !== undefined
        ? {
            healthFields: () => ({
              ...(worker ? { worker: worker.id, workers: count } : {}),
              ...(pgCluster?.writer === undefined ? {} : { writer: pgCluster.writer }),
            }),
          }
        : {}),
      ...(o.host === undefined ? {} : { host: o.host }),
      ...(wrapCore === undefined ? {} : { wrapCore }),
      ...(chaos
        ? {
            wrapListener: (listener, core) =>
              chaosListener(listener, core, {
                ...(o.delay === undefined ? {} : { delay: o.delay }),
                failRate: o.failRate ?? 0,
                random,
                ...(io.schedule ? { schedule: io.schedule } : {}),
              }),
          }
        : {}),
    })
  } catch (e) {
    await closeShared()
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') {
      io.err(
        `entistore: port ${o.port} is in use` +
          (o.host === undefined ? '' : ` on ${o.host}`) +
          ': pass --port 0 for a free one, or another port',
      )
      return 1
    }
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      io.err(`entistore: cannot listen on ${o.host ?? '127.0.0.1'}:${o.port} (${code})`)
    else throw e
    return 1
  }
  // After the last request is answered (last added, first run): the journal's last batch on
  // disk and its folder let go; PostgreSQL's and Redis's connections closed.
  server.onShutdown(closeShared)
  server.onShutdown(() => persistenceOf(server.ds)?.close())
  if (parallel !== undefined) server.onShutdown(() => parallel.close())
  const stops = new Stops()
  try {
    return await whileServing(o, io, load, server, stops, loaded)
  } finally {
    // Also when something threw while serving (fs.watch out of watches, onListening): a server
    // left open would keep the process alive with main() already returned. After a shutdown,
    // this only waits for it, whose errors whileServing told; on the way out of a throw, the
    // error main reports is the one that got us here.
    stops.stopAll()
    await server.close().catch(() => {})
  }
}

/**
 * Where each request's entry goes: the process's stdout through the logging thread
 * (`io.requestLog`: log-output/threaded-log.ts), else a line made here for `io.log`. A worker of
 * `--workers N` writes its own lines itself rather than send them to the primary: a message a
 * request through the cluster's channel would cost more than the request.
 */
async function requestLog(
  format: RequestLogFormat,
  io: CliIo,
  worker: number | undefined,
): Promise<(entry: RequestLogEntry) => void> {
  if (io.requestLog !== undefined) return io.requestLog(format, worker)
  const write = io.log ?? io.out
  return (entry) => write(requestLogLine(entry, format, worker))
}

function withoutMaxSessions({
  maxSessions: _,
  ...handlerLimits
}: ServeLimits): Omit<ServeLimits, 'maxSessions'> {
  return handlerLimits
}
