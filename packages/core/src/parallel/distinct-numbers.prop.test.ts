/**
 * The kernel of `$distinct` over a number against the per-row path it replaced (a Set of the
 * non-null values of the rows, in their order, sorted): any values (null as NaN, -0 and 0,
 * infinities), read by row id or through a list of rows in any order, cut in any parts and merged
 * in any number of them, give the same values in the same order.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { cancelFlag } from './kernels.js'
import { DistinctMerge, distinctNumbers } from './distinct-numbers.js'
import { partsOf } from './parallel-pool.js'
import { nanColumn } from './shared-arrays.js'

const value = fc.oneof(
  fc.constantFrom(Number.NaN, -0, 0, Infinity, -Infinity),
  fc.integer({ min: -5, max: 5 }),
  fc.double(),
)

/** Today's per-row path (query/aggregate.ts before the kernel). */
function perRow(column: Float64Array, rows: readonly number[]): number[] {
  const seen = new Set<number>()
  for (const r of rows) {
    const v = column[r]!
    if (v === v) seen.add(v)
  }
  return Array.from(Float64Array.from(seen).sort())
}

describe('distinctNumbers', () => {
  test.prop([
    fc.array(value, { minLength: 1, maxLength: 300 }),
    fc.boolean(),
    fc.integer({ min: 1, max: 8 }),
    fc.integer({ min: 1, max: 40 }),
  ])(
    'part by part, merged: the values of the per-row path, in its order',
    (values, byList, threads, min) => {
      const column = nanColumn(values.length)
      column.set(values)
      // A list of rows: a selection's, some rows twice over or left out, in any order.
      const rows = byList ? values.map((_, i) => (i * 7) % values.length).reverse() : undefined
      const length = rows?.length ?? values.length
      const merged = new DistinctMerge()
      for (const p of partsOf(length, threads, min))
        merged.add(
          distinctNumbers({ column, ...(rows ? { rows } : {}) }, p.from, p.to, cancelFlag()),
        )
      const got = Array.from(merged.values())
      const expected = perRow(column, rows ?? values.map((_, i) => i))
      expect(got).toEqual(expected)
      // toEqual tells -0 from 0: the per-row path never gives -0 (Set.add makes it +0).
      expect(got.some((v) => Object.is(v, -0))).toBe(false)
    },
  )

  test.prop(
    [
      fc.array(value, { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 5000, max: 20_000 }),
      fc.constantFrom(1, 0.5, -1.25),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 500, max: 9000 }),
    ],
    { numRuns: 40 },
  )(
    'past 4,096 values a part sorts them: still the values of the per-row path',
    (pattern, length, step, threads, min) => {
      // Two rows in three of many values, every third one of the pattern's (nulls, -0, repeats).
      const column = nanColumn(length)
      for (let i = 0; i < length; i++)
        column[i] = i % 3 === 0 ? pattern[i % pattern.length]! : (i % 7000) * step
      const merged = new DistinctMerge()
      for (const p of partsOf(length, threads, min))
        merged.add(distinctNumbers({ column }, p.from, p.to, cancelFlag()))
      const got = Array.from(merged.values())
      expect(got).toEqual(
        perRow(
          column,
          Array.from({ length }, (_, i) => i),
        ),
      )
      expect(got.some((v) => Object.is(v, -0))).toBe(false)
    },
  )

  test.prop([
    fc.array(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 20 }), { maxLength: 60 }),
  ])('merges any number of sorted parts as one sort of them all', (lists) => {
    const merged = new DistinctMerge()
    for (const list of lists) merged.add(Float64Array.from(new Set(list)).sort())
    expect(Array.from(merged.values())).toEqual(
      Array.from(Float64Array.from(new Set(lists.flat())).sort()),
    )
  })
})
