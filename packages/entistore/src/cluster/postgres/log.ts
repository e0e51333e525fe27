/**
 * @module The log's appends and reads, and the notifications an append sends (docs/durability.md).
 *
 * Every append happens inside a transaction holding one advisory lock (`pg_advisory_xact_lock`,
 * keyed by the schema and prefix: schema.ts) until it commits: appends are serialized across
 * processes, so the identity's order is the commit order and a reader never sees seq N+1
 * committed while N is not. Identity values are not transactional: a rolled-back append leaves a
 * gap, which readers skip (they read `seq > applied`, never `seq = applied + 1`).
 *
 * A write costs two round trips, since the lock is held across them and every other process's
 * writes wait for it: `beginWrite` sends BEGIN, the lock and the first catch-up read as one text,
 * `appendAndCommit` the INSERT, the NOTIFY and the COMMIT as another. Several statements in one
 * text go through the simple query protocol, which takes no parameters: the values are written
 * into the text, numbers checked (schema.ts) and strings quoted by node-postgres's `escapeLiteral`.
 */
import { datastoreError, type LogRecord } from '@entistore/core'
import type pg from 'pg'
import type { WriteTag } from '../participant.js'
import { refused, type LogConnection, type LogTransaction } from './connection.js'
import { membersSql, readMembers, type Member, type MemberRow } from './members.js'
import { checkedSeq, type LogTables } from './schema.js'

/** One row of the log, as read back. */
export interface LogRow {
  readonly seq: number
  readonly origin: string
  /** When it was appended, epoch milliseconds (PostgreSQL's clock). */
  readonly at: number
  readonly record: LogRecord
}

/** What `after` reads: log rows, and the oldest snapshot's seq. */
export interface LogRows {
  readonly rows: LogRow[]
  readonly floor: number | undefined
}

/** What reads the log (PostgresLog's `after`, which tests watch). */
export interface LogReader {
  after(client: pg.ClientBase | pg.Pool, seq: number, limit?: number): Promise<LogRows>
}

/** A row of `afterSql`: `floor` always; the rest null when no log row came after. */
export interface AfterRow {
  floor: string | null
  seq: string | null
  origin: string
  at: number
  record: string
}

/**
 * The log rows after `seq`, in order, at most `limit`; and `floor`, the seq of the oldest
 * snapshot kept (the log before it may be gone: a reader that applied less is behind).
 */
export async function after(
  db: LogConnection,
  client: pg.ClientBase | pg.Pool,
  seq: number,
  limit = db.catchUpRows,
): Promise<LogRows> {
  return readLogRows(await client.query<AfterRow>(afterSql(db, seq, limit)))
}

// The numbers are written into the text (beginWrite sends it with other statements, where
// parameters cannot go): checked to be integers first.
export function afterSql(t: LogTables, seq: number, limit: number): string {
  if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(limit))
    throw new TypeError(`postgres: a log position must be an integer: ${seq}, ${limit}`)
  return `SELECT f.floor, l.seq, l.origin, l.at, l.record
         FROM (SELECT min(seq) AS floor FROM ${t.snapshotTable}) f
         LEFT JOIN LATERAL (
           SELECT seq, origin, (extract(epoch FROM at) * 1000)::float8 AS at, record
             FROM ${t.logTable} WHERE seq > ${seq} ORDER BY seq LIMIT ${limit}) l ON true`
}

