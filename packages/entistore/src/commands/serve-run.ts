/**
 * @module `entistore serve`, running: loads the files, joins PostgreSQL and Redis when asked,
 * listens, says what it serves, watches and saves as asked, and stops gracefully. Imported only
 * when `serve` runs (commands/serve.ts reads its flags), and what one flag needs (the cluster's
 * drivers, Redis, the forking of workers) is imported only when that flag is given.
 */
import cluster from 'node:cluster'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { availableParallelism, totalmem } from 'node:os'
import type { Datastore, DatastoreWith, ParallelPool } from '@entistore/core'
import { createWorkerPool } from '../parallel/worker-pool.js'
import type { RestCore, RestHandlerOptions } from '@entistore/rest'
import { chaosListener, seededRandom } from '../chaos.js'
import type { Cluster } from '../cluster/join-cluster.js'
import type { ClusterWrites } from '../cluster/cluster-core.js'
import { importOptionals } from '../cluster/optional-package.js'
import type { RedisParticipant } from '../cluster/redis/redis-participant.js'
import { withoutPassword } from '../cluster/redacted-url.js'
import { serverErrorLines } from '../error-log.js'
import { requestLogLine, type RequestLogEntry } from '../request-log.js'
import { dataBytesOf, heapAdvice } from '../heap-advice.js'
import { oldSpaceLimitNow } from '../heap-limit.js'
import { clusterOf, FileError, loadDatastoreFiles, readJsonFile } from '../load-files.js'
import { persistenceOf } from '../persist/create-datastore.js'
import { ServedCode } from '../project/code-changes.js'
import { projectFiles } from '../project/load-project.js'
import { projectHttpSettings } from '../http-settings.js'
import { serveQuotas } from '../project/quota-file.js'
import type { Persistence } from '../persist/persist.js'
import { turnDeadline } from '../persist/take-slice.js'
import { serve, type RunningServer } from '../serve.js'
import { stopSignal } from '../signals.js'
import type { CliIo } from './cli-io.js'
import type { ServeCliOptions } from './serve-options.js'
import type { ServeLimits } from './serve-limits.js'
import { corsOptions } from './serve-cors.js'

/** SIGUSR2 asks for a save; Windows has no such signal (only the save on exit is left there). */
function sigusr2(save: () => void): () => void {
  if (process.platform === 'win32') return () => {}
  process.on('SIGUSR2', save)
  return () => process.off('SIGUSR2', save)
}

async function loadUsers(file: string): Promise<RestHandlerOptions['authenticate']> {
  const json = await readJsonFile(file, 'users')
  const { usersAuthenticate } = await import('../users.js')
  try {
    return usersAuthenticate(json)
  } catch (e) {
    throw new FileError(file, `the users file is not valid: ${(e as Error).message}`)
  }
}

/** Whether --delay or --fail-rate asks for a slow or flaky server. */
const hasChaos = (o: ServeCliOptions): boolean => o.delay !== undefined || (o.failRate ?? 0) > 0

/** `company-demo (Company 24, Employee 360, Project 40)` */
const describe = (ds: Datastore): string =>
  `${ds.name} (${ds.dataClasses.map((dc) => `${dc.name} ${dc.length}`).join(', ')})`

