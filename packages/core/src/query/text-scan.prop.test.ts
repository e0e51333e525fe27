/**
 * An IN list or an OR of text patterns finds, through the folded column and the one-pass search of
 * its `@x@` patterns, the rows that its patterns find one by one (wildcardMatcher on the folded
 * text, as a single comparison does): random texts with case and accents, random lists of
 * contains, prefix, suffix, exact and general patterns (`@@`, `a@@b`, patterns inside others).
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { DOC_MODEL } from './text-scan.fixture.js'
import { createDatastore } from '../orda/datastore.js'
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
