/**
 * @module Many processes over HTTP (issue 29's measures): real `entistore serve` children (the built
 * CLI) side by side in one run, each under the same 16 clients, in one table:
 *
 * - **Writes**: each client creates an Item, then updates it with the `__STAMP` the create
 *   answered, again and again, on a keep-alive connection of its own (autocannon: http-load.ts's
 *   `sequence`), with a session cookie of its own, as a 4D client keeps it. Writes/s count both
 *   (2xx only), p50 / p99 are of every write. Their price in CPU: the user + system time of all
 *   the server's processes (processes.ts's `treeCpuMs`) over its rounds, per acknowledged write:
 *   on 2 shared cores, writes/s of several processes say how they fared against each other and
 *   PostgreSQL, Redis and the generator; CPU a write says what each write costs. Then the same with a new connection for every
 *   request (each may reach another worker, as behind a load balancer): node:http clients, a heavier
 *   generator than autocannon, so compare that column within itself.
 * - **Reads**: GET `/rest/Item(k)` by random key and a `$filter` on an indexed attribute (5 of the
 *   1,000 Items), before any write, on the in-memory process, one process on PostgreSQL and Redis,
 *   and `--workers 2` on both.
 * - **Lag**: two `serve --postgres --redis` processes on one database, a write through A, B read
 *   until it shows it (bench/replication-lag.ts: after A's 200, and from the send).
 * - **Reads through a follower**: then GET by key through each of those two, the writer (the one
 *   whose `/health` says `writer: true`) against the follower.
 * - **PostgreSQL alone**, the floor under every PostgreSQL row: 16 `pg` clients on the same server
 *   (same settings), no Entistore, no HTTP, each inserting one ≈200-byte row into a scratch table
 *   per transaction (autocommit), for as long as each server's write rounds; then the same rows
 *   group-committed by one writer loop (see `postgresAlone`).
 *
 * The servers: (a) one process in memory; (b) `--persist` (the journal, fsync per commit);
 * (c) `--postgres`; (c′) `--postgres --redis`; (d) `--workers 2 --postgres --redis`;
 * (e) `--workers 3 --postgres --redis`. PostgreSQL is the tests' throwaway server started with
 * its default durability (`durable: true`: fsync, synchronous_commit and full_page_writes on, as
 * users run it); each server has a database and a Redis of its own. All of them run during the
 * whole suite, and the load rounds alternate between them (http-load.ts), so that a drift of the
 * shared machine hits every row alike; the load average is printed before and after.
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type autocannon from 'autocannon'
import pg from 'pg'
import {
  postgresSkip,
  startPostgres,
} from '../../packages/entistore/src/cluster/postgres-server.fixture.ts'
import {
  redisMissing,
  startRedis,
  type RedisServer,
} from '../../packages/entistore/src/cluster/redis-server.fixture.ts'
import { prng } from '../data.ts'
import { compareLoad, quantile, type LoadOptions, type LoadResult } from '../http-load.ts'
import { GROUPS, itemFiles } from '../items.ts'
import { startNode, treeCpuMs, type Child } from '../processes.ts'
import {
  httpClient,
  LAG_ALIGN,
  LAG_HEADERS,
  lagRows,
  measureLag,
  type HttpClient,
  type Lag,
} from '../replication-lag.ts'
import { count, ms, ratio, table } from '../report.ts'
import { sessionCookies } from '../session-cookies.ts'
import { ENTISTORE, ORIGIN } from './http.bench.ts'
import { JSON_HEADERS, randomItem, UPDATE_PATH } from './writes.bench.ts'

/** Items of the data file every server starts from. */
const ITEMS = 1000

export type ServerId =
  'memory' | 'journal' | 'postgres' | 'postgres-redis' | 'workers-2' | 'workers-3'

interface ServerSpec {
  readonly id: ServerId
  readonly label: string
  readonly workers: number
  readonly persist?: true
  readonly postgres?: true
  readonly redis?: true
  /** Measured for reads too. */
  readonly reads?: true
  /** Started with `--health-details`: its `/health` says whether it is the writer. */
  readonly health?: true
}

