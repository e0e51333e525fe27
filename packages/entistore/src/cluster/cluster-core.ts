/**
 * @module Writes of a process that shares its data with others (participant.ts): a per-process
 * write gate, the commits each write makes captured as log records, and the REST interface put
 * behind both (`wrap`). Reads are answered at once, as before; a write waits its turn, then:
 *
 *   participants' beforeWrite (PostgreSQL: its transaction, the log's lock, catch up)
 *   → the write itself, in memory (its commits captured by a commit listener)
 *   → participants' afterWrite(records), those that log every commit last (Redis: its lock
 *     writes settled, no conflict; then PostgreSQL: append, notify, commit)
 *   → the reply.
 *
 * The log's commit comes last because it cannot be taken back: a participant refusing after it
 * would leave this process undoing in memory a write every other process applies.
 *
 * If afterWrite rejects, the write's commits are undone in memory (the core's revertCommits) and
 * the client gets 503 (ClusterWriteFailed): nothing is left half-applied in this process.
 *
 * Commits made outside a write (the embedder's code calling the datastore directly, a GET of a
 * function that writes) are not lost: each is kept *pending* and appended by the next write, or by
 * a flush scheduled at once. Since they ran without catching up first, the flush takes them back
 * out of memory, catches up, and applies them again on top (rebased: stamps, global stamp and
 * sequences continue from what is there now) — last writer wins, with no stamp check against the
 * other processes; one that no longer fits (an update of an entity another process deleted) is
 * dropped and reported through `onError`. Commits made while a write is in flight (during its
 * awaits) belong to that write: appended with it, or undone with it.
 */
import {
  applyLogRecords,
  datastoreError,
  DatastoreError,
  logRecordOf,
  revertCommits,
  revertPoint,
  type Change,
  type Datastore,
  type LogRecord,
  type RevertPoint,
} from '@entistore/core'
import {
  isPending,
  isWriteRequest,
  type RestCore,
  type RestReply,
  type RestRequest,
} from '@entistore/rest'
import type { ClusterParticipant } from './participant.js'

/** One commit: its changes (to undo it) and its record (to append it). */
interface Commit {
  readonly changes: readonly Change[]
  readonly record: LogRecord
}

export interface ClusterWritesOptions {
  /** Told of what nothing waits on: a failed flush, an outside write dropped. @default process.emitWarning */
  readonly onError?: (error: Error) => void
  /** How long a failed flush of outside commits waits before trying again. @default 1000 */
  readonly retryMs?: number
}

export class ClusterWrites {
  readonly #ds: Datastore
  readonly #participants: ClusterParticipant[]
  // Those with a step around every request (Redis), kept apart: the read path loops over them.
  #before: ClusterParticipant[] = []
  #after: ClusterParticipant[] = []
  // Whether a participant logs every commit (PostgreSQL): then commits made outside a write are
  // appended in one of their own. Without one (Redis alone) they are left as they are: taking
  // them out of memory and applying them again would only show readers the state before them.
  #logsOutside = false
  readonly #onError: (error: Error) => void
  readonly #retryMs: number
  readonly #off: () => void
  // The tail of the gate: each exclusive section starts once the one before it has settled.
  #gate: Promise<unknown> = Promise.resolve()
  // While a write is in flight: where its commits go.
  #capture: Commit[] | undefined
  // While outside commits are re-applied: their replays are captured too.
  #adopting = false
  // Outside commits not appended yet, and the store as it was before the first of them.
  #pending: Commit[] = []
  #pendingPoint: RevertPoint | undefined
  // The store as it is after the last commit: where pending commits start from.
  #point: RevertPoint
  #flushScheduled = false
  #behind: string | undefined
  #closed = false

  constructor(
    ds: Datastore,
    participants: readonly ClusterParticipant[],
    options: ClusterWritesOptions = {},
  ) {
    this.#ds = ds
    this.#participants = []
    for (const p of participants) this.add(p)
    this.#onError = options.onError ?? ((e) => process.emitWarning(e))
    this.#retryMs = options.retryMs ?? 1000
    this.#point = revertPoint(ds.store)
    this.#off = ds.onCommit((changes, info) => {
      if (info.kind === 'replay' && !this.#adopting) {
        this.#point = revertPoint(ds.store)
        return
      }
      if (info.kind === 'replay') {
        // A rebased outside commit applied again: its record is the caller's (see #reapply).
        this.#capture?.push({ changes, record: undefined as unknown as LogRecord })
        return
      }
      if (this.#capture) this.#capture.push({ changes, record: logRecordOf(ds, changes, info) })
      else if (this.#logsOutside) {
        const commit = { changes, record: logRecordOf(ds, changes, info) }
        if (this.#pending.length === 0) this.#pendingPoint = this.#point
        this.#pending.push(commit)
        this.#scheduleFlush(0)
      }
      this.#point = revertPoint(ds.store)
    })
  }

