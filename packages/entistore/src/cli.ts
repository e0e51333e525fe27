/**
 * @module The `entistore` command.
 *
 *   entistore serve --model <model.json> [--data <data.json>] [--functions <module.js>]
 *                   [--users <users.json>] [--port N] [--host H] [--watch] [--save <file>]
 *                   [--delay <ms>|<min-max>] [--fail-rate <0..1>] [--seed N] [--persist <dir>]
 *                   [--explorer <path>] [--no-explorer]
 *                   [--shutdown-delay <ms>] [--shutdown-timeout <ms>] [--function-timeout <ms>]
 *                   [--health-details] [--verbose]
 *                   [--workers N|auto] [--postgres <url>] [--redis <url>]
 *   entistore clone <url> --out <dir> [--user <name> --password <password>] [--page-size N]
 *   entistore --version | --help
 *
 * `serve` prints one line with `http://HOST:PORT` once listening (`--port 0` picks a free port), then
 * serves until SIGINT/SIGTERM, and stops gracefully (serve.ts: in-flight requests answered within
 * `--shutdown-timeout`, exit 1 if it ran out); `/health` answers 503 meanwhile. Every reply of
 * status 500 or more is written on stderr, one line each (error-log.ts). With `--workers N`
 * the process is a node:cluster primary for N serving workers (workers.ts). Exit codes: 0 done, 1 a file, network or runtime problem, 2 a usage
 * error. Each command is one entry of COMMANDS: its options, how it reads them, what it runs.
 */
import cluster from 'node:cluster'
import { readFileSync } from 'node:fs'
import { totalmem } from 'node:os'
import { readFile } from 'node:fs/promises'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { getHeapStatistics } from 'node:v8'
import { closest, type Datastore, type DatastoreWith } from '@entistore/core'
import {
  chaosListener,
  parseDelay,
  parseFailRate,
  seededRandom,
  type DelayRange,
  type Schedule,
} from './chaos.js'
import type { RestCore } from '@entistore/rest'
import { clone, CloneError } from './clone.js'
import type { Cluster, ClusterOptions } from './cluster/join-cluster.js'
import { importOptionals, MissingPackageError } from './cluster/optional-package.js'
import { postgresNameProblem } from './cluster/postgres-names.js'
import { serverErrorLines } from './error-log.js'
import { dataBytesOf, heapAdvice } from './heap-advice.js'
import {
  clusterOf,
  FileError,
  loadDatastoreFiles,
  readJsonFile,
  type LoadFilesOptions,
} from './load-files.js'
import type { RedisParticipant } from './cluster/redis-participant.js'
import { withoutPassword } from './cluster/redacted-url.js'
import { ClusterWrites } from './cluster/cluster-core.js'
import { describeFunctions, summarizeFunctions } from './load-functions.js'
import { runTypesCommand } from './model-types.js'
import { persistenceOf } from './persist/create-datastore.js'
import type { Persistence } from './persist/persist.js'
import { dataSaver, type SaveResult } from './save.js'
import { serve, type RunningServer, type ServeOptions } from './serve.js'
import { stopSignal } from './signals.js'
import { usersAuthenticate } from './users.js'
import { fileStamps, Reloader, watchFiles, type ReloadOutcome } from './watch.js'
import { turnDeadline } from './persist/take-slice.js'
import {
  clusterFork,
  parseWorkers,
  superviseWorkers,
  workerCount,
  workerIo,
  type ForkWorker,
} from './workers.js'

