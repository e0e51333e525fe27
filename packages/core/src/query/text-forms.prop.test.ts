/**
 * A comparison of folded text that reads its column by forms (predicate.ts `foldedAccess`: the
 * texts, prefixes, suffixes and contained texts it holds for, which the kernel `matchUnits` seeks
 * in the column's units) holds for exactly the texts its per-row test holds for: `=` with
 * wildcards, IN of patterns and `begin`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { fold } from '../values/fold.js'
import { bindFilter } from './bind.js'
import type { BoundComparison } from './bound.js'
import { parseQuery } from './parse-filter.js'
import { foldedAccess, type TextForms } from './predicate.js'

const ds = createDatastore(
  {
    dataClasses: [
      {
        name: 'Row',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'name', type: 'string' },
        ],
        key: [{ name: 'ID' }],
      },
    ],
    // A row, so that the table has a folded column to read.
  },
  { data: { Row: [{ ID: 1, name: 'x' }] } },
)
const dc = ds.dataClass('Row')

function comparison(text: string, params: unknown[]): BoundComparison {
  const bound = bindFilter(ds.schema, dc.def, parseQuery(text).filter!, {
    params,
    reads: undefined,
  })
  if (bound.kind !== 'Comparison') throw new Error(`${text}: not one comparison`)
  return bound
}

const formsHold = (f: TextForms, s: string): boolean =>
  f.exact.includes(s) ||
  f.prefixes.some((p) => s.startsWith(p)) ||
  f.suffixes.some((p) => s.endsWith(p)) ||
  f.contains.some((p) => s.includes(p))

const unit = fc.constantFrom('a', 'B', 'é', 'É', 'ß', '東', ' ')
const word = fc.string({ maxLength: 5, unit })
const pattern = fc.oneof(
  word,
  word.map((w) => `${w}@`),
  word.map((w) => `@${w}`),
  word.map((w) => `@${w}@`),
)

describe('the forms of a folded text comparison', () => {
  it('hold for the texts its per-row test holds for', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(fc.constant('name = :1'), pattern),
          fc.tuple(fc.constant('name in :1'), fc.array(pattern, { minLength: 1, maxLength: 6 })),
          fc.tuple(fc.constant('name begin :1'), word),
        ),
        fc.array(fc.string({ maxLength: 10, unit }), { maxLength: 12 }),
        ([text, value], texts) => {
          const access = foldedAccess(comparison(text, [value]), dc.table)!
          expect(access).toBeDefined()
          if (access.forms === undefined) return
          for (const t of texts) {
            const folded = fold(t)
            expect(formsHold(access.forms, folded), `${text} ${JSON.stringify(value)} ${t}`).toBe(
              access.holds(folded),
            )
          }
        },
      ),
      { numRuns: 400 },
    )
  })

  it('are there for a begin, an IN of patterns and = with a wildcard', () => {
    for (const [text, value] of [
      ['name begin :1', 'ab'],
      ['name in :1', ['a@', '@b', '@c@', 'd']],
      ['name = :1', 'a@'],
    ] as const) {
      const access = foldedAccess(comparison(text, [value]), dc.table)!
      expect(access.forms, text).toBeDefined()
    }
  })
})