export const SERVERS: readonly ServerSpec[] = [
  { id: 'memory', label: '(a) one process, in memory', workers: 1, reads: true },
  {
    id: 'journal',
    label: '(b) one process, --persist (fsync per commit)',
    workers: 1,
    persist: true,
  },
  { id: 'postgres', label: '(c) one process, --postgres', workers: 1, postgres: true },
  {
    id: 'postgres-redis',
    label: '(c′) one process, --postgres --redis',
    workers: 1,
    postgres: true,
    redis: true,
    reads: true,
    health: true,
  },
  {
    id: 'workers-2',
    label: '(d) --workers 2 --postgres --redis',
    workers: 2,
    postgres: true,
    redis: true,
    reads: true,
  },
  {
    id: 'workers-3',
    label: '(e) --workers 3 --postgres --redis',
    workers: 3,
    postgres: true,
    redis: true,
  },
]

/** The ready line of `--workers N`, once every worker listens: it names the shared port. */
const WORKERS_READY = /^Workers: \d+ processes share port (\d+)/

export interface ClusterHttpOptions {
  /** The keep-alive rounds of writes and reads (16 connections: one per client). */
  readonly load: LoadOptions
  /**
   * The writes' warm-up per server, in seconds: longer than the reads', since each process of
   * `--workers 3` sees a third of the writes and compiles its write path as slowly (measured
   * 2026-11-28: with 1 s, three workers' CPU a write was 3.3-4× one process's, at steady state
   * 2.7-2.9×). What is priced is a server's cost once it runs, not its first seconds.
   */
  readonly writeWarmupSeconds: number
  /** Seconds of writes on fresh connections per server; 0 leaves that column out. */
  readonly freshSeconds: number
  /** Writes timed between two processes, in each of the lag's two passes. */
  readonly lagSamples: number
  readonly startupTimeoutMs: number
}

/** Writes on a new connection for every request: 2xx per second, latencies of every write. */
export interface FreshResult {
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly ok: number
  readonly failed: number
}

export interface ServerResult {
  readonly id: ServerId
  readonly label: string
  readonly writes: LoadResult
  readonly fresh?: FreshResult
  readonly get?: LoadResult
  readonly filter?: LoadResult
}

/** Writes of PostgreSQL alone (`postgresAlone`): rows committed per second, latencies of each. */
export interface AloneResult {
  readonly label: string
  readonly rps: number
  readonly p50: number
  readonly p99: number
  /** Rows committed in the timed rounds, and the commits (transactions) that held them. */
  readonly ok: number
  readonly commits: number
}

/** GET by key through the writer and a follower of one database (the lag's two processes). */
export interface FollowerReads {
  /** Whether `/health` named the writer (else A, started first, is taken for it). */
  readonly known: boolean
  readonly writer: LoadResult
  readonly follower: LoadResult
}

/** A line of the goals: measure, server, measured (a ratio and its base, or ms), goal, verdict. */
export type Goal = [string, string, string, string, 'PASS' | 'MISS' | 'PASS, stretch too']

export interface ClusterHttpResults {
  readonly servers: readonly ServerResult[]
  /** PostgreSQL alone: one row a commit, then batched. */
  readonly alone: readonly [AloneResult, AloneResult]
  readonly followerReads: FollowerReads
  readonly lag: Lag
  readonly goals: readonly Goal[]
  /** The 1-minute load average before and after the suite (`uptime`'s first figure). */
  readonly loadBefore: number
  readonly loadAfter: number
  /** PostgreSQL's version and durability settings, as it answers `SHOW`. */
  readonly postgres: string
  /** The disk's flush: 4 KiB appended and fdatasync'ed, sorted samples in ms (see flushTimes). */
  readonly flush: Float64Array
}

interface Running {
  readonly spec: ServerSpec
  readonly origin: string
  /** Its process (the primary of `--workers N`, whose workers descend from it). */
  readonly pid: number
  /** A session cookie (`name=value`) for each connection of the load. */
  readonly cookies: readonly { cookie: string }[]
  /** What `--postgres` and `--redis` it was given (the lag's second process joins them). */
  readonly postgres?: string
  readonly redis?: string
}

/** The context of one connection's sequence: the Item its create answered. */
interface Created {
  key?: string
  stamp?: number
}