export interface CliIo {
  readonly out: (line: string) => void
  readonly err: (line: string) => void
  /** Resolves when the server should stop. @default the first SIGINT or SIGTERM */
  readonly stopSignal?: Promise<void>
  /** Told once `serve` loaded its files, before it serves them (tests change the files there). */
  readonly onLoaded?: () => void
  /** Receives the server once it listens (tests use it). */
  readonly onListening?: (server: RunningServer) => void
  /**
   * Calls `save` whenever the data should be saved now (`--save`); returns the function that stops
   * listening. @default on SIGUSR2
   */
  readonly saveSignal?: (save: () => void) => () => void
  /** Told about every `--save` (tests wait on it). */
  readonly onSave?: (result: SaveResult | Error) => void
  /** Told about every `--watch` reload (tests wait on it). */
  readonly onReload?: (outcome: ReloadOutcome) => void
  /**
   * Runs `fn` after `ms` milliseconds, for `--delay` (tests end delays themselves); returns the
   * function that cancels it. @default setTimeout
   */
  readonly schedule?: Schedule
  /** How long `--watch` waits after the last change before reloading. @default 100 */
  readonly watchDebounceMs?: number
  /** Starts one worker of `--workers N` (tests give fake ones). @default node:cluster's fork */
  readonly forkWorker?: ForkWorker
  /**
   * Options of the datastore each `serve` process loads (a manual clock, how session ids are
   * made), for tests that serve through the CLI's own path what they serve in process (the
   * conformance suite against `--workers 3`). The workers of `--workers N` run the same script,
   * so each gets them too. @default none
   */
  readonly datastoreOptions?: Pick<LoadFilesOptions, 'clock' | 'sessions'>
  /**
   * For the same tests: the REST handler's body limits, and a wrapper put around its interface,
   * outside the cluster's. @default none
   */
  readonly serveOptions?: Pick<ServeOptions, 'maxBodyBytes' | 'maxUploadBytes' | 'wrapCore'>
}

type Options = NonNullable<ParseArgsConfig['options']>
type Values = Record<string, string | boolean | undefined>

/** One command: its usage lines, options, and what it runs once its arguments are read. */
interface Command {
  readonly options: Options
  /** Reads the values and positionals (throwing UsageError), returning what to run. */
  readonly prepare: (
    values: Values,
    positionals: readonly string[],
  ) => (io: CliIo) => Promise<number>
}

