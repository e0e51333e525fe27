/**
 * @module Who writes: one process per datastore, chosen and fenced by PostgreSQL.
 *
 * The writer is the process whose own connection holds a *session* advisory lock (keyed by the
 * tables' schema and prefix). PostgreSQL lets go of it when that connection ends for any reason:
 * the process killed, the machine gone, the backend terminated. Each time a process takes the
 * lock it raises the `term` in a one-row table and writes there where it takes forwarded writes;
 * the other processes read that row to know whom to forward to.
 *
 * Fencing. An old writer may still be running after another took over (it was stopped, or cut
 * off and not yet told): whatever it writes must be refused. Every log append carries the term it
 * was made under and takes a share lock on the term's row in the same statement (`fence`): the
 * new writer's raise of the term takes the row's exclusive lock, so the two are ordered by
 * PostgreSQL. An append is either committed before the raise, or it sees the new term and inserts
 * nothing. No clock, no home-made protocol: the row lock and the advisory lock decide.
 *
 * A stalled writer (SIGSTOP, a long pause) keeps its connection, and with it the advisory lock.
 * So it beats: every `beatMs` it adds one to `beat` in the row, under its term. A process that
 * sees the same (term, beat) for `staleMs` on its own clock terminates the writer's backend
 * (`pg_terminate_backend`, by the pid the writer wrote) — only if the row still shows what it saw,
 * so two watchers do not take turns killing new writers — and takes the lock. The old writer,
 * resumed, finds its connection gone and its term old: it is fenced, and says so (`onFenced`).
 *
 * Time: staleness is measured on the caller's clock (`now`), so tests time-travel; PostgreSQL's
 * clock is never compared with a process's.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** The first half of the writer lock's key ("entw"); the second is the tables' hash. */
const WRITER_LOCK_CLASS = 0x656e7477
/**
 * The lock taken while the writer's table is made ("entc"): not the writer's own, which a writer
 * holds for as long as it lives.
 */
const CREATE_LOCK_CLASS = 0x656e7463

export interface WriterLeaseOptions {
  /** A connection string or pg settings for the lease's own connection (never pooled). */
  readonly connection: string | pg.ClientConfig
  /** `"schema"."prefix"`: the tables' place, as the log's (names checked by the caller). */
  readonly schema: string
  readonly prefix: string
  /** This process, as the log names it. */
  readonly origin: string
  /** Where this process takes forwarded writes when it is the writer (an URL, a socket path). */
  readonly address: string
  /** A writer's beat is due this often. @default 500 */
  readonly beatMs?: number
  /** A writer whose beat has not moved for this long is taken over. @default 2000 */
  readonly staleMs?: number
  /** Milliseconds of a monotonic clock. @default performance.now */
  readonly now?: () => number
  /** Told once when this process stops being the writer: its term was raised, or its connection ended. */
  readonly onFenced?: (reason: string) => void
}

/** The writer as the row shows it. */
export interface WriterRow {
  readonly term: number
  readonly origin: string
  readonly address: string
  /** What a forwarded write must carry: a new one each term. */
  readonly token: string
  readonly beat: number
}

/** What `check` found: this process is (or became) the writer, or another one is. */
export type LeaseState =
  | { readonly role: 'writer'; readonly term: number; readonly token: string }
  | { readonly role: 'follower'; readonly writer: WriterRow | undefined }

export class WriterLease {
  /** `"schema"."prefixwriter"`: the one row naming the writer. */
  readonly table: string
  readonly #options: WriterLeaseOptions
  readonly #lockKey: string
  readonly #tablesLockKey: string
  readonly #now: () => number
  readonly #staleMs: number
  #client: pg.Client | undefined
  #term: number | undefined
  #token = ''
  /** What was last seen of another writer, and when on our clock it last moved. */
  #seen: { term: number; beat: number; since: number } | undefined
  #closed = false

  constructor(options: WriterLeaseOptions) {
    this.#options = options
    this.table = `"${options.schema}"."${options.prefix}writer"`
    const tables = `hashtext(${pg.escapeLiteral(`${options.schema}.${options.prefix}`)})`
    this.#lockKey = `${WRITER_LOCK_CLASS}, ${tables}`
    this.#tablesLockKey = `${CREATE_LOCK_CLASS}, ${tables}`
    this.#now = options.now ?? (() => performance.now())
    this.#staleMs = options.staleMs ?? 2000
  }

  /** The term this process writes under, or undefined when it is not the writer. */
  get term(): number | undefined {
    return this.#term
  }

  /** The token forwarded writes carry to this writer (empty when it is not the writer). */
  get token(): string {
    return this.#term === undefined ? '' : this.#token
  }

  /** Where this process takes forwarded writes (written in the row when it writes). */
  get address(): string {
    return this.#options.address
  }

  get beatMs(): number {
    return this.#options.beatMs ?? 500
  }

  /**
   * Creates the writer's row if absent. Several processes start at once (the workers of one
   * `serve`), and PostgreSQL's CREATE … IF NOT EXISTS is not safe against a concurrent one (a
   * unique violation in its catalog): so under a lock of its own, held for the transaction.
   */
  async ensureTable(): Promise<void> {
    const client = await this.#connection()
    await client.query('BEGIN')
    try {
      await client.query(`SELECT pg_advisory_xact_lock(${this.#tablesLockKey})`)
      await this.#createTable(client)
      await client.query('COMMIT')
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw e
    }
  }