/** A create, then an update of what it created with the stamp it answered (see the module note). */
export function writeSequence(random: () => number): autocannon.Request[] {
  let price = 0
  return [
    {
      method: 'POST',
      path: UPDATE_PATH,
      headers: JSON_HEADERS,
      body: JSON.stringify(randomItem(random)),
      onResponse: (status, body, context) => {
        if (status !== 200) return
        const reply = JSON.parse(body) as { __KEY: string; __STAMP: number }
        Object.assign(context, { key: reply.__KEY, stamp: reply.__STAMP } satisfies Created)
      },
    },
    {
      method: 'POST',
      path: UPDATE_PATH,
      headers: JSON_HEADERS,
      // Without a created Item (a failed create, counted), autocannon starts the cycle again.
      setupRequest: (request, context) => {
        const { key, stamp } = context as Created
        if (key === undefined) return undefined as unknown as autocannon.Request
        return { ...request, body: JSON.stringify({ __KEY: key, __STAMP: stamp, price: ++price }) }
      },
    },
  ]
}

/** `clients` clients writing as `writeSequence`, each request on a new connection. */
async function freshWrites(s: Running, seconds: number): Promise<FreshResult> {
  const latencies: number[] = []
  let failed = 0
  const timed = async (send: () => Promise<{ status: number; body: any }>) => {
    const t0 = performance.now()
    const reply = await send()
    if (reply.status === 200) latencies.push(performance.now() - t0)
    else failed++
    return reply
  }
  const t0 = performance.now()
  const until = t0 + seconds * 1000
  await Promise.all(
    s.cookies.map(async ({ cookie }, c) => {
      const client = httpClient(s.origin, { fresh: true, cookie })
      const random = prng(1000 + c)
      for (let price = 1; performance.now() < until; price++) {
        const created = await timed(() => client.send('POST', UPDATE_PATH, randomItem(random)))
        if (created.status !== 200) continue
        const { __KEY, __STAMP } = created.body as { __KEY: string; __STAMP: number }
        await timed(() => client.send('POST', UPDATE_PATH, { __KEY, __STAMP, price }))
      }
    }),
  )
  const elapsed = (performance.now() - t0) / 1000
  const sorted = Float64Array.from(latencies).sort()
  return {
    rps: latencies.length / elapsed,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    ok: latencies.length,
    failed,
  }
}

/** `rps (× a) · p50 / p99 ms`, the cell of one measure. */
function cell(x: { rps: number; p50: number; p99: number } | undefined, base: number): string {
  if (x === undefined) return '—'
  return `${count(Math.round(x.rps))} (${ratio(x.rps / base)}) · ${ms(x.p50)} / ${ms(x.p99)} ms`
}

/** Milliseconds of CPU of all the server's Entistore processes per acknowledged (2xx) write. */
export function cpuPerWrite(x: LoadResult): number {
  return x.cpuMs === undefined || x.ok === 0 ? NaN : x.cpuMs / x.ok
}

const GOALS = {
  writes: { min: 0.5, stretch: 1, label: '≥ 0.5× (a) (stretch 1.0×)' },
  reads: { min: 0.9, label: '≥ 0.9× (a): read-your-writes costs reads ≤ 10 %' },
  // Issue 48's.
  postgres: { min: 0.5, label: '≥ 0.5× (a)' },
  workers: { min: 1, stretch: 0.5, label: '≥ 1.0× (c) (stretch ≥ 0.5× (a))' },
  p99: { max: 20, label: '≤ 20 ms' },
  follower: { min: 0.9, label: '≥ 0.9× the writer' },
  // Issue 65's: on 2 shared cores wall-clock speed says how the processes fared against each
  // other and PostgreSQL, Redis and the load generator; CPU a write says what a write costs.
  cpu: { max: 1.5, label: '≤ 1.5× (c)' },
}

/**
 * The disk's flush, timed: 4 KiB appended to a file in `dir` and `fdatasync`ed, `n` times (sorted,
 * ms), as a journal or a WAL appends. A writer that waits for one flush per commit, one commit at
 * a time, does at most 1000 / p50 a second: the ceiling of the journal's and PostgreSQL's rows
 * until commits go in groups.
 */
function flushTimes(dir: string, n: number): Float64Array {
  const fd = openSync(join(dir, 'flush'), 'w')
  const block = Buffer.alloc(4096, 1)
  const times = new Float64Array(n)
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now()
      writeSync(fd, block, 0, block.length, i * block.length)
      fdatasyncSync(fd)
      times[i] = performance.now() - t0
    }
  } finally {
    closeSync(fd)
  }
  return times.sort()
}

