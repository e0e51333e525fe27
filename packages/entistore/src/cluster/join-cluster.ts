/**
 * @module `joinCluster(ds, { postgres })`: one of several processes serving one datastore whose
 * data lives in PostgreSQL (docs/durability.md). The datastore, new and empty, is filled from
 * PostgreSQL's snapshot and log (or, when PostgreSQL holds nothing, from `data`, written as the
 * first snapshot); from then on every process keeps the whole datastore in memory and follows the
 * log, and writes go through PostgreSQL one at a time (cluster-core.ts,
 * postgres/postgres-participant.ts).
 */
import type { DataFile, Datastore } from '@entistore/core'
import { unrefSchedule, type RestCore } from '@entistore/rest'
import { ClusterWrites } from './cluster-core.js'
import { importOptional } from './optional-package.js'
import type { ClusterParticipant } from './participant.js'
import type { OneWriterOptions } from './write-gate/one-writer-options.js'
import type {
  LagSummary,
  PostgresLogOptions,
  PostgresPoolConfig,
  PostgresRecovery,
} from './postgres/types.js'

export interface ClusterOptions extends Omit<PostgresLogOptions, 'connection'> {
  /** A connection URL or node-postgres's pool settings (`max`, `ssl`, …). */
  readonly postgres: string | PostgresPoolConfig
  /**
   * What to load when PostgreSQL holds nothing yet (then written as its first snapshot): a data
   * file's content, or a function that loads it. Not used when PostgreSQL holds data.
   */
  readonly data?: DataFile | ((ds: Datastore) => void | Promise<void>)
  /** The safety-net poll of the log, in milliseconds. @default 1000 */
  readonly pollMs?: number
  /**
   * The bound of read-your-writes, in milliseconds (docs/durability.md): a process that cannot
   * follow the log for this long (cut off from PostgreSQL, too slow) stops answering reads (503,
   * 9134) until it has caught up again; a write waits at most about twice this for a process that
   * stopped answering. @default 2000
   */
  readonly maxLagMs?: number
  /** Most writes committed together in one transaction. @default 256 */
  readonly maxGroup?: number
  /** Other shared services taking part in requests and writes (Redis), after PostgreSQL. */
  readonly participants?: readonly ClusterParticipant[]
  /** Told of failures nothing waits on (a lost listener, a failed snapshot). @default process.emitWarning */
  readonly onError?: (error: Error) => void
  /**
   * One writer (docs/durability.md): the process holding PostgreSQL's writer lock runs every
   * request's write, the others forward theirs to it (write-gate/). `false`: each process runs
   * its own writes, taking turns on the log's lock. @default false
   */
  readonly oneWriter?: OneWriterOptions | false
}

export interface Cluster {
  readonly ds: Datastore
  /** What start-up found in PostgreSQL. */
  readonly recovery: PostgresRecovery
  /** The seq of the last log row applied in this process. */
  readonly appliedSeq: number
  /** This process's name in the log's `origin` column. */
  readonly origin: string
  /**
   * With `oneWriter`: whether this process runs the writes now (the others forward theirs to
   * it). Undefined without it.
   */
  readonly writer: boolean | undefined
  /** Commits made outside a write, not appended yet (see cluster-core.ts). */
  readonly pendingCommits: number
  /** Why this process stopped following the log, if it did (writes then answer 503, 9133). */
  readonly behind: string | undefined
  /**
   * Why this process does not answer reads now (503, 9134: fenced, cut off, catching up), or
   * undefined: `/health` answers 503 with it.
   */
  unavailable(): string | undefined
  /** How long records of other processes took to be applied here. */
  lag(): LagSummary
  /**
   * `core` with writes serialized across processes (for serve's `wrapCore`); `basePath` where it
   * is mounted (plain data writes below it are appended in one round trip). @default '/rest'
   */
  wrap(core: RestCore, basePath?: string): RestCore
  /**
   * Adds a shared service connected once the data is loaded (Redis: `connectRedis(ds, url)`): it
   * takes part in requests and writes from now on, and is closed with the cluster.
   */
  share(participant: ClusterParticipant): void
  /**
   * Runs `fn` as a write: caught up with every process first, its commits in PostgreSQL before
   * this resolves; undone, and rejected with ClusterWriteFailed (9132), if they cannot be.
   */
  write<T>(fn: () => T | Promise<T>): Promise<T>
  /** Applies what other processes committed, now (the listener and poll do it anyway). */
  catchUp(): Promise<void>
  /**
   * Writes a snapshot of the store as it is now (after the one being written, if any), a slice at
   * a time while requests are served; false when one as recent was there, or another process was
   * writing one.
   */
  snapshot(): Promise<boolean>
  /** Flushes outside commits, stops following, closes the connections. */
  close(): Promise<void>
}

