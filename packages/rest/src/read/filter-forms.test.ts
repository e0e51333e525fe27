/**
 * Two `$filter` forms of 4D's query language over REST: an attribute path given as a placeholder
 * (`$filter=":1 = :2"&$params='["lastName","Ryan"]'`) and the class index of many-to-many paths
 * (`roles.actor{2}.lastName`).
 * 4D: developer.4d.com/docs/API/DataClassClass#query ("Using placeholders", "Queries in
 * many-to-many relations") and /docs/REST/$filter (`$params`).
 */
import { createDatastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { MOVIES_MODEL, moviesData } from '../../../core/src/query/movies.fixture.js'
import { createRestHandler } from '../handler.js'

const rest = createRestHandler(createDatastore(MOVIES_MODEL, { data: moviesData() }))

async function get(dataClass: string, filter: string, params?: unknown[], more = '') {
  const query = [`$filter=${encodeURIComponent(`"${filter}"`)}`]
  if (params) query.push(`$params=${encodeURIComponent(JSON.stringify(params))}`)
  const res = await rest.request(`/rest/${dataClass}?${query.join('&')}${more}`)
  return { status: res.status, json: (await res.json()) as Record<string, any> }
}
const field = (json: Record<string, any>, name: string) =>
  (json.__ENTITIES as Record<string, unknown>[]).map((e) => e[name])

describe('$filter with an attribute path as a placeholder', () => {
  // DataClassClass.md "Using placeholders": `class.query(":1=:2";"city";"Chicago")`.
  it('reads the path from $params, as the values', async () => {
    const r = await get('Actor', ':1 = :2', ['lastName', 'Ryan'])
    expect(r.status).toBe(200)
    expect(field(r.json, 'firstName')).toEqual(['Meg'])
    const roles = await get('Role', ':1 = :2 AND :3 begin :4', [
      'actor.lastName',
      'Hanks',
      'character',
      'Jo',
    ])
    expect(field(roles.json, 'character')).toEqual(['Joe Fox', 'Josh Baskin', 'Joe Banks'])
  })

  it('answers a value that is no path with 400 and __ERROR 9003, never a 500', async () => {
    for (const path of [5, null, true, { name: 'lastName' }, []]) {
      const r = await get('Actor', ':1 = 5', [path])
      expect(r.status).toBe(400)
      expect(r.json.__ERROR[0]).toMatchObject({ errCode: 9003, componentSignature: 'enti' })
    }
    const missing = await get('Actor', ':1 = 5 AND :2 = 1', ['ID'])
    expect(missing.status).toBe(400)
    expect(missing.json.__ERROR[0]).toMatchObject({ errCode: 9002 })
  })

  // An unknown name is 4D's 1500; a name REST may not see (fee is not exposed) answers the same.
  it('answers an unknown or hidden attribute as an unknown attribute (1500)', async () => {
    const unknown = await get('Actor', ':1 = 5', ['nosuch'])
    expect(unknown.status).toBe(404)
    expect(unknown.json.__ERROR[0]).toMatchObject({ errCode: 1500, componentSignature: 'dbmg' })
    const hidden = await get('Actor', ':1 = 5', ['fee'])
    expect(hidden.status).toBe(unknown.status)
    expect(JSON.stringify(hidden.json).replaceAll('fee', 'nosuch')).toBe(
      JSON.stringify(unknown.json),
    )
    const spaced = await get('Actor', ':1 = 5', ['first name'])
    expect(spaced.json.__ERROR[0]).toMatchObject({ errCode: 1500 })
  })
})

describe('$filter with a class index on a many-to-many path', () => {
  // DataClassClass.md "Queries in many-to-many relations": without {2}, "$es is empty".
  it('finds the movies of both actors only with another reference', async () => {
    const same = await get('Movie', 'roles.actor.lastName = Hanks AND roles.actor.lastName = Ryan')
    expect(same.status).toBe(200)
    expect(same.json.__ENTITIES).toEqual([])
    const other = await get('Movie', 'roles.actor.lastName = :1 AND roles.actor{2}.lastName = :2', [
      'Hanks',
      'Ryan',
    ])
    expect(field(other.json, 'title')).toEqual([
      "You've Got Mail",
      'Sleepless in Seattle',
      'Joe Versus the Volcano',
    ])
  })

  // DataClassClass.md: "x can be any number except 0"; a class index applies to relations only.
  it('answers {0} with 400 9001 and an index on a non-relation with 400 9003', async () => {
    const zero = await get('Movie', 'roles.actor{0}.lastName = Ryan')
    expect(zero.status).toBe(400)
    expect(zero.json.__ERROR[0]).toMatchObject({ errCode: 9001 })
    const storage = await get('Movie', 'title{2} = Big')
    expect(storage.status).toBe(400)
    expect(storage.json.__ERROR[0]).toMatchObject({ errCode: 9003 })
  })

  // $queryplan (4D's queryPlan): one join per reference, the class index named.
  it('shows each reference as its own join in $queryplan and $querypath', async () => {
    const filter = 'roles.actor.lastName = Hanks AND roles.actor{2}.lastName = Ryan'
    const r = await get('Movie', filter, undefined, '&$queryplan=true&$querypath=true')
    const plan = JSON.stringify(r.json.__queryPlan)
    expect(plan.match(/Join on Table : Role/g)).toHaveLength(2)
    expect(plan).toContain('(class index actor{2})')
    expect(JSON.stringify(r.json.__queryPath)).toContain('(class index actor{2})')
  })
})