/** Rows of PostgreSQL alone: one a commit, then group-committed. */
export const ALONE_LABELS = [
  'PostgreSQL alone: 16 clients, one row a commit',
  'PostgreSQL alone: 16 clients, batched (group commit)',
] as const

/** A ≈200-byte row body: a JSON text like an Item's log record. */
function aloneRow(client: number, n: number): string {
  const head = JSON.stringify({ client, n, at: Date.now(), pad: '' })
  return head.replace('"pad":""', `"pad":"${'x'.repeat(Math.max(0, 200 - head.length))}"`)
}

/**
 * PostgreSQL alone, on database `url` of the suite's server: `clients` connections (node `pg`),
 * each inserting one ≈200-byte row into a scratch table and waiting for it, again and again;
 * rows committed per second and the latency of each row, from the client's send to its commit.
 *
 * - **one row a commit**: each client sends `INSERT … VALUES ($1)` on its own connection, in
 *   autocommit: one transaction, so one WAL flush (fsync on), per row.
 * - **batched**: a group commit as issue 48's writer makes it. The clients send no SQL: each hands
 *   its row to one writer loop on one connection of its own and waits for its commit. The writer
 *   takes every row that arrived while its previous commit ran and inserts them all in one
 *   statement (`INSERT … SELECT unnest($1::text[])`, autocommit: one transaction, one flush), then
 *   answers each of them. Each client has one row in flight, so a commit holds at most `clients`
 *   rows; the rows themselves are those of the first mode.
 *
 * A warm-up of `o.warmupSeconds` each, then `o.rounds` timed rounds of `o.seconds` each, the two
 * modes taking turns: as long as each server's keep-alive write rounds.
 */
async function postgresAlone(
  url: string,
  o: Pick<LoadOptions, 'connections' | 'seconds' | 'rounds' | 'warmupSeconds'>,
): Promise<[AloneResult, AloneResult]> {
  const connect = async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    return client
  }
  const clients = await Promise.all(Array.from({ length: o.connections }, connect))
  const writer = await connect()
  try {
    await writer.query(
      'CREATE TABLE alone (id bigserial PRIMARY KEY, body text NOT NULL, at timestamptz NOT NULL DEFAULT now())',
    )
    let n = 0
    const one = (c: number) =>
      clients[c]!.query({
        name: 'alone-one',
        text: 'INSERT INTO alone (body) VALUES ($1)',
        values: [aloneRow(c, ++n)],
      })
    // The group commit's writer loop (see above): `pending` are the rows handed to it.
    let pending: { body: string; done: () => void; failed: (e: unknown) => void }[] = []
    let wake: (() => void) | undefined
    let commits = 0
    const batched = (c: number) =>
      new Promise<void>((done, failed) => {
        pending.push({ body: aloneRow(c, ++n), done, failed })
        wake?.()
      })
    const writerLoop = async (until: () => boolean) => {
      while (!until() || pending.length > 0) {
        if (pending.length === 0) {
          await new Promise<void>((r) => {
            wake = r
            setTimeout(r, 5)
          })
          wake = undefined
          continue
        }
        const group = pending
        pending = []
        try {
          await writer.query({
            name: 'alone-many',
            text: 'INSERT INTO alone (body) SELECT unnest($1::text[])',
            values: [group.map((g) => g.body)],
          })
          commits++
          for (const g of group) g.done()
        } catch (e) {
          for (const g of group) g.failed(e)
        }
      }
    }
    const acc = [0, 1].map(() => ({ latencies: [] as number[], seconds: 0, commits: 0 }))
    const drive = async (mode: 0 | 1, seconds: number, timed: boolean) => {
      const t0 = performance.now()
      const until = t0 + seconds * 1000
      const committed = commits
      let stopped = false
      const loop = mode === 1 ? writerLoop(() => stopped) : Promise.resolve()
      const latencies: number[] = []
      await Promise.all(
        clients.map(async (_, c) => {
          while (performance.now() < until) {
            const t = performance.now()
            await (mode === 0 ? one(c) : batched(c))
            latencies.push(performance.now() - t)
          }
        }),
      )
      stopped = true
      await loop
      if (!timed) return
      const a = acc[mode]!
      a.seconds += (performance.now() - t0) / 1000
      a.latencies.push(...latencies)
      a.commits += mode === 0 ? latencies.length : commits - committed
    }
    for (const mode of [0, 1] as const) await drive(mode, o.warmupSeconds, false)
    for (let r = 0; r < o.rounds; r++)
      for (const mode of [0, 1] as const) await drive(mode, o.seconds, true)
    return acc.map((a, i) => {
      const sorted = Float64Array.from(a.latencies).sort()
      return {
        label: ALONE_LABELS[i]!,
        rps: a.latencies.length / a.seconds,
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        ok: a.latencies.length,
        commits: a.commits,
      }
    }) as [AloneResult, AloneResult]
  } finally {
    for (const c of [...clients, writer]) await c.end()
  }
}

