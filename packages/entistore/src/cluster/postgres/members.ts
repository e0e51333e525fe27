/**
 * @module The processes serving, in the members table: each holds a lease that it renews, and a
 * writer waits for the acknowledgements of those whose lease runs (acks.ts). Joining, renewing,
 * fencing (`evict`) and leaving, each one statement or one round trip, with the lease's length
 * counted by PostgreSQL's clock.
 */
import pg from 'pg'
import type { LogConnection } from './connection.js'
import { checkedMs, checkedSeq, type LogTables } from './schema.js'

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

/** A row of `membersSql`. */
export interface MemberRow {
  origin: string
  evicted: boolean
  applied: string
  remaining: number
}

// The other processes whose lease runs (fenced ones too: until their lease runs out they may
// still answer reads), with the lease's time left.
export function membersSql(t: LogTables & { readonly origin: string }): string {
  return `SELECT origin, applied, evicted_at IS NOT NULL AS evicted,
         (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS remaining
       FROM ${t.membersTable}
       WHERE origin <> ${pg.escapeLiteral(t.origin)} AND expires_at > clock_timestamp()`
}

export function readMembers(result: pg.QueryResult<MemberRow>): Member[] {
  return result.rows.map((r) => ({
    origin: r.origin,
    evicted: r.evicted,
    applied: Number(r.applied),
    remaining: r.remaining,
  }))
}

/**
 * Joins the processes serving (or joins again after being fenced), in one round trip: under
 * the log's lock (so that a write either committed before, and is at or below the head read
 * here, or reads this process among those it waits for), this process's lease of `leaseMs`
 * is written and the log's head read. Returns the head: once applied up to it, the process
 * holds every acknowledged write. Leases expired an hour ago (processes gone) are removed.
 */
export async function join(
  db: LogConnection,
  leaseMs: number,
  applied: number,
): Promise<{ head: number }> {
  const results = (await db.pool.query(
    joinSql(db, leaseMs, applied),
  )) as unknown as pg.QueryResult<{
    head: string
  }>[]
  return { head: Number(results[4]!.rows[0]!.head) }
}

/** The text of `join`: its fifth result is the log's head. */
export function joinSql(
  t: LogTables & { readonly origin: string },
  leaseMs: number,
  applied: number,
): string {
  const lease = checkedMs(leaseMs)
  const origin = pg.escapeLiteral(t.origin)
  return `BEGIN; ${t.lockSql};
       DELETE FROM ${t.membersTable} WHERE expires_at < clock_timestamp() - interval '1 hour';
       INSERT INTO ${t.membersTable} (origin, expires_at, applied)
         VALUES (${origin}, clock_timestamp() + ${lease} * interval '1 millisecond', ${checkedSeq(applied)})
         ON CONFLICT (origin) DO UPDATE SET expires_at = excluded.expires_at,
           evicted_at = NULL, applied = excluded.applied;
       SELECT coalesce(max(seq), 0) AS head FROM ${t.logTable};
       COMMIT`
}

/**
 * Extends this process's lease by `leaseMs` from now, if it still holds one (not fenced, not
 * expired: a process whose lease ran out joins again, catching up first). Returns whether it did.
 */
export async function renew(db: LogConnection, leaseMs: number, applied: number): Promise<boolean> {
  const result = await db.pool.query(renewSql(db, leaseMs, applied), [db.origin])
  return result.rowCount === 1
}

/** The text of `renew`, this process's origin its parameter. */
export function renewSql(t: LogTables, leaseMs: number, applied: number): string {
  return `UPDATE ${t.membersTable}
          SET expires_at = clock_timestamp() + ${checkedMs(leaseMs)} * interval '1 millisecond',
              applied = greatest(applied, ${checkedSeq(applied)})
        WHERE origin = $1 AND evicted_at IS NULL AND expires_at > clock_timestamp()`
}

/**
 * Fences `origins` (processes a write waited for in vain): their leases can no longer be
 * extended. Returns, for each whose lease was still running (fenced now or before: by another
 * writer), the milliseconds it has left: the process stops answering reads by then, by its own
 * clock.
 */
export async function evict(
  db: LogConnection,
  origins: readonly string[],
): Promise<{ origin: string; remaining: number }[]> {
  const result = await db.pool.query<{ origin: string; remaining: number }>(
    `UPDATE ${db.membersTable} SET evicted_at = coalesce(evicted_at, clock_timestamp())
        WHERE origin = ANY($1) AND expires_at > clock_timestamp()
        RETURNING origin,
          (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS remaining`,
    [origins],
  )
  return result.rows
}

/** Leaves the processes serving (a graceful stop): writes no longer wait for this one. */
export async function leave(db: LogConnection): Promise<void> {
  await db.pool.query(`DELETE FROM ${db.membersTable} WHERE origin = $1`, [db.origin])
}
