/**
 * @module Model, data and functions files on disk: read, parse and load them, with errors that name
 * the file and say what is wrong with it.
 */
import { statSync } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { getHeapStatistics } from 'node:v8'
import {
  DatastoreError,
  Roles,
  fail,
  permissionsNamingNothing,
  type Clock,
  type Datastore,
  type DatastoreOptions,
  type DatastoreWith,
  type FunctionsDef,
  type InferredModel,
  type ModelJson,
} from '@entistore/core'
import type { Cluster, ClusterOptions } from '../cluster/join-cluster.js'
import { FileError, unreadableFile } from '../files/file-error.js'
import { readJsonFile } from '../files/json-file.js'
import type { CodeLimits } from '@entistore/4d'
import type { FunctionsSource } from './load-functions.js'
import { readDataStream } from '../files/data-stream.js'
import { oldSpaceLimitNow } from './heap-limit.js'
import { loadProgress, type LoadProgressReporter } from './load-progress.js'
import type { PersistOptions } from '../persist/persist-options.js'
import { inTurn } from '../persist/take-slice.js'
import { inMemoryDatastore } from '../persist/in-memory-datastore.js'

// What a loader's caller meets besides the datastore, from the same import (fixture.ts): the
// error that names a file, and the reading of a JSON file.
export { FileError, readJsonFile }

export interface LoadFilesOptions {
  /**
   * The model file. Left out, the model is inferred from the data file (docs/infer-model.md),
   * which is then read whole; not with `persist` or `postgres`, whose data outlives the file.
   */
  readonly model?: string
  /**
   * A 4D project folder (its `Project` folder, or the one that holds it) instead of a model file:
   * the model is its structure file's, with its class files' functions, and its roles.json is
   * read unless `roles` is given (docs/from-your-project.md). What it holds that Entistore does
   * not serve as 4D would is told to `onNote`. Not with `model`.
   */
  readonly project?: string
  /**
   * The data file; with `project`, a folder of CSV files (one per table, named after it) may be
   * given instead.
   */
  readonly data?: string
  /** With the model inferred: what the inference chose, one line each (the CLI gives stderr). */
  readonly onNote?: (note: string) => void
  /**
   * Where to write progress lines of a data load that takes over a second (load-progress.ts): the
   * CLI gives stderr. @default none: silent
   */
  readonly progress?: (line: string) => void
  readonly clock?: Clock
  /** The session store's options (how its ids are made, its limits). @default the store's defaults */
  readonly sessions?: DatastoreOptions['sessions']
  /** Worker threads for its reads over many rows (`createWorkerPool`). @default none */
  readonly parallel?: DatastoreOptions['parallel']
  /**
   * The class functions: the definitions (`defineFunctions({…})`), or the path of an ES module
   * whose default export gives them, as `entistore serve --functions` takes it (docs/cli.md).
   * @default none
   */
  readonly functions?: FunctionsSource
  /**
   * With `functions` a path: the version of the module to import (`?v=N` on its URL), so that a
   * number not used before imports the file as it is now rather than as Node cached it. Each
   * version stays in memory. @default 0, the module as Node cached it
   */
  readonly functionsVersion?: number
  /**
   * A 4D project's `roles.json` (its path): the privileges REST requests need, as
   * `entistore serve --roles` takes it (docs/security.md). @default none
   */
  readonly roles?: string
  /**
   * Keep the data in this folder (docs/durability.md). When it holds data, that is loaded and the
   * data file is not even read; when it holds none, the data file is loaded and written into it.
   * @default none: in memory only
   */
  readonly persist?: string | PersistOptions
  /**
   * Keep the data in PostgreSQL, shared with every process on the same database (a URL, or
   * joinCluster's options): when it holds data, that is loaded and the data file is not read;
   * when it holds none, the data file is loaded and written into it. `clusterOf(ds)` gives the
   * cluster (docs/durability.md). Not together with `persist`.
   */
  readonly postgres?: string | Omit<ClusterOptions, 'data'>
  /**
   * Build every index before returning. A large load leaves each index to be built on its first
   * use (`ds.buildIndexes()` says more), so that a server answers sooner; this pays for all of
   * them now, as `entistore serve --eager-indexes` does. @default false
   */
  readonly eagerIndexes?: boolean
  /**
   * Read the data file in small slices, letting the event loop run between them (setImmediate),
   * so that a server answering meanwhile (a reload by --watch) never waits long behind the load.
   * @default false: in large chunks, the fastest
   */
  readonly inSlices?: boolean
  /**
   * With `project`: told the facts of its 4D code (its functions' texts, its syntax errors) once
   * compiled, before the data is read; what it throws stops the load (`--watch` refuses a reload
   * whose code no longer parses so).
   */
  readonly onProjectCode?: (facts: import('../project/code-changes.js').CodeFacts) => void
  /** With `project`: what runs its code (a test runner runs its tests on it: `entistore test`). */
  readonly onProjectRunner?: (runner: import('@entistore/4d').ProjectRunner) => void
  /**
   * With `project`: the hosts its 4D code may send HTTP requests to (`HTTP Request`, `HTTP Get`):
   * `host`, `host:port`, `*.domain`, as `entistore serve --allow-http` takes them. @default none
   */
  readonly allowHttp?: readonly string[]
  /**
   * With `project`: the mail servers its 4D code may send mail through (`SMTP New transporter`),
   * as `entistore serve --allow-smtp` takes them. @default none
   */
  readonly allowSmtp?: readonly string[]
  /**
   * With `project`: the programs its 4D code may run (`LAUNCH EXTERNAL PROCESS`), by name or path,
   * as `entistore serve --allow-exec` takes them. @default none
   */
  readonly allowExec?: readonly string[]
  /**
   * The bounds of a `--project`'s 4D code: call depth, sizes of collections, arrays, texts and
   * BLOBs, entries of a folder walk, time of a backtracking match (`serve --code-limits`); each
   * not given keeps its default (@entistore/4d's DEFAULT_LIMITS).
   */
  readonly codeLimits?: Partial<CodeLimits>
  /**
   * With `project`: folders of downloaded components (4D's local cache of GitHub dependencies,
   * 4D's own components), searched for what its dependencies.json names (load-project.ts).
   * @default none
   */
  readonly components?: readonly string[]
  /** The project as loaded (`check --project` lists its notes at their places). */
  readonly onProject?: (project: import('../project/load-project.js').LoadedProject) => void
}

