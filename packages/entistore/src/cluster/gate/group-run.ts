/**
 * @module Running one group of writes against the participants: participants' beforeWrite, once
 * (PostgreSQL: its transaction, the log's lock, catch up) → each write in turn, in memory (its
 * commits captured), settled alone by the participants that do not log (Redis: its lock writes,
 * no conflict): a write refused (a stale stamp, a lock) is refused alone, as if it had been by
 * itself → afterWrite(every record of the group) of those that log every commit (PostgreSQL: one
 * multi-row append, notify, commit) → what settles every reply once the group is visible
 * everywhere (PostgreSQL: every live process applied it).
 *
 * The log's commit comes last because it cannot be taken back: a participant refusing after it
 * would leave this process undoing in memory a write every other process applies. If it rejects,
 * the group's commits are undone in memory (the core's revertCommits) and each of its clients gets
 * 503 (ClusterWriteFailed): nothing is left half-applied in this process. Commits made while a
 * write is in flight (during its awaits) belong to that write: appended with it, or undone with it.
 */
import {
  datastoreError,
  DatastoreError,
  revertCommits,
  revertPoint,
  type Datastore,
  type RevertPoint,
} from '@entistore/core'
import type { ClusterParticipant, WriteTag } from '../participant.js'
import { asClusterError, failed } from './cluster-errors.js'
import type { Commit, Lifted, OutsideCommits } from './outside-commits.js'
import type { Participants } from './participants.js'
import type { QueuedWrite } from './write-queue.js'

/** How many times a group of data writes is tried in one round trip before the careful way. */
const MAX_TRIES = 3

type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown }

/** What the gate's owner says of this process: groups are refused once either is set. */
export interface GateStatus {
  closed: boolean
  /** Why this process cannot follow the others (ClusterBehind), once it cannot. */
  behind: string | undefined
}

export class GroupRunner {
  readonly #ds: Datastore
  readonly #participants: Participants
  readonly #commits: OutsideCommits
  readonly #status: GateStatus
  readonly #onError: (error: Error) => void
  // From a group's first write in memory to its log's commit (or its undoing).
  #writing = false
  // While a group tried without the log's lock is in memory and not yet in the log: it may be
  // undone (the log moved), so reads wait for it. A read of it could give a client a value and a
  // stamp that the log never holds; the stamp a retried write of another process takes next is
  // the same number, and that client's next update would then pass its stamp check on a value it
  // never read (lost updates, seen as transfers between accounts that change their sum).
  #speculative: Promise<void> | undefined
  #speculated: () => void = () => undefined

  constructor(
    ds: Datastore,
    participants: Participants,
    commits: OutsideCommits,
    status: GateStatus,
    onError: (error: Error) => void,
  ) {
    this.#ds = ds
    this.#participants = participants
    this.#commits = commits
    this.#status = status
    this.#onError = onError
  }

  /** Whether a group's writes are in memory and not yet in the log (nor undone). */
  get writing(): boolean {
    return this.#writing
  }

  /** While a group that may yet be undone is in memory: settles once it is logged or undone. */
  get speculative(): Promise<void> | undefined {
    return this.#speculative
  }

