/**
 * @module The change log and snapshots in PostgreSQL: the SQL side of `--postgres`
 * (docs/durability.md). Two tables, under a schema and a table prefix of the caller's choice (so
 * that several datastores, or tests, share one database):
 *
 * - `<prefix>log`: one row per commit of any process, `seq` (an identity, the order every process
 *   applies them in), `origin` (the process that wrote it), `at` (when) and `record`, the core's
 *   LogRecord as JSON text (text, not jsonb: it is parsed by Node, never queried by PostgreSQL);
 * - `<prefix>snapshot`: the whole store as `snapshotRecords` at log `seq`, in `part`s (0, 1, …),
 *   written a slice at a time from a view of the store and committed together (`writeSnapshot`),
 *   read back a page of parts at a time (`load`).
 *
 * Every append happens inside a transaction holding one advisory lock (`pg_advisory_xact_lock`,
 * keyed by the schema and prefix) until it commits: appends are serialized across processes, so
 * the identity's order is the commit order and a reader never sees seq N+1 committed while N is
 * not. Identity values are not transactional: a rolled-back append leaves a gap, which readers
 * skip (they read `seq > applied`, never `seq = applied + 1`).
 *
 * A write costs two round trips, since the lock is held across them and every other process's
 * writes wait for it: `beginWrite` sends BEGIN, the lock and the first catch-up read as one text,
 * `appendAndCommit` the INSERT, the NOTIFY and the COMMIT as another. Several statements in one
 * text go through the simple query protocol, which takes no parameters: the values are written
 * into the text, numbers this module checks and strings quoted by node-postgres's `escapeLiteral`.
 *
 * Compaction: a snapshot is written every `snapshotEvery` records; the one before it and the log
 * up to it are then deleted. Two snapshots are kept so that a process behind by less than one
 * interval still finds the log it needs; one further behind sees it (the oldest snapshot is past
 * what it applied) and stops following (ClusterBehind) rather than skip records.
 */
import { hostname } from 'node:os'
import { applyLogRecords, snapshotRecords, type Datastore, type LogRecord } from '@entistore/core'
import pg from 'pg'
import { SLICE_MS, takeSlice } from '../persist/take-slice.js'
import { postgresNameProblem } from './postgres-names.js'
import type { PostgresLogOptions, PostgresRecovery } from './postgres-types.js'

// Declared apart, for the public types to compile without pg (postgres-types.ts).
export type { PostgresLogOptions, PostgresRecovery }

/** One row of the log, as read back. */
export interface LogRow {
  readonly seq: number
  readonly origin: string
  /** When it was appended, epoch milliseconds (PostgreSQL's clock). */
  readonly at: number
  readonly record: LogRecord
}

// The first half of the advisory lock's key: "enti" in ASCII; the second is the tables' hash.
const LOCK_CLASS = 0x656e7469
// The first half of the snapshot writers' lock ("ents"): one process writes a snapshot at a time,
// without holding up the log's writers.
const SNAPSHOT_LOCK_CLASS = 0x656e7473

/** Characters of snapshot text one slice gathers at most, however fast its parts are made. */
const SLICE_CHARS = 4 * 1024 * 1024

/**
 * Snapshot parts read per round trip at start-up: a page of 1,000-row parts is a few MB (the
 * whole table in one result was every part's text, and pg's rows for it, at once).
 */
const PARTS_PER_READ = 64

/** How a snapshot is written (see `writeSnapshot`). */
export interface SnapshotWriting {
  /** How long a slice may hold the event loop making parts. @default SLICE_MS */
  readonly sliceMs?: number
  /** Aborted (the process stops): the snapshot is rolled back, and the promise rejects. */
  readonly signal?: AbortSignal
}

/** A transaction on one pooled connection. */
export interface LogTransaction {
  readonly client: pg.PoolClient
}

