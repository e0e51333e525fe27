/**
 * @module Many processes on one PostgreSQL (issue 20): what a write costs when it goes through
 * PostgreSQL's log, against in memory and the local journal, and how long another process takes
 * to apply it (replication lag).
 *
 * A throwaway PostgreSQL server is started for the run (the tests' fixture: Debian's binaries,
 * `fsync=off`, so the numbers are PostgreSQL's round trips and locking, not its disk). Writes are
 * single updates by key on 1,000 Items, each its own commit: in memory; with the journal flushed
 * per commit and batched; and through `cluster.write` (a round trip for BEGIN, the log's advisory
 * lock and the catch-up; the update; a round trip for INSERT, NOTIFY and COMMIT), one writer at a
 * time and then four at once from two datastores of their own pools (contending for the lock). Lag: a second datastore, with its own
 * pool and LISTEN connection, applying what the first commits: from the log row's time in
 * PostgreSQL to its application (both on this machine's clock), p50 and p99.
 *
 * Then between processes: two `entistore serve --postgres` children on a database of their own,
 * driven over HTTP (keep-alive connections, node:http). The write rate through A alone (one
 * client, then four at once), and the lag a client sees: an update by key through A, B asked for
 * the entity again and again until it shows the new value, from A's 200 and from the send
 * (bench/replication-lag.ts, shared with the cluster-http suite). Bounded below by the polling
 * read's round trip, printed beside it. suites/cluster-http.bench.ts measures the same with
 * PostgreSQL's default durability, 16 clients and `--workers`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createDatastore,
  joinCluster,
  persistenceOf,
  type Cluster,
  type Datastore,
} from 'entistore'
import {
  postgresSkip,
  startPostgres,
} from '../../packages/entistore/src/cluster/postgres-server.fixture.ts'
import { itemFiles, ITEM_MODEL, makeGroups, makeItems } from '../items.ts'
import { startNode, type Child } from '../processes.ts'
import {
  httpClient,
  LAG_ALIGN,
  LAG_HEADERS,
  lagRows,
  measureLag,
  type HttpClient,
  type Lag,
} from '../replication-lag.ts'
import { count, ms, printWriteRates, ratio, table } from '../report.ts'
import { ENTISTORE, ORIGIN } from './http.bench.ts'

const DATA = { Group: makeGroups(), Item: makeItems(1000) }

export interface ClusterBenchOptions {
  /** Writes through PostgreSQL per case. */
  readonly writes: number
  /** Writes timed between processes: the lag samples; the HTTP write rate takes 3× as many. */
  readonly lagSamples: number
}

export async function runClusterSuite(options: ClusterBenchOptions): Promise<void> {
  if (postgresSkip !== undefined) {
    console.log(`\nskipped: ${postgresSkip}`)
    return
  }
  const pg = await startPostgres()
  const root = mkdtempSync(join(tmpdir(), 'entistore-cluster-bench-'))
  try {
    const url = await pg.freshDatabase()
    const rows: string[][] = []
    let memory = 0
    const add = (label: string, n: number, elapsed: number) => {
      const perSecond = (n * 1000) / elapsed
      if (memory === 0) memory = perSecond
      rows.push([
        label,
        count(n),
        `${ms(elapsed)} ms`,
        count(Math.round(perSecond)),
        ratio(memory / perSecond),
      ])
    }
    for (const [label, n, persist] of [
      ['in memory', 20_000, undefined],
      ['journal, fsync per commit', 2_000, { dir: join(root, 'commit') }],
      ['journal, batch of 5 ms', 20_000, { dir: join(root, 'batch'), fsync: 'batch' as const }],
    ] as const) {
      const ds = createDatastore(ITEM_MODEL, { data: DATA, ...(persist ? { persist } : {}) })
      const Item = ds.dataClass('Item')
      const start = performance.now()
      for (let i = 0; i < n; i++) Item.update(1 + (i % 1000), { price: i })
      add(label, n, performance.now() - start)
      persistenceOf(ds)?.close()
    }

    const join2 = async (): Promise<{ ds: Datastore; cluster: Cluster }> => {
      const ds = createDatastore(ITEM_MODEL)
      const cluster = await joinCluster(ds, { postgres: url, data: DATA, pollMs: 1000 })
      return { ds, cluster }
    }
    const a = await join2()
    const b = await join2()
    const n = options.writes
    let start = performance.now()
    for (let i = 0; i < n; i++)
      await a.cluster.write(() => a.ds.dataClass('Item').update(1 + (i % 1000), { price: i }))
    add('PostgreSQL, one writer', n, performance.now() - start)
    await b.cluster.catchUp()
    const lag = b.cluster.lag()

    start = performance.now()
    await Promise.all(
      [a, b, a, b].map(async (node, w) => {
        for (let i = w; i < n; i += 4)
          await node.cluster.write(() =>
            node.ds.dataClass('Item').update(1 + (i % 1000), { price: -i }),
          )
      }),
    )
    add('PostgreSQL, 4 writers on 2 datastores', n, performance.now() - start)
    await a.cluster.close()
    await b.cluster.close()
    const between = await betweenProcesses(await pg.freshDatabase(), options.lagSamples)
    for (const [label, n, elapsed] of between.rates) add(label, n, elapsed)

    printWriteRates(rows)
    console.log('\n### Replication lag')
    const cell = (x: number) => `${ms(x)} ms`
    console.log(
      table(
        LAG_HEADERS,
        [
          [
            'two datastores in one process (own pools, own LISTEN)',
            "the log row's time in PostgreSQL → applied in the second",
            count(lag.count),
            cell(lag.p50),
            cell(lag.p99),
            cell(lag.max),
          ],
          ...lagRows('two `entistore serve --postgres` processes, over HTTP', between.lag),
        ],
        [...LAG_ALIGN],
      ),
    )
  } finally {
    await pg.stop()
    rmSync(root, { recursive: true, force: true })
  }
}

