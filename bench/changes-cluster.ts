/**
 * @module The live feed across three workers (issue 50): `entistore serve --workers 3 --postgres
 * --redis` (the built CLI, a throwaway PostgreSQL with its default durability and a Redis, as the
 * cluster-http suite starts them), subscribers over server-sent events each on a connection of its
 * own (the primary hands connections to the workers in turn: they spread over all three), writes
 * on one keep-alive connection (one worker). A change made through that worker reaches the others'
 * subscribers through PostgreSQL's log: the time measured is the write's acknowledgement to each
 * subscriber's event, wherever it is.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  postgresSkip,
  startPostgres,
} from '../packages/entistore/src/cluster/postgres-server.fixture.ts'
import { redisMissing, startRedis } from '../packages/entistore/src/cluster/redis-server.fixture.ts'
import { CHANGES_MODEL, itemRows, TRACKED } from './changes-data.ts'
import { measureLatency, type FeedRow, type FeedTarget } from './feed-latency.ts'
import { startNode } from './processes.ts'
import { httpClient } from './replication-lag.ts'
import { sseSubscribe } from './sse-client.ts'
import { CLI } from './suites/http.bench.ts'

export const CLUSTER_FEED = 'SSE: --workers 3 --postgres --redis'

/** The ready line of `--workers N` once every worker listens (cluster-http's): the shared port. */
const WORKERS_READY = /^Workers: \d+ processes share port (\d+)/

export interface ClusterFeedOptions {
  readonly rows: number
  readonly subscribers: readonly number[]
  readonly writes: number
  readonly dir: string
  readonly startupTimeoutMs: number
}

/** Why it cannot run here (no PostgreSQL or Redis), or undefined. */
export const clusterFeedSkip = (): string | undefined => postgresSkip ?? redisMissing()

export async function measureClusterFeed(o: ClusterFeedOptions): Promise<FeedRow[]> {
  mkdirSync(o.dir, { recursive: true })
  const model = join(o.dir, 'changes-model.json')
  const data = join(o.dir, `changes-cluster-${o.rows}.json`)
  writeFileSync(model, JSON.stringify(CHANGES_MODEL))
  writeFileSync(data, JSON.stringify({ [TRACKED]: itemRows(o.rows) }))
  const pg = await startPostgres({ durable: true })
  const redis = await startRedis().catch(async (e: unknown) => {
    await pg.stop()
    throw e
  })
  try {
    const started = await startNode(
      CLUSTER_FEED,
      [
        CLI,
        'serve',
        '--quiet',
        '--model',
        model,
        '--data',
        data,
        '--port',
        '0',
        '--workers',
        '3',
        '--postgres',
        await pg.freshDatabase(),
        '--redis',
        redis.url,
      ],
      WORKERS_READY,
      o.startupTimeoutMs,
    )
    const origin = `http://127.0.0.1:${WORKERS_READY.exec(started.line)![1]}`
    const client = httpClient(origin)
    let next = o.rows + 1
    const target: FeedTarget = {
      label: CLUSTER_FEED,
      subscribe: sseSubscribe(origin, `/rest/$changes?$dataClasses=${TRACKED}`),
      write: async () => {
        const id = next++
        const reply = await client.send('POST', `/rest/${TRACKED}?$method=update`, {
          ID: id,
          name: `created ${id}`,
          city: 'Paris',
          age: 30,
        })
        if (reply.status !== 200)
          throw new Error(`create ${id}: ${reply.status} ${JSON.stringify(reply.body)}`)
      },
    }
    try {
      const out: FeedRow[] = []
      for (const n of o.subscribers)
        out.push({ impl: CLUSTER_FEED, latency: await measureLatency(target, n, o.writes) })
      return out
    } finally {
      client.close()
      await started.child.stop()
    }
  } finally {
    await redis.stop()
    await pg.stop()
  }
}
