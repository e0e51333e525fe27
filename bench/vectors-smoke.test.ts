/**
 * @module The vectors suite cannot rot (issue 49): runs it at 2,000 vectors, one sample a case, in
 * process and over HTTP (both servers in this process), and checks that every case ran and found
 * the rows the plain loop finds (the check column: rows found and the keys kept), that the memory
 * was measured and that the table says the approximate index is not built. The figures themselves
 * are not checked: speed goals live in the bench, never in tests.
 */
import * as core from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  timeVectorGroups,
  vectorFixture,
  vectorReport,
  VECTOR_OPS,
  type VectorFixture,
  type VectorResult,
} from './suites/vectors.bench.ts'

let fx: VectorFixture | undefined
let results: VectorResult[] = []

describe('npm run bench -- --suite=vectors', () => {
  beforeAll(async () => {
    fx = await vectorFixture(core, 2000)
    results = await timeVectorGroups(fx, { warmup: 0, reps: 1, minSampleMs: 0 })
  }, 120_000)
  afterAll(() => fx?.close())

  it('times every case of both queries, each finding the rows the plain loop finds', () => {
    expect(results.map((r) => r.group.id)).toEqual(VECTOR_OPS)
    for (const { group, timed } of results) {
      const [base] = timed
      // Rows found plus the keys kept: the cluster of each query (≈100 rows) at cosine ≥ 0.8.
      expect(base!.check, group.id).toBeGreaterThan(10)
      for (const t of timed) {
        expect(t.error, `${group.id}: ${t.case.impl}`).toBeUndefined()
        expect(t.median, `${group.id}: ${t.case.impl}`).toBeGreaterThan(0)
        expect(t.check, `${group.id}: ${t.case.impl}`).toBe(base!.check)
      }
    }
  })

  it('measures the memory of the stored vectors and gives every goal line', () => {
    expect(fx!.memory.perVector).toBeGreaterThan(0)
    const { text, goals } = vectorReport(fx!, results)
    expect(goals.map((g) => g[1])).toEqual([...VECTOR_OPS, 'vec-memory'])
    for (const g of goals) expect(g[5]).toMatch(/^(PASS|MISS)$/)
    expect(text).toContain('approximate index: not built (exact scan only)')
  })
})