export function readLogRows(result: pg.QueryResult<AfterRow>): LogRows {
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
 * The start of a write, in one round trip: a transaction, the log's lock, the first
 * `catchUpRows` log rows after `seq` (as `after` reads them; read the rest, if that many came,
 * with `after` on `tx.client`), and the other processes serving (their leases valid), whose
 * acknowledgements the write's reply waits for. Read under the lock, which a process joining
 * takes too: none can join between this read and the commit. If it fails, the transaction is
 * rolled back.
 */
export async function beginWrite(
  db: LogConnection,
  seq: number,
): Promise<LogTransaction & LogRows & { members: Member[] }> {
  const client = await db.connect()
  let results: pg.QueryResult[]
  try {
    results = (await client.query(
      `BEGIN; ${db.lockSql}; ${afterSql(db, seq, db.catchUpRows)}; ${membersSql(db)}`,
    )) as unknown as pg.QueryResult[]
  } catch (e) {
    await db.rollback({ client }, e)
    throw e
  }
  return {
    client,
    ...readLogRows(results[2] as pg.QueryResult<AfterRow>),
    members: readMembers(results[3] as pg.QueryResult<MemberRow>),
  }
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
export async function appendAndCommit(
  db: LogConnection,
  tx: LogTransaction,
  records: readonly LogRecord[],
  prev: number,
  options: AppendOptions = {},
): Promise<{ first: number; last: number }> {
  const { client } = tx
  let results: pg.QueryResult[]
  try {
    results = (await client.query(
      `${appendSql(db, escaper(client), records, prev, '', options)}; COMMIT`,
    )) as unknown as pg.QueryResult[]
  } catch (e) {
    if (refused(e)) await db.rollback(tx, e)
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
export async function appendIfAt(
  db: LogConnection,
  prev: number,
  records: readonly LogRecord[],
  options: AppendOptions = {},
): Promise<{ first: number; last: number; members: Member[] } | { moved: LogRows }> {
  const client = await db.connect()
  let results: pg.QueryResult[]
  try {
    results = (await client.query(
      `BEGIN; ${db.lockSql};
         ${afterSql(db, prev, db.catchUpRows)};
         ${membersSql(db)};
         ${appendSql(db, escaper(client), records, prev, `WHERE NOT EXISTS (SELECT 1 FROM ${db.logTable} WHERE seq > ${checkedSeq(prev)})`, options)};
         COMMIT`,
    )) as unknown as pg.QueryResult[]
  } catch (e) {
    if (refused(e)) await db.rollback({ client }, e)
    else client.release(e as Error)
    throw e
  }
  client.release()
  const done = appended(results[4]!)
  if (done === undefined) return { moved: readLogRows(results[2] as pg.QueryResult<AfterRow>) }
  return { ...done, members: readMembers(results[3] as pg.QueryResult<MemberRow>) }
}

/** What an append may carry besides its records. */
export interface AppendOptions {
  /** By index into the records: forwarded writes' ids and replies, logged beside them. */
  readonly tags?: ReadonlyMap<number, WriteTag> | undefined
  /**
   * The writer's fence (write-gate/writer-lease.ts's `fence(term)`: a CTE named `fenced`): the
   * rows are inserted only while the term is still this process's; else the append throws
   * ClusterWriteFailed, nothing written.
   */
  readonly fence?: string | undefined
}

/** The most bytes of records a notification carries (its payload must stay under 8000). */
export const NOTIFY_RECORDS_BYTES = 7000

/** The connection's own quoting of a string into a statement. */
const escaper =
  (client: pg.ClientBase) =>
  (text: string): string =>
    client.escapeLiteral(text)

/**
 * The INSERT of `records` and its notification: `prev:first:last:at:origin`, a newline, and the
 * records' JSON array when it fits (PostgreSQL's payload is under 8000 bytes): a follower that
 * applied up to `prev` applies them without reading the log. `only`: a condition that may leave
 * every row out, and then no notification either.
 */
export function appendSql(
  t: LogTables & { readonly origin: string },
  escape: (text: string) => string,
  records: readonly LogRecord[],
  prev: number,
  only = '',
  { tags, fence }: AppendOptions = {},
): string {
  const origin = escape(t.origin)
  const texts = records.map((r) => JSON.stringify(r))
  const text = (v: string | undefined) => (v === undefined ? 'NULL' : escape(v))
  const values = texts.map((record, i) => {
    const tag = tags?.get(i)
    return `(${origin}, ${escape(record)}, ${text(tag?.request)}, ${text(tag?.reply)})`
  })
  // The notification carries the records when they fit, read back from the rows inserted
  // (`ins`), so that the statement's text holds each record once: its size is most of what
  // sending it to PostgreSQL costs (one socket write per group, 7–9 % of a writer's CPU).
  const bytes = texts.reduce((n, text) => n + Buffer.byteLength(text) + 1, 1)
  const carried =
    bytes + t.origin.length < NOTIFY_RECORDS_BYTES
      ? ` || '[' || string_agg(record, ',' ORDER BY seq) || ']'`
      : ''
  const head = `'${checkedSeq(prev)}:' || min(seq) || ':' || max(seq) || ':' || (extract(epoch FROM clock_timestamp()) * 1000)::bigint || ':'`
  const rows = `(VALUES ${values.join(', ')}) AS v (origin, record, request, reply)`
  const insert = `ins AS (
           INSERT INTO ${t.logTable} (origin, record, request, reply)
             SELECT v.* FROM ${fence === undefined ? rows : `${rows}, fenced`}${only === '' ? '' : ` ${only}`} RETURNING seq, record)`
  return `WITH ${fence === undefined ? insert : `${fence}, ${insert}`}
         SELECT min(seq) AS first, max(seq) AS last,
           CASE WHEN count(*) > 0 THEN
             pg_notify(${escape(t.channel)}, ${head} || ${escape(`${t.origin}\n`)}${carried})
           END,
           ${fence === undefined ? 'true' : '(SELECT count(*) > 0 FROM fenced)'} AS term_ok
           FROM ins`
}

/**
 * The seqs an append got; undefined when it appended nothing (`appendIfAt`: the log moved).
 * Throws ClusterWriteFailed when the writer's fence refused it: another process writes now.
 */
export function appended(result: pg.QueryResult): { first: number; last: number } | undefined {
  const row = (
    result as pg.QueryResult<{ first: string | null; last: string | null; term_ok: boolean }>
  ).rows[0]
  if (row?.term_ok === false)
    throw datastoreError('ClusterWriteFailed', ['this process is no longer the writer'], {
      details: { retryAfter: 1 },
    })
  if (row?.first == null || row.last == null) return undefined
  return { first: Number(row.first), last: Number(row.last) }
}

/**
 * The statement that sets up a connection of its own (`listenerClient`) to hear the log's channel
 * (and the acknowledgements', with `acks`), and to send acknowledgements without waiting for the
 * disk.
 */
export function listenSql(t: LogTables, acks: boolean): string {
  return `LISTEN "${t.channel}"; ${acks ? `${acksSql(t, true)}; ` : ''}SET synchronous_commit TO off`
}

/** The statement that starts (or stops) hearing the acknowledgements' channel. */
export function acksSql(t: LogTables, hear: boolean): string {
  return `${hear ? 'LISTEN' : 'UNLISTEN'} "${t.ackChannel}"`
}

/** A notification of the log's channel, read back (see `appendSql`). */
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
 * or nothing), or, from a process of an earlier version, the last seq alone. `unread`: a notice
 * whose records are of no use (this process's own group, or one applied already), its records
 * left unparsed (undefined): the writer hears each of its own groups back.
 */
export function readNotice(
  payload: string,
  unread?: (notice: Omit<LogNotice, 'records'>) => boolean,
): LogNotice | undefined {
  if (/^\d+$/.test(payload)) {
    const last = Number(payload)
    return { prev: undefined, first: last, last, at: Date.now(), origin: '', records: undefined }
  }
  const newline = payload.indexOf('\n')
  if (newline < 0) return undefined
  const fields = payload.slice(0, newline).split(':')
  if (fields.length < 5) return undefined
  const [prev, first, last, at] = fields.slice(0, 4).map(Number) as [number, number, number, number]
  const head = { prev, first, last, at, origin: fields.slice(4).join(':') }
  if (unread?.(head)) return { ...head, records: undefined }
  const rest = payload.slice(newline + 1)
  return { ...head, records: rest === '' ? undefined : (JSON.parse(rest) as LogRecord[]) }
}
