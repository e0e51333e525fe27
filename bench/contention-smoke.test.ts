/**
 * @module The contention suite cannot rot (issue 47): runs it at 2,000 rows with measures of half a
 * second, against the real CLI (built) and the node:http host, and checks that it measured every
 * row: GETs answered in each phase, none failed, the heavy reads and the first code= queries
 * answered 200, the slow readers' RSS read. The figures themselves are not checked: speed goals
 * live in the bench, never in tests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensurePackagesBuilt } from './engine.ts'
import { HEAVY, runContentionSuite, type ContentionResult } from './suites/contention.bench.ts'

let r: ContentionResult
const dataDir = mkdtempSync(join(tmpdir(), 'entistore-contention-smoke-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('npm run bench -- --suite=contention', () => {
  beforeAll(async () => {
    // The suite runs the CLI from dist/, as run.ts builds it first.
    ensurePackagesBuilt('auto')
    r = await runContentionSuite({
      rows: 2000,
      seconds: 0.5,
      slowSeconds: 0.5,
      dataDir,
      startupTimeoutMs: 60_000,
    })
  }, 120_000)

  it('answers the GETs and pings of every phase, none failed', () => {
    const phases = {
      'serve first code=': r.serve.firstCode.gets,
      'serve alone': r.serve.getAlone,
      'serve under heavy reads': r.serve.getUnderHeavy,
      'serve slow readers': r.serve.slow.gets,
      'host first code=': r.host.firstCode.gets,
      'host ping alone': r.host.pingAlone,
      'host ping under heavy reads': r.host.pingUnderHeavy,
    }
    for (const [id, s] of Object.entries(phases)) {
      expect(s.error, id).toBeUndefined()
      expect(s.failed, id).toBe(0)
      expect(s.probes, id).toBeGreaterThan(0)
      expect(s.slowestMs, id).toBeGreaterThanOrEqual(s.p99Ms)
    }
  })

  it('runs every heavy read, none failed', () => {
    for (const [id, h] of Object.entries({
      alone: r.serve.heavyAlone,
      'beside the GETs': r.serve.heavyUnderGets,
      'beside the pings': r.host.heavyUnderPings,
    })) {
      expect(h.error, id).toBeUndefined()
      expect(h.failed, id).toBe(0)
      expect(h.rps, id).toBeGreaterThan(0)
      expect(h.medianMs, id).toHaveLength(HEAVY.length)
      for (const x of h.medianMs) expect(x, id).toBeGreaterThan(0)
    }
  })

  it("answers the first code= queries and reads the slow readers' RSS", () => {
    for (const q of [r.serve.firstCode, r.host.firstCode]) {
      expect(q.status).toBe(200)
      expect(q.ms).toBeGreaterThan(0)
    }
    expect(r.serve.indexBuildMs).toBeGreaterThanOrEqual(0)
    expect(r.serve.slow.rssBefore).toBeGreaterThan(0)
    expect(r.serve.slow.rssPeak).toBeGreaterThanOrEqual(r.serve.slow.rssBefore)
  })
})
