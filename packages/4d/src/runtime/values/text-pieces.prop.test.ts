import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fold } from '@entistore/core'
import { UNCOUNTED } from './passes.js'
import { byPieces } from './text-pieces.js'

const MARKS = /\p{M}/gu
const withoutAccents = (s: string): string => s.normalize('NFD').replace(MARKS, '').normalize('NFC')

// Characters whose changes depend on their neighbours: final sigmas, combining marks, letters
// that compose with them, Hangul jamo, what case mapping ignores, one-to-many mappings.
const CHARS = [
  'a',
  'A',
  'e',
  'É',
  ' ',
  '.',
  "'",
  ':',
  '1',
  'ß',
  'ŉ',
  'İ',
  'Σ',
  'σ',
  'ς',
  'Α',
  'λ',
  '\u0301',
  '\u0308',
  '\u0327',
  '\u1100',
  '\u1161',
  '\u11a8',
  '가',
  'ﬁ',
  'Å',
  '\u212b',
  '=',
  '\u0338',
  'ǅ',
  '·',
  '\u00ad',
  'æ',
  '😀',
  '\ud83d',
]
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 60 }).map((cs) => cs.join(''))

describe('byPieces', () => {
  it('changes a text cut in pieces as it changes it whole', () => {
    const changes: ((s: string) => string)[] = [
      (s) => s.toUpperCase(),
      (s) => s.toLowerCase(),
      (s) => withoutAccents(s).toUpperCase(),
      (s) => withoutAccents(s).toLowerCase(),
      (s) => s.normalize('NFC'),
      (s) => s.normalize('NFD'),
      fold,
    ]
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 8 }), (t, length) => {
        for (const change of changes) expect(byPieces(UNCOUNTED, t, change, length)).toBe(change(t))
      }),
      { numRuns: 3000 },
    )
  })
})