  /**
   * Runs one group in the gate; returns what settles its writes, called once the gate is let go
   * (it may wait for the group to be visible everywhere: participants' `visible`).
   *
   * When the log offers `tryAppend` and every write of the group may run twice (plain data
   * writes), the group runs first without the log's beforeWrite (no lock, no catch-up: this
   * process follows the log as it commits) and is appended in one round trip if the log did not
   * move meanwhile; if it did, the group is undone, and run again after beforeWrite, as always.
   */
  async run(group: readonly QueuedWrite[]): Promise<() => Promise<void>> {
    const refuseAll = (e: unknown) => async () => {
      const error = asClusterError(e)
      for (const w of group) w.reject(error)
    }
    if (this.#status.closed) return refuseAll(new Error('the cluster is closed'))
    if (this.#status.behind !== undefined)
      return refuseAll(datastoreError('ClusterBehind', [this.#status.behind]))
    const local = this.#participants.all.filter((p) => !p.logsEveryCommit)
    const logging = this.#participants.all.filter((p) => p.logsEveryCommit)
    let optimistic =
      logging.length === 1 && logging[0]!.tryAppend !== undefined && group.every((w) => w.again)
    for (const p of logging) p.beginGroup?.()
    const lifted = this.#commits.lift()
    const began: ClusterParticipant[] = []
    const begin = async (ps: readonly ClusterParticipant[]) => {
      for (const p of ps) {
        await p.beforeWrite?.()
        began.push(p)
      }
      if (this.#status.behind !== undefined)
        throw datastoreError('ClusterBehind', [this.#status.behind])
    }
    try {
      // Those that log every commit last: PostgreSQL's lock, which every process's writes wait
      // on, is taken once the others (a Redis round trip) are done.
      await begin(optimistic ? local : [...local, ...logging])
    } catch (e) {
      // Those whose beforeWrite went through let go of what it took (PostgreSQL: its transaction
      // and the log's lock, which every process's writes would wait on): nothing was written.
      for (const p of began) await p.afterWrite?.([]).catch(() => undefined)
      this.#commits.putBack(lifted)
      return refuseAll(e)
    }
    let tries = 0
    try {
      for (;;) {
        // What the others committed and this process heard of, applied first: the group then
        // starts from the freshest state known (fewer moves), and their writers hear sooner.
        for (const p of logging) p.beforeRun?.()
        this.#writing = true
        if (optimistic) this.#speculative = new Promise((resolve) => (this.#speculated = resolve))
        const start = revertPoint(this.#ds.store)
        const { all, outcomes, tags } = await this.#runWrites(group, lifted, local)
        // Commits from here on (during the awaits) are outside ones: pending, flushed next.
        this.#commits.capture = undefined
        const records = all.map((c) => c.record)
        const waits: Promise<void>[] = []
        let moved = false
        let last: number | undefined
        try {
          for (const p of logging) {
            const appended = optimistic
              ? await p.tryAppend!(records, tags)
              : await p.afterWrite?.(records, tags)
            if (appended === 'moved') moved = true
            else if (appended) {
              waits.push(appended.visible)
              last = appended.last ?? last
            }
          }
        } catch (e) {
          this.#undo(all, start)
          this.#endSpeculation()
          if (lifted.commits.length > 0)
            this.#onError(
              failed(
                e,
                `${lifted.commits.length} commit(s) made outside a write were lost with it`,
              ),
            )
          return refuseAll(e)
        }
        if (!moved) {
          this.#endSpeculation()
          return this.#settle(group, outcomes, waits, last ?? this.#participants.position())
        }
        // The log moved on since this process last applied it: undone (outside commits made
        // meanwhile go with the lifted ones, applied again on the next run), caught up, and tried
        // again; after a few tries, the careful way.
        this.#undo(all, start, lifted)
        this.#endSpeculation()
        this.#writing = false
        try {
          if (++tries < MAX_TRIES && (await logging[0]!.retry?.())) continue
          optimistic = false
          await begin(logging)
        } catch (e) {
          for (const p of logging) await p.afterWrite?.([]).catch(() => undefined)
          this.#commits.putBack(lifted)
          return refuseAll(e)
        }
      }
    } finally {
      this.#writing = false
      // Whatever ended the group (a throw included), no read waits on it any longer.
      this.#endSpeculation()
    }
  }

  /**
   * Runs the group's writes in memory, in order, after the lifted outside commits: each settled
   * alone by the participants that do not log (Redis), a refusal undoing that write only.
   */
  async #runWrites(
    group: readonly QueuedWrite[],
    lifted: Lifted,
    local: readonly ClusterParticipant[],
  ): Promise<{ all: Commit[]; outcomes: Outcome[]; tags: Map<number, WriteTag> }> {
    // Every commit of the group, in order (to undo them all), and the outcome of each write.
    const all: Commit[] = []
    const outcomes: Outcome[] = []
    // By index into `all`: the forwarded writes' ids and replies, beside their last commit.
    const tags = new Map<number, WriteTag>()
    this.#commits.capture = all
    this.#commits.reapply(lifted, all)
    for (const w of group) {
      const point = revertPoint(this.#ds.store)
      const captured: Commit[] = []
      this.#commits.capture = captured
      let outcome: Outcome
      try {
        outcome = { ok: true, value: await w.fn() }
      } catch (error) {
        outcome = { ok: false, error }
      }
      this.#commits.capture = undefined
      let refused: { error: unknown } | undefined
      const records = captured.map((c) => c.record)
      for (const p of local)
        await p.afterWrite?.(refused ? [] : records).catch((error: unknown) => {
          refused ??= { error }
        })
      if (refused) {
        revertCommits(
          this.#ds.store,
          captured.map((c) => c.changes),
          point,
        )
        this.#commits.mark()
        outcome = { ok: false, error: asClusterError(refused.error) }
      } else {
        all.push(...captured)
        if (w.tag && outcome.ok && captured.length > 0)
          tags.set(all.length - 1, { request: w.tag.id, reply: w.tag.text(outcome.value) })
      }
      outcomes.push(outcome)
    }
    return { all, outcomes, tags }
  }

  /** The group in memory is in the log, or undone: the reads that waited for it go on. */
  #endSpeculation(): void {
    this.#speculative = undefined
    this.#speculated()
  }

  /**
   * Undoes a group's commits. Outside commits made meanwhile are kept pending, or, given
   * `keep`, added to it (lifted, applied again with the group when it runs again).
   */
  #undo(all: readonly Commit[], start: RevertPoint, keep?: Lifted): void {
    const later = this.#commits.lift()
    revertCommits(
      this.#ds.store,
      all.map((c) => c.changes),
      start,
    )
    this.#commits.mark()
    if (keep) keep.commits.push(...later.commits)
    else this.#commits.putBack(later)
  }

  /** What settles a group's writes once it is visible everywhere (see `run`). */
  #settle(
    group: readonly QueuedWrite[],
    outcomes: readonly Outcome[],
    waits: readonly Promise<void>[],
    at: number,
  ): () => Promise<void> {
    return async () => {
      let failure: DatastoreError | undefined
      try {
        await Promise.all(waits)
      } catch (e) {
        // Committed, but not known to be visible everywhere: the writes that changed something
        // answer the error; those refused changed nothing and answer as they are.
        failure = asClusterError(e)
      }
      group.forEach((w, i) => {
        const outcome = outcomes[i]!
        if (!outcome.ok) w.reject(outcome.error)
        else if (failure) w.reject(failure)
        else w.resolve(w.tag ? { value: outcome.value, at } : outcome.value)
      })
    }
  }
}
