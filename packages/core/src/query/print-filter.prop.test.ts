import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import {
  Ast,
  type ComparisonOp,
  type FilterNode,
  type LiteralNode,
  type LogicalOp,
  type OrderByItemNode,
  type PathSegment,
  type PlaceholderNode,
  type QueryNode,
} from './ast.js'
import { parseOrderBy, parseQuery } from './parse-filter.js'
import { printOrderBy, printQuery } from './print-filter.js'

// ---- Arbitraries: ASTs the grammar can produce ----

const startChars = [...'abcxyzABCXYZ_$éß名']
const partChars = [...startChars, ...'0189']
// Keywords are valid attribute names too: the printed text must still parse them as names.
const keywords = ['not', 'NOT', 'and', 'or', 'except', 'in', 'IS', 'begin', 'order', 'by']
const moreKeywords = ['asc', 'desc', 'true', 'false', 'null', 'Null']
const identifier = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...startChars),
        fc.array(fc.constantFrom(...partChars), { maxLength: 6 }),
      )
      .map(([h, t]) => h + t.join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom(...keywords, ...moreKeywords) },
)

const segment: fc.Arbitrary<PathSegment> = fc.oneof(
  identifier.map((name) => ({ name })),
  fc
    .tuple(identifier, fc.option(fc.constantFrom(...'abqz'), { nil: null }))
    .map(([name, letter]) => ({ name, collection: { letter } })),
  // A class index, another reference of a relation (4D: DataClassClass.md `.query()`, "Queries
  // in many-to-many relations": `roles.actor{2}.lastName`, any number but 0).
  fc
    .tuple(identifier, fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1 })))
    .map(([name, classIndex]) => ({ name, classIndex })),
)
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => Ast.path(s))

const pad = (n: number, width: number) => String(n).padStart(width, '0')
const literal: fc.Arbitrary<LiteralNode> = fc.oneof(
  fc
    .string({ unit: 'binary', maxLength: 12 })
    .map((value) => Ast.literal({ type: 'string', value })),
  fc
    .string({ unit: fc.constantFrom(...`'"\\ @*()&|,[]:=-aZ1\u0000\u2028`), maxLength: 8 })
    .map((value) => Ast.literal({ type: 'string', value })),
  fc
    .oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(-0, 0, 1e21, 5e-324),
    )
    .map((value) => Ast.literal({ type: 'number', value })),
  fc.boolean().map((value) => Ast.literal({ type: 'boolean', value })),
  fc.constant(Ast.literal({ type: 'null', value: null })),
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
    )
    .map(([y, m, d]) =>
      Ast.literal({ type: 'date', value: `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}` }),
    ),
)
const placeholder: fc.Arbitrary<PlaceholderNode> = fc.oneof(
  fc.integer({ min: 1, max: 1_000_000 }).map((n) => Ast.placeholder(n)),
  identifier.map((name) => Ast.placeholder(name)),
)
const scalar = fc.oneof(literal, placeholder)
const list = fc.array(scalar, { maxLength: 4 }).map((items) => Ast.list(items))

const operators: ComparisonOp[] = [
  'eq',
  'strictEq',
  'ne',
  'strictNe',
  'lt',
  'gt',
  'le',
  'ge',
  'begin',
  'contains',
]
// IN takes a list or a placeholder, every other operator a single value: the grammar's shapes. A
// comparison's path may be a placeholder (4D: DataClassClass.md `.query()`, "Using placeholders").
const comparisonPath = fc.oneof(
  { weight: 4, arbitrary: path },
  { weight: 1, arbitrary: placeholder },
)
const comparison: fc.Arbitrary<FilterNode> = fc.oneof(
  fc
    .tuple(comparisonPath, fc.constantFrom(...operators), scalar)
    .map(([p, op, v]) => Ast.comparison(p, op, v)),
  fc.tuple(comparisonPath, fc.oneof(list, placeholder)).map(([p, v]) => Ast.comparison(p, 'in', v)),
)