  /**
   * Lets `participant` take part in the requests and writes from now on, after those already
   * there (a service connected once the data is loaded: Redis after PostgreSQL).
   */
  add(participant: ClusterParticipant): void {
    this.#participants.push(participant)
    if (participant.logsEveryCommit) this.#logsOutside = true
    if (participant.beforeRequest) this.#before = [...this.#before, participant]
    if (participant.afterRequest) this.#after = [...this.#after, participant]
  }

  /** Commits made outside a write, not appended yet. */
  get pendingCommits(): number {
    return this.#pending.length
  }

  /**
   * Marks this process as unable to follow the others (a record it cannot apply): writes are
   * refused with ClusterBehind (9133) from now on; reads still answer what it holds.
   */
  fallBehind(why: string): void {
    this.#behind ??= why
  }

  get behind(): string | undefined {
    return this.#behind
  }

  /**
   * Runs `fn` alone in this process (no write, no catch-up at the same time). For a participant
   * that applies what others committed: outside commits pending are taken out of memory around
   * it, so that what it applies lands on the state the log describes, then applied again (and
   * flushed at once).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#turn(async () => {
      const lifted = this.#lift()
      try {
        return await fn()
      } finally {
        this.#putBack(lifted, 0)
      }
    })
  }

  /**
   * Runs `fn` as a write: after every participant caught up (beforeWrite), its commits appended
   * (afterWrite) before this resolves. If they cannot be, they are undone and this rejects with
   * ClusterWriteFailed (9132); if `fn` throws, whatever it committed before is appended all the
   * same, and its error is thrown.
   * @example await cluster.write(() => ds.dataClass('Account').update(1, { balance: 10 }))
   */
  write<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.#turn(() => this.#write(fn))
  }

  #turn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#gate.then(fn)
    this.#gate = run.catch(() => undefined)
    return run
  }

  async #write<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.#closed) throw failed(new Error('the cluster is closed'))
    if (this.#behind !== undefined) throw datastoreError('ClusterBehind', [this.#behind])
    const lifted = this.#lift()
    const began: ClusterParticipant[] = []
    try {
      for (const p of this.#participants) {
        await p.beforeWrite?.()
        began.push(p)
      }
      if (this.#behind !== undefined) throw datastoreError('ClusterBehind', [this.#behind])
    } catch (e) {
      // Those whose beforeWrite went through let go of what it took (PostgreSQL: its transaction
      // and the log's lock, which every process's writes would wait on): nothing was written.
      for (const p of began) await p.afterWrite?.([]).catch(() => undefined)
      this.#putBack(lifted)
      throw asClusterError(e)
    }
    const point = revertPoint(this.#ds.store)
    const captured: Commit[] = []
    this.#capture = captured
    let result: { ok: true; value: T } | { ok: false; error: unknown }
    try {
      this.#reapply(lifted, captured)
      result = { ok: true, value: await fn() }
    } catch (error) {
      result = { ok: false, error }
    }
    // Commits from here on (during afterWrite's awaits) are outside ones: pending, flushed next.
    this.#capture = undefined
    try {
      const records = captured.map((c) => c.record)
      let refused: { error: unknown } | undefined
      // Those that log every commit last (see the module note); the order stays stable otherwise.
      const last = this.#participants.filter((p) => p.logsEveryCommit)
      for (const p of [...this.#participants.filter((p) => !p.logsEveryCommit), ...last]) {
        if (refused === undefined)
          await p.afterWrite?.(records).catch((error: unknown) => void (refused = { error }))
        // After a refusal the write is undone: the later ones are told it committed nothing, so
        // that they let go of what their beforeWrite took (Redis: a conflict it holds, pending
        // lock writes), as when a beforeWrite fails.
        else await p.afterWrite?.([]).catch(() => undefined)
      }
      if (refused !== undefined) throw refused.error
    } catch (e) {
      const later = this.#lift()
      revertCommits(
        this.#ds.store,
        captured.map((c) => c.changes),
        point,
      )
      this.#point = revertPoint(this.#ds.store)
      this.#putBack(later)
      if (lifted.commits.length > 0)
        this.#onError(
          failed(e, `${lifted.commits.length} commit(s) made outside a write were lost with it`),
        )
      throw asClusterError(e)
    }
    if (!result.ok) throw result.error
    return result.value
  }

  /** Takes the pending outside commits out of memory (undone), to apply them again later. */
  #lift(): { commits: Commit[] } {
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
  #putBack(lifted: { commits: Commit[] }, retryMs = this.#retryMs): void {
    if (lifted.commits.length === 0) return
    const again: Commit[] = []
    const point = this.#point
    this.#reapply(lifted, again)
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
  #reapply(lifted: { commits: Commit[] }, into: Commit[]): void {
    for (const { record } of lifted.commits) {
      const rebased = rebaseRecord(this.#ds, record)
      const start = into.length
      const capture = this.#capture
      this.#capture = into
      this.#adopting = true
      try {
        applyLogRecords(this.#ds, [rebased])
      } catch (e) {
        if (!DatastoreError.is(e)) throw e
        this.#onError(
          new Error(
            `entistore cluster: a commit made outside a write conflicts with another process's and was dropped: ${e.message}`,
            { cause: e },
          ),
        )
        continue
      } finally {
        this.#adopting = false
        this.#capture = capture
      }
      // The replay's changes were captured with no record: they are this rebased record's.
      const made = into.splice(start)
      into.push({ changes: made.flatMap((c) => c.changes), record: rebased })
    }
    this.#point = revertPoint(this.#ds.store)
  }

  #scheduleFlush(ms: number): void {
    if (this.#flushScheduled || this.#closed) return
    this.#flushScheduled = true
    const flush = () => {
      this.#flushScheduled = false
      if (this.#pending.length === 0 || this.#closed) return
      this.write(() => undefined).catch((e: Error) => {
        this.#onError(e)
        if (this.#pending.length > 0) this.#scheduleFlush(this.#retryMs)
      })
    }
    if (ms === 0) setImmediate(flush)
    else setTimeout(flush, ms).unref()
  }

  /**
   * `core` behind the gate: a request that writes (see isWriteRequest) is answered as a write;
   * any other at once, as `core` answers it (a read allocates no Promise).
   */
  wrap(core: RestCore): RestCore {
    // What a request's beforeRequest took and its answer did not keep is given back after it,
    // refusals included (a lock claimed in Redis that the core then did not take).
    const done = (
      request: RestRequest,
      reply: RestReply | Promise<RestReply>,
    ): RestReply | Promise<RestReply> => {
      const after = this.#after
      if (after.length === 0) return reply
      if (!isPending(reply)) {
        for (const p of after) p.afterRequest!(request)
        return reply
      }
      return reply.then((r) => {
        for (const p of after) p.afterRequest!(request)
        return r
      })
    }
    const answer = (request: RestRequest): RestReply | Promise<RestReply> =>
      done(
        request,
        isWriteRequest(request) ? this.#respondWrite(core, request) : core.respond(request),
      )
    const refuse = (request: RestRequest, e: unknown) =>
      done(request, core.refuse(asClusterError(e)))
    return {
      get maxBodyBytes() {
        return core.maxBodyBytes
      },
      ...(core.bodyLimit ? { bodyLimit: (path: string) => core.bodyLimit!(path) } : {}),
      refuse: (error) => core.refuse(error),
      respond: (request) => {
        const before = this.#before
        if (before.length === 0) return answer(request)
        let waits: Promise<void>[] | undefined
        try {
          for (const p of before) {
            const wait = p.beforeRequest!(request)
            if (wait !== undefined) (waits ??= []).push(wait)
          }
        } catch (e) {
          return refuse(request, e)
        }
        if (waits === undefined) return answer(request)
        return Promise.all(waits).then(
          () => answer(request),
          (e: unknown) => refuse(request, e),
        )
      },
    }
  }

  async #respondWrite(core: RestCore, request: RestRequest): Promise<RestReply> {
    try {
      return await this.write(() => core.respond(request))
    } catch (e) {
      return core.refuse(asClusterError(e))
    }
  }

  /** Stops capturing; pending outside commits are flushed first (one last try). */
  async close(): Promise<void> {
    if (this.#pending.length > 0)
      await this.write(() => undefined).catch((e: Error) => this.#onError(e))
    this.#closed = true
    await this.#gate
    this.#off()
  }
}

/**
 * What a participant's failure answers: its own error when it is one of the interface's (Redis
 * down is SharedStateUnavailable, 9140), else ClusterWriteFailed (9132) with it as the cause.
 */
const asClusterError = (e: unknown): DatastoreError => (DatastoreError.is(e) ? e : failed(e))

/** ClusterWriteFailed (9132) for `cause`, which stays attached. */
function failed(cause: unknown, extra?: string): DatastoreError {
  const why = cause instanceof Error ? cause.message : String(cause)
  return datastoreError('ClusterWriteFailed', [extra ? `${why}; ${extra}` : why], { cause })
}

/**
 * `record`, made on an older state, as if made on the store as it is now: updated entities get
 * the stamp after their current one, the global stamp continues from the store's, sequences never
 * go back. (Its rows are applied as they are: last writer wins.)
 */
export function rebaseRecord(ds: Datastore, record: LogRecord): LogRecord {
  const store = ds.store
  const changes = record.changes.map((c) => {
    if (c.op !== 'update') return c
    const current = store.findTable(c.dataClass)?.recordByKey(c.key)
    return current ? { ...c, stamp: current.stamp + 1 } : c
  })
  const sequences: Record<string, Record<string, number>> = {}
  for (const [name, values] of Object.entries(record.sequences)) {
    const table = store.findTable(name)
    sequences[name] = Object.fromEntries(
      Object.entries(values).map(([attr, v]) => [
        attr,
        Math.max(v, table ? table.peekSequence(attr) - 1 : 0),
      ]),
    )
  }
  const moves = record.kind === 'write' ? record.changes.length : 0
  return { ...record, changes, sequences, globalStamp: store.globalStamp + moves }
}