const USAGE = `Usage:
  entistore serve --model <model.json> [--data <data.json>] [--functions <module.js>]
                  [--users <users.json>] [--roles <roles.json>] [--port N] [--host H] [--watch]
                  [--save <file>] [--delay <ms>|<min-max>] [--fail-rate <0..1>] [--seed N] [--persist <dir>]
                  [--explorer <path>] [--no-explorer] [--eager-indexes]
                  [--shutdown-delay <ms>] [--shutdown-timeout <ms>] [--function-timeout <ms>]
                  [--health-details] [--verbose] [--workers N|auto] [--postgres <url>] [--postgres-schema <name>]
                  [--postgres-prefix <prefix>] [--max-lag <ms>] [--redis <url>]
  entistore clone <url> --out <dir> [--user <name> --password <password>] [--page-size N]
  entistore types --model <model.json> [--out <file.ts>]
  entistore --version

Options of serve:
  --model, -m   the model: a JSON file in the shape of GET /rest/$catalog/$all (required)
  --data,  -d   the data: a JSON file { "<DataClass>": [ {...}, ... ] }
  --functions, -f  the class functions: an ES module (.js, .mjs; .ts on Node 22.18+) whose
                default export is defineFunctions({ … }) or a function ({ model }) => definitions
  --users, -u   users who may log in ($directory/login); only they may read and write data:
                { "<name>": { "password": "…", "groups": ["…"], "privileges": ["…"] } }
  --roles       a 4D project's roles.json: the privileges each dataclass, attribute and
                function needs over REST (docs/security.md)
  --port,  -p   the port to listen on; 0 picks a free one (default 8080)
  --host        the address to listen on (default 127.0.0.1)
  --watch, -w   load the model, data and functions files again when they change, on the same port
  --save        write the data to this file on SIGUSR2 and on exit (atomically)
  --delay       delay every reply: milliseconds (250) or a range (100-500)
  --fail-rate   answer this share of requests (0 to 1) with 503, to test clients against a flaky server
  --seed        an integer that makes the draws of --delay and --fail-rate repeat from run to run
  --persist     keep the data in this folder: every write is on disk before its reply, and a
                restart (even after kill -9) serves it again; a folder with data wins over --data
  --explorer    where the data explorer page is served (default /): browse the data in a browser
  --no-explorer serve the REST interface alone, no page
  --eager-indexes  build every index before listening; by default a large data file's indexes are
                built in the background right after the URL line, a few milliseconds at a time
                between requests, so that the server answers sooner
  --postgres    keep the data in PostgreSQL (postgres://user:pass@host:5432/db), shared by every
                server started with the same URL: writes go through it one at a time, each server
                follows the others; a database with data wins over --data
  --postgres-schema  the schema of its two tables (default public; created if absent)
  --postgres-prefix  the prefix of their names (default entistore_): several datastores can
                share one database, each under its own schema or prefix
  --max-lag     with --postgres, the bound of read-your-writes in milliseconds (default 2000): a
                server that cannot follow the others' writes for this long answers reads 503
                until it has caught up; a write waits at most about twice this for one that died;
                with --redis, also the lease of the sessions' mirror
  --shutdown-delay  on SIGTERM or SIGINT, how long to go on serving with GET /health answering 503
                before the port closes, in milliseconds (default 0): time for a load balancer to
                stop sending requests here
  --shutdown-timeout  then, how long requests in flight may take to be answered, in milliseconds
                (default 10000); past it they are cut off and the exit code is 1
  --function-timeout  how long an async class function may take, in milliseconds (default 30000,
                0 for no limit); past it its request is answered 504 (9106)
  --health-details  GET /health also shows the process id, uptime, sessions, requests in flight,
                the memory (heap used, the heap's limit, RSS) and the worker's number; without
                it, only the status (it answers anyone)
  --verbose     after the line written on stderr for each reply of status 500, its error's stack
  --workers     serve with this many processes on one port (node:cluster), or auto (one per CPU);
                more than 1 needs --postgres, since each process holds the data in memory;
                not with --persist, --watch or --save
  --redis       share sessions, locks and entity sets with the other processes serving this
                datastore through this Redis (redis://host:6379): a cookie or a lock taken
                through one process holds in all (docs/durability.md)

Options of clone:
  --out,  -o    the folder to write model.json and data.json to (created if needed)
  --user        log in as this user ($directory/login) before reading, with --password
  --password    the password of --user
  --page-size   entities read per request (default 1000)

Options of types:
  --model, -m   the model to write TypeScript types for (the same file serve reads)
  --out,  -o    the .ts file to write (default: print them)

  --version, -v the version of entistore
  --help,  -h   this text

Examples:
  entistore serve --model model.json --data data.json --port 3000
  entistore serve -m model.json -d data.json --port 0     a free port: the URL is printed once listening
  entistore serve -m model.json -d data.json -u users.json   only logged-in users read and write data
  entistore serve -m model.json -d data.json -f functions.js
                the exposed functions of functions.js answer POST /rest/$catalog/<name>, /rest/Employee/<name>…
  entistore serve -m model.json -d data.json --watch --save data.json
                edit the files and the server follows; writes are saved on exit (kill -USR2 saves now)
  entistore serve -m model.json -d data.json --delay 100-500 --fail-rate 0.1 --seed 7
                a slow and flaky server, the same from run to run
  entistore serve -m model.json -d data.json --persist ./store
                the first start loads data.json into ./store; later starts serve what ./store holds
  entistore serve -m model.json --workers auto --postgres postgres://db/app --redis redis://cache
                one process per CPU on one port; GET /health tells a load balancer each one's state
  entistore clone http://127.0.0.1:8080 --out fixture
                copy a running server's catalog and data, then: entistore serve -m fixture/model.json -d fixture/data.json
  entistore types -m model.json -o src/model-types.ts
                types for createDatastore<Model>(): ds.dataClass('Employee').get(3)?.get('salary') is number | null
  entistore serve -m examples/company/model.json -d examples/company/data.json -f examples/company/functions.js
                the demo, from the repository's folder (npm start there does the same on port 8080)`

/** Options every command takes. */
const GLOBAL: Options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
}

