/**
 * @module The cluster-http suite cannot rot (issue 29): runs it with rounds of a fraction of a
 * second against the real servers (the built CLI, a throwaway PostgreSQL with fsync on, Redis) and
 * checks what it measured: every server wrote (creates and updates with their stamps) with no
 * failed reply, the readers read (through a follower too), PostgreSQL alone committed rows, the lag
 * has its samples. The figures themselves are not checked: speed goals live in the bench, never in
 * tests. Skipped, with the reason, where PostgreSQL or Redis is not installed (never under CI: the
 * fixtures fail there instead).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { postgresSkip } from '../packages/entistore/src/cluster/postgres-server.fixture.ts'
import { redisMissing } from '../packages/entistore/src/cluster/redis-server.fixture.ts'
import { ensurePackagesBuilt } from './engine.ts'
import {
  runClusterHttpSuite,
  SERVERS,
  type ClusterHttpResults,
} from './suites/cluster-http.bench.ts'

const skip = postgresSkip ?? redisMissing()
let results: ClusterHttpResults | undefined

describe.skipIf(skip !== undefined)('npm run bench -- --suite=cluster-http', () => {
  beforeAll(async () => {
    // The suite runs the CLI from dist/, as run.ts builds it first.
    ensurePackagesBuilt('auto')
    results = await runClusterHttpSuite({
      load: {
        connections: 16,
        seconds: 0.3,
        rounds: 1,
        warmupSeconds: 0,
        pathsPerConnection: 64,
        // A count of requests a round, not a time: a smoke's round ends with its last reply.
        once: true,
      },
      writeWarmupSeconds: 0,
      freshSeconds: 0.3,
      lagSamples: 5,
      startupTimeoutMs: 60_000,
    })
    // A bound on a hang, never on a correct run: about a minute beside the suite and two CPU hogs.
  }, 480_000)

  it('measures writes on every server, keep-alive and on new connections, none refused', () => {
    expect(results!.servers.map((s) => s.id)).toEqual(SERVERS.map((s) => s.id))
    for (const s of results!.servers) {
      expect(s.writes.ok, s.label).toBeGreaterThan(0)
      expect(s.writes.non2xx + s.writes.errors, s.label).toBe(0)
      expect(s.writes.cpuMs, s.label).toBeGreaterThan(0)
      expect(s.fresh!.ok, s.label).toBeGreaterThan(0)
      expect(s.fresh!.failed, s.label).toBe(0)
    }
  })

  it('measures reads by key and by $filter on the readers, none refused', () => {
    const readers = results!.servers.filter((s) => SERVERS.find((x) => x.id === s.id)!.reads)
    expect(readers.map((s) => s.id)).toEqual(['memory', 'postgres-redis', 'workers-2'])
    for (const s of readers)
      for (const r of [s.get!, s.filter!]) {
        expect(r.ok, s.label).toBeGreaterThan(0)
        expect(r.non2xx + r.errors, s.label).toBe(0)
      }
  })

  it('measures PostgreSQL alone, one row a commit and batched, and reads through a follower', () => {
    const [single, batched] = results!.alone
    expect(single.ok).toBeGreaterThan(0)
    expect(single.commits).toBe(single.ok)
    expect(batched.ok).toBeGreaterThan(0)
    expect(batched.commits).toBeGreaterThan(0)
    expect(batched.commits).toBeLessThanOrEqual(batched.ok)
    const { writer, follower } = results!.followerReads
    for (const r of [writer, follower]) {
      expect(r.ok, r.label).toBeGreaterThan(0)
      expect(r.non2xx + r.errors, r.label).toBe(0)
    }
  })

  it('times the lag between two processes in both passes, and gives every goal a verdict', () => {
    const lag = results!.lag
    expect(lag.afterAck).toHaveLength(5)
    expect(lag.sendToVisible).toHaveLength(5)
    expect(lag.sendToAck).toHaveLength(5)
    expect(lag.polls.length).toBeGreaterThanOrEqual(10)
    expect(results!.goals).toHaveLength(10)
    for (const g of results!.goals) expect(g[4]).toMatch(/^(PASS|MISS)/)
  })
})
