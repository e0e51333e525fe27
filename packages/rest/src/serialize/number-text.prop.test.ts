import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { numberText } from './number-text.js'

describe('numberText', () => {
  it('writes every finite double as String does', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(numberText(x)).toBe(String(x))
      }),
      { numRuns: 20_000 },
    )
  })

  it('writes amounts of up to two decimals, at any scale, as String does', () => {
    const amount = fc
      .tuple(
        fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
        fc.constantFrom(1, 10, 100, 1000),
        fc.integer({ min: 0, max: 6 }),
      )
      .map(([n, divisor, shift]) => n / divisor / 10 ** (shift - 3))
    fc.assert(
      fc.property(amount, (x) => {
        expect(numberText(x)).toBe(String(x))
      }),
      { numRuns: 50_000 },
    )
  })

  it('writes the edges as String does', () => {
    for (const x of [
      0,
      -0,
      0.01,
      -0.01,
      0.1,
      -0.1,
      0.5,
      0.05,
      -0.05,
      0.3,
      0.1 + 0.2,
      1.005,
      2.675,
      99.99,
      179204.08,
      2 ** 31 - 0.01,
      -(2 ** 31) + 0.01,
      2 ** 31 + 0.5,
      -(2 ** 31) - 0.5,
      2 ** 31,
      2 ** 53,
      1e21,
      1e-7,
      123456789.12,
      21474836.47,
      Number.MIN_VALUE,
      Number.MAX_VALUE,
    ])
      expect(numberText(x)).toBe(String(x))
  })
})