  async #createTable(client: pg.Client): Promise<void> {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.#options.schema}"`)
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         id smallint PRIMARY KEY CHECK (id = 1),
         term bigint NOT NULL,
         origin text NOT NULL,
         address text NOT NULL,
         token text NOT NULL,
         backend integer NOT NULL,
         beat bigint NOT NULL)`,
    )
    await client.query(
      `INSERT INTO ${this.table} VALUES (1, 0, '', '', '', 0, 0) ON CONFLICT (id) DO NOTHING`,
    )
  }

  /**
   * One look, to be called every `beatMs`: the writer beats (or learns it was fenced); another
   * process takes the lock if it is free, or takes over a writer whose beat stopped.
   */
  async check(): Promise<LeaseState> {
    if (this.#closed) throw new Error('WriterLease: closed')
    if (this.#term !== undefined) {
      if (await this.#beat()) return { role: 'writer', term: this.#term, token: this.#token }
      // Fenced: from now on a follower (its connection may be gone; the next look makes one).
    }
    const client = await this.#connection()
    const row = await this.#read(client)
    if (row && row.term > 0 && this.#isStale(row))
      // Only the backend that still holds what was seen: another watcher may have acted first.
      await client.query(
        `SELECT pg_terminate_backend(backend) FROM ${this.table}
          WHERE id = 1 AND term = $1 AND beat = $2 AND backend <> pg_backend_pid()`,
        [row.term, row.beat],
      )
    const term = await this.#acquire(client)
    if (term !== undefined) return { role: 'writer', term, token: this.#token }
    return { role: 'follower', writer: row && row.term > 0 ? row : undefined }
  }

  /** The writer as the table shows it now. */
  async writer(): Promise<WriterRow | undefined> {
    const row = await this.#read(await this.#connection())
    return row && row.term > 0 ? row : undefined
  }

  /**
   * The SQL that makes a statement this writer's: a CTE, `fenced`, that has one row when the
   * term is still `term`, and holds a share lock on it until the statement's transaction ends.
   * An INSERT … SELECT … FROM fenced inserts nothing once another writer took over.
   */
  fence(term: number): string {
    if (!Number.isSafeInteger(term) || term < 1) throw new TypeError(`fence: bad term ${term}`)
    return `fenced AS (SELECT term FROM ${this.table} WHERE id = 1 AND term = ${term} FOR SHARE)`
  }

  /** Lets go of the lock (a graceful stop: another process takes over at its next look). */
  async close(): Promise<void> {
    this.#closed = true
    this.#term = undefined
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => undefined)
  }

  // ---- inside ----

  async #connection(): Promise<pg.Client> {
    if (this.#client) return this.#client
    const client = new pg.Client(
      typeof this.#options.connection === 'string'
        ? { connectionString: this.#options.connection }
        : this.#options.connection,
    )
    // A connection that ends is told as an 'error' or 'end' event: the lock went with it.
    const lost = (why: string) => {
      if (this.#client !== client) return
      this.#client = undefined
      this.#fenced(why)
    }
    client.on('error', (e) => lost(`its connection to PostgreSQL failed: ${e.message}`))
    client.on('end', () => lost('its connection to PostgreSQL ended'))
    this.#client = client
    try {
      await client.connect()
    } catch (e) {
      this.#client = undefined
      throw e
    }
    return client
  }

  async #read(client: pg.Client): Promise<WriterRow | undefined> {
    const result = await client.query<{
      term: string
      origin: string
      address: string
      token: string
      beat: string
    }>(`SELECT term, origin, address, token, beat FROM ${this.table} WHERE id = 1`)
    const r = result.rows[0]
    return r && { ...r, term: Number(r.term), beat: Number(r.beat) }
  }

  /** Whether `row`'s writer has not beaten for `staleMs` of our clock since we first saw it so. */
  #isStale(row: WriterRow): boolean {
    const now = this.#now()
    const seen = this.#seen
    if (!seen || seen.term !== row.term || seen.beat !== row.beat) {
      this.#seen = { term: row.term, beat: row.beat, since: now }
      return false
    }
    return now - seen.since >= this.#staleMs
  }

  /** Takes the lock if free; then raises the term, naming this process. */
  async #acquire(client: pg.Client): Promise<number | undefined> {
    const got = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(${this.#lockKey}) AS locked`,
    )
    if (!got.rows[0]?.locked) return undefined
    const { origin, address } = this.#options
    const token = randomBytes(18).toString('base64url')
    // The row's exclusive lock waits for appends still fenced by the old term (their share locks).
    const raised = await client.query<{ term: string }>(
      `UPDATE ${this.table} SET term = term + 1, origin = $1, address = $2, token = $3,
              backend = pg_backend_pid(), beat = 0
        WHERE id = 1 RETURNING term`,
      [origin, address, token],
    )
    this.#token = token
    this.#term = Number(raised.rows[0]!.term)
    this.#seen = undefined
    return this.#term
  }

  /** The writer's beat; false when it finds itself fenced (told through onFenced). */
  async #beat(): Promise<boolean> {
    const term = this.#term!
    let beaten = false
    try {
      const client = await this.#connection()
      const result = await client.query(
        `UPDATE ${this.table} SET beat = beat + 1 WHERE id = 1 AND term = $1`,
        [term],
      )
      beaten = result.rowCount === 1
    } catch (e) {
      this.#fenced(`its beat failed: ${(e as Error).message}`)
      return false
    }
    if (!beaten) this.#fenced(`another process raised the term past ${term}`)
    return beaten
  }

  #fenced(reason: string): void {
    if (this.#term === undefined) return
    this.#term = undefined
    // The lock, if this connection still holds it, is let go with the connection.
    const client = this.#client
    this.#client = undefined
    void client?.end().catch(() => undefined)
    this.#options.onFenced?.(reason)
  }
}
