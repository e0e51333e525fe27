/**
 * @module What many processes serving one datastore share, seen from the REST interface: each
 * process keeps the whole datastore in memory and answers reads from it; the shared services
 * (PostgreSQL for the data, Redis for sessions, locks and entity sets) take part in a request at
 * three moments, around the core's synchronous `respond`:
 *
 * - `beforeRequest`: anything a request names that another process may have made (its session
 *   cookie, an entity set id) is fetched into this process's in-memory stores first;
 * - `beforeWrite`, inside the process's write gate (one write at a time per process, and, with
 *   PostgreSQL, one at a time across processes): catch up with what the others committed and
 *   refresh what a write is checked against (stamps, locks), so that the synchronous write's
 *   checks see the shared truth;
 * - `afterWrite`, still inside the gate, with the log records the write committed in memory:
 *   make them durable and visible to the others. If it rejects, the write is undone in this
 *   process and the client gets 503 (ClusterWriteFailed): nothing half-applied. It may hand back
 *   a wait (`visible`) that the replies wait for outside the gate: PostgreSQL's, until every live
 *   process applied the write (read-your-writes anywhere), while the next group goes on.
 *
 * Writes come in groups (cluster-core.ts): the writes that arrived while the previous group was
 * in flight. `beforeWrite` runs once per group; participants that do not log every commit (Redis)
 * get `afterWrite` after each write of the group, before the next one runs, so that a refusal is
 * that write's alone; those that log every commit (PostgreSQL) get it once, with every record of
 * the group.
 *
 * The core stays synchronous and knows nothing of this: the wrapper (cluster-core.ts) is a
 * RestCore in front of the handler, as chaos.ts is a listener in front of it.
 */
import type { DatastoreError, LogRecord } from '@entistore/core'
import type { RequestNames, RestRequest } from '@entistore/rest'

/**
 * What a forwarded write leaves in the log beside its last record (write-gate/): its id and its
 * reply, so that the write, sent again after a failover, is answered from the log, not run twice.
 */
export interface WriteTag {
  readonly request: string
  /** The reply, as JSON text (write-gate/forwarded.ts's shape without `at`). */
  readonly reply: string
}

/** What a participant's `afterWrite` may hand back: a wait the group's replies are sent after. */
export interface Appended {
  /** The log position of the group's last record, when the participant logs. */
  readonly last?: number
  /**
   * Resolves once the write is visible wherever it may be read (every live process applied it);
   * rejects with the error the group's writes then answer (the write is committed all the same).
   */
  readonly visible: Promise<void>
}

export interface ClusterParticipant {
  /** A name for logs and errors: `postgres`, `redis`. */
  readonly name: string
  /**
   * Before `request` is answered (reads included): fetch what it names that only another process
   * may hold. Undefined when there is nothing to wait for — the common case must not allocate a
   * Promise (a GET by key with a known session stays synchronous). `names` is what the request
   * names, read once by REST's rules (readRequestNames): never read the raw URL again.
   */
  beforeRequest?(request: RestRequest, names: RequestNames): Promise<void> | undefined
  /**
   * Once per group, before anything else of it: what the group's appends are made under is
   * decided here, and holds for every try of it (PostgreSQL: the one writer's term, so that a
   * group begun as the writer is never appended as anything else once the role was lost).
   */
  beginGroup?(): void
  /** Inside the write gate, before the write runs: catch up and refresh. */
  beforeWrite?(): Promise<void>
  /**
   * Inside the write gate, after the write ran in memory, with the records it committed (none
   * when it was refused or changed nothing): make them durable and shared, or reject. Those that
   * log every commit are asked last, since their commit cannot be taken back. Also called
   * with none when this one's beforeWrite went through and a later participant's failed, or when
   * an earlier participant's afterWrite refused (the write is undone): let go of what beforeWrite
   * took.
   */
  afterWrite?(
    records: readonly LogRecord[],
    tags?: ReadonlyMap<number, WriteTag>,
  ): Promise<Appended | void>
  /**
   * Appends a group's records without a `beforeWrite` first, if the log is still where this
   * process last applied it (PostgreSQL: one round trip, the lock held only inside it); 'moved'
   * when another process committed since, and nothing was written: the group is then undone,
   * the participant catches up (`retry`), and the group runs again, a few times at most, then
   * after `beforeWrite`. Offered by a participant that logs every commit; used for the
   * groups whose writes may run twice (plain data writes: `isDataWrite`).
   */
  tryAppend?(
    records: readonly LogRecord[],
    tags?: ReadonlyMap<number, WriteTag>,
  ): Promise<Appended | 'moved' | void>
  /**
   * Called, synchronously, before a group runs in memory (and before each new try), with the store
   * holding exactly what the log holds: apply what is known to be committed and not applied yet.
   */
  beforeRun?(): void
  /**
   * After `tryAppend` said 'moved' and the group was undone: catch up (with what that attempt
   * read), and say whether the group may be tried again with `tryAppend` (true) or must go the
   * careful way, after `beforeWrite` (false).
   */
  retry?(): Promise<boolean>
  /**
   * Whether it keeps every commit (a log: PostgreSQL). Then commits made outside a write (the
   * embedder's TypeScript code) are appended too, in a write of their own; without such a
   * participant (Redis alone) they are left as they are. @default false
   */
  readonly logsEveryCommit?: boolean
  /**
   * After `request` was answered here (its reply settled, or refused): let go of what
   * `beforeRequest` took for it in the shared service and the answer did not keep (a lock claimed
   * in Redis that the core then did not take: the entity was gone, the session refused). Optional.
   */
  afterRequest?(request: RestRequest): void
  /**
   * Why this process may not answer a read now (it cannot vouch that it holds every acknowledged
   * write: fenced, cut off, behind), or undefined. Called for every request that does not write,
   * so it must be cheap and synchronous. The request is answered with the error (503 and
   * `Retry-After`).
   */
  readError?(): DatastoreError | undefined
  /**
   * The log position this process applied up to, from a participant that logs: a forwarded write
   * that committed nothing is answered with it (the forwarding process applies up to it first).
   */
  position?(): number
  /** Stops following the others and lets go of connections (graceful shutdown). */
  close(): Promise<void>
}
