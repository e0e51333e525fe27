/**
 * @module The change log and snapshots in PostgreSQL: the SQL side of `--postgres`
 * (docs/durability.md), as one object. Its rooms, each of one job:
 *
 * - schema.ts: the tables' names, channels and locks, and the statements that make the tables;
 * - connection.ts: the options, the pool, transactions, a connection of its own for LISTEN;
 * - log.ts: appends (one round trip, or two around a write), reads after a seq, notifications;
 * - members.ts: the processes serving and their leases (join, renew, fence, leave);
 * - acks.ts: acknowledgements ("applied up to seq N");
 * - snapshots.ts: start-up's load, and writing snapshots (compaction).
 *
 * Every method is one of theirs; the participant (postgres-participant.ts) and joinCluster call
 * them here, where tests can watch them.
 */
import type { Datastore, LogRecord } from '@entistore/core'
import type pg from 'pg'
import { sendAck } from './acks.js'
import { LogConnection, type LogTransaction } from './connection.js'
import * as log from './log.js'
import type { LogRows } from './log.js'
import * as members from './members.js'
import type { Member } from './members.js'
import { ensureSchema } from './schema.js'
import { load, writeSnapshot, type SnapshotWriting } from './snapshots.js'
import type { PostgresLogOptions, PostgresRecovery } from './types.js'

// Declared apart, for the public types to compile without pg (types.ts).
export type { PostgresLogOptions, PostgresRecovery }

export class PostgresLog extends LogConnection {
  /** Creates the schema and tables if absent (schema.ts). */
  ensureSchema(): Promise<void> {
    return ensureSchema(this)
  }

  /** A transaction, the lock, the log after `seq` and the processes serving (log.ts). */
  beginWrite(seq: number): Promise<LogTransaction & LogRows & { members: Member[] }> {
    return log.beginWrite(this, seq)
  }

  /** Appends `records` in the transaction `beginWrite` opened, and commits (log.ts). */
  appendAndCommit(
    tx: LogTransaction,
    records: readonly LogRecord[],
    prev: number,
    options?: log.AppendOptions,
  ): Promise<{ first: number; last: number }> {
    return log.appendAndCommit(this, tx, records, prev, options)
  }

  /** A whole write in one round trip if the log is still at `prev`; else the rows after (log.ts). */
  appendIfAt(
    prev: number,
    records: readonly LogRecord[],
    options?: log.AppendOptions,
  ): Promise<{ first: number; last: number; members: Member[] } | { moved: LogRows }> {
    return log.appendIfAt(this, prev, records, options)
  }

  /**
   * The replies of the last `limit` forwarded writes the log holds, newest first: a new writer
   * learns what the old one committed (write-gate/answering.ts).
   */
  async loggedReplies(limit: number): Promise<{ seq: number; request: string; reply: string }[]> {
    const result = await this.pool.query<{ seq: string; request: string; reply: string }>(
      `SELECT seq, request, reply FROM ${this.logTable}
        WHERE request IS NOT NULL ORDER BY seq DESC LIMIT $1`,
      [limit],
    )
    return result.rows.map((r) => ({ ...r, seq: Number(r.seq) }))
  }

  /** The log rows after `seq`, at most `limit`, and the oldest snapshot's seq (log.ts). */
  after(client: pg.ClientBase | pg.Pool, seq: number, limit = this.catchUpRows): Promise<LogRows> {
    return log.after(this, client, seq, limit)
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

  /** Sets up `client` (from `listenerClient`) to hear the log's channel, and the acknowledgements' with `acks`. */
  async listen(client: pg.Client, acks: boolean): Promise<void> {
    await client.query(log.listenSql(this, acks))
  }

  /** Starts hearing the acknowledgements' channel on `client`, set up by `listen` without it. */
  async hearAcks(client: pg.Client): Promise<void> {
    await client.query(log.acksSql(this, true))
  }

  /** Joins the processes serving under the log's lock; the log's head (members.ts). */
  join(leaseMs: number, applied: number): Promise<{ head: number }> {
    return members.join(this, leaseMs, applied)
  }

  /** Extends this process's lease, if it still holds one (members.ts). */
  renew(leaseMs: number, applied: number): Promise<boolean> {
    return members.renew(this, leaseMs, applied)
  }

  /** Fences `origins`; the leases they have left (members.ts). */
  evict(origins: readonly string[]): Promise<{ origin: string; remaining: number }[]> {
    return members.evict(this, origins)
  }

  /** Leaves the processes serving (members.ts). */
  leave(): Promise<void> {
    return members.leave(this)
  }

  /** Tells the writers that this process applied the log up to `seq` (acks.ts). */
  ack(seq: number, listener?: pg.Client): Promise<void> {
    return sendAck(this, seq, listener)
  }

  /** Fills `ds`, new and empty, from PostgreSQL, or from `initial` when it holds nothing (snapshots.ts). */
  load(
    ds: Datastore,
    initial?: (ds: Datastore) => void | Promise<void>,
  ): Promise<PostgresRecovery & { applied: number }> {
    return load(this, ds, initial)
  }

  /** Writes `records` as the snapshot at log `seq`, then compacts (snapshots.ts). */
  writeSnapshot(
    seq: number,
    records: Iterable<LogRecord>,
    options: SnapshotWriting = {},
  ): Promise<boolean> {
    return writeSnapshot(this, seq, records, options)
  }
}