class UsageError extends Error {}

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    options: {
      model: { type: 'string', short: 'm' },
      data: { type: 'string', short: 'd' },
      functions: { type: 'string', short: 'f' },
      users: { type: 'string', short: 'u' },
      roles: { type: 'string' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      watch: { type: 'boolean', short: 'w' },
      save: { type: 'string' },
      delay: { type: 'string' },
      'fail-rate': { type: 'string' },
      seed: { type: 'string' },
      persist: { type: 'string' },
      explorer: { type: 'string' },
      'no-explorer': { type: 'boolean' },
      'eager-indexes': { type: 'boolean' },
      postgres: { type: 'string' },
      'postgres-schema': { type: 'string' },
      'postgres-prefix': { type: 'string' },
      'max-lag': { type: 'string' },
      'shutdown-delay': { type: 'string' },
      'shutdown-timeout': { type: 'string' },
      workers: { type: 'string' },
      redis: { type: 'string' },
      'function-timeout': { type: 'string' },
      'health-details': { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
    prepare(values, positionals) {
      noMorePositionals(positionals, 0)
      if (values.model === undefined) throw new UsageError('--model is required')
      // A reload would replace the datastore the journal follows with the files' data.
      if (values.persist !== undefined && values.watch === true)
        throw new UsageError('--persist and --watch cannot go together')
      // PostgreSQL is the one durable copy; a reload would replace what the log follows.
      if (values.postgres !== undefined && (values.persist !== undefined || values.watch === true))
        throw new UsageError('--postgres goes with neither --persist nor --watch')
      // The sessions and sets shared through Redis belong to one datastore, not to its reloads.
      if (values.redis !== undefined && values.watch === true)
        throw new UsageError('--redis and --watch cannot go together')
      const workers =
        read(
          values.workers,
          parseWorkers,
          '--workers must be a number of processes from 1 to 1024, or auto',
        ) ?? 1
      if (workers !== 1) checkWorkers(`--workers ${String(values.workers)}`, values)
      // Checked with the other usage errors, so that a bad value also shows the usage text.
      const options: ServeCliOptions = {
        model: values.model as string,
        data: values.data as string | undefined,
        functions: values.functions as string | undefined,
        users: values.users as string | undefined,
        roles: values.roles as string | undefined,
        port: parsePort(values.port as string | undefined),
        host: values.host as string | undefined,
        watch: values.watch === true,
        save: values.save as string | undefined,
        delay: read(
          values.delay,
          parseDelay,
          '--delay must be milliseconds (250) or a range (100-500)',
        ),
        failRate: read(
          values['fail-rate'],
          parseFailRate,
          '--fail-rate must be a number from 0 to 1',
        ),
        seed: read(values.seed, parseSeed, '--seed must be an integer from 0 to 4294967295'),
        persist: values.persist as string | undefined,
        explorer: explorerPath(
          values.explorer as string | undefined,
          values['no-explorer'] === true,
        ),
        postgres: postgresOption(values),
        shutdownDelayMs:
          read(
            values['shutdown-delay'],
            parseMilliseconds,
            '--shutdown-delay must be milliseconds, an integer from 0 to 2147483647',
          ) ?? 0,
        shutdownTimeoutMs:
          read(
            values['shutdown-timeout'],
            parseMilliseconds,
            '--shutdown-timeout must be milliseconds, an integer from 0 to 2147483647',
          ) ?? 10_000,
        workers,
        redis: values.redis as string | undefined,
        eagerIndexes: values['eager-indexes'] === true,
        functionTimeoutMs: read(
          values['function-timeout'],
          parseMilliseconds,
          '--function-timeout must be milliseconds, an integer from 0 to 2147483647',
        ),
        healthDetails: values['health-details'] === true,
        verbose: values.verbose === true,
      }
      return (io) => runServe(options, io)
    },
  },
  clone: {
    options: {
      out: { type: 'string', short: 'o' },
      user: { type: 'string' },
      password: { type: 'string' },
      'page-size': { type: 'string' },
    },
    prepare(values, positionals) {
      const url = positionals[0]
      if (url === undefined) throw new UsageError('clone needs the URL of a server')
      noMorePositionals(positionals, 1)
      if (values.out === undefined) throw new UsageError('--out is required')
      if ((values.user === undefined) !== (values.password === undefined))
        throw new UsageError('--user and --password go together')
      const pageSize =
        read(
          values['page-size'],
          parsePageSize,
          '--page-size must be an integer from 1 to 100000',
        ) ?? 1000
      const login =
        values.user === undefined
          ? {}
          : { user: values.user as string, password: values.password as string }
      return (io) => runClone({ url, out: values.out as string, pageSize, ...login }, io)
    },
  },
  types: {
    options: {
      model: { type: 'string', short: 'm' },
      out: { type: 'string', short: 'o' },
    },
    prepare(values, positionals) {
      noMorePositionals(positionals, 0)
      if (values.model === undefined) throw new UsageError('--model is required')
      const options = { model: values.model as string, out: values.out as string | undefined }
      return async (io) => {
        await runTypesCommand(options, io)
        return 0
      }
    },
  },
}

/**
 * The version in the entistore package's package.json, read when asked: cli.ts runs from src/ (tsx,
 * tests) or dist/ (the bin), both one folder below the package.
 */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}