/** `a`, `a and b`, `a, b and c` */
const listed = (items: readonly string[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/** `Functions from functions.js: 5 exposed (appInfo, …), 1 private (Stats.count)` */
async function functionsLine(file: string): Promise<(ds: Datastore) => string> {
  const { describeFunctions, summarizeFunctions } = await import('../load-functions.js')
  return (ds) => `Functions from ${file}: ${describeFunctions(summarizeFunctions(ds))}`
}

/**
 * What a start found where the data is kept (a folder, a database): `an empty folder: data.json
 * loaded into it`, or `2400 entities from its snapshot, 12 journal records; data.json not read`.
 */
function found(
  place: string,
  recovery: { readonly fresh: boolean; readonly snapshotEntities: number },
  records: string,
  data: string | undefined,
): string {
  if (recovery.fresh)
    return data === undefined ? `an empty ${place}` : `an empty ${place}: ${data} loaded into it`
  return (
    `${recovery.snapshotEntities} entities from its snapshot, ${records}` +
    (data === undefined ? '' : `; ${data} not read`)
  )
}

/** `Persisting to ./store (every write on disk before its reply): 2400 entities from its snapshot, …` */
function persistLine(p: Persistence, data: string | undefined): string {
  const r = p.recovery
  const torn = r.tornBytes > 0 ? ` (a torn last record of ${r.tornBytes} bytes dropped)` : ''
  const what = found('folder', r, `${r.journalRecords} journal records${torn}`, data)
  return `Persisting to ${p.dir} (every write on disk before its reply): ${what}`
}

/** `Sharing the data through PostgreSQL (…): 2400 entities from its snapshot, 12 log records` */
function postgresLine(c: Cluster, data: string | undefined): string {
  const what = found('database', c.recovery, `${c.recovery.logRecords} log records`, data)
  return `Sharing the data through PostgreSQL (every write committed there before its reply): ${what}`
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
  const { clusterFork, superviseWorkers } = await import('../workers.js')
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
  if (!cluster.isWorker && o.postgres === undefined) {
    const { bytes, what } = dataBytesOf(o.data, o.persist)
    const advice = heapAdvice({
      dataBytes: bytes,
      what,
      heapLimit: oldSpaceLimitNow(),
      totalMemory: totalmem(),
    })
    if (advice !== undefined) io.err(advice)
  }
  if (count > 1 && !cluster.isWorker) return runPrimary(o, count, io)
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
    ? await (await import('../watch.js')).fileStamps(watchedFiles(o))
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
  const sharedCounts =
    quotas === undefined
      ? undefined
      : shared
        ? shared.quotaCounts()
        : cluster.isWorker
          ? (await import('./worker-io.js')).workerQuotaCounts(() => ds.clock.now())
          : undefined
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
      ...(o.log === undefined ? {} : { onRequestDone: requestLog(o.log, io) }),
      // A process that cannot vouch for what it holds (fenced, cut off) fails its health check.
      ...(pgCluster ? { healthProblem: () => pgCluster.unavailable() } : {}),
      // Which process answered, when there are several, and whether it runs the writes (with
      // --health-details): an operator, and the fault tests, find the writer this way.
      ...(cluster.worker || pgCluster?.writer !== undefined
        ? {
            healthFields: () => ({
              ...(cluster.worker ? { worker: cluster.worker.id, workers: count } : {}),
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
 * Writes each request's line where `io.log` says (stdout, a batch a turn: line-batch.ts). A worker
 * of `--workers N` writes its own lines itself rather than send them to the primary: a message a
 * request through the cluster's channel would cost more than the request.
 */
function requestLog(format: 'text' | 'json', io: CliIo): (entry: RequestLogEntry) => void {
  const write = io.log ?? io.out
  const worker = cluster.worker?.id
  return (entry) => write(requestLogLine(entry, format, worker))
}

/** The functions that stop what a running server started (the watch, the save signal). */
class Stops {
  readonly #stops: (() => void)[] = []
  add(stop: () => void): void {
    this.#stops.push(stop)
  }
  /** Runs each once; the later calls do nothing. */
  stopAll(): void {
    for (const stop of this.#stops.splice(0)) stop()
  }
}

/**
 * Builds the indexes a large load left unbuilt, right after the URL line, in slices of a few
 * milliseconds between requests (`setImmediate` lets the requests that arrived meanwhile through
 * first): the first query that needs one then rarely waits, and none holds the others meanwhile.
 * Says when they are all built, if there were any: from then on no query waits for one (the
 * scale bench measures the GETs until this line).
 */
function buildIndexesInBackground(ds: Datastore, io: CliIo): void {
  const start = performance.now()
  let rows = 0
  for (const dc of ds.schema.dataClasses) rows += ds.store.table(dc.name).size
  // One budget a turn with the other work in slices (a snapshot, a --save): see take-slice.ts.
  void ds
    .buildIndexesInBackground({ schedule: (slice) => setImmediate(slice), deadline: turnDeadline })
    .then((built) => {
      // A small store's build is over in a few milliseconds: nothing worth a line.
      if (built > 0 && rows >= BUILT_LINE_FROM)
        io.out(
          `Built ${built} ${built === 1 ? 'index' : 'indexes'} in the background in ${Math.round(performance.now() - start)} ms`,
        )
    })
}

/** Rows from which serve says when the background index build is done. */
const BUILT_LINE_FROM = 1000

/**
 * The life of a listening server: says what it serves, watches and saves as asked, waits for the
 * stop signal, saves on exit. What it starts goes into `stops`, which runServe runs whatever happens.
 */
/**
 * The files `--watch` watches: the model, then the data and the functions module if given. A
 * project's model is its structure file, its roles.json (unless --roles gives another, which is
 * read at start only, as without a project) and its Classes folder, each watched even before it
 * exists; a folder (the classes, a CSV folder) stands for the files in it (watch.ts).
 */
function watchedFiles(o: ServeCliOptions): string[] {
  const model = o.project === undefined ? [o.model] : projectSources(o.project, o.roles)
  return [...model, o.data, o.functions].filter((f) => f !== undefined)
}

function projectSources(folder: string, roles: string | undefined): string[] {
  const { catalog, classes } = projectFiles(folder)
  const sources = dirname(catalog)
  return [
    catalog,
    ...(roles === undefined ? [join(sources, 'roles.json')] : []),
    classes ?? join(sources, 'Classes'),
    // The project methods the class functions call.
    join(sources, 'Methods'),
  ]
}

async function whileServing(
  o: ServeCliOptions,
  io: CliIo,
  load: (how?: { inSlices?: boolean }) => Promise<Datastore>,
  server: RunningServer,
  stops: Stops,
  loaded: readonly string[] | undefined,
): Promise<number> {
  // Heard from before the URL line on: a script that stops the server as soon as it reads that
  // line gets the graceful stop, not Node's default end of the process.
  const stopAsked = io.stopSignal ?? stopSignal()
  io.out(`Entistore serving ${describe(server.ds)} at ${server.url}/rest/$catalog`)
  buildIndexesInBackground(server.ds, io)
  // A project's classes give functions of their own (4D code): said with a module's or alone.
  const fromProject = o.project !== undefined && server.ds.functions.size > 0
  const functionsFrom = !fromProject
    ? o.functions
    : o.functions === undefined
      ? o.project
      : `${o.functions} and the 4D project ${o.project}`
  const functions = functionsFrom === undefined ? undefined : await functionsLine(functionsFrom)
  if (functions) io.out(functions(server.ds))
  if (o.project !== undefined)
    io.out(
      `Model from the 4D project ${o.project} (entistore model --from-project ${o.project} --out model.json writes it out)`,
    )
  else if (o.model === undefined)
    io.out(
      `Model inferred from ${o.data} (entistore model --from ${o.data} --out model.json writes it out to edit)`,
    )
  const persistence = persistenceOf(server.ds)
  if (persistence) io.out(persistLine(persistence, o.data))
  const cluster = clusterOf(server.ds)
  if (cluster) io.out(postgresLine(cluster, o.data))
  if (o.redis !== undefined)
    io.out(`Sharing sessions, locks and entity sets through Redis at ${withoutPassword(o.redis)}`)
  if (hasChaos(o)) {
    const parts = [
      o.delay === undefined
        ? undefined
        : `every reply waits ${o.delay.min === o.delay.max ? o.delay.min : `${o.delay.min}-${o.delay.max}`} ms`,
      (o.failRate ?? 0) > 0 ? `${o.failRate} of requests fail with 503` : undefined,
    ]
    io.out(
      `Chaos: ${parts.filter((p) => p !== undefined).join('; ')}` +
        (o.seed === undefined ? '' : ` (seed ${o.seed})`),
    )
  }

  const watched = watchedFiles(o)
  const watching = o.watch ? await import('../watch.js') : undefined
  const reloader = watching
    ? new watching.Reloader({
        files: watched,
        // In slices: the server goes on answering while the new data is read beside it.
        load: () => load({ inSlices: true }),
        replace: (next) => server.replace(next),
        onOutcome: (outcome) => {
          if (outcome.kind === 'reloaded') {
            io.out(`Reloaded ${listed(watched)}: serving ${describe(outcome.ds)}`)
            buildIndexesInBackground(outcome.ds, io)
            if (functions) io.out(functions(outcome.ds))
          } else if (outcome.kind === 'failed')
            io.err(
              `entistore: reload failed, still serving the previous data: ${(outcome.error as Error).message}`,
            )
          io.onReload?.(outcome)
        },
      })
    : undefined
  if (watching && reloader) {
    // Watching first: a change made while the digests are read is heard.
    stops.add(
      watching.watchFiles(watched, () => void reloader.request(), {
        debounceMs: io.watchDebounceMs ?? 100,
        onError: (e) =>
          io.err(
            `entistore: stopped watching ${listed(watched)} (${e.message}); still serving the data loaded last`,
          ),
      }),
    )
    await reloader.noteServed(loaded)
    io.out(`Watching ${listed(watched)} for changes`)
  }

  const saveTo = o.save
  const saver =
    saveTo === undefined
      ? undefined
      : (await import('../save.js')).dataSaver(saveTo, () => server.ds, {
          // Noted before the file changes, so that --watch never takes our own save for a change.
          beforeReplace: (written) => reloader?.noteWritten(saveTo, written.digest),
        })
  const save = async (): Promise<boolean> => {
    if (!saver) return true
    try {
      const result = await saver.save()
      for (const d of result.dangling)
        io.err(
          `entistore: ${d.location} names ${d.target} ${JSON.stringify(d.key)}, which was deleted: saved as null`,
        )
      io.out(`Saved ${result.entities} entities to ${result.file}`)
      io.onSave?.(result)
      return true
    } catch (e) {
      io.err(`entistore: cannot save the data to ${saveTo}: ${(e as Error).message}`)
      io.onSave?.(e as Error)
      return false
    }
  }
  if (saver) stops.add((io.saveSignal ?? sigusr2)(() => void save()))

  // Last, so that the lines scripts read first (the URL, then what is served) keep their places.
  if (o.explorer !== undefined) io.out(`Explorer at ${server.url}${o.explorer}`)
  io.onListening?.(server)
  await stopAsked
  // No reload and no save signal once stopping: the save on exit is the last word, after the
  // last write was answered.
  stops.stopAll()
  const stopped = await server.shutdown({
    delayMs: o.shutdownDelayMs,
    timeoutMs: o.shutdownTimeoutMs,
  })
  if (stopped.forced)
    io.err(
      `entistore: still stopping after ${o.shutdownTimeoutMs} ms (--shutdown-timeout): ` +
        `${stopped.dropped} request(s) cut off`,
    )
  for (const e of stopped.errors)
    io.err(`entistore: while stopping: ${e instanceof Error ? e.message : String(e)}`)
  const saved = await save()
  return saved && !stopped.forced && stopped.errors.length === 0 ? 0 : 1
}

function withoutMaxSessions({
  maxSessions: _,
  ...handlerLimits
}: ServeLimits): Omit<ServeLimits, 'maxSessions'> {
  return handlerLimits
}
