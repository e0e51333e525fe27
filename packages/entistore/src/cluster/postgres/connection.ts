/**
 * @module One log's connections to PostgreSQL: its options read, its tables (schema.ts), the pool,
 * transactions on a pooled connection, and a connection of its own for LISTEN. The modules of this
 * folder take it as `db`.
 *
 * A connection whose outcome is in doubt (a COMMIT without a reply, the backend gone) is never
 * given back to the pool: it is destroyed, and with it the transaction and its lock.
 */
import { hostname } from 'node:os'
import pg from 'pg'
import { LOOP_SLICE_TURNS, SLICE_MS, type SliceTurns } from '../../persist/take-slice.js'
import { LogTables } from './schema.js'
import type { PostgresLogOptions } from './types.js'

/** A transaction on one pooled connection. */
export interface LogTransaction {
  readonly client: pg.PoolClient
}

export class LogConnection extends LogTables {
  readonly pool: pg.Pool
  readonly origin: string
  readonly snapshotEvery: number
  readonly rowsPerRecord: number
  readonly catchUpRows: number
  /** How long a snapshot's slice may hold the event loop (snapshots.ts). */
  readonly sliceMs: number
  /** The turns its slices share with the REST replies (the event loop's, or a test's). */
  readonly turns: SliceTurns
  readonly #connection: string | pg.PoolConfig
  // The pooled connections given an 'error' listener already (see `connect`).
  readonly #guarded = new WeakSet<pg.PoolClient>()

  constructor(options: PostgresLogOptions) {
    super(options.schema ?? 'public', options.prefix ?? 'entistore_')
    this.#connection = options.connection
    this.pool = new pg.Pool(poolConfig(options.connection))
    this.origin =
      options.origin ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`
    this.snapshotEvery = options.snapshotEvery ?? 10_000
    this.rowsPerRecord = options.rowsPerRecord ?? 1_000
    this.sliceMs = options.sliceMs ?? SLICE_MS
    this.turns = options.turns ?? LOOP_SLICE_TURNS
    this.catchUpRows = options.catchUpRows ?? 1000
    if (!Number.isSafeInteger(this.catchUpRows) || this.catchUpRows < 1)
      throw new TypeError(`postgres: catchUpRows must be a positive integer: ${this.catchUpRows}`)
  }

  /** A new client outside the pool, for LISTEN (a pooled one would be handed to others). */
  listenerClient(): pg.Client {
    return new pg.Client(poolConfig(this.#connection))
  }

  /** A pooled connection, to give back (`release`) once done. */
  async connect(): Promise<pg.PoolClient> {
    const client = await this.pool.connect()
    // A connection cut while checked out (the backend terminated) is also told as an 'error'
    // event, which would crash the process unheard: the failing query reports it already.
    if (!this.#guarded.has(client)) {
      client.on('error', () => undefined)
      this.#guarded.add(client)
    }
    return client
  }

  /** Runs `fn` in a transaction on a pooled connection; rolls back if it throws. */
  async transaction<T>(fn: (tx: LogTransaction) => Promise<T>, isolation?: string): Promise<T> {
    const tx = await this.begin(isolation)
    try {
      const out = await fn(tx)
      await this.commit(tx)
      return out
    } catch (e) {
      await this.rollback(tx, e)
      throw e
    }
  }

  async begin(isolation?: string): Promise<LogTransaction> {
    const client = await this.connect()
    try {
      await client.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : 'BEGIN')
    } catch (e) {
      client.release(e as Error)
      throw e
    }
    return { client }
  }

  async commit(tx: LogTransaction): Promise<void> {
    try {
      await tx.client.query('COMMIT')
    } catch (e) {
      // The connection is in doubt: it is not given back to the pool.
      tx.client.release(e as Error)
      throw e
    }
    tx.client.release()
  }

  /** Rolls back and lets the connection go (destroyed when `error` says it failed). */
  async rollback(tx: LogTransaction, error?: unknown): Promise<void> {
    try {
      await tx.client.query('ROLLBACK')
      tx.client.release()
    } catch (e) {
      tx.client.release((error ?? e) as Error)
    }
  }

  /** Takes the log's advisory lock until the transaction ends. */
  async lock(client: pg.ClientBase): Promise<void> {
    await client.query(this.lockSql)
  }

  close(): Promise<void> {
    return this.pool.end()
  }
}

/**
 * Whether PostgreSQL answered `e` as a statement's error (severity ERROR): the rest of the text
 * was not run, the connection is usable. A FATAL one ends the connection, possibly after a COMMIT
 * it had done; one without severity is no answer at all (the connection lost). A server whose
 * messages are translated reports another word: taken as no answer, the safe side.
 */
export function refused(e: unknown): boolean {
  return e instanceof pg.DatabaseError && e.severity === 'ERROR'
}

function poolConfig(connection: string | pg.PoolConfig): pg.PoolConfig {
  return typeof connection === 'string' ? { connectionString: connection } : connection
}