/**
 * Starts the servers, measures (module note), prints the table, the lag and the goals; returns
 * the figures, or undefined when PostgreSQL or Redis is not installed (the reason is printed).
 */
export async function runClusterHttpSuite(
  o: ClusterHttpOptions,
): Promise<ClusterHttpResults | undefined> {
  const skip = postgresSkip ?? redisMissing()
  if (skip !== undefined) {
    console.log(`\nskipped: ${skip}`)
    return undefined
  }
  const loadBefore = loadavg()[0]!
  const root = mkdtempSync(join(tmpdir(), 'entistore-cluster-http-bench-'))
  const flush = flushTimes(root, 200)
  const pg = await startPostgres({ durable: true })
  const redises: RedisServer[] = []
  const children: Child[] = []
  const clients: HttpClient[] = []
  try {
    // As the server says, not as asked: PostgreSQL's version and durability settings.
    const show = async (name: string) =>
      Object.values((await pg.query(`SHOW ${name}`)).rows[0] as object)[0] as string
    const settings =
      `${(await show('server_version')).split(' ')[0]}: fsync ${await show('fsync')}, ` +
      `synchronous_commit ${await show('synchronous_commit')}, ` +
      `full_page_writes ${await show('full_page_writes')}`
    const files = itemFiles(ITEMS)
    const start = async (label: string, args: readonly string[], workers: number) => {
      const ready = workers > 1 ? WORKERS_READY : ORIGIN
      const started = await startNode(
        label,
        [...ENTISTORE.args(files), ...(workers > 1 ? ['--workers', String(workers)] : []), ...args],
        ready,
        o.startupTimeoutMs,
      )
      children.push(started.child)
      const origin =
        workers > 1
          ? `http://127.0.0.1:${WORKERS_READY.exec(started.line)![1]}`
          : ORIGIN.exec(started.line)![0]
      return { origin, pid: started.child.pid }
    }
    // One session per connection (session-cookies.ts): a client whose cookie named no session
    // would open a guest at each write, and with Redis write it there.
    const sessions = (label: string, origin: string) =>
      sessionCookies(label, origin, o.load.connections)
    const running: Running[] = []
    for (const spec of SERVERS) {
      const postgres = spec.postgres ? await pg.freshDatabase() : undefined
      let redis: string | undefined
      if (spec.redis) {
        const r = await startRedis()
        redises.push(r)
        redis = r.url
      }
      const args = [
        ...(spec.persist ? ['--persist', join(root, spec.id)] : []),
        ...(postgres === undefined ? [] : ['--postgres', postgres]),
        ...(redis === undefined ? [] : ['--redis', redis]),
        ...(spec.health ? ['--health-details'] : []),
      ]
      const { origin, pid } = await start(spec.label, args, spec.workers)
      const cookies = await sessions(spec.label, origin)
      running.push({
        spec,
        origin,
        pid,
        cookies,
        ...(postgres === undefined ? {} : { postgres }),
        ...(redis === undefined ? {} : { redis }),
      })
    }

    const target = (s: Running) => ({
      label: s.spec.label,
      origin: s.origin,
      connectionHeaders: s.cookies,
    })
    // Reads first, on the data file alone: the writes below add Items at each server's own rate.
    const readers = running.filter((s) => s.spec.reads)
    const get = await compareLoad(
      readers.map((s) => ({
        ...target(s),
        path: (r: () => number) => `/rest/Item(${1 + Math.floor(r() * ITEMS)})`,
      })),
      o.load,
    )
    const filter = await compareLoad(
      readers.map((s) => ({
        ...target(s),
        path: (r: () => number) =>
          `/rest/Item?$filter=%22groupID=${1 + Math.floor(r() * GROUPS)}%22&$top=50`,
      })),
      o.load,
    )
    // Priced in CPU too: every Entistore process of the server (its workers), not PostgreSQL's
    // nor Redis's, over its own rounds (the others' are idle meanwhile).
    const writes = await compareLoad(
      running.map((s) => ({
        ...target(s),
        sequence: writeSequence,
        cpuMs: () => treeCpuMs(s.pid),
      })),
      { ...o.load, warmupSeconds: o.writeWarmupSeconds },
    )
    // PostgreSQL alone, right after the servers' write rounds, as long as each server's.
    const alone = await postgresAlone(await pg.freshDatabase(), o.load)
    const fresh: (FreshResult | undefined)[] = []
    for (const s of running)
      fresh.push(o.freshSeconds > 0 ? await freshWrites(s, o.freshSeconds) : undefined)

    // The lag: a second process joins (c′)'s database and Redis, started only now, so that the
    // rows above measured (c′) alone.
    const a = running.find((s) => s.spec.id === 'postgres-redis')!
    const { origin: originB } = await start(
      '(c′) B: a second serve --postgres --redis',
      ['--postgres', a.postgres!, '--redis', a.redis!, '--health-details'],
      1,
    )
    const [writer, reader] = [httpClient(a.origin), httpClient(originB)]
    clients.push(writer, reader)
    const lag = await measureLag(writer, reader, o.lagSamples, ITEMS)

    // Reads through the writer and through the follower: the same two processes, GET by key.
    const isWriter = async (client: HttpClient) => {
      const reply = await client.send('GET', '/health')
      const w = (reply.body as { writer?: unknown } | undefined)?.writer
      return typeof w === 'boolean' ? w : undefined
    }
    const [aWrites, bWrites] = [await isWriter(writer), await isWriter(reader)]
    const known = aWrites !== undefined && bWrites !== undefined && aWrites !== bWrites
    const pair = [
      { label: '(c′) A', origin: a.origin, connectionHeaders: a.cookies },
      {
        label: '(c′) B',
        origin: originB,
        connectionHeaders: await sessions('(c′) B', originB),
      },
    ]
    if (known && bWrites) pair.reverse()
    const [writerReads, followerReads] = await compareLoad(
      pair.map((t) => ({
        ...t,
        path: (r: () => number) => `/rest/Item(${1 + Math.floor(r() * ITEMS)})`,
      })),
      o.load,
    )
    const follower: FollowerReads = {
      known,
      writer: writerReads!,
      follower: followerReads!,
    }

    const results: ServerResult[] = running.map((s, i) => {
      const r = readers.indexOf(s)
      return {
        id: s.spec.id,
        label: s.spec.label,
        writes: writes[i]!,
        ...(fresh[i] === undefined ? {} : { fresh: fresh[i] }),
        ...(r < 0 ? {} : { get: get[r]!, filter: filter[r]! }),
      }
    })
    const loadAfter = loadavg()[0]!
    const goals = goalRows(results, follower)
    const machine = { loadBefore, loadAfter, postgres: settings, flush }
    printResults(results, alone, follower, lag, goals, o, machine)
    return { servers: results, alone, followerReads: follower, lag, goals, ...machine }
  } catch (e) {
    // A refused connection says little; which server was gone, and how, says what happened.
    const gone = children.filter((c) => c.proc.exitCode !== null || c.proc.signalCode !== null)
    if (gone.length === 0) throw e
    const how = gone.map((c) => {
      const tail = c.stderrTail().split('\n').slice(-3).join(' ⏎ ')
      return `${c.label} exited (${c.proc.signalCode ?? `code ${c.proc.exitCode}`})${tail ? `: ${tail}` : ''}`
    })
    throw new Error(`${(e as Error).message}; meanwhile ${how.join('; ')}`, { cause: e })
  } finally {
    for (const c of clients) c.close()
    for (const c of children) await c.stop()
    for (const r of redises) await r.stop()
    await pg.stop()
    rmSync(root, { recursive: true, force: true })
  }
}

