/**
 * The set algebra by kernels (parallel-sets.ts) against the per-row path (sets/set-algebra.ts):
 * any lists of distinct row ids, in any order, typed or not, give the same members in the same
 * order, run here in steps, or part by part as a pool cuts them (each part's kept members laid
 * end to end). A list with a negative row id (a set adopted from another process) takes the
 * per-row path and answers the same.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { and, except, intersects, or } from '../sets/set-algebra.js'
import { rowIdBuffer, sharedBytes } from '../parallel/shared-arrays.js'
import { partsOf } from '../parallel/parallel-pool.js'
import { cancelFlag } from '../parallel/kernels.js'
import { anyMarked, keepRows, markRows, rowIdBounds } from '../parallel/set-kernels.js'
import { combineWork, intersectsWork } from './parallel-sets.js'
import { finish } from './slices.js'

const rowsOf = (domain: number) =>
  fc.uniqueArray(fc.integer({ min: -2, max: domain - 1 }), { maxLength: 120 })

// Negative row ids now and then only.
const lists = fc
  .constantFrom(60, 1 << 16)
  .chain((domain) => fc.tuple(rowsOf(domain), rowsOf(domain), fc.boolean()))
  .map(([a, b, typed]) => {
    const as = (xs: number[]) => {
      if (!typed) return xs
      const out = rowIdBuffer(xs.length)
      out.set(xs)
      return out
    }
    return [as(a), as(b)] as const
  })

describe('set algebra by kernels', () => {
  test.prop([lists, fc.integer({ min: 1, max: 50 })])(
    'AND, OR, EXCEPT, INTERSECT: the per-row path answers, in order',
    ([a, b], min) => {
      expect([...finish(combineWork('AND', a, b, min))]).toEqual(and(a, b))
      expect([...finish(combineWork('OR', a, b, min))]).toEqual(or(a, b))
      expect([...finish(combineWork('EXCEPT', a, b, min))]).toEqual(except(a, b))
      expect(finish(intersectsWork(a, b, min))).toBe(intersects(a, b))
    },
  )

  const positive = fc
    .constantFrom(60, 1 << 16)
    .chain((domain) =>
      fc.tuple(
        fc.uniqueArray(fc.nat({ max: domain - 1 }), { maxLength: 120 }),
        fc.uniqueArray(fc.nat({ max: domain - 1 }), { maxLength: 120 }),
      ),
    )

  test.prop([positive, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 30 })])(
    'the kernels part by part, as a pool of any size cuts the lists: the per-row answers',
    ([a, b], threads, min) => {
      const parts = (length: number) => partsOf(length, threads, min)
      const bitmap = (rows: number[]) => {
        const max = Math.max(
          -1,
          ...parts(rows.length).map((p) => rowIdBounds({ rows }, p.from, p.to, cancelFlag())[1]),
        )
        const mark = sharedBytes(max + 1)
        for (const p of parts(rows.length)) markRows({ rows, mark }, p.from, p.to, cancelFlag())
        return mark
      }
      const kept = (rows: number[], mark: Uint8Array, keep: boolean) => {
        const out = rowIdBuffer(rows.length)
        return parts(rows.length).flatMap((p) => {
          const [from, n] = keepRows({ rows, mark, keep, out }, p.from, p.to, cancelFlag())
          return [...out.subarray(from, from + n)]
        })
      }
      expect(kept(a, bitmap(b), true)).toEqual(and(a, b))
      expect(kept(a, bitmap(b), false)).toEqual(except(a, b))
      expect([...a, ...kept(b, bitmap(a), false)]).toEqual(or(a, b))
      const hit = parts(a.length).some(
        (p) => anyMarked({ rows: a, mark: bitmap(b) }, p.from, p.to, cancelFlag()) === 1,
      )
      expect(hit).toBe(intersects(a, b))
    },
  )
})
