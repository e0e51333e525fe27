/**
 * The conformance suite every transport adapter runs (rest/src/node/conformance.fixture.ts), run
 * unchanged against `entistore serve --workers 3 --postgres --redis`: the CLI's own path (its
 * arguments, node:cluster, PostgreSQL's log, Redis's sessions), started from
 * conformance-cluster.fixture.ts, which gives each process the reference's clock, body limits and
 * wrapper. Each request goes on a fresh connection, so that node:cluster hands a client's
 * consecutive requests to different workers, as a load balancer would; each answer is compared
 * byte for byte with the in-process reference's, once, with no asking again: a client cannot
 * tell three workers from one process. Only the session ids differ (`sessionIdsDiffer`): each
 * worker makes its own.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformance, json, send, type Served } from '../../../rest/src/node/conformance.fixture.js'
import { startCli, stopChildren, type CliProcess } from '../persist/cli-process.fixture.js'
import { postgresSkip, startPostgres, type PostgresServer } from './postgres-server.fixture.js'
import { redisMissing, startRedis, type RedisServer } from './redis-server.fixture.js'

const COMPANY = fileURLToPath(new URL('../../../../examples/company/', import.meta.url))
const SCRIPT = fileURLToPath(new URL('./conformance-cluster.fixture.ts', import.meta.url))
const NAME = 'entistore serve --workers 3 --postgres --redis'

const skip = postgresSkip ?? redisMissing()

describe.skipIf(skip !== undefined)(NAME, () => {
  let pg: PostgresServer | undefined
  let redis: RedisServer | undefined
  let cluster: CliProcess

  beforeAll(async () => {
    ;[pg, redis] = await Promise.all([startPostgres(), startRedis()])
    cluster = await startCli(
      [
        'serve',
        '-m',
        `${COMPANY}model.json`,
        '-d',
        `${COMPANY}data.json`,
        '--port',
        '0',
        '--workers',
        '3',
        '--postgres',
        await pg.freshDatabase(),
        '--redis',
        redis.url,
        // Which worker answered, in /health.
        '--health-details',
      ],
      { script: SCRIPT, ready: 'Workers: 3 processes share port' },
    )
  }, 120_000)

  afterAll(async () => {
    stopChildren()
    await Promise.all([pg?.stop(), redis?.stop()])
  })

  it('spreads fresh connections over the three workers', async () => {
    const workers = new Set<number>()
    for (let i = 0; i < 12 && workers.size < 3; i++)
      workers.add(json(await send(cluster.url, { target: '/health' })).worker as number)
    expect(workers.size).toBe(3)
  })

  // The cluster serves the company demo of its own files: the handler the suite builds for the
  // server under test is not needed.
  const served = (): Promise<Served> =>
    Promise.resolve({
      url: cluster.url,
      close: async () => {
        cluster.child.kill('SIGTERM')
        await cluster.exited
      },
    })
  conformance(NAME, served, { sessionIdsDiffer: true })
})
