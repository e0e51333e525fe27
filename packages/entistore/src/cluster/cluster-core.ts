/**
 * @module Writes of a process that shares its data with others (participant.ts): a per-process
 * write gate, the commits each write makes captured as log records, and the REST interface put
 * behind both (`wrap`). Reads are answered at once, as before (unless a participant says this
 * process cannot vouch for what it holds: `readError`); writes go in *groups*: those that arrive
 * while a group is in flight wait together for the next one, which runs
 *
 *   participants' beforeWrite, once (PostgreSQL: its transaction, the log's lock, catch up)
 *   → each write in turn, in memory (its commits captured by a commit listener), settled alone
 *     by the participants that do not log (Redis: its lock writes, no conflict): a write refused
 *     (a stale stamp, a lock) is refused alone, as if it had been by itself
 *   → afterWrite(every record of the group) of those that log every commit (PostgreSQL: one
 *     multi-row append, notify, commit)
 *   → the gate is let go (the next group starts), and every reply is sent once the group is
 *     visible everywhere (PostgreSQL: every live process applied it).
 *
 * The log's commit comes last because it cannot be taken back: a participant refusing after it
 * would leave this process undoing in memory a write every other process applies.
 *
 * If the log's afterWrite rejects, the group's commits are undone in memory (the core's
 * revertCommits) and each of its clients gets 503 (ClusterWriteFailed): nothing is left
 * half-applied in this process.
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
  readRequestNames,
  type RequestNames,
  type RestCore,
  type RestReply,
  type RestRequest,
  withRespond,
} from '@entistore/rest'
import type { ClusterParticipant, WriteTag } from './participant.js'
import { loggedReply, wholeReply } from './write-gate/forwarded.js'

/** How many times a group of data writes is tried in one round trip before the careful way. */
const MAX_TRIES = 3

/** A write waiting for its group. */
interface QueuedWrite {
  readonly fn: () => unknown
  /** Whether it may run twice (undone in between): a plain data write. */
  readonly again: boolean
  /**
   * A forwarded write's id and its reply's text (made from its value): left in the log beside its
   * last record, and its value resolved with the log position that holds it (`Placed`).
   */
  readonly tag?: { readonly id: string; readonly text: (value: unknown) => string }
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

type Outcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown }

/** A tagged write's value, and the log position it is at (the group's last, or what was applied). */
export interface Placed<T> {
  readonly value: T
  readonly at: number
}

/**
 * The one-writer scheme (write-gate/), as the gate sees it: whether this process runs writes,
 * and how a write goes to the process that does.
 */
