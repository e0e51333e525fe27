/**
 * @module What `entistore serve`'s command line asks for, read (serve.ts reads it, serve-run.ts
 * runs it): apart from both, so that the runner, imported when it runs, and the reader, which
 * imports it then, do not name each other.
 */
import type { CodeLimits } from '@entistore/4d'
import type { ClusterOptions } from '../cluster/join-cluster.js'
import type { DelayRange } from '../serve/chaos.js'
import type { RequestLogFormat } from '../serve/request-log.js'
import type { CorsOrigins } from './cors-option.js'
import type { ServeLimits } from './serve-limits.js'

export interface ServeCliOptions {
  /** Undefined: the model is the --project's, or inferred from the data file. */
  readonly model: string | undefined
  /** A 4D project folder, the model's source instead of --model. */
  readonly project: string | undefined
  readonly data: string | undefined
  readonly functions: string | undefined
  readonly users: string | undefined
  /** A QuotaManager.json to enforce, instead of the --project's own. */
  readonly quotas: string | undefined
  readonly roles: string | undefined
  /** The hosts the project's 4D code may send HTTP requests to (`--allow-http`). */
  readonly allowHttp: readonly string[]
  /** The mail servers the project's 4D code may send mail through (`--allow-smtp`). */
  readonly allowSmtp: readonly string[]
  /** The programs the project's 4D code may run (`--allow-exec`). */
  readonly allowExec: readonly string[]
  /** The bounds of the project's 4D code (`--code-limits`); undefined: the defaults. */
  readonly codeLimits: Partial<CodeLimits> | undefined
  /** Folders of downloaded components for the project's dependencies (`--components`). */
  readonly components: readonly string[]
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
  /** --threads: the worker threads of each process's pool (0: none). */
  readonly threads: number | 'auto'
  readonly redis: string | undefined
  /** Build every index before listening (--eager-indexes), not on each one's first use. */
  readonly eagerIndexes: boolean
  /** --function-timeout; undefined: the handler's default. */
  readonly functionTimeoutMs: number | undefined
  /** --health-details: /health shows more than its status. */
  readonly healthDetails: boolean
  /** --verbose: a 500's stack after its line on stderr. */
  readonly verbose: boolean
  /**
   * --cors: the origins browser pages may call from, `loopback` for the pages on this machine, `*`
   * for any page; undefined: no CORS header.
   */
  readonly cors: CorsOrigins | undefined
  /** The request log's form (--log); undefined with --quiet. */
  readonly log: RequestLogFormat | undefined
  /** --max-body, --max-sessions and the session cookie's flags; empty: the defaults. */
  readonly limits: ServeLimits
}

/** What `loadDatastoreFiles` takes as `postgres`: a URL, or one with the log's schema and prefix. */
export type PostgresCliOption = string | Omit<ClusterOptions, 'data'>
