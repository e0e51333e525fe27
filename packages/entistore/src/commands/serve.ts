/**
 * @module `entistore serve`, as the command line says it: its options, its help, and their reading
 * into ServeCliOptions, every mistake a usage error before anything is loaded. serve-run.ts runs it.
 */
import { postgresNameProblem } from '../cluster/postgres/names.js'
import type { DelayRange } from '../serve/chaos.js'
import type { RequestLogFormat } from '../serve/request-log.js'
import {
  integerIn,
  MAX_TIMER_MS,
  noMorePositionals,
  parseMilliseconds,
  read,
  UsageError,
  type Command,
  type Values,
} from './command.js'
import { parseCorsOrigins } from './cors-option.js'
import { parseCodeLimits } from './code-limits-option.js'
import { LIMITS_HELP, LIMITS_OPTIONS, serveLimits } from './serve-limits.js'
import type { PostgresCliOption, ServeCliOptions } from './serve-options.js'

const HELP = `Usage:
  entistore serve --model <model.json> [--data <data.json>] [--functions <module.js>]
                  [--users <users.json>] [--roles <roles.json>] [--allow-http <hosts>] [--allow-smtp <hosts>] [--allow-exec <programs>] [--code-limits <bounds>] [--components <folder>] [--port N] [--host H] [--watch]
                  [--save <file>] [--delay <ms>|<min-max>] [--fail-rate <0..1>] [--seed N] [--persist <dir>]
                  [--explorer <path>] [--no-explorer] [--eager-indexes]
                  [--shutdown-delay <ms>] [--shutdown-timeout <ms>] [--function-timeout <ms>]
                  [--health-details] [--verbose] [--workers N|auto] [--threads N|auto] [--postgres <url>] [--postgres-schema <name>]
                  [--postgres-prefix <prefix>] [--max-lag <ms>] [--writes one|each]
                  [--writer-listen <address>] [--writer-address <address>] [--redis <url>]
                  [--cors [origins]] [--quotas <QuotaManager.json>] [--log text|json] [--quiet]
                  [--max-body <bytes>] [--max-sessions N] [--cookie-samesite Strict|Lax|None]
                  [--cookie-secure] [--no-cookie-httponly]
  entistore serve --data <db.json> [options]
  entistore serve --project <folder> [--data <data.json>|<csv folder>] [options]

Serves a model and its data through the 4D REST interface (/rest/$catalog), and a page to
browse them (the explorer), until SIGINT or SIGTERM.

Options:
  --model, -m   the model: a JSON file in the shape of GET /rest/$catalog/$all; without it, the
                model is inferred from --data (docs/infer-model.md; entistore model writes it out)
  --project     a 4D project folder (its Project folder, or the one that holds it) instead of
                --model: its structure (Sources/catalog.4DCatalog), its classes' exposed functions
                and its roles.json, served as a 4D server serves them (docs/from-your-project.md)
  --data,  -d   the data: a JSON file { "<DataClass>": [ {...}, ... ] }; with --project, also a
                folder of CSV files, one per table (Car.csv), a header row of field names
  --functions, -f  the class functions: an ES module (.js, .mjs; .ts on Node 22.18+) whose
                default export is defineFunctions({ … }) or a function ({ model }) => definitions
  --users, -u   users who may log in ($directory/login); only they may read and write data:
                { "<name>": { "password": "…", "groups": ["…"], "privileges": ["…"] } }
  --quotas      web server quotas, 4D's QuotaManager.json: requests and bytes per minute and hour,
                sessions (docs/web-server.md); wins over the --project's own
${LIMITS_HELP}
  --roles       a 4D project's roles.json: the privileges each dataclass, attribute and
                function needs over REST (docs/security.md); wins over the --project's own
  --allow-http  the hosts the --project's 4D code may send HTTP requests to (HTTP Request, HTTP Get):
                host, host:port or *.domain, comma-separated; none by default
  --allow-smtp  the mail servers the --project's 4D code may send mail through (SMTP New
                transporter), as --allow-http takes hosts; none by default
  --allow-exec  the programs the --project's 4D code may run (LAUNCH EXTERNAL PROCESS), by name
                (on the PATH) or path, comma-separated; none by default
  --code-limits the bounds of the --project's 4D code, name=value comma-separated: callDepth (1000),
                elements (16777216), textLength (67108864), blobBytes (268435456), fileEntries
                (100000), regexMs (50); past one, the code ends with a 4D error (docs/security.md)
  --components  a folder of downloaded 4D components (GitHub dependencies, 4D NetKit…) for what the
                --project's dependencies.json names; may be given again
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
                server started with the same URL: one of them writes, the others forward their
                writes to it, each server follows the log; a database with data wins over --data
  --writes      with --postgres, one (the default): one process runs every write, chosen by
                PostgreSQL, another taking over within seconds when it goes; each: every process
                runs its own writes, taking turns on the log's lock
  --writer-listen  where this process takes the writes forwarded to it when it is the writer:
                unix:/path.sock, or http://host:port for servers on other machines (default: a
                Unix socket in the temp folder, enough for --workers on one machine)
  --writer-address  the address the other servers reach it at, if not --writer-listen's
                (http://host: the port it listens on; with --workers, give --writer-listen
                http://0.0.0.0:0 so that each worker takes a free port of its own)
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
                the memory (heap used, the heap's limit, RSS), the worker's number and, with
                --writes one, whether it is the writer; without it, only the status (it
                answers anyone)
  --verbose     after the line written on stderr for each reply of status 500, its error's stack
  --workers     serve with this many processes on one port (node:cluster), or auto (one per CPU);
                more than 1 needs --postgres, since each process holds the data in memory;
                not with --persist, --watch or --save
  --threads     worker threads for reads over many rows (a scan of a number, an ordering's
                first rows, a sum): they run beside the thread that answers, which stays free
                for the cheap requests meanwhile; auto (default) is one per CPU but one, at
                least 1; 0 for none (each process of --workers has its own)
  --redis       share sessions, locks and entity sets with the other processes serving this
                datastore through this Redis (redis://host:6379): a cookie or a lock taken
                through one process holds in all (docs/durability.md)
  --cors        let browser pages on other origins call the server (CORS): alone, the pages on
                this machine (http or https on localhost, 127.0.0.1 or [::1], any port), with
                their session cookie; the origins, separated by commas, with their session cookie
                (--cors http://localhost:5173,https://app.example.com); or '*', any page,
                without cookies
  --log         the request log's form: text (the default, a line a request on stdout: method,
                URL, status, time, bytes, user), or json (one JSON object a line)
  --quiet       no request log
  --help,  -h   this text

Examples:
  entistore serve --model model.json --data data.json --port 3000
  entistore serve --data db.json
                no model: one is inferred from the data, as json-server serves a db.json
  entistore serve --project Project --data csv/
                a 4D project folder served as is: its structure, classes and roles.json, its data from CSV files
  entistore serve -m model.json -d data.json --port 0     a free port: the URL is printed once listening
  entistore serve -m model.json -d data.json -u users.json   only logged-in users read and write data
  entistore serve -m model.json -d data.json -f functions.js
                the exposed functions of functions.js answer POST /rest/$catalog/<name>, /rest/Employee/<name>…
  entistore serve -m model.json -d data.json --watch --save data.json
                edit the files and the server follows; writes are saved on exit (kill -USR2 saves now)
  entistore serve -m model.json -d data.json --delay 100-500 --fail-rate 0.1 --seed 7
                a slow and flaky server, the same from run to run
  entistore serve -m model.json -d data.json --cors http://localhost:5173
                a page served by Vite on port 5173 logs in, reads and writes with fetch
  entistore serve -m model.json -d data.json --persist ./store
                the first start loads data.json into ./store; later starts serve what ./store holds
  entistore serve -m model.json --workers auto --postgres postgres://db/app --redis redis://cache
                one process per CPU on one port; GET /health tells a load balancer each one's state
  entistore serve -m examples/company/model.json -d examples/company/data.json -f examples/company/functions.js
                the demo, from the repository's folder (npm start there does the same on port 8080)`

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve a model and its data through the REST interface, with the explorer page',
  help: HELP,
  options: {
    model: { type: 'string', short: 'm' },
    project: { type: 'string' },
    data: { type: 'string', short: 'd' },
    functions: { type: 'string', short: 'f' },
    users: { type: 'string', short: 'u' },
    quotas: { type: 'string' },
    roles: { type: 'string' },
    'allow-http': { type: 'string' },
    'allow-smtp': { type: 'string' },
    'allow-exec': { type: 'string' },
    'code-limits': { type: 'string' },
    components: { type: 'string', multiple: true },
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
    writes: { type: 'string' },
    'writer-listen': { type: 'string' },
    'writer-address': { type: 'string' },
    'shutdown-delay': { type: 'string' },
    'shutdown-timeout': { type: 'string' },
    workers: { type: 'string' },
    threads: { type: 'string' },
    redis: { type: 'string' },
    'function-timeout': { type: 'string' },
    'health-details': { type: 'boolean' },
    verbose: { type: 'boolean' },
    cors: { type: 'string' },
    log: { type: 'string' },
    quiet: { type: 'boolean' },
    ...LIMITS_OPTIONS,
  },
  // Alone, the pages on this machine: '*' is for the one who writes it.
  bareValues: { cors: 'loopback' },
  prepare(values, positionals) {
    noMorePositionals(positionals, 0)
    if (values.project !== undefined) checkProject(values)
    else if (values.model === undefined) modelNotInferred(values)
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
    const log = values.log as string | undefined
    if (log !== undefined && log !== 'text' && log !== 'json')
      throw new UsageError(`--log must be text or json, got "${log}"`)
    if (log !== undefined && values.quiet === true)
      throw new UsageError('--log and --quiet cannot go together: --quiet turns the log off')
    // Checked with the other usage errors, so that a bad value also shows the usage text.
    const options: ServeCliOptions = {
      model: values.model as string | undefined,
      project: values.project as string | undefined,
      data: values.data as string | undefined,
      functions: values.functions as string | undefined,
      users: values.users as string | undefined,
      quotas: values.quotas as string | undefined,
      roles: values.roles as string | undefined,
      allowHttp: hostList(values['allow-http'] as string | undefined, '--allow-http'),
      allowSmtp: hostList(values['allow-smtp'] as string | undefined, '--allow-smtp'),
      allowExec: ((values['allow-exec'] as string | undefined) ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
      codeLimits: parseCodeLimits(values['code-limits'] as string | undefined),
      components: (values.components as string[] | undefined) ?? [],
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
      explorer: explorerPath(values.explorer as string | undefined, values['no-explorer'] === true),
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
      threads:
        read(
          values.threads,
          parseThreads,
          '--threads must be a number of threads from 0 to 256, or auto',
        ) ?? 'auto',
      redis: values.redis as string | undefined,
      eagerIndexes: values['eager-indexes'] === true,
      functionTimeoutMs: read(
        values['function-timeout'],
        parseMilliseconds,
        '--function-timeout must be milliseconds, an integer from 0 to 2147483647',
      ),
      healthDetails: values['health-details'] === true,
      verbose: values.verbose === true,
      cors: values.cors === undefined ? undefined : parseCorsOrigins(values.cors as string),
      log: values.quiet === true ? undefined : ((log as RequestLogFormat | undefined) ?? 'text'),
      limits: serveLimits(values),
    }
    return async (io) => (await import('./serve-run.js')).runServe(options, io)
  },
}

