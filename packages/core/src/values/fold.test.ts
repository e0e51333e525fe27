import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { AT_ONLY, equalsFolded, fold, wildcardMatcher } from './fold.js'

// Strings built from letters that fold in interesting ways: case, precomposed and combining
// accents, a dotted capital I, the Kelvin sign, ligatures, and plain ASCII around them.
const PIECES = [
  'a',
  'A',
  'e',
  'E',
  'é',
  'É',
  'e\u0301',
  '\u0301',
  'İ',
  'i',
  'K',
  '\u212a',
  'ß',
  'ﬁ',
  'z',
  ' ',
  '@',
]
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join(''))

describe('equalsFolded', () => {
  test.prop(
    [
      fc.oneof(text, fc.string({ maxLength: 6 }), fc.string({ maxLength: 4, unit: 'grapheme' })),
      fc.oneof(text, fc.string({ maxLength: 6 })),
    ],
    {
      numRuns: 3000,
    },
  )('is fold(s) === folded for any s and any folded key', (s, k) => {
    const key = fold(k)
    expect(equalsFolded(s, key)).toBe(fold(s) === key)
    expect(equalsFolded(k, key)).toBe(true)
  })

  it('matches across case and accents, and stops at the first ASCII difference', () => {
    expect(equalsFolded('Paris', 'paris')).toBe(true)
    expect(equalsFolded('PARÍS', 'paris')).toBe(true)
    expect(equalsFolded('Pari\u0301s', 'paris')).toBe(true)
    expect(equalsFolded('paris\u0301', 'paris')).toBe(true)
    expect(equalsFolded('Lyon', 'paris')).toBe(false)
    expect(equalsFolded('Pari', 'paris')).toBe(false)
    expect(equalsFolded('Pariss', 'paris')).toBe(false)
  })
})

describe('fold on Latin-1 text', () => {
  const rule = (s: string) =>
    s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().normalize('NFC')
  it('gives what the general rule gives, character by character and in any text', () => {
    for (let c = 0; c < 256; c++) {
      const s = String.fromCharCode(c)
      expect(fold(s), `U+${c.toString(16)}`).toBe(rule(s))
    }
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)) }),
        (s) => {
          expect(fold(s)).toBe(rule(s))
        },
      ),
      { numRuns: 500 },
    )
  })

  it('gives it for a text past one call’s arguments (made at once from its code units)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 8193, max: 30_000 }),
        (s, length) => {
          const long = s.repeat(Math.ceil(length / s.length)).slice(0, length)
          expect(fold(long)).toBe(rule(long))
        },
      ),
      { numRuns: 50 },
    )
  })
})

describe('wildcardMatcher with the language’s wildcard alone', () => {
  it('takes `*` as a character and `@` as the wildcard', () => {
    const match = wildcardMatcher('a*b@', AT_ONLY)
    expect(match('a*bxyz')).toBe(true)
    expect(match('a*b')).toBe(true)
    expect(match('axxbyy')).toBe(false)
    // The queries' default still takes both.
    expect(wildcardMatcher('a*b@')('axxbyy')).toBe(true)
  })
})
