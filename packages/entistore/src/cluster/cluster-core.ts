/**
 * @module Writes of a process that shares its data with others (participant.ts): a per-process
 * write gate, the commits each write makes captured as log records, and the REST interface put
 * behind both (`wrap`). Reads are answered at once, as before (unless a participant says this
 * process cannot vouch for what it holds: `readError`); writes go in *groups*: those that arrive
 * while a group is in flight wait together for the next one (gate/write-queue.ts), which runs
 * (gate/group-run.ts)
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
 * function that writes) are not lost: each is kept pending, appended by the next write or a flush,
 * and rebased on what the others committed meanwhile (gate/outside-commits.ts). Commits made
 * while a write is in flight (during its awaits) belong to that write: appended with it, or
 * undone with it.
 *
 * This class only puts the pieces of gate/ together, each owning its own state; it is the one
 * object the rest of the package sees.
 */
import type { Datastore, DatastoreError } from '@entistore/core'
import type { RestCore, RestReply, RestRequest } from '@entistore/rest'
import { GroupRunner, type GateStatus } from './gate/group-run.js'
import { OutsideCommits } from './gate/outside-commits.js'
import { Participants } from './gate/participants.js'
import { wrapCore, type OneWriter } from './gate/wrap-core.js'
import { WriteQueue, type Placed } from './gate/write-queue.js'
import type { ClusterParticipant } from './participant.js'

export { rebaseRecord } from './gate/rebase-record.js'
export type { OneWriter } from './gate/wrap-core.js'
export type { Placed } from './gate/write-queue.js'

export interface ClusterWritesOptions {
  /** Told of what nothing waits on: a failed flush, an outside write dropped. @default process.emitWarning */
  readonly onError?: (error: Error) => void
  /** How long a failed flush of outside commits waits before trying again. @default 1000 */
  readonly retryMs?: number
  /** Most writes in one group (see `write`). @default 256 */
  readonly maxGroup?: number
}

export class ClusterWrites {
  readonly #participants = new Participants()
  readonly #onError: (error: Error) => void
  readonly #queue: WriteQueue
  readonly #commits: OutsideCommits
  readonly #runner: GroupRunner
  readonly #status: GateStatus = { closed: false, behind: undefined }
  #oneWriter: OneWriter | undefined
  // The wrapped core's entry for writes forwarded here (set by `wrap`).
  #forwardedEntry: ((request: RestRequest, id: string) => Promise<Placed<RestReply>>) | undefined

  constructor(
    ds: Datastore,
    participants: readonly ClusterParticipant[],
    options: ClusterWritesOptions = {},
  ) {
    for (const p of participants) this.add(p)
    this.#onError = options.onError ?? ((e) => process.emitWarning(e))
    const retryMs = options.retryMs ?? 1000
    const maxGroup = options.maxGroup ?? 256
    if (!Number.isSafeInteger(maxGroup) || maxGroup < 1)
      throw new TypeError(`ClusterWrites: maxGroup must be a positive integer: ${maxGroup}`)
    this.#queue = new WriteQueue(maxGroup, (group) => this.#runner.run(group))
    this.#commits = new OutsideCommits(ds, this.#participants, {
      onError: this.#onError,
      retryMs,
      flush: () => this.write(() => undefined),
      isClosed: () => this.#status.closed,
    })
    this.#runner = new GroupRunner(
      ds,
      this.#participants,
      this.#commits,
      this.#status,
      this.#onError,
    )
  }

  /**
   * Lets `participant` take part in the requests and writes from now on, after those already
   * there (a service connected once the data is loaded: Redis after PostgreSQL).
   */
  add(participant: ClusterParticipant): void {
    this.#participants.add(participant)
  }

  /**
   * Why a read may not be answered by this process now (a participant cannot vouch that it holds
   * every acknowledged write), or undefined.
   */
  readError(): DatastoreError | undefined {
    return this.#participants.readError()
  }

  /** Commits made outside a write, not appended yet. */
  get pendingCommits(): number {
    return this.#commits.pendingCount
  }

  /**
   * Marks this process as unable to follow the others (a record it cannot apply): writes are
   * refused with ClusterBehind (9133) from now on; reads still answer what it holds.
   */
  fallBehind(why: string): void {
    this.#status.behind ??= why
  }

  get behind(): string | undefined {
    return this.#status.behind
  }

  /**
   * Runs `fn` alone in this process (no write, no catch-up at the same time). For a participant
   * that applies what others committed: outside commits pending are taken out of memory around
   * it, so that what it applies lands on the state the log describes, then applied again (and
   * flushed at once).
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queue.turn(async () => {
      const lifted = this.#commits.lift()
      try {
        return await fn()
      } finally {
        this.#commits.putBack(lifted, 0)
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
    return this.#queue.enqueue(fn, false)
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
    return this.#queue.maxGroup
  }

  /**
   * Runs `apply` (the application of commits of other processes, in log order) at once when the
   * store holds exactly what the log holds: no group running its writes in memory, no commit made
   * outside a write waiting to be appended. Returns false, without running it, otherwise (then
   * apply in a turn of the gate: `exclusive`). Lets a process apply and acknowledge what the
   * others commit while its own group waits for the log's lock.
   */
  applyNow(apply: () => void): boolean {
    if (this.#runner.writing || this.#commits.pendingCount > 0 || this.#status.closed) return false
    apply()
    return true
  }

  /**
   * `core` behind the gate: a request that writes (RequestNames.writes) is answered as a write;
   * any other at once, as `core` answers it (a read allocates no Promise). What a request names
   * is read once, by REST's own rules, and handed to every participant.
   */
  wrap(core: RestCore, basePath = '/rest'): RestCore {
    const wrapped = wrapCore(core, basePath, {
      participants: this.#participants,
      queue: this.#queue,
      runner: this.#runner,
      oneWriter: () => this.#oneWriter,
    })
    this.#forwardedEntry = wrapped.answerForwarded
    return wrapped.core
  }

  /** Stops capturing; pending outside commits are flushed first (one last try). */
  async close(): Promise<void> {
    if (this.#commits.pendingCount > 0)
      await this.write(() => undefined).catch((e: Error) => this.#onError(e))
    this.#status.closed = true
    await this.#queue.tail
    this.#commits.off()
  }
}