export class PostgresLog {
  readonly pool: pg.Pool
  readonly origin: string
  readonly snapshotEvery: number
  readonly rowsPerRecord: number
  readonly catchUpRows: number
  /** `"schema"."prefixlog"` */
  readonly logTable: string
  readonly snapshotTable: string
  /** `"schema"."prefixmembers"`: the processes serving, and their leases. */
  readonly membersTable: string
  /** The NOTIFY channel: one per schema and prefix. */
  readonly channel: string
  /** The channel of acknowledgements: "this process applied the log up to seq N". */
  readonly ackChannel: string
  /** The statement that takes the lock (its key computed by PostgreSQL's hashtext, as always). */
  readonly #lockSql: string
  readonly #snapshotLockSql: string
  readonly #connection: string | pg.PoolConfig
  readonly #sliceMs: number

  constructor(options: PostgresLogOptions) {
    const schema = options.schema ?? 'public'
    const prefix = options.prefix ?? 'entistore_'
    const problem = postgresNameProblem('schema', schema) ?? postgresNameProblem('prefix', prefix)
    if (problem !== undefined) throw new TypeError(`postgres: ${problem}`)
    this.#connection = options.connection
    this.pool = new pg.Pool(poolConfig(options.connection))
    this.origin =
      options.origin ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
    this.snapshotEvery = options.snapshotEvery ?? 10_000
    this.rowsPerRecord = options.rowsPerRecord ?? 1_000
    this.#sliceMs = options.sliceMs ?? SLICE_MS
    this.catchUpRows = options.catchUpRows ?? 1000
    if (!Number.isSafeInteger(this.catchUpRows) || this.catchUpRows < 1)
      throw new TypeError(`postgres: catchUpRows must be a positive integer: ${this.catchUpRows}`)
    this.logTable = `"${schema}"."${prefix}log"`
    this.snapshotTable = `"${schema}"."${prefix}snapshot"`
    this.membersTable = `"${schema}"."${prefix}members"`
    this.channel = `${schema}_${prefix}log`.slice(0, 63)
    this.ackChannel = `${schema}_${prefix}ack`.slice(0, 63)
    const tables = `hashtext(${pg.escapeLiteral(`${schema}.${prefix}`)})`
    this.#lockSql = `SELECT pg_advisory_xact_lock(${LOCK_CLASS}, ${tables})`
    this.#snapshotLockSql = `SELECT pg_try_advisory_xact_lock(${SNAPSHOT_LOCK_CLASS}, ${tables}) AS locked`
  }

