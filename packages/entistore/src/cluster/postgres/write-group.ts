/**
 * @module A write group's round trips to the log (participant.ts): the careful way, `beforeWrite`
 * then `afterWrite`, or one round trip, `tryAppend`, and `retry` after it found the log moved on.
 *
 * The careful way: `beforeWrite` opens a transaction, takes the log's advisory lock (one writer at
 * a time across every process), applies the log rows this process has not applied yet, so that
 * the group's checks (stamps, unique values, keys) run against every commit before it, and reads
 * the other processes serving (`members`); `afterWrite` appends the group's records, notifies the
 * channel and commits, and the applied seq moves to the last record. Each is one round trip
 * (log.ts), plus one per further `catchUpRows` rows when this process is that far behind. If
 * anything fails, the transaction is rolled back (the lock goes with it) and the applied seq
 * stays: a COMMIT whose reply was lost may still have committed (its connection is then
 * destroyed), and then its rows come back through the log, like another process's.
 */
import { datastoreError, type LogRecord } from '@entistore/core'
import type { Appended, WriteTag } from '../participant.js'
import type { LogTransaction } from './connection.js'
import type { Follower } from './follower.js'
import type { LogRows } from './log.js'
import type { Member } from './members.js'
import type { PostgresLog } from './postgres-log.js'

/** After a group committed up to `last`: what its replies wait for, `members` the processes serving. */
export type Committed = (last: number, members: readonly Member[]) => Appended

export class WriteGroups {
  readonly #log: PostgresLog
  readonly #follower: Follower
  readonly #committed: Committed
  /** The writer's fence (write-gate/), while this process is the writer; undefined otherwise. */
  readonly #fence: () => string | undefined
  // The fence the group in flight is appended under: read once, when it began (beginGroup).
  #groupFence: string | undefined
  #tx: LogTransaction | undefined
  // The group in flight: the log's head it caught up to, and the processes to wait for.
  #groupHead = 0
  #groupMembers: readonly Member[] = []
  // The log rows read by a tryAppend that found the log moved on: applied by `retry`.
  #moved: LogRows | undefined

  constructor(
    log: PostgresLog,
    follower: Follower,
    committed: Committed,
    fence: () => string | undefined = () => undefined,
  ) {
    this.#log = log
    this.#follower = follower
    this.#committed = committed
    this.#fence = fence
  }

  /**
   * A group begins: its appends carry the fence of now, whatever happens to the role before
   * they are made. A group begun as the writer and appended after the role was lost is then
   * refused by PostgreSQL (its term is old), not appended as an ordinary follower's commit.
   */
  beginGroup(): void {
    this.#groupFence = this.#fence()
  }

  async beforeWrite(): Promise<void> {
    // Before the append: its acknowledgements must find this process listening.
    const hearing = this.#follower.hearAcks()
    if (hearing) await hearing
    const { rows, floor, members, ...tx } = await this.#log.beginWrite(this.#follower.applied)
    try {
      await this.#follower.catchUpWith(tx.client, { rows, floor })
    } catch (e) {
      await this.#log.rollback(tx, e)
      throw e
    }
    this.#tx = tx
    this.#groupHead = this.#follower.applied
    this.#groupMembers = members
  }

  async afterWrite(
    records: readonly LogRecord[],
    tags?: ReadonlyMap<number, WriteTag>,
  ): Promise<Appended | void> {
    const tx = this.#tx
    this.#tx = undefined
    if (!tx) throw new Error('afterWrite without beforeWrite')
    if (records.length === 0) return await this.#log.rollback(tx)
    // On failure the transaction is rolled back, or its connection destroyed when the outcome
    // is unknown: either way the applied seq stays, and committed rows come back through the log.
    let fence: string | undefined
    try {
      fence = this.#appendFence(tags)
    } catch (e) {
      await this.#log.rollback(tx, e)
      throw e
    }
    const { last } = await this.#log.appendAndCommit(tx, records, this.#groupHead, {
      tags,
      fence,
    })
    return this.#committed(last, this.#groupMembers)
  }

  /**
   * A group in one round trip, if the log is where this process last applied it (cluster-core.ts
   * runs the group without beforeWrite first); 'moved' otherwise, nothing written.
   */
  async tryAppend(
    records: readonly LogRecord[],
    tags?: ReadonlyMap<number, WriteTag>,
  ): Promise<Appended | 'moved' | void> {
    if (records.length === 0) {
      // Nothing to write, but the group's refusals (a stale stamp, an entity not found) were
      // decided on what this process holds: they stand only if the log did not move since.
      const moved = await this.#log.movedSince(this.#follower.applied)
      if (moved === undefined) return
      this.#moved = moved
      return 'moved'
    }
    const hearing = this.#follower.hearAcks()
    if (hearing) await hearing
    const out = await this.#log.appendIfAt(this.#follower.applied, records, {
      tags,
      fence: this.#appendFence(tags),
    })
    if ('moved' in out) {
      this.#moved = out.moved
      return 'moved'
    }
    return this.#committed(out.last, out.members)
  }

  /**
   * The fence of the group's append. A forwarded write (tagged with its id) is committed only
   * under the writer's term it was run in: the writer that answers its resend knows of every
   * forwarded write the log holds only if no other process appends one. Without a fence (the
   * role was lost before the group began), it is refused unapplied, and sent again to the writer.
   */
  #appendFence(tags: ReadonlyMap<number, WriteTag> | undefined): string | undefined {
    const fence = this.#groupFence
    if (fence === undefined && tags !== undefined && tags.size > 0)
      throw datastoreError('ClusterWriteFailed', ['this process is no longer the writer'], {
        details: { retryAfter: 1 },
      })
    return fence
  }

  /**
   * After a 'moved' (the group undone): applies the rows that attempt read, so that the group
   * may be tried again; false when they may not be all (then the careful way: beforeWrite).
   */
  async retry(): Promise<boolean> {
    const read = this.#moved
    this.#moved = undefined
    if (read === undefined || read.rows.length >= this.#log.catchUpRows) return false
    await this.#follower.catchUpWith(this.#log.pool, read)
    return true
  }
}
