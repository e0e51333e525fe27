/**
 * @module Snapshots of the store in PostgreSQL: loading at start-up, writing, and when a process
 * writes one.
 *
 * A snapshot is the whole store as `snapshotRecords` at log `seq`, in `part`s (0, 1, …), written
 * a slice at a time from a view of the store and committed together (`writeSnapshot`), read back
 * a page of parts at a time (`load`).
 *
 * Compaction: a snapshot is written every `snapshotEvery` records; the one before it and the log
 * up to it are then deleted. Two snapshots are kept so that a process behind by less than one
 * interval still finds the log it needs; one further behind sees it (the oldest snapshot is past
 * what it applied) and stops following (ClusterBehind) rather than skip records. After the write
 * that takes the log `snapshotEvery` records past the last snapshot (or when asked), a view of the
 * store is opened at that seq and written from while this process goes on serving and writing;
 * one at a time, given up when the process stops.
 */
import {
  applyLogRecords,
  openStoreView,
  snapshotRecords,
  type Datastore,
  type LogRecord,
} from '@entistore/core'
import type pg from 'pg'
import { takeSlice } from '../../persist/take-slice.js'
import type { ClusterWrites } from '../cluster-core.js'
import type { LogConnection } from './connection.js'
import type { LogReader, LogRow } from './log.js'
import { checkedSeq, type LogTables } from './schema.js'
import type { PostgresRecovery } from './types.js'

/** Characters of snapshot text one slice gathers at most, however fast its parts are made. */
const SLICE_CHARS = 4 * 1024 * 1024

/**
 * Snapshot parts read per round trip at start-up: a page of 1,000-row parts is a few MB (the
 * whole table in one result was every part's text, and pg's rows for it, at once).
 */
export const PARTS_PER_READ = 64

/** How a snapshot is written (see `writeSnapshot`). */
export interface SnapshotWriting {
  /** How long a slice may hold the event loop making parts. @default SLICE_MS */
  readonly sliceMs?: number
  /** Aborted (the process stops): the snapshot is rolled back, and the promise rejects. */
  readonly signal?: AbortSignal
}

/** What start-up read: the newest snapshot's parts (text, in order) and the log after it. */
interface Found {
  readonly seq: number
  readonly parts: string[]
  readonly log: LogRow[]
}

/**
 * Fills `ds`, new and empty, from PostgreSQL: the newest snapshot and the log after it; or, when
 * PostgreSQL holds nothing, runs `initial(ds)` (the data file's load) and writes the result as the
 * first snapshot, under the lock so that one process of several starting at once does it.
 * Returns what it found and the seq `ds` is at.
 */