  /** A new client outside the pool, for LISTEN (a pooled one would be handed to others). */
  listenerClient(): pg.Client {
    return new pg.Client(poolConfig(this.#connection))
  }

  /** Creates the schema and tables if absent (under the lock: several processes may start at once). */
  async ensureSchema(): Promise<void> {
    await this.transaction(async ({ client }) => {
      await this.lock(client)
      const schema = this.logTable.split('.')[0]!
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.logTable} (
           seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
           origin text NOT NULL,
           at timestamptz NOT NULL DEFAULT clock_timestamp(),
           record text NOT NULL)`,
      )
      // A snapshot's part (100 KB or more of JSON) is compressed by PostgreSQL (TOAST): with its
      // default, pglz, that was half a snapshot's time, on the CPU the server shares with the
      // processes (1M short rows: 8.0-8.9 s, 4.2 s with lz4). lz4 where the server has it
      // (PostgreSQL 14 or later, built with it), set when the table is made: an ALTER later would
      // wait for a snapshot being written, the log's lock held.
      const lz4 = await client.query<{ available: boolean }>(
        `SELECT 'lz4' = ANY(enumvals) AS available FROM pg_settings
          WHERE name = 'default_toast_compression'`,
      )
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.snapshotTable} (
           seq bigint NOT NULL,
           part integer NOT NULL,
           at timestamptz NOT NULL DEFAULT clock_timestamp(),
           record text ${lz4.rows[0]?.available ? 'COMPRESSION lz4 ' : ''}NOT NULL,
           PRIMARY KEY (seq, part))`,
      )
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.membersTable} (
           origin text PRIMARY KEY,
           expires_at timestamptz NOT NULL,
           evicted_at timestamptz,
           applied bigint NOT NULL,
           joined_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
      )
    })
  }

  /** Runs `fn` in a transaction on a pooled connection; rolls back if it throws. */
  async transaction<T>(fn: (tx: LogTransaction) => Promise<T>, isolation?: string): Promise<T> {
    const tx = await this.begin(isolation)
    try {
      const out = await fn(tx)
      await this.commit(tx)
      return out
    } catch (e) {
      await this.rollback(tx, e)
      throw e
    }
  }

  async begin(isolation?: string): Promise<LogTransaction> {
    const client = await this.#connect()
    try {
      await client.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : 'BEGIN')
    } catch (e) {
      client.release(e as Error)
      throw e
    }
    return { client }
  }

  async #connect(): Promise<pg.PoolClient> {
    const client = await this.pool.connect()
    // A connection cut while checked out (the backend terminated) is also told as an 'error'
    // event, which would crash the process unheard: the failing query reports it already.
    if (!guarded.has(client)) {
      client.on('error', () => undefined)
      guarded.add(client)
    }
    return client
  }

  /**
   * The start of a write, in one round trip: a transaction, the log's lock, the first
   * `catchUpRows` log rows after `seq` (as `after` reads them; read the rest, if that many came,
   * with `after` on `tx.client`), and the other processes serving (their leases valid), whose
   * acknowledgements the write's reply waits for. Read under the lock, which a process joining
   * takes too: none can join between this read and the commit. If it fails, the transaction is
   * rolled back.
   */
  async beginWrite(seq: number): Promise<LogTransaction & LogRows & { members: Member[] }> {
    const client = await this.#connect()
    let results: pg.QueryResult[]
    try {
      results = (await client.query(
        `BEGIN; ${this.#lockSql}; ${this.#afterSql(seq, this.catchUpRows)}; ${this.#membersSql()}`,
      )) as unknown as pg.QueryResult[]
    } catch (e) {
      await this.rollback({ client }, e)
      throw e
    }
    return {
      client,
      ...logRows(results[2] as pg.QueryResult<AfterRow>),
      members: members(results[3] as pg.QueryResult<MemberRow>),
    }
  }

  // The other processes serving: not evicted, their lease running; with the lease's time left.
  // The other processes whose lease runs (fenced ones too: until their lease runs out they may
  // still answer reads), with the lease's time left.
  #membersSql(): string {
    return `SELECT origin, applied, evicted_at IS NOT NULL AS evicted,
         (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS remaining
       FROM ${this.membersTable}
       WHERE origin <> ${pg.escapeLiteral(this.origin)} AND expires_at > clock_timestamp()`
  }

  /**
   * Joins the processes serving (or joins again after being fenced), in one round trip: under
   * the log's lock (so that a write either committed before, and is at or below the head read
   * here, or reads this process among those it waits for), this process's lease of `leaseMs`
   * is written and the log's head read. Returns the head: once applied up to it, the process
   * holds every acknowledged write. Leases expired an hour ago (processes gone) are removed.
   */
  async join(leaseMs: number, applied: number): Promise<{ head: number }> {
    const lease = checkedMs(leaseMs)
    const origin = pg.escapeLiteral(this.origin)
    const results = (await this.pool.query(
      `BEGIN; ${this.#lockSql};
       DELETE FROM ${this.membersTable} WHERE expires_at < clock_timestamp() - interval '1 hour';
       INSERT INTO ${this.membersTable} (origin, expires_at, applied)
         VALUES (${origin}, clock_timestamp() + ${lease} * interval '1 millisecond', ${checkedSeq(applied)})
         ON CONFLICT (origin) DO UPDATE SET expires_at = excluded.expires_at,
           evicted_at = NULL, applied = excluded.applied;
       SELECT coalesce(max(seq), 0) AS head FROM ${this.logTable};
       COMMIT`,
    )) as unknown as pg.QueryResult<{ head: string }>[]
    return { head: Number(results[4]!.rows[0]!.head) }
  }

  /**
   * Extends this process's lease by `leaseMs` from now, if it still holds one (not fenced, not
   * expired: a process whose lease ran out joins again, catching up first). Returns whether it did.
   */
  async renew(leaseMs: number, applied: number): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE ${this.membersTable}
          SET expires_at = clock_timestamp() + ${checkedMs(leaseMs)} * interval '1 millisecond',
              applied = greatest(applied, ${checkedSeq(applied)})
        WHERE origin = $1 AND evicted_at IS NULL AND expires_at > clock_timestamp()`,
      [this.origin],
    )
    return result.rowCount === 1
  }

  /**
   * Fences `origins` (processes a write waited for in vain): their leases can no longer be
   * extended. Returns, for each whose lease was still running (fenced now or before: by another
   * writer), the milliseconds it has left: the process stops answering reads by then, by its own
   * clock.
   */
  async evict(origins: readonly string[]): Promise<{ origin: string; remaining: number }[]> {
    const result = await this.pool.query<{ origin: string; remaining: number }>(
      `UPDATE ${this.membersTable} SET evicted_at = coalesce(evicted_at, clock_timestamp())
        WHERE origin = ANY($1) AND expires_at > clock_timestamp()
        RETURNING origin,
          (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS remaining`,
      [origins],
    )
    return result.rows
  }

  /** Leaves the processes serving (a graceful stop): writes no longer wait for this one. */
  async leave(): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.membersTable} WHERE origin = $1`, [this.origin])
  }

  /**
   * Tells the processes that wait (writers) that this one applied the log up to `seq`. Not made
   * durable (synchronous_commit off): an acknowledgement lost in a crash is only waited for in
   * vain. `listener`: the connection made by `listenerClient` (set up by `listen`), which spares
   * the pool and the transaction's wrapping; without it, a pooled connection.
   */
  async ack(seq: number, listener?: pg.Client): Promise<void> {
    const notify = `SELECT pg_notify(${pg.escapeLiteral(this.ackChannel)}, ${pg.escapeLiteral(`${checkedSeq(seq)} ${this.origin}`)})`
    if (listener) await listener.query(notify)
    else await this.pool.query(`BEGIN; SET LOCAL synchronous_commit TO off; ${notify}; COMMIT`)
  }

  /**
   * Sets up `client` (from `listenerClient`) to hear the log's and the acknowledgements'
   * channels, and to send acknowledgements without waiting for the disk.
   */
  async listen(client: pg.Client): Promise<void> {
    await client.query(
      `LISTEN "${this.channel}"; LISTEN "${this.ackChannel}"; SET synchronous_commit TO off`,
    )
  }

  async commit(tx: LogTransaction): Promise<void> {
    try {
      await tx.client.query('COMMIT')
    } catch (e) {
      // The connection is in doubt: it is not given back to the pool.
      tx.client.release(e as Error)
      throw e
    }
    tx.client.release()
  }

  /** Rolls back and lets the connection go (destroyed when `error` says it failed). */
  async rollback(tx: LogTransaction, error?: unknown): Promise<void> {
    try {
      await tx.client.query('ROLLBACK')
      tx.client.release()
    } catch (e) {
      tx.client.release((error ?? e) as Error)
    }
  }

  /** Takes the log's advisory lock until the transaction ends. */
  async lock(client: pg.ClientBase): Promise<void> {
    await client.query(this.#lockSql)
  }

  /**
   * The log rows after `seq`, in order, at most `limit`; and `floor`, the seq of the oldest
   * snapshot kept (the log before it may be gone: a reader that applied less is behind).
   */
  async after(
    client: pg.ClientBase | pg.Pool,
    seq: number,
    limit = this.catchUpRows,
  ): Promise<LogRows> {
    return logRows(await client.query<AfterRow>(this.#afterSql(seq, limit)))
  }

  // The numbers are written into the text (beginWrite sends it with other statements, where
  // parameters cannot go): checked to be integers first.
  #afterSql(seq: number, limit: number): string {
    if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(limit))
      throw new TypeError(`postgres: a log position must be an integer: ${seq}, ${limit}`)
    return `SELECT f.floor, l.seq, l.origin, l.at, l.record
         FROM (SELECT min(seq) AS floor FROM ${this.snapshotTable}) f
         LEFT JOIN LATERAL (
           SELECT seq, origin, (extract(epoch FROM at) * 1000)::float8 AS at, record
             FROM ${this.logTable} WHERE seq > ${seq} ORDER BY seq LIMIT ${limit}) l ON true`
  }

  /**
   * The end of a write begun by `beginWrite`, in one round trip: appends `records`, notifies the
   * channel with the last seq (delivered when the transaction commits), commits, and lets the
   * connection go. Returns the last seq.
   *
   * If PostgreSQL answers with an error (the INSERT refused, the COMMIT refused), nothing was
   * committed: the transaction is rolled back, the lock with it, and the error passes through.
   * If no answer comes (the connection lost, or a FATAL error, which may follow a COMMIT done),
   * the outcome is unknown: the connection is destroyed, not given back to the pool, and the error
   * passes through; the caller does not count the rows as applied, and if they were committed,
   * they come back through the log like another process's.
   */
  async appendAndCommit(
    tx: LogTransaction,
    records: readonly LogRecord[],
    prev: number,
  ): Promise<{ first: number; last: number }> {
    const { client } = tx
    let results: pg.QueryResult[]
    try {
      results = (await client.query(
        `${this.#appendSql(client, records, prev)}; COMMIT`,
      )) as unknown as pg.QueryResult[]
    } catch (e) {
      if (refused(e)) await this.rollback(tx, e)
      else client.release(e as Error)
      throw e
    }
    client.release()
    const done = appended(results[0]!)
    if (done === undefined) throw new Error('postgres: the log append wrote no row')
    return done
  }

  /**
   * A whole write in one round trip, if the log is still at `prev` (no process committed since
   * this one applied up to it): BEGIN, the lock, the log rows after `prev` (as `after` reads
   * them: none when it did not move), the processes serving (as `beginWrite` reads them), the
   * append and its notification only if no row came after `prev`, COMMIT. The lock is held only
   * while PostgreSQL runs the text. When the log moved on, nothing is written and the rows read
   * are returned (`moved`): applied, they let the write be tried again. On failures, as
   * `appendAndCommit`.
   */
  async appendIfAt(
    prev: number,
    records: readonly LogRecord[],
  ): Promise<{ first: number; last: number; members: Member[] } | { moved: LogRows }> {
    const client = await this.#connect()
    let results: pg.QueryResult[]
    try {
      results = (await client.query(
        `BEGIN; ${this.#lockSql};
         ${this.#afterSql(prev, this.catchUpRows)};
         ${this.#membersSql()};
         ${this.#appendSql(client, records, prev, `WHERE NOT EXISTS (SELECT 1 FROM ${this.logTable} WHERE seq > ${checkedSeq(prev)})`)};
         COMMIT`,
      )) as unknown as pg.QueryResult[]
    } catch (e) {
      if (refused(e)) await this.rollback({ client }, e)
      else client.release(e as Error)
      throw e
    }
    client.release()
    const done = appended(results[4]!)
    if (done === undefined) return { moved: logRows(results[2] as pg.QueryResult<AfterRow>) }
    return { ...done, members: members(results[3] as pg.QueryResult<MemberRow>) }
  }

  /**
   * Whether the log is still at `prev` (a group that wrote nothing was checked against this
   * process's state: its refusals hold only if nothing was committed since): undefined if so,
   * else the rows after it, to catch up with and try again. No lock: a read.
   */
  async movedSince(prev: number): Promise<LogRows | undefined> {
    const read = await this.after(this.pool, prev)
    return read.rows.length === 0 ? undefined : read
  }

  /**
   * The INSERT of `records` and its notification: `prev:first:last:at:origin`, a newline, and the
   * records' JSON array when it fits (PostgreSQL's payload is under 8000 bytes): a follower that
   * applied up to `prev` applies them without reading the log.
   */
  #appendSql(
    client: pg.ClientBase,
    records: readonly LogRecord[],
    prev: number,
    only = '',
  ): string {
    const origin = client.escapeLiteral(this.origin)
    const texts = records.map((r) => JSON.stringify(r))
    const values = texts.map((t) => `(${origin}, ${client.escapeLiteral(t)})`)
    const all = `[${texts.join(',')}]`
    const carried = Buffer.byteLength(all) + this.origin.length < NOTIFY_RECORDS_BYTES ? all : ''
    const head = `'${checkedSeq(prev)}:' || min(seq) || ':' || max(seq) || ':' || (extract(epoch FROM clock_timestamp()) * 1000)::bigint || ':'`
    // `only`: a condition that may leave every row out, and then no notification either.
    return `WITH ins AS (
           INSERT INTO ${this.logTable} (origin, record)
             SELECT * FROM (VALUES ${values.join(', ')}) AS v ${only} RETURNING seq)
         SELECT min(seq) AS first, max(seq) AS last,
           CASE WHEN count(*) > 0 THEN
             pg_notify(${client.escapeLiteral(this.channel)}, ${head} || ${client.escapeLiteral(`${this.origin}\n${carried}`)})
           END
           FROM ins`
  }

  /**
   * Fills `ds`, new and empty, from PostgreSQL: the newest snapshot and the log after it; or, when
   * PostgreSQL holds nothing, runs `initial(ds)` (the data file's load) and writes the result as the
   * first snapshot, under the lock so that one process of several starting at once does it.
   * Returns what it found and the seq `ds` is at.
   */
  async load(
    ds: Datastore,
    initial?: (ds: Datastore) => void | Promise<void>,
  ): Promise<PostgresRecovery & { applied: number }> {
    // A consistent view of both tables without the lock: writers are not held up by a start.
    const found = await this.transaction(
      async ({ client }) => this.#read(client),
      'REPEATABLE READ',
    )
    if (found) return this.#apply(ds, found)
    return this.transaction(async ({ client }) => {
      await this.lock(client)
      const again = await this.#read(client)
      if (again) return this.#apply(ds, again)
      await initial?.(ds)
      const head = await client.query<{ head: string | null }>(
        `SELECT max(seq) AS head FROM ${this.logTable}`,
      )
      const seq = Number(head.rows[0]?.head ?? 0)
      await this.#insertParts(client, seq, snapshotRecords(ds, this.rowsPerRecord))
      return {
        fresh: true,
        snapshotSeq: seq,
        snapshotEntities: entities(ds),
        logRecords: 0,
        applied: seq,
      }
    })
  }

  /**
   * The newest snapshot's parts and the log after it. The parts are read a page at a time and
   * kept as text (parsed one at a time by `#apply`); a gap in their numbers is damage.
   */
  async #read(client: pg.ClientBase): Promise<Found | undefined> {
    const snap = await client.query<{ seq: string | null }>(
      `SELECT max(seq) AS seq FROM ${this.snapshotTable}`,
    )
    const raw = snap.rows[0]?.seq
    if (raw === null || raw === undefined) return undefined
    const seq = Number(raw)
    const parts: string[] = []
    for (;;) {
      const page = await client.query<{ part: number; record: string }>(
        `SELECT part, record FROM ${this.snapshotTable}
          WHERE seq = $1 AND part >= $2 ORDER BY part LIMIT ${PARTS_PER_READ}`,
        [seq, parts.length],
      )
      for (const row of page.rows) {
        if (row.part !== parts.length)
          throw new Error(
            `postgres: the snapshot at log seq ${seq} in ${this.snapshotTable} has no part ${parts.length} (the next is ${row.part}): it was altered outside Entistore`,
          )
        parts.push(row.record)
      }
      if (page.rows.length < PARTS_PER_READ) break
    }
    const log: LogRow[] = []
    for (let after = seq; ;) {
      const { rows } = await this.after(client, after, 10_000)
      if (rows.length === 0) break
      log.push(...rows)
      after = rows[rows.length - 1]!.seq
    }
    return { seq, parts, log }
  }

  /**
   * Applies what `#read` found in one commit (all or nothing: a part that is not JSON, or a record
   * that does not fit, leaves `ds` empty). Each part is parsed when the replay comes to it, and its
   * text let go: the texts and their parsed records are never all held at once.
   */
  #apply(ds: Datastore, found: Found): PostgresRecovery & { applied: number } {
    const { seq, parts, log } = found
    let snapshotEntities = 0
    function* records(): Generator<LogRecord> {
      for (let i = 0; i < parts.length; i++) {
        const text = parts[i]!
        parts[i] = ''
        let record: LogRecord
        try {
          record = JSON.parse(text) as LogRecord
        } catch (e) {
          throw new Error(
            `postgres: part ${i} of the snapshot at log seq ${seq} is not JSON (${(e as Error).message})`,
          )
        }
        snapshotEntities += record.changes?.length ?? 0
        yield record
      }
      for (const row of log) yield row.record
    }
    applyLogRecords(ds, records())
    return {
      fresh: false,
      snapshotSeq: seq,
      snapshotEntities,
      logRecords: log.length,
      applied: log.at(-1)?.seq ?? seq,
    }
  }

  /**
   * Writes `records` as the snapshot at log `seq`: they must be the store as it was at `seq`
   * (`snapshotRecords` of a view opened then, store-view.ts), and are made as they are inserted,
   * a slice of a few milliseconds at a time (`sliceMs`), each slice's parts inserted in one round
   * trip while the event loop serves others: the store's whole text is never held, and writes go
   * on meanwhile, the log after `seq` keeping them. The parts are seen together, at the commit;
   * then the snapshots older than the previous one are deleted, and the log up to the previous
   * one (compaction). Skipped (false) when a snapshot at or after `seq` is there already, or
   * another process is writing one now (each process takes one after its own writes: one at a
   * time is enough). Returns whether it wrote one; on failure nothing is written.
   */
  async writeSnapshot(
    seq: number,
    records: Iterable<LogRecord>,
    options: SnapshotWriting = {},
  ): Promise<boolean> {
    return this.transaction(async ({ client }) => {
      const lock = await client.query<{ locked: boolean }>(this.#snapshotLockSql)
      if (!lock.rows[0]?.locked) return false
      const newest = await client.query<{ seq: string | null }>(
        `SELECT max(seq) AS seq FROM ${this.snapshotTable}`,
      )
      const previous = newest.rows[0]?.seq == null ? undefined : Number(newest.rows[0].seq)
      if (previous !== undefined && previous >= seq) return false
      await this.#insertParts(client, seq, records, options)
      if (previous !== undefined) {
        await client.query(`DELETE FROM ${this.snapshotTable} WHERE seq < $1`, [previous])
        await client.query(`DELETE FROM ${this.logTable} WHERE seq <= $1`, [previous])
      }
      return true
    })
  }

  /**
   * Inserts `records` as the parts of the snapshot at `seq`, made a slice at a time (takeSlice),
   * one INSERT a slice. Stopped by an error or the signal, the records are closed (their view
   * released); the caller's transaction rolls back. Returns the number of parts.
   */
  async #insertParts(
    client: pg.ClientBase,
    seq: number,
    records: Iterable<LogRecord>,
    { sliceMs = this.#sliceMs, signal }: SnapshotWriting = {},
  ): Promise<number> {
    checkedSeq(seq)
    const texts = (function* () {
      for (const record of records) yield JSON.stringify(record)
    })()
    let part = 0
    try {
      for (let done = false; !done;) {
        signal?.throwIfAborted()
        const slice = takeSlice(texts, SLICE_CHARS, sliceMs)
        if (slice.pieces.length > 0) {
          const rows = slice.pieces.map((_, i) => `(${seq}, ${part + i}, $${i + 1})`)
          await client.query(
            `INSERT INTO ${this.snapshotTable} (seq, part, record) VALUES ${rows.join(', ')}`,
            slice.pieces,
          )
          part += slice.pieces.length
        }
        done = slice.done
      }
    } finally {
      texts.return(undefined)
    }
    return part
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}

const guarded = new WeakSet<pg.PoolClient>()

/** What start-up read: the newest snapshot's parts (text, in order) and the log after it. */
interface Found {
  readonly seq: number
  readonly parts: string[]
  readonly log: LogRow[]
}

/** The seqs an append got; undefined when it appended nothing (`appendIfAt`: the log moved). */
function appended(result: pg.QueryResult): { first: number; last: number } | undefined {
  const row = (result as pg.QueryResult<{ first: string | null; last: string | null }>).rows[0]
  if (row?.first == null || row.last == null) return undefined
  return { first: Number(row.first), last: Number(row.last) }
}

/** The most bytes of records a notification carries (its payload must stay under 8000). */
const NOTIFY_RECORDS_BYTES = 7000

/** Another process serving, as a write reads it under the lock. */
export interface Member {
  readonly origin: string
  /** Fenced: its lease can no longer be renewed; it answers no read once it runs out. */
  readonly evicted: boolean
  /** The log seq its last lease renewal said it had applied. */
  readonly applied: number
  /** Milliseconds its lease has left, by PostgreSQL's clock, when read. */
  readonly remaining: number
}

interface MemberRow {
  origin: string
  evicted: boolean
  applied: string
  remaining: number
}

function members(result: pg.QueryResult<MemberRow>): Member[] {
  return result.rows.map((r) => ({
    origin: r.origin,
    evicted: r.evicted,
    applied: Number(r.applied),
    remaining: r.remaining,
  }))
}

/** A notification of the log's channel, read back (see `appendAndCommit`). */
export interface LogNotice {
  /** The log's head when the writer took the lock: the rows are those after it. */
  readonly prev: number | undefined
  readonly first: number
  readonly last: number
  readonly at: number
  readonly origin: string
  /** The records, when they fitted in the payload. */
  readonly records: LogRecord[] | undefined
}

/**
 * Reads a notification's payload: `prev:first:last:at:origin\nrecords` (the records' JSON array,
 * or nothing), or, from a process of an earlier version, the last seq alone.
 */
export function readNotice(payload: string): LogNotice | undefined {
  if (/^\d+$/.test(payload)) {
    const last = Number(payload)
    return { prev: undefined, first: last, last, at: Date.now(), origin: '', records: undefined }
  }
  const newline = payload.indexOf('\n')
  if (newline < 0) return undefined
  const fields = payload.slice(0, newline).split(':')
  if (fields.length < 5) return undefined
  const [prev, first, last, at] = fields.slice(0, 4).map(Number) as [number, number, number, number]
  const rest = payload.slice(newline + 1)
  return {
    prev,
    first,
    last,
    at,
    origin: fields.slice(4).join(':'),
    records: rest === '' ? undefined : (JSON.parse(rest) as LogRecord[]),
  }
}

/** An acknowledgement's payload, `seq origin`, read back. */
export function readAck(payload: string): { seq: number; origin: string } | undefined {
  const space = payload.indexOf(' ')
  const seq = Number(payload.slice(0, space))
  return space > 0 && Number.isSafeInteger(seq)
    ? { seq, origin: payload.slice(space + 1) }
    : undefined
}

function checkedSeq(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new TypeError(`postgres: a log position must be an integer: ${n}`)
  return n
}

function checkedMs(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1)
    throw new TypeError(`postgres: a duration must be a positive integer of milliseconds: ${n}`)
  return n
}

