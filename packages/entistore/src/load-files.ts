/**
 * @module Model, data and functions files on disk: read, parse and load them, with errors that name
 * the file and say what is wrong with it.
 */
import { readFile } from 'node:fs/promises'
import {
  createDatastore,
  DatastoreError,
  type Clock,
  type Datastore,
  type DatastoreOptions,
  type DatastoreWith,
  type ModelJson,
} from '@entistore/core'
import { lineAndColumn, readJsonSyntaxError } from '@entistore/rest'
import type { Cluster, ClusterOptions } from './cluster/join-cluster.js'
import { FileError } from './file-error.js'
import { importFunctions, refusesDefinitions, type FunctionsSource } from './load-functions.js'
import { loadProgress } from './load-progress.js'
import { persistDatastore } from './persist/create-datastore.js'
import { hasPersistedData, type PersistOptions } from './persist/persist.js'

export { FileError }

/** Reads and parses a JSON file, naming the file (and the JSON error) on failure. */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let text: string
  try {
    // Bytes first, then one decode: readFile(file, 'utf8') decodes chunk by chunk through a
    // string decoder, a quarter of a second more on a 70 MB data file.
    text = (await readFile(file)).toString('utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    throw new FileError(
      file,
      code === 'ENOENT'
        ? `the ${what} file does not exist`
        : code === 'EISDIR'
          ? `the ${what} path is a directory, not a file`
          : `cannot read the ${what} file (${code ?? String(e)})`,
      { cause: e },
    )
  }
  // The BOM is cut off, so V8's positions count from the character after it, as an editor does.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  try {
    return JSON.parse(text)
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e
    const { reason, position } = readJsonSyntaxError(e.message, text.length)
    // Some of V8's messages (`Unexpected token 'x', "…" is not valid JSON`) give no position.
    const at = position === undefined ? {} : lineAndColumn(text, position)
    throw new FileError(file, `the ${what} file is not valid JSON: ${reason}`, { cause: e, ...at })
  }
}

export interface LoadFilesOptions {
  readonly model: string
  readonly data?: string
  /**
   * Where to write progress lines of a data load that takes over a second (load-progress.ts): the
   * CLI gives stderr. @default none: silent
   */
  readonly progress?: (line: string) => void
  readonly clock?: Clock
  /** The session store's options (how its ids are made, its limits). @default the store's defaults */
  readonly sessions?: DatastoreOptions['sessions']
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
}

const clusters = new WeakMap<Datastore, Cluster>()

/** The cluster of a datastore loaded with `postgres`, or undefined. */
export function clusterOf(ds: Datastore): Cluster | undefined {
  return clusters.get(ds)
}

/** A datastore built from a model file, an optional data file and optional functions. */
export async function loadDatastoreFiles(
  options: LoadFilesOptions,
): Promise<DatastoreWith<string>> {
  const model = await readJsonFile(options.model, 'model')
  // Before the data, which may take a while to read: a mistake in the module is found at once.
  const functions =
    typeof options.functions === 'string'
      ? await importFunctions(options.functions, {
          model: model as ModelJson,
          ...(options.functionsVersion === undefined ? {} : { version: options.functionsVersion }),
        })
      : options.functions
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
  const skipData =
    (persistDir !== undefined && hasPersistedData(persistDir)) || options.postgres !== undefined
  let data =
    options.data === undefined || skipData ? undefined : await readJsonFile(options.data, 'data')
  let ds: DatastoreWith<string>
  try {
    ds = createDatastore(model as ModelJson, {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.sessions ? { sessions: options.sessions } : {}),
      ...(functions === undefined ? {} : { functions }),
    })
  } catch (e) {
    if (refusesDefinitions(e)) {
      // Definitions given as an object are the caller's own: refused with the datastore's error.
      if (typeof options.functions !== 'string') throw e
      throw new FileError(options.functions, e.message, { cause: e })
    }
    if (DatastoreError.is(e)) throw new FileError(options.model, e.message, { cause: e })
    throw e
  }
  const load = (into: { loadData: typeof ds.loadData }): void => {
    try {
      into.loadData(data as never, progress)
    } catch (e) {
      if (DatastoreError.is(e)) throw new FileError(options.data!, e.message, { cause: e })
      throw e
    }
  }
  if (options.postgres !== undefined) {
    if (options.persist !== undefined)
      throw new TypeError('loadDatastoreFiles: persist and postgres cannot go together')
    const file = options.data
    // Loaded only when asked: the PostgreSQL driver costs every other start-up its import.
    const { joinCluster } = await import('./cluster/join-cluster.js')
    const cluster = await joinCluster(ds, {
      ...(typeof options.postgres === 'string' ? { postgres: options.postgres } : options.postgres),
      // Read only when PostgreSQL holds nothing: reading a large file for nothing costs seconds.
      ...(file === undefined
        ? {}
        : {
            data: async (into: Datastore) => {
              data = await readJsonFile(file, 'data')
              load(into)
            },
          }),
    })
    clusters.set(ds, cluster)
  } else if (options.persist !== undefined)
    persistDatastore(ds, options.persist, data === undefined ? undefined : load)
  else if (data !== undefined) load(ds)
  // The parsed file is garbage from here: dropped before the indexes are built, the two are not
  // alive at once, and the process's peak (which its resident memory keeps) is the lower.
  data = undefined
  if (options.eagerIndexes === true) ds.buildIndexes()
  return ds
}