/**
 * Two `entistore serve --postgres <url>` processes on the bench's 1,000 Items: the write rate
 * through A (each write an update by key with the stamp last read, its reply awaited), and
 * `samples` lags as a client sees them (see the module note). Lags and polls come back sorted.
 */
async function betweenProcesses(
  url: string,
  samples: number,
): Promise<{ rates: [string, number, number][]; lag: Lag }> {
  const files = itemFiles(1000)
  const children: Child[] = []
  const clients: HttpClient[] = []
  try {
    const start = async (name: string) => {
      const started = await startNode(
        `entistore serve --postgres (${name})`,
        [...ENTISTORE.args(files), '--postgres', url],
        ORIGIN,
        30_000,
      )
      children.push(started.child)
      return ORIGIN.exec(started.line)![0]
    }
    // One after the other: the first loads the data file into PostgreSQL, the second reads it back.
    const [originA, originB] = [await start('A'), await start('B')]
    const connect = (origin: string) => {
      const c = httpClient(origin)
      clients.push(c)
      return c
    }
    const b = connect(originB)
    const writers = [0, 1, 2, 3].map(() => connect(originA))
    // The stamp of every Item as last answered (read once, untimed); each writer updates Items
    // of its own.
    const stamps = new Map<number, number>()
    for (let k = 1; k <= 1000; k++)
      stamps.set(k, (await b.send('GET', `/rest/Item(${k})`)).body.__STAMP as number)
    const update = async (through: HttpClient, key: number, price: number) => {
      const reply = await through.send('POST', '/rest/Item?$method=update', {
        __KEY: key,
        __STAMP: stamps.get(key),
        price,
      })
      if (reply.status !== 200)
        throw new Error(`update of Item(${key}): ${reply.status} ${JSON.stringify(reply.body)}`)
      stamps.set(key, reply.body.__STAMP as number)
    }
    const timed = async (writes: number, clientsAtOnce: number) => {
      const t0 = performance.now()
      await Promise.all(
        writers.slice(0, clientsAtOnce).map(async (w, c) => {
          for (let i = c; i < writes; i += clientsAtOnce) await update(w, 1 + (i % 1000), i + 1)
        }),
      )
      return performance.now() - t0
    }
    const n = samples * 3
    const rates: [string, number, number][] = [
      ['HTTP through one `serve --postgres` process, one client', n, await timed(n, 1)],
      ['HTTP through one `serve --postgres` process, 4 clients', n, await timed(n, 4)],
    ]

    return { rates, lag: await measureLag(writers[0]!, b, samples, 1000) }
  } finally {
    for (const c of clients) c.close()
    for (const c of children) await c.stop()
  }
}
