/**
 * @module Where each commit of the datastore goes: into the write in flight (`capture`), or, made
 * outside a write, kept pending until a write appends it. Commits made outside a write (the
 * embedder's code calling the datastore directly, a GET of a function that writes) are not lost:
 * each is kept pending and appended by the next write, or by a flush scheduled at once. Since
 * they ran without catching up first, they are taken back out of memory (`lift`) before a write
 * catches up, and applied again on top (`reapply`, rebased: stamps, global stamp and sequences
 * continue from what is there now) — last writer wins, with no stamp check against the other
 * processes; one that no longer fits (an update of an entity another process deleted) is dropped
 * and reported through `onError`.
 */
import {
  applyLogRecords,
  DatastoreError,
  logRecordOf,
  revertCommits,
  revertPoint,
  type Change,
  type Datastore,
  type LogRecord,
  type RevertPoint,
} from '@entistore/core'
import type { Participants } from './participants.js'
import { rebaseRecord } from './rebase-record.js'

/** One commit: its changes (to undo it) and its record (to append it). */
export interface Commit {
  readonly changes: readonly Change[]
  readonly record: LogRecord
}

/** Outside commits taken out of memory, to be applied again (the array grows while lifted). */
export interface Lifted {
  commits: Commit[]
}

export interface OutsideCommitsOptions {
  /** Told of an outside write dropped, a failed flush. */
  readonly onError: (error: Error) => void
  /** How long a failed flush waits before trying again. */
  readonly retryMs: number
  /** A write of nothing: appends what is pending. */
  readonly flush: () => Promise<unknown>
  /** Whether the gate is closed: nothing is flushed any more. */
  readonly isClosed: () => boolean
}

export class OutsideCommits {
  /** While a write is in flight: where its commits go (set by the group that runs it). */
  capture: Commit[] | undefined
  readonly #ds: Datastore
  readonly #participants: Participants
  readonly #options: OutsideCommitsOptions
  // While outside commits are re-applied: their replays are captured too.
  #adopting = false
  // Outside commits not appended yet, and the store as it was before the first of them.
  #pending: Commit[] = []
  #pendingPoint: RevertPoint | undefined
  // The store as it is after the last commit: where pending commits start from.
  #point: RevertPoint
  #flushScheduled = false
  /** Stops listening to the datastore's commits. */
  readonly off: () => void

  constructor(ds: Datastore, participants: Participants, options: OutsideCommitsOptions) {
    this.#ds = ds
    this.#participants = participants
    this.#options = options
    this.#point = revertPoint(ds.store)
    this.off = ds.onCommit((changes, info) => {
      if (info.kind === 'replay' && !this.#adopting) {
        this.#point = revertPoint(ds.store)
        return
      }
      if (info.kind === 'replay') {
        // A rebased outside commit applied again: its record is the caller's (see reapply).
        this.capture?.push({ changes, record: undefined as unknown as LogRecord })
        return
      }
      if (this.capture) this.capture.push({ changes, record: logRecordOf(ds, changes, info) })
      else if (this.#participants.logsOutside) {
        const commit = { changes, record: logRecordOf(ds, changes, info) }
        if (this.#pending.length === 0) this.#pendingPoint = this.#point
        this.#pending.push(commit)
        this.#scheduleFlush(0)
      }
      this.#point = revertPoint(ds.store)
    })
  }

  /** Outside commits not appended yet. */
  get pendingCount(): number {
    return this.#pending.length
  }

  /** The store was changed behind the listener's back (commits undone): it starts from here. */
  mark(): void {
    this.#point = revertPoint(this.#ds.store)
  }

  /** Takes the pending outside commits out of memory (undone), to apply them again later. */
  lift(): Lifted {
    const commits = this.#pending
    if (commits.length === 0) return { commits }
    this.#pending = []
    revertCommits(
      this.#ds.store,
      commits.map((c) => c.changes),
      this.#pendingPoint!,
    )
    this.#point = revertPoint(this.#ds.store)
    return { commits }
  }

  /** Applies lifted commits again and keeps them pending (the write that lifted them failed). */
  putBack(lifted: Lifted, retryMs = this.#options.retryMs): void {
    if (lifted.commits.length === 0) return
    const again: Commit[] = []
    const point = this.#point
    this.reapply(lifted, again)
    if (again.length === 0) return
    if (this.#pending.length === 0) this.#pendingPoint = point
    this.#pending.push(...again)
    this.#point = revertPoint(this.#ds.store)
    this.#scheduleFlush(retryMs)
  }

  /**
   * Applies lifted commits again on the store as it is now, each rebased (rebaseRecord), their
   * commits going to `into`; one that no longer fits is dropped and reported.
   */
  reapply(lifted: Lifted, into: Commit[]): void {
    for (const { record } of lifted.commits) {
      const rebased = rebaseRecord(this.#ds, record)
      const start = into.length
      const capture = this.capture
      this.capture = into
      this.#adopting = true
      try {
        applyLogRecords(this.#ds, [rebased])
      } catch (e) {
        if (!DatastoreError.is(e)) throw e
        this.#options.onError(
          new Error(
            `entistore cluster: a commit made outside a write conflicts with another process's and was dropped: ${e.message}`,
            { cause: e },
          ),
        )
        continue
      } finally {
        this.#adopting = false
        this.capture = capture
      }
      // The replay's changes were captured with no record: they are this rebased record's.
      const made = into.splice(start)
      into.push({ changes: made.flatMap((c) => c.changes), record: rebased })
    }
    this.#point = revertPoint(this.#ds.store)
  }

  #scheduleFlush(ms: number): void {
    if (this.#flushScheduled || this.#options.isClosed()) return
    this.#flushScheduled = true
    const flush = () => {
      this.#flushScheduled = false
      if (this.#pending.length === 0 || this.#options.isClosed()) return
      this.#options.flush().catch((e: Error) => {
        this.#options.onError(e)
        if (this.#pending.length > 0) this.#scheduleFlush(this.#options.retryMs)
      })
    }
    if (ms === 0) setImmediate(flush)
    else setTimeout(flush, ms).unref()
  }
}
