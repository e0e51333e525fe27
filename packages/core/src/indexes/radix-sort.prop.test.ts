import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortStringsStable } from './radix-sort.js'
import { SCRATCH_MAX, sortNumbersStable } from '../parallel/sort-numbers.js'

/** The reference: a stable comparison sort of (value, id) pairs. */
function reference(values: number[]): [number[], number[]] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b)
  return [order.map((i) => values[i]!), order]
}

function sorted(values: number[]): [number[], number[]] {
  const v = Float64Array.from(values)
  const ids = Int32Array.from(values, (_, i) => i)
  sortNumbersStable(v, ids)
  return [[...v], [...ids]]
}

const double = fc.double({ noNaN: true, noDefaultInfinity: false })
// Few distinct values, so that ties (and their order) are tested; and sizes on both sides of the
// comparison-sort threshold.
const arrays = fc.oneof(
  fc.array(double, { maxLength: 100 }),
  fc
    .tuple(fc.array(double, { minLength: 1, maxLength: 40 }), fc.integer({ min: 2048, max: 6000 }))
    .chain(([pool, n]) => fc.array(fc.constantFrom(...pool), { minLength: n, maxLength: n })),
  fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 2048, maxLength: 5000 }),
)

describe('sortNumbersStable', () => {
  it('sorts like a stable comparison sort, ties in input order', () => {
    fc.assert(
      fc.property(arrays, (values) => {
        const [v, ids] = sorted(values)
        const [rv, rids] = reference(values)
        // -0 and 0 are equal: compare with Object.is semantics removed.
        expect(v.map((x) => x + 0)).toEqual(rv.map((x) => x + 0))
        expect(ids).toEqual(rids)
      }),
      { numRuns: 60 },
    )
  })

  it('orders negative, fractional, huge and infinite values', () => {
    const values = [3, -0, 0, -1.5, Infinity, -Infinity, 1e300, -1e-300, 2 ** 53, 0.1]
    const big = Array.from({ length: 3000 }, (_, i) => values[i % values.length]!)
    expect(sorted(big)).toEqual(reference(big))
  })

  it('sorts above its reused arrays (made for the call) and below them, in turn, alike', () => {
    // A seeded shuffle of few distinct values: ties across the whole array.
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    for (const n of [SCRATCH_MAX + 5000, 3000, SCRATCH_MAX, 2500, SCRATCH_MAX + 1]) {
      const values = Array.from({ length: n }, () => (next() % 997) - 400.5)
      expect(sorted(values)).toEqual(reference(values))
    }
  })
})

describe('sortStringsStable', () => {
  const reference = (keys: string[]) =>
    keys
      .map((_, i) => i)
      .sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b))
  // Shared prefixes longer than seven units, empty strings, non-ASCII (which ties in the prefix),
  // and repeats.
  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      '',
      'a',
      'ab',
      'abcdefgh',
      'abcdefghi',
      'abcdefgz',
      'é',
      'e\u0301',
      'z\uffff',
      '~',
    ),
    fc.string({ unit: 'grapheme', maxLength: 9 }),
    fc.string({ maxLength: 3 }).map((s) => `prefix-shared-${s}`),
  )
  it('orders by code units, equal keys by position', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(text, { maxLength: 200 }),
          fc.array(text, { minLength: 2048, maxLength: 3000 }),
        ),
        (keys) => {
          expect([...sortStringsStable(keys)]).toEqual(reference(keys))
        },
      ),
      { numRuns: 60 },
    )
  })
})
