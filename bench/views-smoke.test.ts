/**
 * @module The views suite cannot rot (issue 61, break 5): runs it at 4,000 rows, 5 subscribers of 2 readers, a
 * few writes and one delete of each size, against the real CLI (built), and checks that it
 * measured every row: each operation answered, every subscriber told of every row written, GETs
 * answered by the prober in each round, the server's RSS and CPU read, each goal line there. The
 * figures themselves are not checked: speed goals live in the bench, never in tests.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ensurePackagesBuilt } from './engine.ts'
import { RESTRICT_ON } from './views-data.ts'
import { runViewsSuite, THIS_TREE, type ViewsOptions } from './suites/views.bench.ts'
import { viewsGoals, type ViewsResult } from './views-report.ts'

const o: ViewsOptions = {
  rows: [4000],
  on: RESTRICT_ON,
  subscribers: 5,
  readers: 2,
  writes: 3,
  deletes: 1,
  deleteSizes: [10, 25],
  rounds: 1,
  tree: THIS_TREE,
  startupTimeoutMs: 60_000,
}
let r: ViewsResult

describe('npm run bench -- --suite=views', () => {
  beforeAll(async () => {
    // The suite runs the CLI from dist/, as run.ts builds it first.
    ensurePackagesBuilt('auto')
    r = await runViewsSuite(o)
  }, 120_000)

  it('measures each operation, with and without subscribers, on both restricts', () => {
    expect(r.servers.map((s) => s.on)).toEqual(['indexed', 'unindexed'])
    for (const s of r.servers)
      for (const [with_, measures] of [
        ['alone', s.alone],
        ['followed', s.followed],
      ] as const) {
        expect(measures.map((m) => m.what)).toEqual(['write', 'delete 10', 'delete 25'])
        for (const m of measures) {
          const id = `${s.on} ${with_} ${m.what}`
          expect(m.opMs, id).toHaveLength(m.what === 'write' ? o.writes : o.deletes)
          expect(m.eventsMs, id).toHaveLength(m.opMs.length)
          expect(m.cpuMs, id).toHaveLength(o.rounds)
          for (const g of m.rounds) {
            expect(g.error, id).toBeUndefined()
            expect(g.failed, id).toBe(0)
            expect(g.probes, id).toBeGreaterThan(0)
          }
        }
      }
  })

  it('tells every subscriber of every row written, and reads the server', () => {
    for (const s of r.servers) {
      // 3 updates and 35 rows deleted while they listened.
      expect(s.events).toEqual({ told: 3 + 35, expected: 3 + 35 })
      expect(s.rss.started).toBeGreaterThan(0)
      expect(s.rss.peak).toBeGreaterThanOrEqual(s.rss.subscribed)
    }
  })

  it('gives each goal line', () => {
    const goals = viewsGoals(r, o)
    expect(goals).toHaveLength(2 * r.servers.length)
    for (const g of goals) expect(g[3]).toMatch(/^(PASS|MISS)$/)
  })
})