// A slice of a load in slices: at about 40 ms a MB of short rows parsed and checked on a busy
// machine, an eighth of a MB is ≈5 ms, the budget of the other slices. A request from a new
// connection waits for two or three turns (accepted, read, answered), plus a collection's pause:
// at 10M rows, turns of a quarter of a MB (7-8 ms) let a GET wait up to 49-66 ms.
const SLICE_BYTES = 128 * 1024
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

const clusters = new WeakMap<Datastore, Cluster>()

/** The cluster of a datastore loaded with `postgres`, or undefined. */
export function clusterOf(ds: Datastore): Cluster | undefined {
  return clusters.get(ds)
}

/** A datastore built from a model file, an optional data file and optional functions. */
export async function loadDatastoreFiles(
  options: LoadFilesOptions,
): Promise<DatastoreWith<string>> {
  if (options.project !== undefined && options.model !== undefined)
    throw new TypeError('loadDatastoreFiles: give a model or a project, not both')
  const project = options.project === undefined ? undefined : await readProject(options)
  const inferred =
    options.model === undefined && !project ? await inferFromData(options) : undefined
  const modelFile = options.model ?? project?.files.catalog ?? options.data!
  const model = project?.model ?? inferred?.model ?? (await readJsonFile(modelFile, 'model'))
  // Before the data, which may take a while to read: a mistake in the module is found at once.
  // The loader only when there are functions: a start without them does not import it.
  const loader = options.functions === undefined ? undefined : await import('./load-functions.js')
  const given =
    typeof options.functions === 'string'
      ? await loader!.importFunctions(options.functions, {
          model: model as ModelJson,
          ...(options.functionsVersion === undefined ? {} : { version: options.functionsVersion }),
        })
      : options.functions
  // A project's own code runs: its class functions, a module's winning by name.
  const withCode = project ? await projectFunctionsOf(project, given, options) : given
  // A restrict event whose code did not reach the functions (it does not compile) closes its
  // dataclass, unless a module gives one (fail closed, not open).
  const functions =
    project && project.restricts.length > 0
      ? (await import('../project/restrict-events.js')).closeRestricted(
          withCode,
          project.restricts,
          project.files.project,
          options.onNote,
        )
      : withCode
  const progress =
    options.data !== undefined && options.progress !== undefined
      ? loadProgress(options.data, { write: options.progress })
      : undefined
  const persistDir =
    options.persist === undefined
      ? undefined
      : typeof options.persist === 'string'
        ? options.persist
        : options.persist.dir
  // A folder with data wins over the data file: reading a large file for nothing costs seconds.
  // The persistence modules (journal, snapshots) are loaded only for a folder: a start without
  // one would pay for their import, as for every module it loads.
  const skipData =
    (persistDir !== undefined &&
      (await import('../persist/recovery.js')).hasPersistedData(persistDir)) ||
    options.postgres !== undefined
  const dataFile = options.data === undefined || skipData ? undefined : options.data
  // A project's data may be a folder of CSV files: read whole (and checked) before the datastore.
  const csv =
    project && dataFile !== undefined && isFolder(dataFile)
      ? await (await import('../project/csv-data.js')).readCsvFolder(dataFile, project.model)
      : undefined
  // Before the datastore is made: a missing data file is found before anything else is done.
  if (dataFile !== undefined && !inferred && !csv) await checkReadable(dataFile)
  // An explicit roles file wins over the project's own.
  const rolesFile = options.roles ?? project?.files.roles
  let roles: Roles | undefined
  try {
    const rolesJson = rolesFile === undefined ? undefined : await readJsonFile(rolesFile, 'roles')
    roles = rolesJson === undefined ? undefined : new Roles(rolesJson)
  } catch (e) {
    const refused = DatastoreError.is(e) ? new FileError(rolesFile!, e.message, { cause: e }) : e
    // A project's own roles.json that is not permissions closes everything, said at its line: 4D
    // opens such a project without protection, a typo must not open the data. A file given as
    // `roles` stops the start, as every file the command line names does.
    if (!(refused instanceof FileError) || options.roles !== undefined) throw refused
    roles = new Roles(CLOSED)
    options.onNote?.(
      `${refused.message}; every dataclass, attribute and function is closed until it is fixed (4D would open the project without protection)`,
    )
  }
  let ds: DatastoreWith<string>
  try {
    // In memory: its folder, if any, is opened below (persistDatastore).
    ds = inMemoryDatastore(model as ModelJson, {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.sessions ? { sessions: options.sessions } : {}),
      ...(options.parallel ? { parallel: options.parallel } : {}),
      ...(functions === undefined ? {} : { functions }),
      ...(roles === undefined ? {} : { roles }),
    })
  } catch (e) {
    if (loader?.refusesDefinitions(e)) {
      // Definitions given as an object are the caller's own: refused with the datastore's error.
      if (typeof options.functions !== 'string') throw e
      throw new FileError(options.functions, e.message, { cause: e })
    }
    if (DatastoreError.is(e)) throw new FileError(modelFile, e.message, { cause: e })
    throw e
  }
  // An entry that names nothing protects nothing: said, since what it meant to close stays open.
  if (roles !== undefined)
    for (const line of permissionsNamingNothing(ds, roles))
      options.onNote?.(`${rolesFile}: ${line}`)
  // 4D's force login with no way to log in: served as 4D serves it, and said.
  if (roles?.forceLogin === true && !ds.functions.find('dataStore', '', 'authentify')?.exposed)
    options.onNote?.(
      `${rolesFile}: forceLogin is on and no exposed DataStore function authentify logs a session in: guests may only describe the datastore (4D's force login); a login needs --users or an authentify function`,
    )
  const load = async (into: Datastore, file: string): Promise<void> => {
    if (csv) {
      const { loadCsvData } = await import('../project/csv-data.js')
      return loadCsvData(into, csv)
    }
    return streamDataFile(into, file, {
      ...(progress ? { progress } : {}),
      ...(options.inSlices === true ? { chunkSize: SLICE_BYTES, pause: nextTurn } : {}),
    })
  }
  if (options.postgres !== undefined) {
    if (options.persist !== undefined)
      throw new TypeError('loadDatastoreFiles: persist and postgres cannot go together')
    const file = options.data
    // Loaded only when asked: the PostgreSQL driver costs every other start-up its import.
    const { joinCluster } = await import('../cluster/join-cluster.js')
    const cluster = await joinCluster(ds, {
      ...(typeof options.postgres === 'string' ? { postgres: options.postgres } : options.postgres),
      // Read only when PostgreSQL holds nothing: reading a large file for nothing costs seconds.
      ...(file === undefined ? {} : { data: (into: Datastore) => load(into, file) }),
    })
    clusters.set(ds, cluster)
  } else if (options.persist !== undefined) {
    // An empty folder: the data file is streamed in first, and written as the first snapshot
    // when the folder is opened (a load's rows are never journaled).
    if (dataFile !== undefined) await load(ds, dataFile)
    const { persistDatastore } = await import('../persist/create-datastore.js')
    persistDatastore(ds, options.persist)
  } else if (inferred) {
    const { loadInferredData } = await import('./infer-data.js')
    await loadInferredData(ds, inferred, dataFile!, options.inSlices ? nextTurn : undefined)
  } else if (dataFile !== undefined) await load(ds, dataFile)
  if (options.eagerIndexes === true) ds.buildIndexes()
  return ds
}