function goalRows(results: readonly ServerResult[], follower: FollowerReads): Goal[] {
  const by = (id: ServerId) => results.find((r) => r.id === id)!
  const memory = by('memory')
  const rows: Goal[] = []
  const verdict = (ok: boolean): 'PASS' | 'MISS' => (ok ? 'PASS' : 'MISS')
  // Issue 48's goals first: keep-alive writes of 16 clients, reads through a follower.
  const postgres = by('postgres').writes.rps / memory.writes.rps
  rows.push([
    'writes/s, 16 clients',
    by('postgres').label,
    `${ratio(postgres)} (a)`,
    GOALS.postgres.label,
    verdict(postgres >= GOALS.postgres.min),
  ])
  const three = by('workers-3').writes.rps / memory.writes.rps
  const threeOfPostgres = by('workers-3').writes.rps / by('postgres').writes.rps
  rows.push([
    'writes/s, 16 clients',
    by('workers-3').label,
    `${ratio(threeOfPostgres)} (c)`,
    GOALS.workers.label,
    threeOfPostgres >= GOALS.workers.min && three >= GOALS.workers.stretch
      ? 'PASS, stretch too'
      : verdict(threeOfPostgres >= GOALS.workers.min),
  ])
  const p99 = by('workers-3').writes.p99
  rows.push([
    'write p99, 16 clients',
    by('workers-3').label,
    `${ms(p99)} ms`,
    GOALS.p99.label,
    verdict(p99 <= GOALS.p99.max),
  ])
  const [cpuThree, cpuPostgres] = [
    cpuPerWrite(by('workers-3').writes),
    cpuPerWrite(by('postgres').writes),
  ]
  rows.push([
    'CPU ms a write, all Entistore processes',
    by('workers-3').label,
    `${ratio(cpuThree / cpuPostgres)} (c): ${ms(cpuThree)} / ${ms(cpuPostgres)} ms`,
    GOALS.cpu.label,
    verdict(cpuThree <= GOALS.cpu.max * cpuPostgres),
  ])
  const throughFollower = follower.follower.rps / follower.writer.rps
  rows.push([
    'reads/s, GET by key',
    `${follower.follower.label}, a follower of ${follower.writer.label}` +
      (follower.known ? '' : ' (writer not named by /health)'),
    `${ratio(throughFollower)} writer`,
    GOALS.follower.label,
    verdict(throughFollower >= GOALS.follower.min),
  ])
  // The goals before issue 48.
  rows.push([
    'writes/s, 16 clients',
    by('workers-3').label,
    `${ratio(three)} (a)`,
    GOALS.writes.label,
    three >= GOALS.writes.stretch ? 'PASS, stretch too' : verdict(three >= GOALS.writes.min),
  ])
  for (const id of ['postgres-redis', 'workers-2'] as const)
    for (const [what, pick] of [
      ['GET by key', (r: ServerResult) => r.get],
      ['$filter', (r: ServerResult) => r.filter],
    ] as const) {
      const x = pick(by(id))!.rps / pick(memory)!.rps
      rows.push([
        `reads/s, ${what}`,
        by(id).label,
        `${ratio(x)} (a)`,
        GOALS.reads.label,
        verdict(x >= GOALS.reads.min),
      ])
    }
  return rows
}