/** parseArgs' error for an unknown option, reworded with the option meant when it is a typo. */
function unknownOption(e: Error, known: readonly string[]): Error {
  const name = /^Unknown option '(-[^']*)'/.exec(e.message)?.[1]
  if ((e as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || name === undefined)
    return e
  // A short option is one letter, too short to guess from.
  const meant = name.startsWith('--') ? closest(name.slice(2), known) : undefined
  return new UsageError(
    `unknown option "${name}"` + (meant === undefined ? '' : `, did you mean --${meant}?`),
  )
}

function noMorePositionals(positionals: readonly string[], expected: number): void {
  if (positionals.length > expected)
    throw new UsageError(`unexpected argument "${positionals[expected]}"`)
}

/** `parse(text)`, or a usage error `message, got "text"`; undefined when the option is absent. */
function read<T>(
  text: string | boolean | undefined,
  parse: (text: string) => T | undefined,
  message: string,
): T | undefined {
  if (typeof text !== 'string') return undefined
  const value = parse(text)
  if (value === undefined) throw new UsageError(`${message}, got "${text}"`)
  return value
}

const integerIn =
  (min: number, max: number) =>
  (text: string): number | undefined =>
    /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined

const parseSeed = integerIn(0, 2 ** 32 - 1)
const parsePageSize = integerIn(1, 100_000)
// setTimeout holds at most 2^31 - 1 ms.
const parseMilliseconds = integerIn(0, 2 ** 31 - 1)

function parsePort(text: string | undefined): number {
  if (text === undefined) return 8080
  const port = integerIn(0, 65535)(text)
  if (port === undefined)
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`)
  return port
}

/**
 * Refuses what N workers cannot do: each worker is a process with the whole datastore in memory,
 * so without a datastore they share, each would serve its own copy.
 */
function checkWorkers(flag: string, values: Values): void {
  if (values.postgres === undefined)
    throw new UsageError(
      `${flag} needs --postgres <url>: every worker holds its own datastore in memory, so ` +
        'without one they share, each would serve its own copy, and a write through one would ' +
        'not be seen through the others (sessions, locks and entity sets are shared with ' +
        '--redis). Run one process, or give --postgres',
    )
  // --persist and --watch are refused with --postgres already.
  if (values.save !== undefined)
    throw new UsageError(
      `${flag} and --save cannot go together: every worker would write the file on exit`,
    )
}

/** `--postgres` with `--postgres-schema` and `--postgres-prefix`, checked as usage. */
function postgresOption(values: Values): PostgresCliOption | undefined {
  const url = values.postgres as string | undefined
  const schema = values['postgres-schema'] as string | undefined
  const prefix = values['postgres-prefix'] as string | undefined
  const maxLagMs = read(
    values['max-lag'],
    parseMilliseconds,
    '--max-lag must be milliseconds, an integer from 4 to 2147483647',
  )
  if (url === undefined) {
    const given =
      schema !== undefined
        ? '--postgres-schema'
        : prefix !== undefined
          ? '--postgres-prefix'
          : '--max-lag'
    if (schema !== undefined || prefix !== undefined || maxLagMs !== undefined)
      throw new UsageError(`${given} needs --postgres <url>`)
    return undefined
  }
  if (maxLagMs !== undefined && maxLagMs < 4)
    throw new UsageError('--max-lag must be milliseconds, an integer from 4 to 2147483647')
  if (schema === undefined && prefix === undefined && maxLagMs === undefined) return url
  for (const [what, name] of [
    ['schema', schema],
    ['prefix', prefix],
  ] as const) {
    const problem = name === undefined ? undefined : postgresNameProblem(what, name)
    if (problem !== undefined) throw new UsageError(`--postgres-${what}: ${problem}`)
  }
  return {
    postgres: url,
    ...(schema === undefined ? {} : { schema }),
    ...(prefix === undefined ? {} : { prefix }),
    ...(maxLagMs === undefined ? {} : { maxLagMs }),
  }
}

const defaultIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}

/** SIGUSR2 asks for a save; Windows has no such signal (only the save on exit is left there). */
function sigusr2(save: () => void): () => void {
  if (process.platform === 'win32') return () => {}
  process.on('SIGUSR2', save)
  return () => process.off('SIGUSR2', save)
}

async function loadUsers(file: string): Promise<ReturnType<typeof usersAuthenticate>> {
  const json = await readJsonFile(file, 'users')
  try {
    return usersAuthenticate(json)
  } catch (e) {
    throw new FileError(file, `the users file is not valid: ${(e as Error).message}`)
  }
}

/** Runs the command line `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  if (!cluster.isWorker) return runCommand(argv, io)
  // A worker of `serve --workers N`, running the primary's command line: what it says goes to
  // the primary, and the channel to it is let go at the end so that the process can exit.
  const worker = workerIo(io)
  try {
    return await runCommand(argv, worker.io)
  } finally {
    worker.release()
  }
}

