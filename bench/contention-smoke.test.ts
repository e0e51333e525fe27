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
import {
  HEAVY_READS,
  runContentionSuite,
  type ContentionResult,
} from './suites/contention.bench.ts'

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
      threads: [0, 1],
      // Every heavy read the suite knows, the default four and those --contention-reads adds.
      reads: HEAVY_READS.map((x) => x.id),
    })
  }, 120_000)

  it('answers the GETs and pings of every phase, none failed', () => {
    expect(r.serves.map((s) => s.threads)).toEqual([0, 1])
    const phases = {
      ...Object.fromEntries(
        r.serves.flatMap((s) => [
          [`serve --threads ${s.threads} first code=`, s.firstCode.gets],
          [`serve --threads ${s.threads} alone`, s.getAlone],
          [`serve --threads ${s.threads} under heavy reads`, s.getUnderHeavy],
          [`serve --threads ${s.threads} slow readers`, s.slow.gets],
        ]),
      ),
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
      ...Object.fromEntries(
        r.serves.flatMap((s) => [
          [`--threads ${s.threads} alone`, s.heavyAlone],
          [`--threads ${s.threads} beside the GETs`, s.heavyUnderGets],
        ]),
      ),
      'beside the pings': r.host.heavyUnderPings,
    })) {
      expect(h.error, id).toBeUndefined()
      expect(h.failed, id).toBe(0)
      expect(h.rps, id).toBeGreaterThan(0)
      expect(h.medianMs, id).toHaveLength(HEAVY_READS.length)
      for (const x of h.medianMs) expect(x, id).toBeGreaterThan(0)
    }
  })

  it("answers the first code= queries and reads the slow readers' RSS", () => {
    for (const q of [...r.serves.map((s) => s.firstCode), r.host.firstCode]) {
      expect(q.status).toBe(200)
      expect(q.ms).toBeGreaterThan(0)
    }
    for (const s of r.serves) {
      expect(s.indexBuildMs).toBeGreaterThanOrEqual(0)
      expect(s.slow.rssBefore).toBeGreaterThan(0)
      expect(s.slow.rssPeak).toBeGreaterThanOrEqual(s.slow.rssBefore)
    }
  })
})
