/**
 * @module The scale suite cannot rot (issue 30): runs it at 2,000 short rows and 1,000 long ones,
 * with 300 writes (no snapshot: fewer than snapshotEvery), against the real CLI (built), and checks
 * that it measured every column: the start-ups, the restart after kill -9, the RSS, the indexes'
 * build in the background (until serve's line), a clone served again with the same rows, a
 * `--watch` reload and its indexes' build, and GETs answered, none failed, in every phase. The figures themselves are not checked: speed goals
 * live in the bench, never in tests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensurePackagesBuilt } from './engine.ts'
import { runScaleSuite, type ScaleRow } from './suites/scale.bench.ts'

let rows: ScaleRow[] = []
const STALLS = ['index', 'idle', 'firstQuery', 'clone', 'reload', 'save', 'snapshot'] as const
const dataDir = mkdtempSync(join(tmpdir(), 'entistore-scale-smoke-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('npm run bench -- --suite=scale', () => {
  beforeAll(async () => {
    // The suite runs the CLI from dist/, as run.ts builds it first.
    ensurePackagesBuilt('auto')
    rows = await runScaleSuite({
      shortSizes: [2000],
      longSizes: [1000],
      startupTimeoutMs: 60_000,
      idleSeconds: 0.3,
      writes: 300,
      dataDir,
    })
  }, 120_000)

  it('measures start-up, restart and memory at each size', () => {
    expect(rows.map((r) => [r.shape, r.rows])).toEqual([
      ['short', 2000],
      ['long', 1000],
    ])
    for (const r of rows) {
      expect(r.parse.error).toBeUndefined()
      expect(r.serve.error).toBeUndefined()
      expect(r.fileBytes).toBeGreaterThan(r.rows * 50)
      for (const x of [r.parse.ms, r.serve.ms, r.persistFirstMs, r.restartMs])
        expect(x).toBeGreaterThan(0)
      for (const s of [r.parse.rss, r.serve.rssIndexed]) expect(s!.bytes).toBeGreaterThan(0)
    }
  })

  it("times the indexes' build in the background, as serve's line says", () => {
    // 1,000 rows or more: the load leaves the indexes to the background.
    for (const r of rows) expect(r.indexBuildMs, r.shape).toBeGreaterThanOrEqual(0)
  })

  it('clones the server, and the clone served again holds the same rows', () => {
    for (const r of rows) {
      expect(r.clone.error, r.shape).toBeUndefined()
      expect(r.clone.ms).toBeGreaterThan(0)
      expect(r.clone.loadMs).toBeGreaterThan(0)
      const dataclass = r.shape === 'short' ? 'Person' : 'Item'
      // The long rows' model also has ImportedItem (the writes suite's UUID keys), empty here.
      const more = r.shape === 'short' ? '' : ', ImportedItem 0'
      expect(r.clone.rows).toMatch(new RegExp(`^Group \\d+, ${dataclass} ${r.rows}${more}$`))
      expect(r.clone.sameRows).toBe(true)
    }
  })

  it('answers GETs in every phase, none failed, the work itself done', () => {
    for (const r of rows)
      for (const id of STALLS) {
        const s = r.stalls[id]!
        expect(s.error, `${r.shape} ${id}`).toBeUndefined()
        expect(s.failed, `${r.shape} ${id}`).toBe(0)
        expect(s.probes, `${r.shape} ${id}`).toBeGreaterThan(0)
        expect(s.slowestMs).toBeGreaterThanOrEqual(s.p99Ms)
      }
  })
})
