/**
 * @module The life of a listening `entistore serve` (serve-run.ts starts it): the lines that say
 * what it serves, the background index build, the watch and the save as asked, then the graceful
 * stop and the save on exit.
 */
import { dirname, join } from 'node:path'
import type { Datastore } from '@entistore/core'
import type { Cluster } from '../cluster/join-cluster.js'
import { withoutPassword } from '../cluster/redacted-url.js'
import { clusterOf } from '../load/load-files.js'
import { persistenceOf } from '../persist/persistences.js'
import type { Persistence } from '../persist/persist.js'
import { turnDeadline } from '../persist/take-slice.js'
import { watchedSources } from '../project/project-files.js'
import type { RunningServer } from '../serve/serve.js'
import { stopSignal } from '../serve/signals.js'
import type { CliIo } from './cli-io.js'
import type { ServeCliOptions } from './serve-options.js'

/** SIGUSR2 asks for a save; Windows has no such signal (only the save on exit is left there). */
function sigusr2(save: () => void): () => void {
  if (process.platform === 'win32') return () => {}
  process.on('SIGUSR2', save)
  return () => process.off('SIGUSR2', save)
}

/** Whether --delay or --fail-rate asks for a slow or flaky server. */
export const hasChaos = (o: ServeCliOptions): boolean =>
  o.delay !== undefined || (o.failRate ?? 0) > 0

/** `company-demo (Company 24, Employee 360, Project 40)` */
const describe = (ds: Datastore): string =>
  `${ds.name} (${ds.dataClasses.map((dc) => `${dc.name} ${dc.length}`).join(', ')})`

/** `a`, `a and b`, `a, b and c` */
const listed = (items: readonly string[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/** `Functions from functions.js: 5 exposed (appInfo, …), 1 private (Stats.count)` */
async function functionsLine(file: string): Promise<(ds: Datastore) => string> {
  const { describeFunctions, summarizeFunctions } = await import('../load/load-functions.js')
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

/** The functions that stop what a running server started (the watch, the save signal). */
export class Stops {
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
 * The files `--watch` watches: the model, then the data and the functions module if given. A
 * project's model is its structure file, its roles.json (unless --roles gives another, which is
 * read at start only, as without a project) and its Classes folder, each watched even before it
 * exists; a folder (the classes, a CSV folder) stands for the files in it (watch.ts).
 */
export function watchedFiles(o: ServeCliOptions): string[] {
  const model = o.project === undefined ? [o.model] : watchedSources(o.project, o.roles)
  return [...model, o.data, o.functions].filter((f) => f !== undefined)
}

/**
 * The life of a listening server: says what it serves, watches and saves as asked, waits for the
 * stop signal, saves on exit. What it starts goes into `stops`, which runServe runs whatever happens.
 */
export async function whileServing(
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
  const watching = o.watch ? await import('../serve/watch.js') : undefined
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
      : (await import('../persist/save.js')).dataSaver(saveTo, () => server.ds, {
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
