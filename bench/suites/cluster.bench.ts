/**
 * @module Many processes on one PostgreSQL (issue 20): what a write costs when it goes through
 * PostgreSQL's log, against in memory and the local journal, and how long another process takes
 * to apply it (replication lag).
 *
 * A throwaway PostgreSQL server is started for the run (the tests' fixture: Debian's binaries,
 * `fsync=off`, so the numbers are PostgreSQL's round trips and locking, not its disk). Writes are
 * single updates by key on 1,000 Items, each its own commit: in memory; with the journal flushed
 * per commit and batched; and through `cluster.write` (BEGIN, the log's advisory lock, catch-up,
 * the update, INSERT, NOTIFY, COMMIT), one writer at a time and then four at once from two
 * datastores of their own pools (contending for the lock). Lag: a second datastore, with its own
 * pool and LISTEN connection, applying what the first commits: from the log row's time in
 * PostgreSQL to its application (both on this machine's clock), p50 and p99.
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
import { ITEM_MODEL, makeGroups, makeItems } from '../items.ts'
import { count, ms, printWriteRates, ratio, table } from '../report.ts'

const DATA = { Group: makeGroups(), Item: makeItems(1000) }

export interface ClusterBenchOptions {
  /** Writes through PostgreSQL per case. */
  readonly writes: number
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

    printWriteRates(rows)
    console.log('\n### Replication lag (a second datastore, its own pool and LISTEN connection)')
    console.log(
      table(
        ['records applied', 'p50', 'p99', 'max'],
        [[count(lag.count), `${ms(lag.p50)} ms`, `${ms(lag.p99)} ms`, `${ms(lag.max)} ms`]],
        ['r', 'r', 'r', 'r'],
      ),
    )
  } finally {
    await pg.stop()
    rmSync(root, { recursive: true, force: true })
  }
}
