/**
 * The three searches of multi-search.ts against the plainest one, `needles.some(n => text.includes(n))`,
 * on random texts and needles over a small alphabet (so that needles occur, overlap and hold each
 * other), with accented, decomposed, astral and lone-surrogate code units, whatever searchKind
 * would have chosen.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { containsAny, searchKind, type SearchKind } from './multi-search.js'

const PIECES = [
  'a',
  'b',
  'c',
  'ab',
  'ba',
  'aab',
  'é',
  'e',
  'e\u0301',
  'ç',
  '😀',
  '\ud83d',
  ' ',
  '@',
]
const piece = fc.constantFrom(...PIECES)
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''))
const needleOf = (min: number) =>
  fc.array(piece, { minLength: min, maxLength: min + 5 }).map((p) => p.join(''))
const needle = needleOf(0)

/**
 * A text and needles of at least `min` pieces, some of them cut from the text (they occur, at any
 * place, with any length).
 */
const caseOf = (min: number) =>
  text.chain((t) =>
    fc.tuple(
      fc.constant(t),
      fc.array(
        fc.oneof(
          needleOf(min),
          fc
            .tuple(fc.nat(t.length), fc.integer({ min: Math.max(1, min), max: 14 }))
            .map(([at, n]) => t.slice(at, at + n)),
        ),
        { maxLength: 14 },
      ),
    ),
  )

const KINDS: readonly SearchKind[] = ['each', 'skipping', 'automaton']

describe('containsAny', () => {
  // Needles of two pieces or more give the skipping search windows of two units and more.
  for (const min of [0, 2, 4])
    test.prop([caseOf(min)], { numRuns: 1500 })(
      `answers as includes does, by every kind (needles of ${min}+ pieces)`,
      ([t, ns]) => {
        const expected = ns.some((n) => t.includes(n))
        for (const kind of KINDS) expect(containsAny(ns, kind)(t), kind).toBe(expected)
      },
    )

  test.prop([fc.array(needle, { minLength: 1, maxLength: 14 }), fc.array(text, { maxLength: 8 })], {
    numRuns: 500,
  })('answers as includes does for many texts with one matcher', (ns, texts) => {
    for (const kind of KINDS) {
      const search = containsAny(ns, kind)
      for (const t of texts) expect(search(t), kind).toBe(ns.some((n) => t.includes(n)))
    }
  })

  it('finds needles that end where another begins, or lie inside another', () => {
    const needles = ['abcd', 'bc', 'cdef', 'xyzxyz', 'zxy']
    for (const kind of KINDS) {
      const search = containsAny(needles, kind)
      expect(search('__abcX'), kind).toBe(true) // bc, inside abcd
      expect(search('abcdef'), kind).toBe(true)
      expect(search('xyzxZ'), kind).toBe(false)
      expect(search('xyzxy'), kind).toBe(true) // zxy
      expect(search(''), kind).toBe(false)
      expect(containsAny([...needles, ''], kind)(''), kind).toBe(true)
    }
  })
})

describe('searchKind', () => {
  const words = (n: number, length: number) =>
    Array.from(
      { length: n },
      (_, i) => `${'w'.repeat(length - 3)}${i.toString(36).padStart(3, '0')}`,
    )

  it('keeps one includes per needle for one needle, and for two to four short ones', () => {
    expect(searchKind(['bipli'])).toBe('each')
    expect(searchKind(['abcd', 'efgh'])).toBe('each')
    expect(searchKind(['abc', 'def', 'ghi'])).toBe('each')
    expect(searchKind(['ab', 'cd', 'ef', 'gh'])).toBe('each')
    expect(searchKind(['', 'abc', 'def', 'ghi', 'jkl'])).toBe('each') // '' is in every text
  })

  it('skips along the text for a few to a few dozen needles of some length', () => {
    expect(searchKind(['feptroc', 'prunlucocfin'])).toBe('skipping')
    expect(searchKind(words(10, 5))).toBe('skipping')
    expect(searchKind(words(20, 8))).toBe('skipping')
  })

  it('runs the automaton for many needles or short ones', () => {
    expect(searchKind(words(30, 4))).toBe('automaton')
    expect(searchKind(words(100, 6))).toBe('automaton')
    expect(searchKind(['ab', 'cd', 'ef', 'gh', 'ij', 'kl'])).toBe('automaton')
  })
})