/** Permissions that grant nothing to anyone: what a project's roles.json that cannot be read gives. */
export const CLOSED = {
  privileges: [],
  roles: [],
  permissions: { allowed: [] },
  restrictedByDefault: true,
} as const

/** A 4D project folder's model, its notes told: `serve --project`. */
async function readProject(
  options: LoadFilesOptions,
): Promise<import('../project/load-project.js').LoadedProject> {
  const { loadProject } = await import('../project/load-project.js')
  const project = await loadProject(options.project!, {
    ...(options.components === undefined ? {} : { components: options.components }),
  })
  options.onProject?.(project)
  for (const note of project.notes) options.onNote?.(note)
  return project
}

/** A project's class functions with `given`'s (a module's) winning, its code's problems told. */
async function projectFunctionsOf(
  project: import('../project/load-project.js').LoadedProject,
  given: FunctionsDef<any> | undefined,
  options: LoadFilesOptions,
): Promise<FunctionsDef<any>> {
  const { projectCode } = await import('../project/four-d-code.js')
  const code = await projectCode(project, project.model.dataClasses, given, project.computed, {
    allowHttp: options.allowHttp ?? [],
    allowSmtp: options.allowSmtp ?? [],
    allowExec: options.allowExec ?? [],
    ...(options.codeLimits === undefined ? {} : { codeLimits: options.codeLimits }),
  })
  for (const note of code.notes) options.onNote?.(note)
  options.onProjectCode?.(code.facts)
  options.onProjectRunner?.(code.runner)
  if (code.summary !== undefined) options.onNote?.(code.summary)
  return code.functions
}