async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let run: (io: CliIo) => Promise<number>
  try {
    // A first reading, lenient, only finds the command, so that the strict one knows its options.
    const every: Options = Object.assign(
      {},
      GLOBAL,
      ...Object.values(COMMANDS).map((c) => c.options),
    )
    const first = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: false,
      options: every,
    })
    const name = first.positionals[0]
    const command = name === undefined ? undefined : COMMANDS[name]
    const options = command ? { ...GLOBAL, ...command.options } : every
    let parsed
    try {
      parsed = parseArgs({ args: [...argv], allowPositionals: true, options })
    } catch (e) {
      throw unknownOption(e as Error, Object.keys(options))
    }
    const values = parsed.values as Values
    if (values.help) {
      io.out(USAGE)
      return 0
    }
    if (values.version) {
      io.out(version())
      return 0
    }
    if (name === undefined) throw new UsageError('missing command')
    if (command === undefined) {
      const meant = closest(name, Object.keys(COMMANDS))
      throw new UsageError(
        `unknown command "${name}"` + (meant === undefined ? '' : `, did you mean ${meant}?`),
      )
    }
    run = command.prepare(values, parsed.positionals.slice(1))
  } catch (e) {
    io.err(`entistore: ${(e as Error).message}`)
    io.err(USAGE)
    return 2
  }
  try {
    return await run(io)
  } catch (e) {
    if (e instanceof FileError || e instanceof CloneError || e instanceof MissingPackageError) {
      io.err(`entistore: ${e.message}`)
      return 1
    }
    io.err(`entistore: ${(e as Error).stack ?? String(e)}`)
    return 1
  }
}

interface ServeCliOptions {
  readonly model: string
  readonly data: string | undefined
  readonly functions: string | undefined
  readonly users: string | undefined
  readonly roles: string | undefined
  readonly port: number
  readonly host: string | undefined
  readonly watch: boolean
  readonly save: string | undefined
  readonly delay: DelayRange | undefined
  readonly failRate: number | undefined
  readonly seed: number | undefined
  readonly persist: string | undefined
  /** Where the explorer page is served; undefined with --no-explorer. */
  readonly explorer: string | undefined
  /** The URL, with a schema and a prefix when the command line gave them. */
  readonly postgres: PostgresCliOption | undefined
  readonly shutdownDelayMs: number
  readonly shutdownTimeoutMs: number
  readonly workers: number | 'auto'
  readonly redis: string | undefined
  /** Build every index before listening (--eager-indexes), not on each one's first use. */
  readonly eagerIndexes: boolean
  /** --function-timeout; undefined: the handler's default. */
  readonly functionTimeoutMs: number | undefined
  /** --health-details: /health shows more than its status. */
  readonly healthDetails: boolean
  /** --verbose: a 500's stack after its line on stderr. */
  readonly verbose: boolean
}

/** What `loadDatastoreFiles` takes as `postgres`: a URL, or one with the log's schema and prefix. */
type PostgresCliOption = string | Omit<ClusterOptions, 'data'>

