import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import { checkTemplate, fillTemplate, liftLiterals } from './literal-template.js'
import { parseQuery } from './parse-filter.js'
import { parseCached } from './run-query.js'

/** The tree, or the error's code and message: what a caller of either parser sees. */
function outcome(parse: () => unknown): unknown {
  try {
    return { tree: JSON.stringify(parse()) }
  } catch (e) {
    if (!DatastoreError.is(e)) throw e
    return { name: e.name, errCode: e.errCode, message: e.message, details: e.details }
  }
}

// Values written as clients write them, the awkward ones included: quotes inside the other quotes,
// an apostrophe inside an unquoted word, wildcards, signs, dates, exponents, numbers glued to text.
const value = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9 @&|()=,.-]{0,6}$/).map((s) => `'${s}'`),
  fc.stringMatching(/^[A-Za-z0-9 '@]{0,6}$/).map((s) => `"${s}"`),
  fc.integer({ min: -99999, max: 99999 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((n) => n.toFixed(2)),
  fc.constantFrom('2024-01-31', '2024-13-01', '1e3', '-0', '007', '12abc', "O'Reilly", 'C0012345'),
  fc.constantFrom(':1', ':name', 'true', 'null', "'a\\'b'", "'\\u0041'", "'open", '5,6'),
)
const op = fc.constantFrom('=', '==', '===', '!=', '#', '<', '<=', '>', '>=', ' begin ', ' % ')
const comparison = fc.oneof(
  fc.tuple(fc.constantFrom('code', 'age', 'a.b', 'x1'), op, value).map((p) => p.join('')),
  fc
    .tuple(fc.constantFrom('code', 'age'), fc.array(value, { maxLength: 4 }))
    .map(([name, items]) => `${name} IN [${items.join(',')}]`),
)
const filterText = fc
  .tuple(
    fc.array(comparison, { minLength: 1, maxLength: 4 }),
    fc.array(fc.constantFrom(' AND ', ' OR ', '&', ' | ', ' EXCEPT ', ' AND NOT '), {
      minLength: 3,
      maxLength: 3,
    }),
    fc.boolean(),
  )
  .map(([cs, joins, grouped]) => {
    const text = cs.reduce((out, c, i) => (i === 0 ? c : out + joins[i - 1] + c), '')
    return grouped ? `(${text}) order by code desc` : text
  })
// Raw token soup, for texts that are not filters at all.
const soup = fc
  .array(
    fc.constantFrom('a', '=', "'", '"', '5', '-', '.', ' ', '(', ')', ',', '[', ']', 'IN', 'x'),
    {
      maxLength: 16,
    },
  )
  .map((t) => t.join(''))

describe('parseCached: a text parsed through its shape', () => {
  test.prop([fc.oneof(filterText, soup)], { numRuns: 2000 })(
    'gives the tree, or the error, a parse of the text itself gives',
    (text) => {
      expect(outcome(() => parseCached(text))).toEqual(outcome(() => parseQuery(text, 'query()')))
    },
  )

  test.prop([fc.array(fc.integer({ min: 0, max: 9_999_999 }), { minLength: 2, maxLength: 5 })])(
    'texts that differ only in their values share one template, each with its own values',
    (codes) => {
      const texts = codes.map((c) => `code='C${c}' AND age>=${c % 90}`)
      for (const text of texts) expect(parseCached(text)).toEqual(parseQuery(text))
      const templates = new Set(texts.map((t) => liftLiterals(t)?.template))
      expect(templates.size).toBe(1)
    },
  )
})

describe('liftLiterals', () => {
  it('lifts quoted strings and plain numbers, in order', () => {
    expect(liftLiterals(`code='C1' AND salary>=-5.5 AND d=2024-01-01`)?.values).toEqual([
      'C1',
      -5.5,
    ])
  })

  it('leaves numbers that are part of a word, a placeholder or a date', () => {
    expect(liftLiterals('x1=:1 AND d=2024-01-01 AND n=12abc')).toBeUndefined()
  })

  it('does not template texts with escapes, an open quote, or what could pass for a sentinel', () => {
    for (const text of ["a='x\\'y'", "a='open", 'a=\uE000', 'a=0.7390851332001'])
      expect(liftLiterals(text)).toBeUndefined()
  })
})

describe('checkTemplate', () => {
  it('refuses a template whose sentinel a word swallowed (an apostrophe is not a quote there)', () => {
    const lifted = liftLiterals("name=O'x' AND code='y'")!
    expect(checkTemplate(parseQuery(lifted.template), lifted)).toBeUndefined()
  })

  it('fills every sentinel, sharing the subtrees without one', () => {
    const lifted = liftLiterals("code='C1' AND city=Paris")!
    const template = checkTemplate(parseQuery(lifted.template), lifted)!
    const tree = fillTemplate(template, ['C2'])
    expect(tree).toEqual(parseQuery("code='C2' AND city=Paris"))
    expect(Object.isFrozen(tree.filter)).toBe(true)
    const operands = (t: typeof tree) => (t.filter as unknown as { operands: unknown[] }).operands
    expect(operands(tree)[1]).toBe(operands(template.tree)[1])
  })
})