export interface OneWriter {
  readonly isWriter: boolean
  forward(request: RestRequest): Promise<RestReply>
}

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
  /** Most writes in one group (see `write`). @default 256 */
  readonly maxGroup?: number
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
  readonly #maxGroup: number
  readonly #off: () => void
  // Writes waiting for the next group, and whether a turn of the gate is queued for them.
  readonly #queue: QueuedWrite[] = []
  #groupQueued = false
  // From a group's first write in memory to its log's commit (or its undoing).
  #writing = false
  // While a group tried without the log's lock is in memory and not yet in the log: it may be
  // undone (the log moved), so reads wait for it. A read of it could give a client a value and a
  // stamp that the log never holds; the stamp a retried write of another process takes next is
  // the same number, and that client's next update would then pass its stamp check on a value it
  // never read (lost updates, seen as transfers between accounts that change their sum).
  #speculative: Promise<void> | undefined
  #speculated: () => void = () => undefined
  // Those that say when a read may not be answered here (PostgreSQL: fenced, cut off).
  #guards: ClusterParticipant[] = []
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
  #oneWriter: OneWriter | undefined
  // The wrapped core's entry for writes forwarded here (set by `wrap`).
  #forwardedEntry: ((request: RestRequest, id: string) => Promise<Placed<RestReply>>) | undefined

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
    this.#maxGroup = options.maxGroup ?? 256
    if (!Number.isSafeInteger(this.#maxGroup) || this.#maxGroup < 1)
      throw new TypeError(`ClusterWrites: maxGroup must be a positive integer: ${this.#maxGroup}`)
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
    if (participant.readError) this.#guards = [...this.#guards, participant]
  }

  /**
   * Why a read may not be answered by this process now (a participant cannot vouch that it holds
   * every acknowledged write), or undefined.
   */
  readError(): DatastoreError | undefined {
    for (const p of this.#guards) {
      const error = p.readError!()
      if (error !== undefined) return error
    }
    return undefined
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
   * (afterWrite) and visible wherever they may be read before this resolves. If they cannot be
   * appended, they are undone and this rejects with ClusterWriteFailed (9132); if `fn` throws,
   * whatever it committed before is appended all the same, and its error is thrown.
   *
   * Writes that arrive while a group is in flight form the next group: one beforeWrite, each
   * write run in order (checked as if alone: a stale stamp is refused alone), one afterWrite
   * with every record, then every reply.
   * @example await cluster.write(() => ds.dataClass('Account').update(1, { balance: 10 }))
   */
  write<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.#enqueue(fn, false)
  }

  #enqueue<T>(fn: () => T | Promise<T>, again: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, again, resolve: resolve as (value: unknown) => void, reject })
      this.#scheduleGroup()
    })
  }

  /** A write whose id and reply go into the log with it; resolves with where it is in the log. */
  #enqueueTagged<T>(
    fn: () => T | Promise<T>,
    again: boolean,
    tag: NonNullable<QueuedWrite['tag']>,
  ): Promise<Placed<T>> {
    return new Promise<Placed<T>>((resolve, reject) => {
      this.#queue.push({ fn, again, tag, resolve: resolve as (value: unknown) => void, reject })
      this.#scheduleGroup()
    })
  }

  /**
   * Takes part in the one-writer scheme (write-gate/): from now on, while `writer.isWriter` is
   * false, a request that writes is forwarded (`writer.forward`) instead of run here.
   */
  oneWriter(writer: OneWriter): void {
    this.#oneWriter = writer
  }

  /**
   * Answers a write forwarded to this process (the writer), as the wrapped core answers one of
   * its own clients' writes, its id and reply logged with it. Needs `wrap` to have been called.
   */
  answerForwarded(request: RestRequest, id: string): Promise<Placed<RestReply>> {
    if (!this.#forwardedEntry)
      throw new Error('ClusterWrites: wrap a core before answering forwarded writes')
    return this.#forwardedEntry(request, id)
  }

  /** Most writes in one group. */
  get maxGroup(): number {
    return this.#maxGroup
  }

  #turn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#gate.then(fn)
    this.#gate = run.catch(() => undefined)
    return run
  }

  /** A turn of the gate for the writes queued by the time it starts (one is queued at most). */
  #scheduleGroup(): void {
    if (this.#groupQueued) return
    this.#groupQueued = true
    void this.#turn(async () => {
      this.#groupQueued = false
      const group = this.#queue.splice(0, this.#maxGroup)
      if (this.#queue.length > 0) this.#scheduleGroup()
      const settle = await this.#group(group)
      // The gate is let go here: the next group runs while this one's replies wait to be visible.
      void settle()
    })
  }

  /**
   * Runs `apply` (the application of commits of other processes, in log order) at once when the
   * store holds exactly what the log holds: no group running its writes in memory, no commit made
   * outside a write waiting to be appended. Returns false, without running it, otherwise (then
   * apply in a turn of the gate: `exclusive`). Lets a process apply and acknowledge what the
   * others commit while its own group waits for the log's lock.
   */
  applyNow(apply: () => void): boolean {
    if (this.#writing || this.#pending.length > 0 || this.#closed) return false
    apply()
    return true
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
  async #group(group: readonly QueuedWrite[]): Promise<() => Promise<void>> {
    const refuseAll = (e: unknown) => async () => {
      const error = asClusterError(e)
      for (const w of group) w.reject(error)
    }
    if (this.#closed) return refuseAll(new Error('the cluster is closed'))
    if (this.#behind !== undefined)
      return refuseAll(datastoreError('ClusterBehind', [this.#behind]))
    const local = this.#participants.filter((p) => !p.logsEveryCommit)
    const logging = this.#participants.filter((p) => p.logsEveryCommit)
    let optimistic =
      logging.length === 1 && logging[0]!.tryAppend !== undefined && group.every((w) => w.again)
    for (const p of logging) p.beginGroup?.()
    const lifted = this.#lift()
    const began: ClusterParticipant[] = []
    const begin = async (ps: readonly ClusterParticipant[]) => {
      for (const p of ps) {
        await p.beforeWrite?.()
        began.push(p)
      }
      if (this.#behind !== undefined) throw datastoreError('ClusterBehind', [this.#behind])
    }
    try {
      // Those that log every commit last: PostgreSQL's lock, which every process's writes wait
      // on, is taken once the others (a Redis round trip) are done.
      await begin(optimistic ? local : [...local, ...logging])
    } catch (e) {
      // Those whose beforeWrite went through let go of what it took (PostgreSQL: its transaction
      // and the log's lock, which every process's writes would wait on): nothing was written.
      for (const p of began) await p.afterWrite?.([]).catch(() => undefined)
      this.#putBack(lifted)
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
        const { all, outcomes, tags } = await this.#runGroup(group, lifted, local)
        // Commits from here on (during the awaits) are outside ones: pending, flushed next.
        this.#capture = undefined
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
          return this.#settle(group, outcomes, waits, last ?? this.#position())
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
          this.#putBack(lifted)
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
  async #runGroup(
    group: readonly QueuedWrite[],
    lifted: { commits: Commit[] },
    local: readonly ClusterParticipant[],
  ): Promise<{ all: Commit[]; outcomes: Outcome[]; tags: Map<number, WriteTag> }> {
    // Every commit of the group, in order (to undo them all), and the outcome of each write.
    const all: Commit[] = []
    const outcomes: Outcome[] = []
    // By index into `all`: the forwarded writes' ids and replies, beside their last commit.
    const tags = new Map<number, WriteTag>()
    this.#capture = all
    this.#reapply(lifted, all)
    for (const w of group) {
      const point = revertPoint(this.#ds.store)
      const captured: Commit[] = []
      this.#capture = captured
      let outcome: Outcome
      try {
        outcome = { ok: true, value: await w.fn() }
      } catch (error) {
        outcome = { ok: false, error }
      }
      this.#capture = undefined
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
        this.#point = revertPoint(this.#ds.store)
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

  /** The log position this process applied up to (0 without a log). */
  #position(): number {
    for (const p of this.#participants) if (p.position) return p.position()
    return 0
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
  #undo(all: readonly Commit[], start: RevertPoint, keep?: { commits: Commit[] }): void {
    const later = this.#lift()
    revertCommits(
      this.#ds.store,
      all.map((c) => c.changes),
      start,
    )
    this.#point = revertPoint(this.#ds.store)
    if (keep) keep.commits.push(...later.commits)
    else this.#putBack(later)
  }

  /** What settles a group's writes once it is visible everywhere (see `#group`). */
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
   * `core` behind the gate: a request that writes (RequestNames.writes) is answered as a write;
   * any other at once, as `core` answers it (a read allocates no Promise). What a request names
   * is read once, by REST's own rules, and handed to every participant.
   */
  wrap(core: RestCore, basePath = '/rest'): RestCore {
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
    const answer = (request: RestRequest, names: RequestNames): RestReply | Promise<RestReply> => {
      if (names.writes) {
        const writer = this.#oneWriter
        if (writer && !writer.isWriter) {
          // A process that cannot vouch for what it holds (cut off, behind) could not apply the
          // write's reply before answering: refused before it is sent, so it is never applied.
          const unreadable = this.#guards.length === 0 ? undefined : this.readError()
          if (unreadable) return done(request, core.refuse(unreadable))
          return done(request, this.#forward(core, writer, request))
        }
        return done(request, this.#respondWrite(core, request, names.dataWrite))
      }
      // Not while a group that may yet be undone is in memory (see #speculative); again after it,
      // since the next group may have begun by then.
      if (this.#speculative !== undefined)
        return this.#speculative.then(() => answer(request, names))
      // A read is answered here only while this process holds every acknowledged write.
      const unreadable = this.#guards.length === 0 ? undefined : this.readError()
      return done(request, unreadable ? core.refuse(unreadable) : core.respond(request))
    }
    const refuse = (request: RestRequest, e: unknown) =>
      done(request, core.refuse(asClusterError(e)))
    // A write forwarded here: prepared as any request, run in a group, its reply made whole there
    // (it travels, and is logged) and its id and reply logged with it.
    this.#forwardedEntry = async (request, id) => {
      const names = readRequestNames(request, basePath)
      try {
        await this.#prepare(request, names)
        const placed = await this.#enqueueTagged(
          () => wholeReply(core.respond(request)),
          names.dataWrite,
          { id, text: (reply) => loggedReply(reply as RestReply) },
        )
        return { value: await done(request, placed.value), at: placed.at }
      } catch (e) {
        return { value: await refuse(request, e), at: this.#position() }
      }
    }
    return withRespond(core, (request) => {
      const names = readRequestNames(request, basePath)
      let prepared: Promise<void> | undefined
      try {
        prepared = this.#prepare(request, names)
      } catch (e) {
        return refuse(request, e)
      }
      if (prepared === undefined) return answer(request, names)
      return prepared.then(
        () => answer(request, names),
        (e: unknown) => refuse(request, e),
      )
    })
  }

  /** The participants' beforeRequest, together: undefined when none has anything to wait for. */
  #prepare(request: RestRequest, names: RequestNames): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined
    for (const p of this.#before) {
      const wait = p.beforeRequest!(request, names)
      if (wait !== undefined) (waits ??= []).push(wait)
    }
    return waits && Promise.all(waits).then(() => undefined)
  }

  async #respondWrite(core: RestCore, request: RestRequest, again: boolean): Promise<RestReply> {
    try {
      return await this.#enqueue(() => core.respond(request), again)
    } catch (e) {
      return core.refuse(asClusterError(e))
    }
  }

  async #forward(core: RestCore, writer: OneWriter, request: RestRequest): Promise<RestReply> {
    try {
      return await writer.forward(request)
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
  return datastoreError('ClusterWriteFailed', [extra ? `${why}; ${extra}` : why], {
    cause,
    details: { retryAfter: 1 },
  })
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
