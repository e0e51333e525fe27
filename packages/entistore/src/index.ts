/**
 * @module entistore — the datastore engine, the REST interface and the file/CLI layer in one package.
 * `@entistore/core` and `@entistore/rest` are re-exported whole.
 *
 * Beside this entry, cli.ts (the `entistore` command's, bin/entistore.js) and fixture.ts (the
 * `entistore/fixture` entry), the package's rooms, each importing only the ones listed after it:
 *
 * - commands/: each command's flags, help and run (serve-run.ts, serve-life.ts, check-project.ts)
 * - outputs/: what `types`, `model` and `openapi` write from a model
 * - clone/: `entistore clone`, a running server or a 4D project copied into files
 * - serve/: serve(), its request log and error log, chaos, signals, `--workers`, `--users`, `--watch`
 * - explorer/: the data explorer's page
 * - load/: a datastore made from model, data and functions files, its progress, the heap it needs
 * - cluster/: the data shared through PostgreSQL, the sessions through Redis
 * - persist/: a datastore kept in a folder (`--persist`), the data written back (`--save`)
 * - parallel/, vector-index/: the worker threads' pool, the approximate vector index
 * - project/: a 4D project folder: its structure, code, data, settings
 * - files/: a file's errors (file:line:column), a JSON file read whole, a data file streamed
 *
 * docs-check/ holds the tests that keep docs/ and examples/ true; generated/, the types the
 * OpenAPI test compiles.
 */
export * from '@entistore/core'
export * from '@entistore/rest'
export { clientErrorListener, toNodeListener } from '@entistore/rest/node'
export type {
  BackpressureOptions,
  ClientErrorOptions,
  NodeListener,
  NodeListenerOptions,
} from '@entistore/rest/node'
export { serve } from './serve/serve.js'
export type {
  HealthReply,
  RunningServer,
  ServeOptions,
  ShutdownOptions,
  ShutdownResult,
  ShutdownStep,
} from './serve/serve.js'
export { requestLogLine } from './serve/request-log.js'
export type { RequestLogEntry, RequestLogFormat } from './serve/request-log.js'
export { clusterOf, loadDatastoreFiles } from './load/load-files.js'
export { FileError } from './files/file-error.js'
export { readJsonFile } from './files/json-file.js'
export { createFixture, startFixture } from './fixture.js'
export type {
  CreateFixtureOptions,
  FixtureBase,
  FixtureModel,
  FixtureOptions,
  FixtureSource,
  InProcessFixture,
  ResetOptions,
  ServedFixture,
  StartFixtureOptions,
} from './fixture.js'
export type { LoadFilesOptions } from './load/load-files.js'
// A 4D project folder as the model's source (serve --project, docs/from-your-project.md).
export { loadProject, projectFiles } from './project/load-project.js'
export type { LoadedProject, LoadProjectOptions, ProjectFiles } from './project/load-project.js'
export type { NotePlace, PlacedNote } from './project/notes.js'
export type { RestrictEvent } from './project/restrict-events.js'
export { importFunctions } from './load/load-functions.js'
export type {
  FunctionsContext,
  FunctionsModule,
  FunctionsSource,
  ImportFunctionsOptions,
} from './load/load-functions.js'
export { renderModelTypes, runTypesCommand } from './outputs/model-types.js'
export type { RenderOptions, TypesCommandOptions } from './outputs/model-types.js'
export { main } from './cli.js'
export { clone, CloneError } from './clone/clone.js'
export type { CloneOptions, CloneResult } from './clone/clone.js'
export { chaosListener, seededRandom } from './serve/chaos.js'
export type { ChaosOptions, DelayRange } from './serve/chaos.js'
export { explorerListener } from './explorer/explorer-files.js'
export type { ExplorerOptions } from './explorer/explorer-files.js'
export { writeFileAtomic } from './persist/save.js'
// Worker threads for the datastore's data-sized work: `createDatastore(model, { parallel: pool })`.
export { createWorkerPool } from './parallel/worker-pool.js'
export type { PartEvent, WorkerPoolOptions } from './parallel/worker-pool.js'
// Shadows the core's createDatastore (re-exported above): the same, with the `persist` option.
export { createDatastore, persistenceOf } from './persist/create-datastore.js'
export type { PersistentDatastoreOptions } from './persist/create-datastore.js'
export { Persistence } from './persist/persist.js'
export { hasPersistedData } from './persist/recovery.js'
export type { PersistOptions, PersistTimers, Recovery } from './persist/persist-options.js'
export type { CliIo } from './cli.js'
export { joinCluster } from './cluster/join-cluster.js'
export type { Cluster, ClusterOptions } from './cluster/join-cluster.js'
export { ClusterWrites } from './cluster/cluster-core.js'
export type { ClusterWritesOptions } from './cluster/cluster-core.js'
export type { ClusterParticipant } from './cluster/participant.js'
export type {
  LagSummary,
  PostgresLogOptions,
  PostgresPoolConfig,
  PostgresRecovery,
} from './cluster/postgres/types.js'
// Sessions, locks and entity sets shared by several processes through Redis (`--redis`).
export { connectRedis } from './cluster/redis/connect.js'
export { RedisParticipant } from './cluster/redis/redis-participant.js'
export { withoutPassword } from './cluster/redacted-url.js'
export type { RedisClientOptions, RedisParticipantOptions } from './cluster/redis/options.js'
// pg and ioredis are optional peer dependencies, loaded by joinCluster and connectRedis only.
export { MISSING_PACKAGE, MissingPackageError } from './cluster/optional-package.js'