function printResults(
  results: readonly ServerResult[],
  alone: readonly AloneResult[],
  follower: FollowerReads,
  lag: Lag,
  goals: readonly Goal[],
  o: ClusterHttpOptions,
  machine: Pick<ClusterHttpResults, 'loadBefore' | 'loadAfter' | 'postgres' | 'flush'>,
): void {
  const memory = results.find((r) => r.id === 'memory')!
  const cpuOfPostgres = cpuPerWrite(results.find((r) => r.id === 'postgres')!.writes)
  const l = o.load
  console.log(
    `\n${l.connections} clients: autocannon connections, one session cookie each; ` +
      `${l.warmupSeconds} s warm-up (${o.writeWarmupSeconds} s for the writes), then ${l.rounds} × ` +
      `${l.seconds} s per server, alternating. ` +
      `${count(ITEMS)} Items in the data file. PostgreSQL ${machine.postgres}. The disk: 4 KiB ` +
      `appended and fdatasync'ed in ${ms(quantile(machine.flush, 0.5))} ms (p50; p99 ` +
      `${ms(quantile(machine.flush, 0.99))} ms), so one flush per commit, one commit at a time, ` +
      `is at most ${count(Math.round(1000 / quantile(machine.flush, 0.5)))} writes/s. ` +
      `Load average (1 min) ${machine.loadBefore.toFixed(2)} before, ` +
      `${machine.loadAfter.toFixed(2)} after.`,
  )
  const rows = results.map((r) => [
    r.label,
    cell(r.writes, memory.writes.rps),
    `${ms(cpuPerWrite(r.writes))} (${ratio(cpuPerWrite(r.writes) / cpuOfPostgres)} c)`,
    ...(o.freshSeconds > 0 ? [cell(r.fresh, memory.fresh!.rps)] : []),
    cell(r.get, memory.get!.rps),
    cell(r.filter, memory.filter!.rps),
  ])
  for (const x of alone)
    rows.push([
      x.label,
      cell(x, memory.writes.rps),
      '—',
      ...(o.freshSeconds > 0 ? ['—'] : []),
      '—',
      '—',
    ])
  console.log(
    table(
      [
        'server',
        'writes/s (× a) · p50 / p99, keep-alive',
        'CPU ms a write, all Entistore processes (× c)',
        ...(o.freshSeconds > 0 ? ['writes/s (× a) · p50 / p99, a new connection each'] : []),
        'GET by key: reads/s (× a) · p50 / p99',
        '$filter: reads/s (× a) · p50 / p99',
      ],
      rows,
      ['l', 'r', 'r', ...(o.freshSeconds > 0 ? (['r'] as const) : []), 'r', 'r'],
    ),
  )
  console.log(
    '- a write = a create, or the update of what it created with its __STAMP (half each); ' +
      'reads: GET /rest/Item(k), and $filter="groupID=g"&$top=50 (5 Items), before any write; ' +
      `— = not measured. New connections: node:http clients for ${o.freshSeconds} s, no warm-up. ` +
      'CPU: user + system time of every process of the server (the primary and workers of ' +
      '--workers N, all threads; not PostgreSQL nor Redis) over its keep-alive rounds, a write ' +
      'acknowledged (2xx), against (c) one process on PostgreSQL.',
  )
  const [single, batched] = alone
  console.log(
    `- PostgreSQL alone: the same server, 16 node \`pg\` connections, a ≈200-byte row each per ` +
      `INSERT (autocommit), as long as each server's rounds: ${count(single!.ok)} rows in ` +
      `${count(single!.commits)} commits; batched: the clients hand their rows to one writer loop, ` +
      `which commits all that arrived during its previous commit in one INSERT: ` +
      `${count(batched!.ok)} rows in ${count(batched!.commits)} commits ` +
      `(${(batched!.ok / Math.max(1, batched!.commits)).toFixed(1)} a commit).`,
  )
  const bad = results.flatMap((r) =>
    [r.writes, r.get, r.filter]
      .filter((x) => x !== undefined && (x.non2xx > 0 || x.errors > 0))
      .map((x) => `${r.label}: ${count(x!.non2xx)} non-2xx, ${count(x!.errors)} errors`)
      .concat(r.fresh?.failed ? [`${r.label}, new connections: ${r.fresh.failed} non-2xx`] : []),
  )
  for (const x of [follower.writer, follower.follower])
    if (x.non2xx > 0 || x.errors > 0)
      bad.push(`${x.label}, reads: ${count(x.non2xx)} non-2xx, ${count(x.errors)} errors`)
  for (const b of bad) console.log(`- WARNING (not counted): ${b}`)

  console.log('\n### Lag between two processes')
  console.log(
    table(LAG_HEADERS, lagRows('two `serve --postgres --redis` (A = c′)', lag), [...LAG_ALIGN]),
  )
  console.log('\n### Reads through the writer and a follower')
  const w = follower.writer.rps
  console.log(
    table(
      ['process', 'GET by key: reads/s (× writer) · p50 / p99'],
      [
        [
          `${follower.writer.label}${follower.known ? ', the writer' : ''}`,
          cell(follower.writer, w),
        ],
        [
          `${follower.follower.label}${follower.known ? ', a follower' : ''}`,
          cell(follower.follower, w),
        ],
      ],
      ['l', 'r'],
    ),
  )
  if (!follower.known) console.log('- /health named no writer: A, started first, taken for it.')
  console.log('\n### Goals')
  console.log(
    table(
      ['measure', 'server', 'measured', 'goal', 'verdict'],
      [...goals],
      ['l', 'l', 'r', 'l', 'l'],
    ),
  )
}
