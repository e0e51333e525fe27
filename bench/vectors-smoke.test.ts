/**
 * @module The vectors suite cannot rot (issue 49): runs it at 2,000 vectors, one sample a case, in
 * process and over HTTP (both servers in this process), and checks that every case ran and found
 * the rows the plain loop finds (the check column: rows found and the keys kept), that the memory
 * was measured, and that the approximate top 10 ran on its two HNSW indexes (a few seconds to
 * build at this size) with the datastore's index answering. The figures themselves are not
 * checked, bar a recall that says the right neighbours came back: speed goals live in the bench,
 * never in tests.
 */
import * as core from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EFS,
  timeVectorGroups,
  vectorFixture,
  vectorIndexMeasure,
  vectorReport,
  VECTOR_INDEX_OP,
  VECTOR_OPS,
  type IndexMeasure,
  type VectorFixture,
  type VectorResult,
} from './suites/vectors.bench.ts'

const ONCE = { warmup: 0, reps: 1, minSampleMs: 0 }
let fx: VectorFixture | undefined
let results: VectorResult[] = []
let index: IndexMeasure | undefined

describe('npm run bench -- --suite=vectors', () => {
  beforeAll(async () => {
    fx = await vectorFixture(core, 2000)
    results = await timeVectorGroups(fx, ONCE)
    index = await vectorIndexMeasure(fx, ONCE)
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

  it('times the approximate top 10 of both indexes at every ef, once they are built', () => {
    const { entistore, direct, timed } = index!
    for (const b of [entistore, direct]) expect(b.ms).toBeGreaterThan(0)
    expect(timed.map((t) => [t.case.kind, t.case.ef])).toEqual(
      EFS.flatMap((ef) => [
        ['entistore', ef],
        ['peer', ef],
      ]),
    )
    for (const t of timed) {
      expect(t.error, `${t.case.impl} ef ${t.case.ef}`).toBeUndefined()
      expect(t.median).toBeGreaterThan(0)
      // Clusters of ≈100 vectors, 2,000 in all: HNSW at ef 16 misses next to nothing.
      expect(t.case.recall, `${t.case.impl} ef ${t.case.ef}`).toBeGreaterThan(0.9)
    }
  })

  it('measures the memory of the stored vectors and gives every goal line', () => {
    expect(fx!.memory.perVector).toBeGreaterThan(0)
    const { text, goals } = vectorReport(fx!, results, index)
    expect(goals.map((g) => g[1])).toEqual([...VECTOR_OPS, 'vec-memory', VECTOR_INDEX_OP])
    for (const g of goals) expect(g[5]).toMatch(/^(PASS|MISS)$/)
    expect(text).toContain('approximate top 10, 2k × 256 dimensions')
    expect(vectorReport(fx!, results).text).toContain('approximate index: not measured')
  })
})
