/**
 * The comparisons of texts in steps (text-compare-steps.ts) answer what the plain ones answer, for
 * any two texts cut in pieces of any length: letters with and without accents, Greek with its
 * final sigma, combining marks, spaces, punctuation, `@` wildcards and `_`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UNCOUNTED } from './passes.js'
import { compareTexts, containsKeyword, textEquals } from './text-compare.js'
import { compareTextsSteps, containsKeywordSteps, textEqualsSteps } from './text-compare-steps.js'
import { finish } from './work.js'

const PARTS = [
  'a',
  'B',
  'é',
  'E\u0301',
  'ß',
  'Σ',
  'σ',
  'ς',
  'ΑΣ',
  ' ',
  ',',
  '.',
  "'",
  '_',
  '1',
  '@',
  'ﬁ',
  'İ',
]
const text = fc.array(fc.constantFrom(...PARTS), { maxLength: 24 }).map((p) => p.join(''))
const piece = fc.integer({ min: 1, max: 6 })

describe('comparisons of texts in steps', () => {
  it('order two texts as compareTexts does', () => {
    fc.assert(
      fc.property(text, text, piece, (a, b, n) => {
        expect(Math.sign(finish(compareTextsSteps(UNCOUNTED, a, b, n)))).toBe(
          Math.sign(compareTexts(a, b)),
        )
      }),
      { numRuns: 500 },
    )
  })

  it('tell two texts equal as textEquals does, a text against itself too', () => {
    fc.assert(
      fc.property(text, text, piece, (a, b, n) => {
        expect(finish(textEqualsSteps(UNCOUNTED, a, b, n))).toBe(textEquals(a, b))
        expect(finish(textEqualsSteps(UNCOUNTED, a, a.toUpperCase(), n))).toBe(
          textEquals(a, a.toUpperCase()),
        )
      }),
      { numRuns: 500 },
    )
  })

  it('find a keyword as containsKeyword does, one of the text’s own words too', () => {
    fc.assert(
      fc.property(text, text, piece, fc.nat(), (a, b, n, i) => {
        expect(finish(containsKeywordSteps(UNCOUNTED, a, b, n))).toBe(containsKeyword(a, b))
        const words = a.split(/[ ,.]/).filter((w) => w !== '')
        const word = words[i % Math.max(words.length, 1)] ?? 'x'
        expect(finish(containsKeywordSteps(UNCOUNTED, a, word, n))).toBe(containsKeyword(a, word))
      }),
      { numRuns: 500 },
    )
  })
})
