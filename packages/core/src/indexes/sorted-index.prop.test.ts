import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareKeys, type SortKey } from '../values/compare.js'
import { SortedIndex } from './sorted-index.js'

/** The reference: a stable comparison sort of (key, row) pairs by compareKeys. */
function reference(keys: SortKey[], rows: number[]): [SortKey[], number[]] {
  const order = keys.map((_, i) => i).sort((a, b) => compareKeys(keys[a]!, keys[b]!) || a - b)
  return [order.map((i) => keys[i]!), order.map((i) => rows[i]!)]
}

// Columns as they come: numbers, text with few or many distinct values (each sort path), nulls,
// and mixed kinds; sizes on both sides of the radix sort's threshold.
const column = (value: fc.Arbitrary<SortKey>) =>
  fc.oneof(
    fc.array(value, { maxLength: 200 }),
    fc.array(value, { minLength: 2048, maxLength: 4000 }),
  )
const fewTexts = fc.constantFrom('2024-01-02', '2024-01-10', 'b', 'a', '', 'é', 'zz')
const anyText = fc.string({ maxLength: 14 })
const maybeNull = <T extends SortKey>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) })

describe('SortedIndex.resetFrom', () => {
  it('orders every kind of column as a stable sort by compareKeys, ties in row order', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          column(maybeNull(fc.double({ noNaN: true }))),
          column(maybeNull(fc.integer({ min: 0, max: 20 }))),
          column(maybeNull(fewTexts)),
          column(maybeNull(anyText)),
          column(maybeNull(fc.oneof(fc.boolean(), fc.integer(), anyText))),
        ),
        (keys) => {
          const rows = keys.map((_, i) => i * 3 + 1)
          const ix = new SortedIndex('x', false)
          ix.resetFrom(keys, Int32Array.from(rows))
          const [k, r] = ix.content()
          const [rk, rr] = reference(keys, rows)
          expect([...r]).toEqual(rr)
          expect(k.map((x) => (x === 0 ? 0 : x))).toEqual(rk.map((x) => (x === 0 ? 0 : x)))
        },
      ),
      { numRuns: 80 },
    )
  })
})
