/**
 * Deep filters: whatever a client writes, the engine answers or refuses with a 4xx error; it never
 * runs out of stack. OR and EXCEPT alternating nest one level per switch (they cannot be flattened
 * into one operator), so a long alternation is measured like nested parentheses.
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { Ast, filterDepth, MAX_FILTER_DEPTH, type FilterNode } from './ast.js'
import { parseQuery } from './parse-filter.js'

const ds = createDatastore(
  {
    dataClasses: [
      {
        name: 'Item',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'parent', kind: 'relatedEntity', path: 'Item' },
        ],
      },
    ],
  },
  {
    data: {
      Item: Array.from({ length: 20 }, (_, i) => ({ ID: i + 1, parent: i === 0 ? null : i })),
    },
  },
)
const Item = ds.dataClass('Item')
const ids = (text: string) =>
  Item.query(text)
    .toArray()
    .map((e) => e.getKey())

/** `ID=1 | ID=2 except ID=1 | ID=3 except ID=2 …`: `pairs` OR/EXCEPT pairs. */
const alternation = (pairs: number): string => {
  let text = 'ID=1'
  for (let i = 0; i < pairs; i++) text += ` | ID=${(i % 19) + 2} except ID=${(i % 19) + 1}`
  return text
}

describe('filter depth', () => {
  it('measures alternations, NOTs and relation steps, not chains of one operator', () => {
    expect(filterDepth(parseQuery('ID=1 | ID=2 | ID=3 | ID=4').filter!)).toBe(2)
    expect(filterDepth(parseQuery('ID=1 | ID=2 except ID=3 | ID=4').filter!)).toBe(4)
    expect(filterDepth(parseQuery('not (not (ID=1))').filter!)).toBe(3)
    expect(filterDepth(parseQuery('parent.parent.ID = 1').filter!)).toBe(3)
    expect(filterDepth(parseQuery('((((ID=1))))').filter!)).toBe(1)
  })

  it('evaluates a long alternation left to right', () => {
    const left = new Set([1])
    for (let i = 0; i < 100; i++) {
      left.add((i % 19) + 2)
      left.delete((i % 19) + 1)
    }
    expect(ids(alternation(100))).toEqual([...left].sort((a, b) => a - b))
    const flat = Array.from({ length: 5000 }, (_, i) => `ID=${(i % 20) + 1}`).join(' or ')
    expect(ids(flat)).toHaveLength(20)
  })

  it('refuses 500 OR/EXCEPT pairs with a filter error, not a stack overflow', () => {
    const e = thrown(() => Item.query(alternation(500)))
    expect([e.name, e.errCode]).toEqual(['FilterSyntax', 9001])
    expect(e.message).toMatch(/nests 1001 levels deep, more than the 256 allowed/)
  })

  it('refuses a path of more relation steps than the limit', () => {
    const path = Array.from({ length: MAX_FILTER_DEPTH + 5 }, () => 'parent').join('.')
    expect(thrown(() => Item.query(`${path}.ID = 1`)).name).toBe('FilterSyntax')
  })

  it('refuses a built AST as deep, whoever built it', () => {
    let filter: FilterNode = Ast.comparison(
      Ast.path([{ name: 'ID' }]),
      'eq',
      Ast.literal({ type: 'number', value: 1 }),
    )
    for (let i = 0; i < 10_000; i++) filter = Ast.not(filter)
    const e = thrown(() => Item.run(Ast.query(filter, [])))
    expect(e.name).toBe('FilterSyntax')
  })

  it('takes a filter up to the limit', () => {
    const text = alternation((MAX_FILTER_DEPTH - 2) / 2) // 2k + 1 levels
    expect(filterDepth(parseQuery(text).filter!)).toBe(MAX_FILTER_DEPTH - 1)
    expect(ids(`(${text}) and ID > 0`).length).toBeGreaterThan(0)
  })
})
