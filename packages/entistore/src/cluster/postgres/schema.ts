/**
 * @module The tables of a PostgreSQL log and what every statement is built from: their names, the
 * NOTIFY channels, the advisory locks, and the numbers written into statements' texts. Three
 * tables, under a schema and a table prefix of the caller's choice (so that several datastores,
 * or tests, share one database):
 *
 * - `<prefix>log`: one row per commit of any process, `seq` (an identity, the order every process
 *   applies them in), `origin` (the process that wrote it), `at` (when) and `record`, the core's
 *   LogRecord as JSON text (text, not jsonb: it is parsed by Node, never queried by PostgreSQL);
 * - `<prefix>snapshot`: the whole store as `snapshotRecords` at log `seq`, in `part`s (0, 1, …)
 *   (snapshots.ts);
 * - `<prefix>members`: the processes serving, and their leases (members.ts).
 *
 * The statements here are those of databases made by every earlier version: `CREATE … IF NOT
 * EXISTS` leaves a database made before as it is, and it must keep working.
 */
import pg from 'pg'
import { postgresNameProblem } from './names.js'

// The first half of the advisory lock's key: "enti" in ASCII; the second is the tables' hash.
const LOCK_CLASS = 0x656e7469
// The first half of the snapshot writers' lock ("ents"): one process writes a snapshot at a time,
// without holding up the log's writers.
const SNAPSHOT_LOCK_CLASS = 0x656e7473

/**
 * The names of one log's tables and channels, and the statements that take its locks. A class,
 * so that a connection (connection.ts) has them as fields of its own, declared here once.
 */
export class LogTables {
  /** `"schema"."prefixlog"` */
  readonly logTable: string
  readonly snapshotTable: string
  /** `"schema"."prefixmembers"`: the processes serving, and their leases. */
  readonly membersTable: string
  /** The NOTIFY channel: one per schema and prefix. */
  readonly channel: string
  /** The channel of acknowledgements: "this process applied the log up to seq N". */
  readonly ackChannel: string
  /** The statement that takes the log's lock (its key computed by PostgreSQL's hashtext, as always). */
  readonly lockSql: string
  /** The statement that tries the snapshot writers' lock: `locked`, true when taken. */
  readonly snapshotLockSql: string

  /** The tables of the log under `schema` and `prefix`; throws (TypeError) on a name refused. */
  constructor(schema: string, prefix: string) {
    const problem = postgresNameProblem('schema', schema) ?? postgresNameProblem('prefix', prefix)
    if (problem !== undefined) throw new TypeError(`postgres: ${problem}`)
    const tables = `hashtext(${pg.escapeLiteral(`${schema}.${prefix}`)})`
    this.logTable = `"${schema}"."${prefix}log"`
    this.snapshotTable = `"${schema}"."${prefix}snapshot"`
    this.membersTable = `"${schema}"."${prefix}members"`
    // A channel's name has at most 63 bytes (LISTEN would cut a longer one, pg_notify refuse it).
    this.channel = `${schema}_${prefix}log`.slice(0, 63)
    this.ackChannel = `${schema}_${prefix}ack`.slice(0, 63)
    this.lockSql = `SELECT pg_advisory_xact_lock(${LOCK_CLASS}, ${tables})`
    this.snapshotLockSql = `SELECT pg_try_advisory_xact_lock(${SNAPSHOT_LOCK_CLASS}, ${tables}) AS locked`
  }
}

/** Whether the server can compress with lz4 (PostgreSQL 14 or later, built with it): `available`. */
export const LZ4_SQL = `SELECT 'lz4' = ANY(enumvals) AS available FROM pg_settings
          WHERE name = 'default_toast_compression'`

/** The statements that make the tables, each if absent; the snapshots' with lz4 or not. */
export function tablesSql(t: LogTables): {
  readonly schema: string
  readonly log: string
  readonly logTags: string
  readonly snapshot: (lz4: boolean) => string
  readonly members: string
} {
  return {
    schema: `CREATE SCHEMA IF NOT EXISTS ${t.logTable.split('.')[0]!}`,
    log: `CREATE TABLE IF NOT EXISTS ${t.logTable} (
           seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
           origin text NOT NULL,
           at timestamptz NOT NULL DEFAULT clock_timestamp(),
           record text NOT NULL)`,
    // Added by the one-writer scheme: a forwarded write's id and reply beside its last record.
    // Nullable, so that a log made before, and the rows of processes of an earlier version, do.
    logTags: `ALTER TABLE ${t.logTable} ADD COLUMN IF NOT EXISTS request text,
           ADD COLUMN IF NOT EXISTS reply text`,
    snapshot: (lz4) => `CREATE TABLE IF NOT EXISTS ${t.snapshotTable} (
           seq bigint NOT NULL,
           part integer NOT NULL,
           at timestamptz NOT NULL DEFAULT clock_timestamp(),
           record text ${lz4 ? 'COMPRESSION lz4 ' : ''}NOT NULL,
           PRIMARY KEY (seq, part))`,
    members: `CREATE TABLE IF NOT EXISTS ${t.membersTable} (
           origin text PRIMARY KEY,
           expires_at timestamptz NOT NULL,
           evicted_at timestamptz,
           applied bigint NOT NULL,
           joined_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  }
}

/** A log position written into a statement's text: checked to be a non-negative integer. */
export function checkedSeq(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new TypeError(`postgres: a log position must be an integer: ${n}`)
  return n
}

/** A duration written into a statement's text: checked to be a positive integer. */
export function checkedMs(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1)
    throw new TypeError(`postgres: a duration must be a positive integer of milliseconds: ${n}`)
  return n
}
