/**
 * Attribute paths given as placeholders.
 * 4D: developer.4d.com/docs/API/DataClassClass#query, "Using placeholders" (placeholders for
 * *attributePath*: `class.query(":1=:2";"city";"Chicago")`, and `:att` with `attributes`) and
 * "querySettings parameter" (`attributes`: a path in dot notation or a collection of names).
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { MOVIES_MODEL, moviesData } from './movies.fixture.js'
import { parseQuery } from './parse-filter.js'
import { bindFilter } from './bind.js'
import { printQuery } from './print-filter.js'

const store = () => createDatastore(MOVIES_MODEL, { data: moviesData() })
const actors = () => store().dataClass('Actor')
const names = (s: ReturnType<ReturnType<typeof actors>['query']>) =>
  s.toArray().map((e) => e.get('lastName'))

describe('attribute paths as placeholders', () => {
  // DataClassClass.md: `ds.Employee.query(":1 = 1234 and :2 = :3", "salary", "name", "Smith")`.
  it('reads an indexed placeholder where a path goes from the values', () => {
    const dc = actors()
    expect(names(dc.query(':1 = :2', 'lastName', 'Ryan'))).toEqual(['Ryan'])
    expect(names(dc.query(':1 > 12 and :2 = :3', 'fee', 'firstName', 'Tom'))).toEqual(['Hanks'])
    // One text, another path: the path is read on each run.
    expect(names(dc.query(':1 = :2', 'firstName', 'Billy'))).toEqual(['Crystal'])
  })

  // DataClassClass.md: `$o.attributes:=New object("att";"city")` … `class.query(":att=:name";$o)`.
  it('reads a named placeholder from attributes, a path or an array of names', () => {
    const dc = actors()
    const run = (attributes: Record<string, string | string[]>) =>
      names(dc.run(':att = :val', { attributes, parameters: { val: 'Tom' } }).selection)
    expect(run({ att: 'firstName' })).toEqual(['Hanks'])
    expect(run({ att: ['firstName'] })).toEqual(['Hanks'])
    const roles = store().dataClass('Role')
    const byActor = roles.run(':p = :v', {
      attributes: { p: ['actor', 'lastName'] },
      parameters: { v: 'Crystal' },
    })
    expect(byActor.selection.toArray().map((r) => r.get('character'))).toEqual(['Harry Burns'])
  })

  // "Each value is a path that can designate … a related attribute of the dataclass".
  it('takes a relation path, a class index included', () => {
    const movies = store().dataClass('Movie')
    const q = ':1 = :2 AND :3 = :4'
    const both = movies.query(q, 'roles.actor.lastName', 'Hanks', 'roles.actor{2}.lastName', 'Ryan')
    expect(both.length).toBe(3)
  })

  it('refuses a value that is no path (9003), an unknown name (1500), a missing value (9002)', () => {
    const dc = actors()
    expect(thrown(() => dc.query(':1 = 5', 5))).toMatchObject({
      errCode: 9003,
      message: expect.stringContaining(':1 stands for an attribute path'),
    })
    expect(thrown(() => dc.query(':1 = 5', null))).toMatchObject({ errCode: 9003 })
    expect(thrown(() => dc.query(':1 = 5', []))).toMatchObject({ errCode: 9003 })
    expect(thrown(() => dc.query(':1 = 5', 'salary'))).toMatchObject({
      errCode: 1500,
      message: expect.stringContaining('"salary"'),
    })
    expect(thrown(() => dc.query(':1 = 5', 'first name'))).toMatchObject({ errCode: 1500 })
    expect(thrown(() => dc.query(':1 = 5'))).toMatchObject({ errCode: 9002 })
    // A named path comes from attributes, never from parameters.
    const named = () => dc.run(':att = 5', { parameters: { att: 'fee' } })
    expect(thrown(named)).toMatchObject({ errCode: 9002 })
  })

  it('prints back as the placeholder, and what it reads is read from the values', () => {
    const text = ':1 = 5 AND :att IN :2'
    const query = parseQuery(text)
    expect(printQuery(query)).toBe(text)
    const { schema } = store()
    // The attributes the binding asks the view about (a permission check asks the same).
    const readBy = (params: unknown[], att: string): string[] => {
      const read: string[] = []
      bindFilter(schema, schema.byName.get('Actor')!, query.filter!, {
        params,
        attributes: { att },
        reads: { needRead: (dc, attr) => void read.push(`${dc.name}.${attr.name}`) },
      })
      return read
    }
    expect(readBy(['fee', [1]], 'roles.character')).toEqual([
      'Actor.fee',
      'Actor.roles',
      'Role.character',
    ])
    // Bound again with other values: nothing kept from the first run.
    expect(readBy(['lastName', [1]], 'ID')).toEqual(['Actor.lastName', 'Actor.ID'])
  })
})