const parseSeed = integerIn(0, 2 ** 32 - 1)

/** Refuses what a 4D project folder as the model's source cannot go with. */
function checkProject(values: Values): void {
  if (values.model !== undefined)
    throw new UsageError('--model and --project cannot go together: the project is the model')
}

/**
 * Refuses a serve without --model that cannot infer one: no data to infer it from, or a place
 * whose data outlives the file (a folder, a database), which a model inferred anew from the file
 * at each start could no longer fit.
 */
function modelNotInferred(values: Values): void {
  if (values.data === undefined)
    throw new UsageError(
      '--model is required, or --project <folder>, or --data alone to infer the model from the data',
    )
  const flag =
    values.persist !== undefined
      ? '--persist'
      : values.postgres !== undefined
        ? '--postgres'
        : undefined
  if (flag !== undefined)
    throw new UsageError(
      `${flag} needs --model: the data it keeps outlives ${String(values.data)}, whose model is inferred ` +
        `anew at each start (entistore model --from ${String(values.data)} --out model.json writes one)`,
    )
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 8080
  const port = integerIn(0, 65535)(text)
  if (port === undefined)
    throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`)
  return port
}

/** `--workers`: a number of processes from 1 to 1024, or `auto`; undefined if it is not one. */
export function parseWorkers(text: string): number | 'auto' | undefined {
  if (text === 'auto') return 'auto'
  return /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 1024 ? Number(text) : undefined
}

/** `--threads`: a number of worker threads from 0 to 256, or `auto`; undefined if it is not one. */
export function parseThreads(text: string): number | 'auto' | undefined {
  if (text === 'auto') return 'auto'
  return /^\d+$/.test(text) && Number(text) <= 256 ? Number(text) : undefined
}

/** Reads `--delay`: `250` or a range `100-500`, in milliseconds; undefined if it is not one. */
export function parseDelay(text: string): DelayRange | undefined {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim())
  if (!m) return undefined
  const min = Number(m[1])
  const max = m[2] === undefined ? min : Number(m[2])
  if (max < min || max > MAX_TIMER_MS) return undefined
  return { min, max }
}

/** Reads `--fail-rate`: a number from 0 to 1; undefined if it is not one. */
export function parseFailRate(text: string): number | undefined {
  const t = text.trim()
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t)) return undefined
  const rate = Number(t)
  return rate <= 1 ? rate : undefined
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
  const writes = values.writes as string | undefined
  const listen = values['writer-listen'] as string | undefined
  const advertise = values['writer-address'] as string | undefined
  if (url === undefined) {
    const given = [
      ['--postgres-schema', schema],
      ['--postgres-prefix', prefix],
      ['--max-lag', maxLagMs],
      ['--writes', writes],
      ['--writer-listen', listen],
      ['--writer-address', advertise],
    ].find(([, v]) => v !== undefined)
    if (given) throw new UsageError(`${given[0]} needs --postgres <url>`)
    return undefined
  }
  if (maxLagMs !== undefined && maxLagMs < 4)
    throw new UsageError('--max-lag must be milliseconds, an integer from 4 to 2147483647')
  if (writes !== undefined && writes !== 'one' && writes !== 'each')
    throw new UsageError(`--writes must be one or each, got "${writes}"`)
  if (writes === 'each' && (listen !== undefined || advertise !== undefined))
    throw new UsageError('--writer-listen and --writer-address go with --writes one')
  for (const [flag, address] of [
    ['--writer-listen', listen],
    ['--writer-address', advertise],
  ] as const)
    if (address !== undefined && !/^(unix:\/.+|http:\/\/[^/:]+(:\d+)?\/?)$/.test(address))
      throw new UsageError(`${flag} must be unix:/path.sock or http://host:port, got "${address}"`)
  const oneWriter =
    writes === 'each'
      ? false
      : {
          ...(listen === undefined ? {} : { listen }),
          ...(advertise === undefined ? {} : { advertise }),
        }
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
    oneWriter,
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

/** `--allow-http a.com,*.b.org` (or `--allow-smtp`): the hosts, none when it is not given. */
function hostList(v: string | undefined, option: string): readonly string[] {
  if (v === undefined) return []
  const hosts = v
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '')
  if (
    hosts.length === 0 ||
    hosts.some((h) => !/^(\*\.)?[\w.-]+(:\d+)?$|^\[[\da-f:]+\](:\d+)?$/i.test(h))
  )
    throw new UsageError(
      `${option} takes hosts: host, host:port or *.domain, comma-separated, got "${v}"`,
    )
  return hosts
}
