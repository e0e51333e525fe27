/**
 * Issue 78: the dataclasses a query, an ordering or a path reaches through relations, found from
 * the parsed text before it runs: those whose restrict the engine asks as it follows a relation,
 * and only those (a foreign key compared alone asks nothing).
 */
import { describe, expect, it } from 'vitest'
import { REACH_MODEL as MODEL } from '../orda/objects/reach-model.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { pathReaches, queryReaches } from './classes-reached.js'
import { parseOrderBy, parseQuery } from './parse-filter.js'

const schema = createDatastore(MODEL).querySource.schema
const def = (name: string) => schema.byName.get(name)!
const names = (found: readonly { name: string }[]): string[] => found.map((d) => d.name).sort()

const reached = (from: string, text: string, params: unknown[] = [], order = ''): string[] =>
  names(
    queryReaches(
      schema,
      def(from),
      parseQuery(text),
      { params, attributes: { at: 'employer.country.ID' } },
      order === '' ? [] : parseOrderBy(order),
    ),
  )

describe('the dataclasses a query reaches through relations', () => {
  it('follows relations a path goes on from, in every part of the filter', () => {
    expect(reached('Employee', 'employer.name = :1', ['Acme'])).toEqual(['Company'])
    expect(reached('Employee', 'ID > 1 and not (employer.country.name = x)')).toEqual([
      'Company',
      'Country',
    ])
    expect(reached('Company', 'name = a or staff.lastName = b')).toEqual(['Employee'])
  })

  it('leaves out a foreign key compared alone, and what names no relation', () => {
    expect(reached('Employee', 'employer = 2 and lastName = x')).toEqual([])
    expect(reached('Employee', 'extra.employer.name = x')).toEqual([])
    expect(reached('Employee', 'nothing.name = x')).toEqual([])
  })

  it('follows a relation to many a path ends on (its related entities are tested)', () => {
    expect(reached('Company', 'staff = null')).toEqual(['Employee'])
  })

  it('follows an alias along its path', () => {
    expect(reached('Employee', 'employerName = x')).toEqual(['Company'])
    expect(reached('Employee', 'countryName = x')).toEqual(['Company', 'Country'])
  })

  it('follows a placeholder standing for a path, and leaves one that stands for none', () => {
    expect(reached('Employee', ':1 = :2', ['employer.name', 'x'])).toEqual(['Company'])
    expect(reached('Employee', ':at = 1')).toEqual(['Company', 'Country'])
    expect(reached('Employee', ':1 = :2', [5, 'x'])).toEqual([])
    expect(reached('Employee', ':3 = 1')).toEqual([])
  })

  it('follows the paths of an ordering, its own and the one given', () => {
    expect(reached('Employee', 'ID > 0 order by employer.name desc')).toEqual(['Company'])
    expect(reached('Employee', 'ID > 0', [], 'employer.country.name, employer')).toEqual([
      'Company',
      'Country',
    ])
  })
})

describe('the dataclasses a path reaches through relations', () => {
  it('follows its relations, the one it ends on only when asked', () => {
    expect(names(pathReaches(schema, def('Employee'), ['employer', 'name'], false))).toEqual([
      'Company',
    ])
    expect(names(pathReaches(schema, def('Employee'), ['employer'], false))).toEqual([])
    expect(names(pathReaches(schema, def('Employee'), ['employer'], true))).toEqual(['Company'])
    expect(names(pathReaches(schema, def('Company'), ['staff'], true))).toEqual(['Employee'])
    expect(names(pathReaches(schema, def('Employee'), ['countryName'], false))).toEqual([
      'Company',
      'Country',
    ])
  })
})