/**
 * Fills `ds` (new and empty) from PostgreSQL and keeps it in step with every other process on the
 * same database, schema and prefix. Needs the package `pg` (an optional peer dependency): without
 * it, rejects with MissingPackageError (`joinCluster needs the package pg: npm install pg`).
 * @example
 * const ds = createDatastore(model)
 * const cluster = await joinCluster(ds, { postgres: 'postgres://localhost/app', data })
 * await serve(ds, { wrapCore: (core) => cluster.wrap(core) })
 * await cluster.write(() => ds.dataClass('Account').update(1, { balance: 10 }))
 */
export async function joinCluster(ds: Datastore, options: ClusterOptions): Promise<Cluster> {
  if (ds.dataClasses.some((dc) => dc.length > 0))
    throw new TypeError(
      'joinCluster: the datastore must be empty (its data comes from PostgreSQL, or from `data` on the first start)',
    )
  const onError = options.onError ?? ((e: Error) => process.emitWarning(e))
  const {
    postgres,
    data,
    pollMs,
    maxLagMs,
    maxGroup,
    participants: given = [],
    oneWriter,
    ...logOptions
  } = options
  const participants = [...given]
  // pg is loaded here, with the modules that use it, and not when entistore is imported.
  const [{ PostgresLog }, { PostgresParticipant }, { startOneWriter }] = await importOptional({
    name: 'pg',
    neededBy: 'joinCluster',
    load: () =>
      Promise.all([
        import('./postgres/postgres-log.js'),
        import('./postgres/postgres-participant.js'),
        import('./write-gate/one-writer.js'),
      ]),
  })
  const log = new PostgresLog({ ...logOptions, connection: postgres })
  // An idle pooled connection that breaks (PostgreSQL restarted) must not crash the process.
  log.pool.on('error', (e) => onError(e))
  try {
    await log.ensureSchema()
    const initial =
      data === undefined
        ? undefined
        : typeof data === 'function'
          ? data
          : (d: Datastore) => void d.loadData(data)
    const { applied, ...recovery } = await log.load(ds, initial)
    const pg = new PostgresParticipant(log, ds, applied, recovery.snapshotSeq, {
      onError,
      ...(pollMs === undefined ? {} : { pollMs }),
      ...(maxLagMs === undefined ? {} : { leaseMs: maxLagMs }),
      everyWriter: !oneWriter,
    })
    const writes = new ClusterWrites(ds, [pg, ...participants], {
      onError,
      ...(maxGroup === undefined ? {} : { maxGroup }),
    })
    await pg.follow(writes)
    const one = oneWriter
      ? await startOneWriter(
          {
            connection: postgres,
            schema: logOptions.schema ?? 'public',
            prefix: logOptions.prefix ?? 'entistore_',
            origin: log.origin,
            schedule: unrefSchedule,
            now: () => performance.now(),
            onError,
            catchUp: () => pg.catchUp(),
            applied: (at) => pg.waitApplied(at),
            loggedReplies: (limit) => pg.loggedReplies(limit),
            writeUnder: (fence) => pg.writeUnder(fence),
            answerForwarded: (request, id) => writes.answerForwarded(request, id),
          },
          oneWriter,
        ).catch(async (e: unknown) => {
          // Following stops too: the log's pool is closed below.
          await writes.close().catch(() => undefined)
          await pg.close().catch(() => undefined)
          throw e
        })
      : undefined
    if (one) writes.oneWriter(one)
    return {
      ds,
      recovery,
      origin: log.origin,
      get appliedSeq() {
        return pg.applied
      },
      get writer() {
        return one?.isWriter
      },
      get pendingCommits() {
        return writes.pendingCommits
      },
      get behind() {
        return writes.behind
      },
      unavailable: () => pg.unavailable(),
      lag: () => pg.lag(),
      wrap: (core, basePath) => writes.wrap(core, basePath),
      share: (participant) => {
        participants.push(participant)
        writes.add(participant)
      },
      write: (fn) => writes.write(fn),
      catchUp: () => pg.catchUp(),
      snapshot: () => pg.snapshot(),
      close: async () => {
        await one?.close()
        await writes.close()
        await pg.close()
        for (const p of participants) await p.close()
        await log.close()
      },
    }
  } catch (e) {
    await log.close().catch(() => undefined)
    throw e
  }
}
