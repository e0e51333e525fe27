/**
 * The class index of many-to-many paths, `roles.actor{2}.lastName`.
 * 4D: developer.4d.com/docs/API/DataClassClass#query, "Queries in many-to-many relations": within
 * one AND the conditions through one relation reference are met by one related entity
 * (`roles.actor.lastName = :1 AND roles.actor.lastName = :2` is empty); `{x}`, any number but 0,
 * makes another reference, met by any related entity.
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { MOVIES_MODEL, moviesData } from './movies.fixture.js'
import { parseQuery } from './parse-filter.js'
import { printQuery } from './print-filter.js'
import { parseCached } from './run-query.js'

const movies = () => createDatastore(MOVIES_MODEL, { data: moviesData() }).dataClass('Movie')
const titles = (s: ReturnType<ReturnType<typeof movies>['query']>) =>
  s.toArray().map((e) => e.get('title'))

describe('class index {n} in many-to-many paths', () => {
  // DataClassClass.md: "// invalid code ... $es is empty".
  it('finds nothing for two names through one reference: one role has one actor', () => {
    const q = 'roles.actor.lastName = :1 AND roles.actor.lastName = :2'
    expect(movies().query(q, 'Hanks', 'Ryan').length).toBe(0)
  })

  // DataClassClass.md: "// valid code ... $es contains movies (You've Got Mail, Sleepless in
  // Seattle, Joe Versus the Volcano)".
  it('finds the movies with both actors when the second path has a class index', () => {
    const q = 'roles.actor.lastName = :1 AND roles.actor{2}.lastName = :2'
    expect(titles(movies().query(q, 'Hanks', 'Ryan'))).toEqual([
      "You've Got Mail",
      'Sleepless in Seattle',
      'Joe Versus the Volcano',
    ])
    // "x can be any number except 0": {1540} is as good as {2}; each index is its own reference.
    const three = 'roles.actor.lastName = Hanks AND roles.actor{1540}.lastName = Ryan'
    expect(movies().query(three).length).toBe(3)
    const none = `${three} AND roles.actor{7}.lastName = Crystal`
    expect(movies().query(none).length).toBe(0)
  })

  // The same reference is one related entity: its character and its actor are the same role's.
  it('tests the conditions of one reference on the same related entity', () => {
    const dc = movies()
    const q = 'roles.actor.lastName = :1 AND roles.character = :2'
    expect(titles(dc.query(q, 'Hanks', 'Sally@'))).toEqual([])
    expect(titles(dc.query(q, 'Ryan', 'Sally@'))).toEqual(['When Harry Met Sally'])
    // Same index, same reference; an OR never links.
    const same = 'roles{2}.actor.lastName = Ryan AND roles{2}.character = Joe@'
    expect(dc.query(same).length).toBe(0)
    expect(dc.query('roles.actor.lastName = Crystal OR roles.actor.lastName = Ryan').length).toBe(4)
  })

  // DataClassClass.md: "x can be any number except 0".
  it('refuses {0} as a syntax error and a class index on a non-relation as 9003', () => {
    expect(thrown(() => parseQuery('roles.actor{0}.lastName = Ryan'))).toMatchObject({
      errCode: 9001,
      message: expect.stringContaining('{0} is not valid'),
    })
    expect(thrown(() => movies().query('title{2} = Big'))).toMatchObject({ errCode: 9003 })
  })

  it('prints the class index back as written', () => {
    const text = 'roles.actor{2}.lastName = :1'
    expect(printQuery(parseQuery(text))).toBe(text)
  })

  // Texts that differ in their literals share a parsed template (literal-template.ts): an index's
  // digits are no literal, so two texts that differ there never share one.
  it('keeps each class index of texts parsed through the cache', () => {
    for (const n of [2, 3, 12])
      expect(printQuery(parseCached(`roles.actor{${n}}.lastName = Ryan`))).toBe(
        `roles.actor{${n}}.lastName = 'Ryan'`,
      )
  })

  // DataClassClass.md `.query()` "querySettings": queryPlan, the planned query: each reference
  // is a join of its own, and the plans say which one has the class index.
  it('shows one join per reference in the plans', () => {
    const q = 'roles.actor.lastName = :1 AND roles.actor{2}.lastName = :2'
    const r = movies().run(q, { params: ['Hanks', 'Ryan'], queryPlan: true })
    const plan = JSON.stringify(r.queryPlan)
    expect(plan.match(/Join on Table : Role/g)).toHaveLength(2)
    expect(plan).toContain('Join on Table : Role : Movie.ID = Role.movie (class index actor{2})')
    expect(r.explain()).toContain('(class index actor{2})')
    const one = movies().run('roles.actor.lastName = :1 AND roles.character = :2', {
      params: ['Hanks', 'Joe@'],
      queryPlan: true,
    })
    expect(JSON.stringify(one.queryPlan).match(/Join on Table : Role/g)).toHaveLength(1)
  })
})
