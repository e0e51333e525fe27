/**
 * @module The code-beside suite cannot rot (issue 78): runs it at 2,000 rows, its 4D code at a
 * hundredth of its size and measures of 0.3 s, against the real CLI (built), and checks
 * that it measured every row: GETs answered in each phase, every kind of code called and answered
 * 200. The figures themselves are not checked: speed goals live in the bench, never in tests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensurePackagesBuilt } from './engine.ts'
import { heavyCode, runCodeBesideSuite, type CodeBesideResult } from './suites/code-beside.bench.ts'

let r: CodeBesideResult
const dataDir = mkdtempSync(join(tmpdir(), 'entistore-code-beside-smoke-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('npm run bench -- --suite=code-beside', () => {
  beforeAll(async () => {
    // The suite runs the CLI from dist/, as run.ts builds it first.
    ensurePackagesBuilt('auto')
    r = await runCodeBesideSuite({
      rows: 2000,
      seconds: 0.3,
      dataDir,
      startupTimeoutMs: 60_000,
      scale: 0.01,
    })
  }, 120_000)

  it('answers the GETs of every phase, raw node:http’s too, none failed', () => {
    const phases = [r.getAlone, r.getBeside, r.rawAlone, r.rawBeside, ...r.each.map((e) => e.gets)]
    expect(phases).toHaveLength(4 + heavyCode().length)
    for (const s of phases) {
      expect(s.error).toBeUndefined()
      expect(s.failed).toBe(0)
      expect(s.probes).toBeGreaterThan(0)
      expect(s.slowestMs).toBeGreaterThanOrEqual(s.p99Ms)
    }
  })

  it('calls every kind of code, each answered', () => {
    for (const h of [r.codeAlone, r.codeBeside]) {
      expect(h.error).toBeUndefined()
      expect(h.failed).toBe(0)
      expect(h.medianMs).toHaveLength(heavyCode().length)
      for (const x of h.medianMs) expect(x).toBeGreaterThan(0)
    }
    for (const { code } of r.each) {
      expect(code.failed).toBe(0)
      expect(code.medianMs[0]).toBeGreaterThan(0)
    }
  })
})