const { filter } = fc.letrec<{ filter: FilterNode; not: FilterNode; logical: FilterNode }>(
  (tie) => ({
    filter: fc.oneof(
      { maxDepth: 4, depthIdentifier: 'filter' },
      comparison,
      tie('not'),
      tie('logical'),
    ),
    not: tie('filter').map((f) => Ast.not(f)),
    logical: fc
      .tuple(
        fc.constantFrom<LogicalOp>('And', 'Or', 'Except'),
        fc.array(tie('filter'), { minLength: 2, maxLength: 4 }),
      )
      .map(([op, operands]) => Ast.logical(op, operands)),
  }),
)

const orderByItem: fc.Arbitrary<OrderByItemNode> = fc
  .tuple(path, fc.constantFrom('asc' as const, 'desc' as const))
  .map(([p, d]) => Ast.orderByItem(p, d))
const query: fc.Arbitrary<QueryNode> = fc
  .tuple(fc.option(filter, { nil: null }), fc.array(orderByItem, { maxLength: 3 }))
  .map(([f, o]) => Ast.query(f, o))

// ---- Fuzz input: raw strings, and strings stitched from grammar tokens ----

const tokens = [
  '(',
  ')',
  '=',
  '==',
  '===',
  '!=',
  '#',
  '<',
  '>=',
  '%',
  "'",
  '"',
  '\\',
  '\\u0027',
  'AND',
  'or',
  '&',
  '||',
  'EXCEPT',
  'NOT',
  'not(',
  'IN',
  'is',
  'begin',
  'order by',
  'desc',
  ',',
  '[',
  ']',
  '[]',
  '{2}',
  '{0}',
  '.',
  ':1',
  ':0',
  ':x',
  '@',
  '*',
  ' ',
  '\n',
  'a',
  'name',
  'é',
  '1',
  '-3.5',
  '1e3',
  '2020-01-31',
  'true',
  'null',
  '\u0000',
]
const tokenString = fc.array(fc.constantFrom(...tokens), { maxLength: 20 }).map((t) => t.join(''))
const fuzzText = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), tokenString)

/** Runs `run`; it must return normally or throw a DatastoreError. Returns the result or undefined. */
function parsesOrFailsCleanly<T>(run: () => T): T | undefined {
  try {
    return run()
  } catch (e) {
    expect(DatastoreError.is(e), String(e)).toBe(true)
    return undefined
  }
}

describe('printQuery / parseQuery', () => {
  test.prop([query], { numRuns: 400 })('parse(print(ast)) deep-equals ast', (q) => {
    expect(parseQuery(printQuery(q))).toEqual(q)
  })

  test.prop([query], { numRuns: 300 })('print(parse(print(ast))) === print(ast)', (q) => {
    const text = printQuery(q)
    expect(printQuery(parseQuery(text))).toBe(text)
  })

  test.prop([fc.array(orderByItem, { minLength: 1, maxLength: 4 })], { numRuns: 200 })(
    'parseOrderBy(printOrderBy(items)) deep-equals items',
    (items) => {
      expect(parseOrderBy(printOrderBy(items))).toEqual(items)
    },
  )

  test.prop([fuzzText], { numRuns: 500 })(
    'any text parses or throws a DatastoreError; what parses prints back to the same AST',
    (text) => {
      const q = parsesOrFailsCleanly(() => parseQuery(text))
      if (q) {
        expect(q.kind).toBe('Query')
        expect(parseQuery(printQuery(q))).toEqual(q)
      }
      parsesOrFailsCleanly(() => parseOrderBy(text))
    },
  )

  test('-0 survives the round trip with its sign', () => {
    const q = parseQuery(
      printQuery(
        Ast.query(
          Ast.comparison(
            Ast.path([{ name: 'x' }]),
            'eq',
            Ast.literal({ type: 'number', value: -0 }),
          ),
          [],
        ),
      ),
    )
    const f = q.filter
    expect(
      f?.kind === 'Comparison' && f.value.kind === 'Literal' && Object.is(f.value.value, -0),
    ).toBe(true)
  })
})
