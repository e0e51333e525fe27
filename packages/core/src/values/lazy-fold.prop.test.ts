import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fold } from './fold.js'
import { compareLazy, equalLazy, foldLazy, hashLazy, lazyKey, startsWithLazy } from './lazy-fold.js'

// Texts with capitals, accents and other scripts, and some of one fold (`Élodie`, `elodie`).
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ maxLength: 8, unit: 'grapheme' }),
  fc.constantFrom('Élodie', 'elodie', 'ELODIE', 'Straße', 'STRASSE', 'ǅ', 'İ', 'C0001', 'c0001'),
)
const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0)
const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

describe('lazy keys', () => {
  it('stand for the fold of their text, and compare, match and hash as the folds do', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const [ka, kb] = [lazyKey(a), lazyKey(b)]
        const [fa, fb] = [fold(a), fold(b)]
        expect(foldLazy(ka)).toBe(fa)
        // A folded text is its own lazy key: a query's operand compares with the stored keys.
        for (const [x, y] of [
          [ka, kb],
          [fa, kb],
          [ka, fb],
        ] as const) {
          expect(sign(compareLazy(x, y))).toBe(order(fa, fb))
          expect(equalLazy(x, y)).toBe(fa === fb)
          if (fa === fb) expect(hashLazy(x)).toBe(hashLazy(y))
        }
        expect(startsWithLazy(ka, fb)).toBe(fa.startsWith(fb))
      }),
      { numRuns: 500 },
    )
  })
})