/** Whether --delay or --fail-rate asks for a slow or flaky server. */
const hasChaos = (o: ServeCliOptions): boolean => o.delay !== undefined || (o.failRate ?? 0) > 0

/** `company-demo (Company 24, Employee 360, Project 40)` */
const describe = (ds: Datastore): string =>
  `${ds.name} (${ds.dataClasses.map((dc) => `${dc.name} ${dc.length}`).join(', ')})`

/** `a`, `a and b`, `a, b and c` */
const listed = (items: readonly string[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/** `Functions from functions.js: 5 exposed (appInfo, …), 1 private (Stats.count)` */
const functionsLine = (file: string, ds: Datastore): string =>
  `Functions from ${file}: ${describeFunctions(summarizeFunctions(ds))}`

/** `Persisting to ./store (fsync per write): 2,400 entities from its snapshot, 12 journal records` */
function persistLine(p: Persistence, data: string | undefined): string {
  const r = p.recovery
  const found = r.fresh
    ? data === undefined
      ? 'an empty folder'
      : `an empty folder: ${data} loaded into it`
    : `${r.snapshotEntities} entities from its snapshot, ${r.journalRecords} journal records` +
      (r.tornBytes > 0 ? ` (a torn last record of ${r.tornBytes} bytes dropped)` : '') +
      (data === undefined ? '' : `; ${data} not read`)
  return `Persisting to ${p.dir} (every write on disk before its reply): ${found}`
}

/** `PostgreSQL: 2400 entities from its snapshot, 12 log records; data.json not read` */
function postgresLine(c: Cluster, data: string | undefined): string {
  const r = c.recovery
  const found = r.fresh
    ? data === undefined
      ? 'an empty database'
      : `an empty database: ${data} loaded into it`
    : `${r.snapshotEntities} entities from its snapshot, ${r.logRecords} log records` +
      (data === undefined ? '' : `; ${data} not read`)
  return `Sharing the data through PostgreSQL (every write committed there before its reply): ${found}`
}

/**
 * Loads the files of the command line. With --functions, a load after the first imports the module
 * again (a new version, `?v=N`) only when its bytes changed since the last import: a reload for a
 * data change reuses the module Node holds, and only versions the user wrote are kept in memory.
 */
function filesLoader(
  o: ServeCliOptions,
  io: CliIo,
): (how?: { inSlices?: boolean }) => Promise<DatastoreWith<string>> {
  const files = {
    model: o.model,
    progress: io.err,
    ...(o.data === undefined ? {} : { data: o.data }),
    ...(o.functions === undefined ? {} : { functions: o.functions }),
    ...(o.roles === undefined ? {} : { roles: o.roles }),
    ...(o.persist === undefined ? {} : { persist: o.persist }),
    ...(o.postgres === undefined ? {} : { postgres: o.postgres }),
    eagerIndexes: o.eagerIndexes,
    ...io.datastoreOptions,
  }
  const module = o.functions
  if (module === undefined) return (how) => loadDatastoreFiles({ ...files, ...how })
  let first = true
  let version = 0
  let imported: string | undefined
  return async (how) => {
    // A module that cannot be read is left to loadDatastoreFiles to report, naming it.
    const text = await readFile(module, 'utf8').catch(() => undefined)
    if (!first && text !== imported) version++
    first = false
    imported = text
    return loadDatastoreFiles({ ...files, ...how, functionsVersion: version })
  }
}

/** The explorer's path: `--explorer` (a path from the root), `/` by default, none with --no-explorer. */
function explorerPath(path: string | undefined, off: boolean): string | undefined {
  if (off) {
    if (path !== undefined) throw new UsageError('--explorer and --no-explorer cannot go together')
    return undefined
  }
  if (path === undefined) return '/'
  if (!/^\/[\w./-]*$/.test(path) || path.split('/').includes('..'))
    throw new UsageError(`--explorer must be a path from the root, such as /explorer (got ${path})`)
  return path
}

/**
 * The primary of `--workers N`: forks N workers running this same command line (each one, a
 * cluster worker, serves as one process does) and supervises them until the stop signal.
 */
function runPrimary(o: ServeCliOptions, count: number, io: CliIo): Promise<number> {
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

async function runServe(o: ServeCliOptions, io: CliIo): Promise<number> {
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
  const count = workerCount(o.workers)
  // Said once, before the load that would die at the heap's limit (workers inherit NODE_OPTIONS).
  if (!cluster.isWorker && o.postgres === undefined) {
    const { bytes, what } = dataBytesOf(o.data, o.persist)
    const advice = heapAdvice({
      dataBytes: bytes,
      what,
      heapLimit: getHeapStatistics().heap_size_limit,
      totalMemory: totalmem(),
    })
    if (advice !== undefined) io.err(advice)
  }
  if (count > 1 && !cluster.isWorker) return runPrimary(o, count, io)
  const load = filesLoader(o, io)
  // Before the files are read: what --watch compares with once it watches (see noteServed).
  const loaded = o.watch ? await fileStamps(watchedFiles(o)) : undefined
  const ds = await load()
  io.onLoaded?.()
  const auth =
    o.users === undefined ? {} : { authenticate: await loadUsers(o.users), forceLogin: true }
  const chaos = hasChaos(o)
  const random = o.seed === undefined ? Math.random : seededRandom(o.seed)
  let shared: RedisParticipant | undefined
  if (o.redis !== undefined) {
    try {
      // Loaded only when asked: the driver costs every other start-up its import.
      const { connectRedis } = await import('./cluster/redis-participant.js')
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
  const writes = pgCluster ?? (shared ? new ClusterWrites(ds, [shared]) : undefined)
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
  let server: RunningServer
  try {
    server = await serve(ds, {
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
      // A process that cannot vouch for what it holds (fenced, cut off) fails its health check.
      ...(pgCluster ? { healthProblem: () => pgCluster.unavailable() } : {}),
      // Which process answered, when there are several (with --health-details).
      ...(cluster.worker
        ? { healthFields: () => ({ worker: cluster.worker!.id, workers: count }) }
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
/** The files `--watch` watches: the model, then the data and the functions module if given. */
const watchedFiles = (o: ServeCliOptions): string[] => [
  o.model,
  ...[o.data, o.functions].filter((f) => f !== undefined),
]

async function whileServing(
  o: ServeCliOptions,
  io: CliIo,
  load: (how?: { inSlices?: boolean }) => Promise<Datastore>,
  server: RunningServer,
  stops: Stops,
  loaded: readonly string[] | undefined,
): Promise<number> {
  io.out(`Entistore serving ${describe(server.ds)} at ${server.url}/rest/$catalog`)
  buildIndexesInBackground(server.ds, io)
  if (o.functions !== undefined) io.out(functionsLine(o.functions, server.ds))
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
  const reloader = o.watch
    ? new Reloader({
        files: watched,
        // In slices: the server goes on answering while the new data is read beside it.
        load: () => load({ inSlices: true }),
        replace: (next) => server.replace(next),
        onOutcome: (outcome) => {
          if (outcome.kind === 'reloaded') {
            io.out(`Reloaded ${listed(watched)}: serving ${describe(outcome.ds)}`)
            buildIndexesInBackground(outcome.ds, io)
            if (o.functions !== undefined) io.out(functionsLine(o.functions, outcome.ds))
          } else if (outcome.kind === 'failed')
            io.err(
              `entistore: reload failed, still serving the previous data: ${(outcome.error as Error).message}`,
            )
          io.onReload?.(outcome)
        },
      })
    : undefined
  if (reloader) {
    // Watching first: a change made while the digests are read is heard.
    stops.add(
      watchFiles(watched, () => void reloader.request(), {
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
      : dataSaver(saveTo, () => server.ds, {
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
  await (io.stopSignal ?? stopSignal())
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

async function runClone(
  options: Parameters<typeof clone>[0] & { readonly url: string },
  io: CliIo,
): Promise<number> {
  const result = await clone(options)
  const counts = Object.entries(result.counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')
  io.out(`Cloned ${result.name} (${counts}) from ${result.base}`)
  io.out(`Wrote ${result.modelFile} and ${result.dataFile}; serve them with:`)
  io.out(`  entistore serve --model ${result.modelFile} --data ${result.dataFile}`)
  return 0
}