/** Whether `path` is a folder (a project's CSV data); a path that cannot be read is not one. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** The model inferred from the data file, its notes told: `serve --data` without `--model`. */
async function inferFromData(options: LoadFilesOptions): Promise<InferredModel> {
  if (options.data === undefined)
    throw new TypeError('loadDatastoreFiles: give a model, or a data file to infer it from')
  if (options.persist !== undefined || options.postgres !== undefined)
    throw new TypeError('loadDatastoreFiles: persist and postgres need a model file')
  const { inferDataFile } = await import('./infer-data.js')
  const inferred = await inferDataFile(options.data)
  for (const note of inferred.notes) options.onNote?.(note)
  return inferred
}

/** Throws the FileError readJsonFile would for a data file that cannot be opened. */
async function checkReadable(file: string): Promise<void> {
  try {
    const fh = await open(file, 'r')
    await fh.close()
    if ((await stat(file)).isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' })
  } catch (e) {
    throw unreadableFile(file, 'data', e)
  }
}

/** The heap in use and the limit the data meets, in bytes. */
interface HeapNow {
  readonly used: number
  readonly limit: number
}

export interface StreamDataOptions {
  /** The progress lines (load-progress.ts). @default none */
  readonly progress?: LoadProgressReporter
  /** Bytes read at a time. @default 2 MiB */
  readonly chunkSize?: number
  /**
   * Awaited after each chunk and between the slices of the commit: a reload by --watch lets the
   * event loop run there (its datastore is not served until the load ends). @default none
   */
  readonly pause?: () => Promise<void>
  /**
   * The heap in use and the old space's limit, the one the data meets, in bytes (a test gives
   * other numbers). @default V8's `used_heap_size` and heap-limit.ts's `oldSpaceLimitNow`
   */
  readonly heap?: () => HeapNow
}

/**
 * Loads the data file `file` (`{ "<DataClass>": [ … ] }`, or JSON Lines by its extension) into
 * `into` as a stream (data-stream.ts): each chunk's rows are checked into the load's columns as
 * they come, so the parsed rows are never all alive at once, then one commit applies them all. A
 * refused row, a syntax error or a heap too small for the data (DataExceedsHeap) throws a
 * FileError naming the file, and nothing is loaded.
 */
export async function streamDataFile(
  into: Datastore,
  file: string,
  options: StreamDataOptions = {},
): Promise<void> {
  const { progress } = options
  const load = into.beginLoad(progress ? { onProgress: progress.onProgress } : {})
  const heap = options.heap ?? heapNow
  const base = heap().used
  const { pause } = options
  let before = 0
  try {
    await readDataStream(file, (name, rows) => load.add(name, rows), {
      ...(options.chunkSize === undefined ? {} : { chunkSize: options.chunkSize }),
      afterChunk: async (read, size) => {
        progress?.onBytes(read, size, load.rows)
        checkHeap(heap(), base, read, size, load.rows)
        if (!pause) return
        await pause()
        // Room for twice the last chunk's rows, made in the turns' slices: the next chunk then
        // grows nothing in one piece.
        const ahead = 2 * (load.rows - before)
        before = load.rows
        while (!load.prepare(ahead, inTurn)) await pause()
      },
    })
    if (pause) await load.commitInSlices(pause)
    else load.commit()
  } catch (e) {
    if (DatastoreError.is(e)) throw new FileError(file, e.message, { cause: e })
    throw e
  }
}

// Past this share of the heap's limit, or when the whole file is projected to need more, a load
// stops: what is left must hold the commit, the indexes and the garbage of the last chunks.
const HEAP_SHARE = 0.85
// The projection is trusted only once this share of the file is read: before, a young heap's
// garbage weighs too much in it.
const PROJECT_AFTER = 0.1

/** This process's heap now. */
const heapNow = (): HeapNow => ({
  used: getHeapStatistics().used_heap_size,
  limit: oldSpaceLimitNow(),
})

/**
 * Throws DataExceedsHeap when the heap is nearly full, or when the heap grown so far, scaled to
 * the whole file, will not fit: a clear error early instead of an out-of-memory crash halfway.
 */
function checkHeap(
  { used, limit }: HeapNow,
  base: number,
  read: number,
  size: number,
  rows: number,
): void {
  const share = size > 0 ? Math.min(1, read / size) : 1
  const projected = share >= PROJECT_AFTER ? base + (used - base) / share : used
  if (used < limit * HEAP_SHARE && projected < limit * HEAP_SHARE) return
  const mb = (n: number): number => Math.ceil(n / (1024 * 1024))
  // What to ask for: the projection with room for the commit and indexes, rounded up to a GB.
  const need = Math.ceil((Math.max(projected, used) * 1.5) / 1024 ** 3) * 1024
  fail('DataExceedsHeap', [mb(used), mb(limit), rows, Math.round(share * 100), need])
}
