/**
 * @module The test fixture (issue 12): a datastore loaded once from a model and data (files or
 * objects), served on a real socket (`startFixture`) or answered in-process without one
 * (`createFixture`), and `reset()`, which puts the initial data back before each test.
 *
 * `reset()` restores the snapshot taken right after loading (`ds.restore`, core
 * store/data-snapshot.ts): a few milliseconds at 100k rows where loading again takes hundreds
 * (bench/suites/fixture.bench.ts). With the data, it clears what a test leaves on the server side
 * and the next test would otherwise see: entity sets and locks (the core's restore does), the
 * singletons' state (made again on next use), and the sessions (closed, so a login does not carry
 * over; `keepSessions` keeps them). The clock is the test's: reset does not move it. The class
 * functions (`functions`) are part of the datastore, not of its data: a reset keeps them.
 */
import {
  DatastoreError,
  type Clock,
  type DataFile,
  type DataSnapshot,
  type DatastoreWith,
  type ModelSource,
} from '@entistore/core'
import { createRestHandler, type RestHandler, type RestHandlerOptions } from '@entistore/rest'
import { projectHttpSettings, type ProjectHttpSettings } from './project/http-settings.js'
import { FileError, loadDatastoreFiles, readJsonFile } from './load/load-files.js'
import { importFunctions, refusesDefinitions, type FunctionsSource } from './load/load-functions.js'
// The in-memory datastore, not create-datastore.ts's: a fixture keeps no folder, and that module
// loads the journal and the snapshots (10 ms of every start).
import { inMemoryDatastore } from './persist/in-memory-datastore.js'
import { serve, type RunningServer, type ServeOptions } from './serve/serve.js'
import type { ProjectTests, ProjectTestsOptions } from './testing/project-tests.js'
import type { TestApi } from './testing/run-project-tests.js'
import { resetDatastore, type ResetOptions } from './reset.js'

export type { ProjectTests, ProjectTestsOptions, TestApi }
export type {
  ProjectTest,
  SuiteSteps,
  TestConventions,
  TestFailure,
  TestResult,
  TestStatus,
  TestSuite,
} from '@entistore/4d'

/** A model as `createDatastore` takes it: the catalog JSON, or a built model. */
export type FixtureModel = ModelSource

/** Where a fixture's model comes from: a model (file or object), or a 4D project folder. */
export type FixtureSource =
  | {
      /** The model: a model file's path (JSON, the `$catalog/$all` shape), or the model itself. */
      readonly model: string | FixtureModel
      readonly project?: undefined
    }
  | {
      /**
       * A 4D project folder (its `Project` folder, or the one that holds it), as `entistore serve
       * --project` serves it: its structure, its class files' 4D code running, its roles.json.
       */
      readonly project: string
      readonly model?: undefined
    }

export type FixtureOptions = FixtureSource & {
  /**
   * The initial data: a data file's path, or `{ "<DataClass>": [ {...}, ... ] }`; with `project`,
   * also a folder of CSV files, as `serve --project --data`. @default none
   */
  readonly data?: string | DataFile
  /** Where time comes from (a `ManualClock` in tests). @default the system clock */
  readonly clock?: Clock
  /**
   * The class functions: the definitions (`defineFunctions({…})`), or the path of an ES module
   * whose default export gives them (as `entistore serve --functions`). @default none
   */
  readonly functions?: FunctionsSource
  /**
   * With `project`: what the project holds that Entistore does not serve as 4D would, one line
   * each (serve's start-up lines). @default none: not said
   */
  readonly onNote?: (note: string) => void
}

export type { ResetOptions }

/** What both fixtures have: the datastore and the reset. */
export interface FixtureBase {
  /** The datastore behind the interface: read or write it directly to arrange a test. */
  readonly ds: DatastoreWith<string>
  /** The data as loaded, which `reset` restores. */
  readonly initial: DataSnapshot
  /**
   * Puts the initial data back (every entity, key, stamp, the next autosequence values, the global
   * stamp), drops entity sets and locks, and closes every session unless `keepSessions`.
   * Synchronous; call it before each test.
   */
  reset(options?: ResetOptions): void
}

/** The in-process fixture: no socket, requests answered by the REST handler directly. */
export interface InProcessFixture extends FixtureBase {
  /** The REST handler (`createRestHandler`), for its `respond` or to mount it yourself. */
  readonly rest: RestHandler
  /** `request('/rest/Employee(3)')`: a Request answered in-process (relative to http://localhost). */
  request(path: string, init?: RequestInit): Promise<Response>
  /** Answers a web `Request`, as a fetch handler (Hono, workers) would. */
  fetch(request: Request): Promise<Response>
}

/** The fixture on a socket: a real HTTP server on 127.0.0.1 and a free port, by default. */
export interface ServedFixture extends FixtureBase {
  /** `http://127.0.0.1:PORT`: append `/rest/…`. */
  readonly url: string
  readonly port: number
  /** The running server (its node:http `server`, its listener). */
  readonly server: RunningServer
  /** Stops the server (and drops its connections); calling it again does nothing more. */
  close(): Promise<void>
}

/** Fixture options and everything `serve` takes; `port` defaults to 0 (a free port). */
export type StartFixtureOptions = FixtureOptions & ServeOptions

/** Fixture options and the REST handler's options (basePath, auth, limits…). */
export type CreateFixtureOptions = FixtureOptions & RestHandlerOptions

