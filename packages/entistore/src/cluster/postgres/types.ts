/**
 * @module The public types of `--postgres` (joinCluster's options and what it reports), in a
 * module that imports nothing: `pg` is an optional peer dependency (optional-package.ts), so the
 * declarations a user compiles against name none of its types. The modules that use pg (the
 * others of this folder) take these.
 */
import type { ConnectionOptions } from 'node:tls'

/**
 * node-postgres's pool settings (its `PoolConfig`), passed to `new pg.Pool()` as given. Declared
 * here, the same as pg's, so that entistore's types compile without pg installed; a value typed
 * as pg's own `PoolConfig` may be given too, with its other settings.
 */
export interface PostgresPoolConfig {
  readonly connectionString?: string | undefined
  readonly host?: string | undefined
  readonly port?: number | undefined
  readonly user?: string | undefined
  readonly password?: string | (() => string | Promise<string>) | undefined
  readonly database?: string | undefined
  /** TLS: true, or Node's `tls.connect` options (`ca`, `rejectUnauthorized`…). */
  readonly ssl?: boolean | ConnectionOptions | undefined
  readonly application_name?: string | undefined
  readonly options?: string | undefined
  readonly keepAlive?: boolean | undefined
  readonly connectionTimeoutMillis?: number | undefined
  readonly statement_timeout?: false | number | undefined
  readonly query_timeout?: number | undefined
  readonly lock_timeout?: number | undefined
  readonly idle_in_transaction_session_timeout?: number | undefined
  /** The pool's most connections. pg's default: 10 */
  readonly max?: number | undefined
  readonly min?: number | undefined
  readonly idleTimeoutMillis?: number | null | undefined
  readonly maxUses?: number | undefined
  readonly maxLifetimeSeconds?: number | undefined
  readonly allowExitOnIdle?: boolean | undefined
}

export interface PostgresLogOptions {
  /** A connection URL (`postgres://user:pass@host:5432/db`) or node-postgres's pool settings. */
  readonly connection: string | PostgresPoolConfig
  /** The schema of the tables (created if absent). @default 'public' */
  readonly schema?: string
  /** The prefix of the tables' names, so that several datastores share a schema. @default 'entistore_' */
  readonly prefix?: string
  /** Log records between two snapshots. @default 10_000 */
  readonly snapshotEvery?: number
  /**
   * Rows per part of a snapshot. A part is made in one piece on the event loop while the process
   * serves: 1,000 short rows take 2–4 ms, 10,000 took 20–40 ms, longer than a slice should hold
   * it (as the journal's snapshot records). @default 1_000
   */
  readonly rowsPerRecord?: number
  /**
   * @internal How long a snapshot may hold the event loop making its parts before it inserts them
   * and lets other work run (tests set 0: a part a slice). @default 5
   */
  readonly sliceMs?: number
  /**
   * @internal The turns a snapshot's slices share with the REST replies: a test gives the one it
   * gives the handler, on a clock that counts, to bound the work of each turn (persist/take-slice.ts's
   * SliceTurns, spelt out: this module imports nothing). @default the event loop's
   */
  readonly turns?: { readonly now: () => number; deadline(ms: number): number }
  /** This process's name in the log's `origin` column. @default `<host>:<pid>:<random>` */
  readonly origin?: string
  /** Log rows read per round trip when catching up. @default 1000 */
  readonly catchUpRows?: number
}

/** What start-up found. */
export interface PostgresRecovery {
  /** True when PostgreSQL held nothing and the initial data, if any, was loaded and written. */
  readonly fresh: boolean
  /** The log seq of the snapshot loaded (or written, when fresh). */
  readonly snapshotSeq: number
  readonly snapshotEntities: number
  /** Log records applied after the snapshot. */
  readonly logRecords: number
}

/** The delay between a commit in another process and its application here, in milliseconds. */
export interface LagSummary {
  /** Records of other processes applied (the samples below are of the last 10,000). */
  readonly count: number
  readonly p50: number
  readonly p99: number
  readonly max: number
}
