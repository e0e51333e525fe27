/**
 * The three searches of multi-search.ts against the plainest one, `needles.some(n => text.includes(n))`,
 * on random texts and needles over a small alphabet (so that needles occur, overlap and hold each
 * other), with accented, decomposed, astral and lone-surrogate code units, whatever searchKind
 * would have chosen; the tries of the anchored forms (`===`, `startsWith`, `endsWith`), as tables
 * and as Maps, and the test of every form at once (matchesAny, by whichever reading it chooses)
 * against the four native tests one by one, with patterns cut from the text.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  containsAny,
  matchesAny,
  patternsTogether,
  searchKind,
  type SearchKind,
} from './multi-search.js'
import { anchoredAny } from './anchored-search.js'

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

/** Cut from a text (so that it begins, ends, holds or equals it) or made of pieces. */
const patternTextOf = (t: string) =>
  fc.oneof(
    needle,
    fc.constant(t),
    fc.nat(t.length).map((n) => t.slice(0, n)),
    fc.nat(t.length).map((n) => t.slice(n)),
    fc
      .tuple(fc.nat(t.length), fc.integer({ min: 1, max: 6 }))
      .map(([at, n]) => t.slice(at, at + n)),
  )

/** A text and patterns of every form, some cut from the text. */
const formsCase = text.chain((t) => {
  const some = (max: number) => fc.array(patternTextOf(t), { maxLength: max })
  return fc.tuple(
    fc.constant(t),
    fc.record({ exact: some(6), prefixes: some(8), suffixes: some(8), contains: some(10) }),
  )
})

/** The plainest reading of the forms. */
const naive =
  (f: { exact: string[]; prefixes: string[]; suffixes: string[]; contains: string[] }) =>
  (t: string): boolean =>
    f.exact.includes(t) ||
    f.prefixes.some((p) => t.startsWith(p)) ||
    f.suffixes.some((s) => t.endsWith(s)) ||
    f.contains.some((c) => t.includes(c))

describe('anchoredAny', () => {
  // A table of 1 entry at most: the tries of Maps.
  for (const tableMax of [undefined, 1])
    test.prop([formsCase], { numRuns: 1500 })(
      `answers as ===, startsWith and endsWith do (${tableMax ? 'Maps' : 'tables'})`,
      ([t, f]) => {
        const expected = naive({ ...f, contains: [] })(t)
        expect(anchoredAny(f.exact, f.prefixes, f.suffixes, tableMax)(t)).toBe(expected)
      },
    )

  it('reads a text from its start for the values and prefixes, from its end for the suffixes', () => {
    const test = anchoredAny(['abc', 'x'], ['abd', 'ab\u0301'], ['cba', 'é'])
    for (const [t, expected] of [
      ['abc', true],
      ['abcd', false], // begins with a value, is not one
      ['abdxyz', true],
      ['ab', false], // a prefix of a prefix
      ['zzcba', true],
      ['cb', false],
      ['café', true],
      ['cafe\u0301', false], // code units, not folded characters
      ['x', true],
      ['', false],
    ] as const)
      expect(test(t), t).toBe(expected)
    expect(anchoredAny([''], [], ['zz'])('')).toBe(true)
    expect(anchoredAny([], ['a'], [''])('b')).toBe(true)
  })
})

describe('matchesAny', () => {
  test.prop([formsCase], { numRuns: 3000 })(
    'answers as the four tests do, one by one',
    ([t, f]) => {
      expect(matchesAny(f)(t)).toBe(naive(f)(t))
    },
  )

  // Contains patterns of letters no text has, short and many: the automaton of every form, where
  // only the marks of the anchored patterns decide.
  const absent = fc.array(fc.constantFrom('q', 'w', 'z', 'qw', 'zq'), {
    minLength: 5,
    maxLength: 9,
  })
  test.prop([formsCase, absent], { numRuns: 1500 })(
    'answers as the four tests do in the automaton of every form',
    ([t, f], contains) => {
      const forms = { ...f, contains: [...contains, 'q', 'w', 'z', 'qw', 'zq'] }
      const anchored = [f.exact, f.prefixes, f.suffixes].reduce((n, l) => n + new Set(l).size, 0)
      if (!f.prefixes.includes('') && !f.suffixes.includes(''))
        expect(patternsTogether(forms)).toBe(anchored + 5)
      expect(matchesAny(forms)(t)).toBe(naive(forms)(t))
    },
  )

  test.prop([fc.array(formsCase, { minLength: 1, maxLength: 6 })], { numRuns: 300 })(
    'answers for many texts with one matcher',
    (cases) => {
      const f = cases[0]![1]
      const matches = matchesAny(f)
      for (const [t] of cases) expect(matches(t)).toBe(naive(f)(t))
    },
  )

  it('joins the anchored patterns to the contains ones when they run an automaton', () => {
    const contains = ['ab', 'cd', 'ef', 'gh', 'ij', 'kl']
    const forms = { exact: ['xyz'], prefixes: ['pre', 'q'], suffixes: ['post'], contains }
    expect(searchKind(contains)).toBe('automaton')
    expect(patternsTogether(forms)).toBe(10)
    const matches = matchesAny(forms)
    for (const [t, expected] of [
      ['xyz', true],
      ['xyzz', false],
      ['prelude', true],
      ['a prelude', false],
      ['signpost', true],
      ['postman', false],
      ['qq', true],
      ['zzefzz', true],
      ['', false],
    ] as const)
      expect(matches(t), t).toBe(expected)
    // Few contains patterns, searched by themselves: the anchored ones in tries beside them.
    expect(patternsTogether({ ...forms, contains: ['abc'] })).toBe(4)
    expect(patternsTogether({ exact: ['a'], prefixes: [], suffixes: [], contains: [] })).toBe(0)
    expect(patternsTogether({ exact: [], prefixes: [''], suffixes: ['a'], contains: [] })).toBe(0)
  })
})