export async function load(
  db: LogConnection & LogReader,
  ds: Datastore,
  initial?: (ds: Datastore) => void | Promise<void>,
): Promise<PostgresRecovery & { applied: number }> {
  // A consistent view of both tables without the lock: writers are not held up by a start.
  const found = await db.transaction(async ({ client }) => read(db, client), 'REPEATABLE READ')
  if (found) return apply(ds, found)
  return db.transaction(async ({ client }) => {
    await db.lock(client)
    const again = await read(db, client)
    if (again) return apply(ds, again)
    await initial?.(ds)
    const head = await client.query<{ head: string | null }>(
      `SELECT max(seq) AS head FROM ${db.logTable}`,
    )
    const seq = Number(head.rows[0]?.head ?? 0)
    await insertParts(db, client, seq, snapshotRecords(ds, db.rowsPerRecord))
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
 * kept as text (parsed one at a time by `apply`); a gap in their numbers is damage.
 */
async function read(
  db: LogConnection & LogReader,
  client: pg.ClientBase,
): Promise<Found | undefined> {
  const snap = await client.query<{ seq: string | null }>(
    `SELECT max(seq) AS seq FROM ${db.snapshotTable}`,
  )
  const raw = snap.rows[0]?.seq
  if (raw === null || raw === undefined) return undefined
  const seq = Number(raw)
  const parts: string[] = []
  for (;;) {
    const page = await client.query<{ part: number; record: string }>(partsSql(db), [
      seq,
      parts.length,
    ])
    for (const row of page.rows) {
      if (row.part !== parts.length)
        throw new Error(
          `postgres: the snapshot at log seq ${seq} in ${db.snapshotTable} has no part ${parts.length} (the next is ${row.part}): it was altered outside Entistore`,
        )
      parts.push(row.record)
    }
    if (page.rows.length < PARTS_PER_READ) break
  }
  const log: LogRow[] = []
  for (let after = seq; ;) {
    const { rows } = await db.after(client, after, 10_000)
    if (rows.length === 0) break
    log.push(...rows)
    after = rows[rows.length - 1]!.seq
  }
  return { seq, parts, log }
}

/** A page of a snapshot's parts: those of seq `$1` from part `$2` on. */
export function partsSql(t: LogTables): string {
  return `SELECT part, record FROM ${t.snapshotTable}
          WHERE seq = $1 AND part >= $2 ORDER BY part LIMIT ${PARTS_PER_READ}`
}

/**
 * Applies what `read` found in one commit (all or nothing: a part that is not JSON, or a record
 * that does not fit, leaves `ds` empty). Each part is parsed when the replay comes to it, and its
 * text let go: the texts and their parsed records are never all held at once.
 */
function apply(ds: Datastore, found: Found): PostgresRecovery & { applied: number } {
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
export async function writeSnapshot(
  db: LogConnection,
  seq: number,
  records: Iterable<LogRecord>,
  options: SnapshotWriting = {},
): Promise<boolean> {
  return db.transaction(async ({ client }) => {
    const lock = await client.query<{ locked: boolean }>(db.snapshotLockSql)
    if (!lock.rows[0]?.locked) return false
    const newest = await client.query<{ seq: string | null }>(
      `SELECT max(seq) AS seq FROM ${db.snapshotTable}`,
    )
    const previous = newest.rows[0]?.seq == null ? undefined : Number(newest.rows[0].seq)
    if (previous !== undefined && previous >= seq) return false
    await insertParts(db, client, seq, records, options)
    if (previous !== undefined) {
      await client.query(`DELETE FROM ${db.snapshotTable} WHERE seq < $1`, [previous])
      await client.query(`DELETE FROM ${db.logTable} WHERE seq <= $1`, [previous])
    }
    return true
  })
}

/**
 * Inserts `records` as the parts of the snapshot at `seq`, made a slice at a time (takeSlice),
 * one INSERT a slice. Stopped by an error or the signal, the records are closed (their view
 * released); the caller's transaction rolls back. Returns the number of parts.
 */
async function insertParts(
  db: LogConnection,
  client: pg.ClientBase,
  seq: number,
  records: Iterable<LogRecord>,
  { sliceMs = db.sliceMs, signal }: SnapshotWriting = {},
): Promise<number> {
  checkedSeq(seq)
  const texts = (function* () {
    for (const record of records) yield JSON.stringify(record)
  })()
  let part = 0
  try {
    for (let done = false; !done;) {
      signal?.throwIfAborted()
      const slice = takeSlice(texts, SLICE_CHARS, sliceMs, db.turns)
      if (slice.pieces.length > 0) {
        await client.query(insertPartsSql(db, seq, part, slice.pieces.length), slice.pieces)
        part += slice.pieces.length
      }
      done = slice.done
    }
  } finally {
    texts.return(undefined)
  }
  return part
}

/** The INSERT of `count` parts of the snapshot at `seq` from part `first`, their texts `$1`… */
export function insertPartsSql(t: LogTables, seq: number, first: number, count: number): string {
  const rows = Array.from({ length: count }, (_, i) => `(${seq}, ${first + i}, $${i + 1})`)
  return `INSERT INTO ${t.snapshotTable} (seq, part, record) VALUES ${rows.join(', ')}`
}

function entities(ds: Datastore): number {
  return ds.dataClasses.reduce((n, dc) => n + dc.length, 0)
}

/** The SQL side Snapshots uses (PostgresLog's). */
export interface SnapshotLog {
  readonly snapshotEvery: number
  readonly rowsPerRecord: number
  writeSnapshot(
    seq: number,
    records: Iterable<LogRecord>,
    options?: SnapshotWriting,
  ): Promise<boolean>
}

/** When this process writes a snapshot, and the one it is writing. */
export class Snapshots {
  readonly #log: SnapshotLog
  readonly #ds: Datastore
  readonly #onError: (error: Error) => void
  readonly #signal: AbortSignal
  #snapshotSeq: number
  // The snapshot being written (settles, never rejects).
  #snapshotting: Promise<void> | undefined

  /** `signal`: aborted when the process stops, which gives up the snapshot being written. */
  constructor(
    log: SnapshotLog,
    ds: Datastore,
    snapshotSeq: number,
    options: { readonly onError: (error: Error) => void; readonly signal: AbortSignal },
  ) {
    this.#log = log
    this.#ds = ds
    this.#snapshotSeq = snapshotSeq
    this.#onError = options.onError
    this.#signal = options.signal
  }

  /** Settles once the snapshot being written, if any, is done or given up. */
  get writing(): Promise<void> | undefined {
    return this.#snapshotting
  }

  /**
   * Every `snapshotEvery` records, a snapshot at `seq` (the store is at `seq` now, in the gate),
   * unless one is being written: the next write past the line starts the next. `pendingCommits`:
   * commits made during this write's awaits, in memory but not in the log yet.
   */
  maybe(seq: number, pendingCommits: number): void {
    if (seq - this.#snapshotSeq < this.#log.snapshotEvery) return
    if (pendingCommits > 0 || this.#snapshotting) return
    this.#snapshotSeq = seq
    this.#start(seq).catch((e: Error) => {
      if (!this.#signal.aborted) this.#onError(e)
    })
  }

  /**
   * Writes a snapshot of the store as it is (in the gate, after `catchUp`, which gives the seq
   * applied), once the one being written, if any, is done.
   */
  async snapshot(writes: ClusterWrites, catchUp: () => Promise<number>): Promise<boolean> {
    for (;;) {
      await this.#snapshotting
      const started = await writes.exclusive(async () => {
        if (this.#snapshotting) return undefined
        const applied = await catchUp()
        if (this.#snapshotting) return undefined
        this.#snapshotSeq = applied
        return { written: this.#start(applied) }
      })
      if (started) return started.written
    }
  }

  /**
   * The snapshot at `seq`, the store's state now: a view opened at once (store-view.ts), then
   * written a slice at a time between other work, the view released once done.
   */
  #start(seq: number): Promise<boolean> {
    const view = openStoreView(this.#ds)
    const written = this.#log
      .writeSnapshot(seq, snapshotRecords(view, this.#log.rowsPerRecord), {
        signal: this.#signal,
      })
      .finally(() => view.release())
    const settled: Promise<void> = written
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (this.#snapshotting === settled) this.#snapshotting = undefined
      })
    this.#snapshotting = settled
    return written
  }
}