/**
 * Loads the model and data, serves them on a free port of 127.0.0.1, and resolves once the server
 * listens. Errors in a file name the file (`FileError`), as `entistore serve` reports them.
 *
 * @example
 * const fx = await startFixture({ model: 'model.json', data: 'data.json' })
 * // or a 4D project with its CSV data: startFixture({ project: 'MyApp', data: 'MyApp/csv' })
 * beforeEach(() => fx.reset()); afterAll(() => fx.close())
 * await fetch(`${fx.url}/rest/Employee(3)`)
 */
export async function startFixture(options: StartFixtureOptions): Promise<ServedFixture> {
  const base = await loadFixture(options)
  const http = await projectHttp(options)
  const server = await serve(base.ds, { ...http, ...options, port: options.port ?? 0 })
  let closing: Promise<void> | undefined
  return {
    ...base,
    url: server.url,
    port: server.port,
    server,
    close: () => (closing ??= server.close()),
  }
}

/**
 * Loads the model and data and answers REST requests in-process: no socket, no port, nothing to
 * close. `request(path)` and `fetch(request)` go through the same handler a server would use.
 *
 * @example
 * const fx = await createFixture({ model, data })
 * const reply = await fx.request('/rest/Employee?$top=2')
 */
export async function createFixture(options: CreateFixtureOptions): Promise<InProcessFixture> {
  const base = await loadFixture(options)
  const rest = createRestHandler(base.ds, { ...(await projectHttp(options)), ...options })
  return {
    ...base,
    rest,
    request: (path, init) => rest.request(path, init),
    fetch: (request) => rest.fetch(request),
  }
}

/**
 * A project's HTTP request handlers and rules (`HTTPHandlers.json`, `HTTPRules.json`), as `serve
 * --project` reads them; the options' own `handlers` and `rules` win.
 */
const projectHttp = (options: FixtureOptions): Promise<ProjectHttpSettings> =>
  options.project === undefined ? Promise.resolve({}) : projectHttpSettings(options.project)

/** The datastore from the options, its initial snapshot, and the reset. */
async function loadFixture(options: FixtureOptions): Promise<FixtureBase> {
  const ds = await loadDatastore(options)
  const initial = ds.snapshot()
  return {
    ds,
    initial,
    reset: (resetOptions) => resetDatastore(ds, initial, resetOptions),
  }
}

async function loadDatastore(options: FixtureOptions): Promise<DatastoreWith<string>> {
  const { model, project, data, clock, functions, onNote } = options
  if (project !== undefined && model !== undefined)
    throw new TypeError('fixture: give `model` or `project`, not both')
  if ((model === undefined || model === null) && project === undefined)
    throw new TypeError(
      'fixture: `model` is required (a model file path or a model object), or `project` (a 4D project folder)',
    )
  if (typeof model === 'string' || project !== undefined) {
    // Files, as `entistore serve` loads them (a project: as `serve --project`).
    const ds = await loadDatastoreFiles({
      ...(project === undefined ? { model: model as string } : { project }),
      ...(typeof data === 'string' ? { data } : {}),
      ...(clock ? { clock } : {}),
      ...(functions === undefined ? {} : { functions }),
      ...(onNote === undefined ? {} : { onNote }),
    })
    if (data !== undefined && typeof data !== 'string') ds.loadData(data)
    return ds
  }
  const defs =
    typeof functions === 'string' ? await importFunctions(functions, { model: model! }) : functions
  let ds: DatastoreWith<string>
  try {
    ds = inMemoryDatastore(model!, {
      ...(clock ? { clock } : {}),
      ...(defs === undefined ? {} : { functions: defs }),
    })
  } catch (e) {
    // A module's definitions are named by its file, as loadDatastoreFiles names them.
    if (typeof functions === 'string' && refusesDefinitions(e))
      throw new FileError(functions, e.message, { cause: e })
    throw e
  }
  if (typeof data === 'string') {
    const parsed = await readJsonFile(data, 'data')
    try {
      ds.loadData(parsed as DataFile)
    } catch (e) {
      // Named by its file, as loadDatastoreFiles names it.
      if (DatastoreError.is(e)) throw new FileError(data, e.message, { cause: e })
      throw e
    }
  } else if (data !== undefined) ds.loadData(data)
  return ds
}

/**
 * A 4D project's own tests as tests of your runner (Vitest, Jest): each test class a `describe`,
 * each 4D test an `it` that fails with the 4D failure at its file and line; call it at the top
 * level of a test file, awaited (docs/ci.md). Loaded on first use: a
 * fixture without a project loads no 4D.
 *
 * ```ts
 * import { afterAll, beforeAll, describe, it } from 'vitest'
 * await runProjectTests({ project: 'MyApp', data: 'MyApp/csv' }, { describe, it, beforeAll, afterAll })
 * ```
 */
export async function runProjectTests(
  options: ProjectTestsOptions,
  api: TestApi,
): Promise<ProjectTests> {
  const run = await import('./testing/run-project-tests.js')
  return run.runProjectTests(options, api)
}

/**
 * A 4D project's tests loaded and found, to run as you choose (`run()` all of them, as `entistore
 * test` does, or `suite(s)` step by step); loaded on first use.
 */
export async function openProjectTests(options: ProjectTestsOptions): Promise<ProjectTests> {
  const tests = await import('./testing/project-tests.js')
  return tests.openProjectTests(options)
}