/** What `after` reads: log rows, and the oldest snapshot's seq. */
export interface LogRows {
  readonly rows: LogRow[]
  readonly floor: number | undefined
}

interface AfterRow {
  floor: string | null
  seq: string | null
  origin: string
  at: number
  record: string
}

function logRows(result: pg.QueryResult<AfterRow>): LogRows {
  const first = result.rows[0]
  const rows: LogRow[] = []
  for (const r of result.rows)
    if (r.seq !== null)
      rows.push({
        seq: Number(r.seq),
        origin: r.origin,
        at: r.at,
        record: JSON.parse(r.record) as LogRecord,
      })
  return { rows, floor: first?.floor == null ? undefined : Number(first.floor) }
}

/**
 * Whether PostgreSQL answered `e` as a statement's error (severity ERROR): the rest of the text
 * was not run, the connection is usable. A FATAL one ends the connection, possibly after a COMMIT
 * it had done; one without severity is no answer at all (the connection lost). A server whose
 * messages are translated reports another word: taken as no answer, the safe side.
 */
function refused(e: unknown): boolean {
  return e instanceof pg.DatabaseError && e.severity === 'ERROR'
}

function poolConfig(connection: string | pg.PoolConfig): pg.PoolConfig {
  return typeof connection === 'string' ? { connectionString: connection } : connection
}

function entities(ds: Datastore): number {
  return ds.dataClasses.reduce((n, dc) => n + dc.length, 0)
}
