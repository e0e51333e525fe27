/**
 * An IN list or an OR of text patterns finds, through the folded column and the one-pass search of
 * its patterns, the rows that its patterns find one by one (wildcardMatcher on the folded text, as
 * a single comparison does): random texts with case and accents, random lists of contains, prefix,
 * suffix, exact and general patterns (`@@`, `a@@b`, patterns inside others). And, on ASCII texts
 * and on accented ones, an IN of mixed patterns cut from the texts finds what its patterns find
 * each queried alone through the engine, and the OR of them too.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { DOC_MODEL } from './text-scan.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { fold, wildcardMatcher } from '../values/fold.js'

const PIECES = ['a', 'b', 'ab', 'ba', 'aab', 'A', 'é', 'É', 'e', 'e\u0301', 'ç', 'C', ' ', 'x']
const literal = (max: number, min = 0) =>
  fc.array(fc.constantFrom(...PIECES), { minLength: min, maxLength: max }).map((p) => p.join(''))
const body = fc.option(literal(30), { nil: null, freq: 8 })
// Mostly `@x@` with some x, so that lists of them reach the one-pass searches; `@@` (every
// text) now and then.
const pattern = fc.oneof(
  { weight: 6, arbitrary: literal(6, 1).map((l) => `@${l}@`) },
  fc.constantFrom('@@', '@', '@a@@', '*'),
  literal(4).map((l) => `${l}@`),
  literal(4).map((l) => `@${l}`),
  literal(4),
  fc.array(fc.constantFrom(...PIECES, '@', '@@', '*'), { maxLength: 7 }).map((p) => p.join('')),
)

type Op = '=' | 'begin'

/** What one comparison finds, pattern by pattern, on the folded text. */
function matches(op: Op, p: string, text: string | null): boolean {
  if (text === null) return false
  return op === 'begin' ? fold(text).startsWith(fold(p)) : wildcardMatcher(fold(p))(fold(text))
}

describe('text scans of many patterns', () => {
  test.prop(
    [
      fc.array(body, { maxLength: 30 }),
      fc.array(fc.tuple(fc.constantFrom<Op>('=', '=', 'begin'), pattern), {
        minLength: 1,
        maxLength: 24,
      }),
    ],
    { numRuns: 200 },
  )('find the rows their patterns find one by one', (bodies, items) => {
    const rows = bodies.map((b, i) => ({ ID: i + 1, body: b }))
    const Doc = createDatastore(DOC_MODEL, { data: { Doc: rows } }).dataClass('Doc')
    const ids = (text: string, params: unknown[]) =>
      Doc.query(text, ...params)
        .toArray()
        .map((e) => e.getKey() as number)
        .sort((a, b) => a - b)
    const expected = (list: readonly (readonly [Op, string])[]) =>
      rows.filter((r) => list.some(([op, p]) => matches(op, p, r.body))).map((r) => r.ID)

    const patterns = items.map(([, p]) => p)
    expect(ids('body in :1', [patterns])).toEqual(expected(patterns.map((p) => ['=', p])))
    // The OR alone (one scan of the merged patterns), and as a filter of an AND (one test).
    const or = items.map(([op], i) => `body ${op} :${i + 1}`).join(' or ')
    expect(ids(or, patterns)).toEqual(expected(items))
    expect(ids(`ID > 0 and (${or})`, patterns)).toEqual(expected(items))
  })
})

// Texts of one shape each: ASCII only, and accented (precomposed, decomposed, ß, ø, case).
const SHAPES = {
  ascii: ['a', 'b', 'e', 'ab', 'A', 'E', 'x', 'Xe', ' ', '1', '23'],
  accented: ['é', 'É', 'e', 'e\u0301', 'ü', 'Ü', 'u', 'ñ', 'ç', 'ß', 'ø', 'a', ' ', '1'],
} as const

/**
 * Rows of texts made of `pieces`, and patterns of every form: most cut from a text (so that they
 * equal, begin, end or lie in some), written in capitals or with accents now and then (folded, they
 * still find it), some of pieces of either shape or of letters no text has.
 */
const rowsAndPatterns = (pieces: readonly string[]) => {
  const text = fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((p) => p.join(''))
  return fc
    .array(fc.option(text, { nil: null, freq: 8 }), { minLength: 1, maxLength: 30 })
    .chain((texts) => {
      const written = texts.filter((t): t is string => t !== null)
      const cut =
        written.length === 0
          ? text
          : fc
              .tuple(fc.constantFrom(...written), fc.nat(8), fc.nat(8))
              .map(([t, a, b]) => t.slice(Math.min(a, b), Math.max(a, b) + 1))
      const spelled = fc
        .tuple(cut, fc.constantFrom('as is', 'capitals', 'accents'))
        .map(([t, how]) =>
          how === 'capitals' ? t.toUpperCase() : how === 'accents' ? t.replace(/e/g, 'é') : t,
        )
      const part = fc.oneof({ weight: 4, arbitrary: spelled }, text, literal(4, 1))
      const pattern = fc
        .tuple(part, fc.constantFrom('x', 'x@', '@x', '@x@', '@x@', 'x@y'))
        .chain(([x, form]) =>
          form === 'x@y' ? part.map((y) => `${x}@${y}`) : fc.constant(form.replace('x', x)),
        )
      // Letters no text has: `@q@` finds nothing, and five such patterns or more turn the search
      // of the contained ones into an automaton, where the anchored ones join them.
      const absent = fc.constantFrom('q', 'w', 'zq', 'Q', 'qq', 'wq').map((a) => `@${a}@`)
      return fc.tuple(
        fc.constant(texts),
        fc
          .tuple(
            fc.array(pattern, { minLength: 1, maxLength: 30 }),
            fc.array(absent, { maxLength: 8 }),
          )
          .map(([found, none]) => [...found, ...none]),
      )
    })
}

describe('an IN of mixed patterns', () => {
  for (const [shape, pieces] of Object.entries(SHAPES))
    test.prop([rowsAndPatterns(pieces)], { numRuns: 150 })(
      `finds what the OR of its patterns, each queried alone, finds (${shape} texts)`,
      ([texts, patterns]) => {
        const rows = texts.map((b, i) => ({ ID: i + 1, body: b }))
        const Doc = createDatastore(DOC_MODEL, { data: { Doc: rows } }).dataClass('Doc')
        const ids = (text: string, ...params: unknown[]) =>
          Doc.query(text, ...params)
            .toArray()
            .map((e) => e.getKey() as number)
            .sort((a, b) => a - b)
        const alone = new Set(patterns.flatMap((p) => ids('body = :1', p)))
        const expected = [...alone].sort((a, b) => a - b)
        expect(ids('body in :1', patterns)).toEqual(expected)
        const or = patterns.map((_, i) => `body = :${i + 1}`).join(' or ')
        expect(ids(or, ...patterns)).toEqual(expected)
      },
    )
})
