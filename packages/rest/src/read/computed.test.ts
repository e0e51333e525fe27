import { describe, expect, it } from 'vitest'
import { computedStore } from '../../../core/src/orda/objects/computed.fixture.js'
import { createRestHandler } from '../handler.js'

// Computed attributes through REST: `$filter` and `$orderby` answer the same with and without
// their query and orderBy functions (the functions only change how), `$queryplan` shows the
// replacement, and `$method=update` writes through the set function.

const fresh = (plain = false) => {
  const { ds, log } = computedStore({ plain })
  // In one piece: a read that goes on in slices runs again, and calls the query function again.
  const rest = createRestHandler(ds, { sliceMs: Infinity })
  const get = async (path: string) => {
    const res = await rest.request(path)
    return { status: res.status, json: (await res.json()) as Record<string, any> }
  }
  const post = async (path: string, body: unknown) => {
    const res = await rest.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as Record<string, any> }
  }
  return { ds, log, get, post }
}

const keysOf = (json: Record<string, any>): string[] =>
  (json.__ENTITIES as { __KEY: string }[]).map((e) => e.__KEY)

describe('computed attributes over REST', () => {
  it('$filter finds the same entities with and without a query function', async () => {
    const withFns = fresh()
    const plain = fresh(true)
    for (const path of [
      `/rest/Employee?$filter="fullName='Flora Pionsin'"`,
      `/rest/Employee?$filter="fullName=:1"&$params='["ann smith"]'`,
      `/rest/Employee?$filter="manager.fullName='Ann Smith'"`,
      `/rest/Employee?$filter="fullName != 'Ann Smith' and salary > 4000"`,
      `/rest/Employee?$filter="fullName > 'D'"`,
    ]) {
      const a = await withFns.get(path)
      const b = await plain.get(path)
      expect(a.status, path).toBe(200)
      expect(keysOf(a.json), path).toEqual(keysOf(b.json))
      expect(keysOf(a.json).length, path).toBeGreaterThan(0)
    }
    // The query function answered every comparison but the range (its default: the getter).
    expect(withFns.log.query.map((e) => e.operator)).toEqual(['==', '==', '==', '!=', '>'])
  })

  it('$queryplan shows the comparison and the filter that replaced it', async () => {
    const { get } = fresh()
    const r = await get(
      `/rest/Employee?$filter="fullName=:1"&$params='["Flora Pionsin"]'&$queryplan=true`,
    )
    expect(r.status).toBe(200)
    expect(keysOf(r.json)).toEqual(['6'])
    expect(r.json.__queryPlan).toEqual({
      item: "Employee.fullName == Flora Pionsin : replaced by its query function's filter",
      subquery: [
        {
          And: [
            { item: '[index : Employee.firstName ] === Flora' },
            { item: '[index : Employee.lastName ] === Pionsin' },
          ],
        },
      ],
    })
    expect(r.json.__extendedQueryPlan).toMatchObject({ type: 'ComputedNode', field: 'fullName' })
    // Without a query function: the getter, on every entity.
    const plain = await fresh(true).get(
      `/rest/Employee?$filter="fullName=:1"&$params='["Flora Pionsin"]'&$queryplan=true`,
    )
    expect(plain.json.__queryPlan).toEqual({ item: 'Employee.fullName === Flora Pionsin' })
  })

  it('$orderby gives the same order with and without an orderBy function', async () => {
    const withFns = fresh()
    const plain = fresh(true)
    for (const path of [
      '/rest/Employee?$orderby=fullName desc',
      '/rest/Employee?$orderby=fullName',
      `/rest/Employee?$filter="salary > 3000"&$orderby=manager.fullName desc,ID`,
    ]) {
      const a = await withFns.get(path)
      expect(a.status, path).toBe(200)
      expect(keysOf(a.json), path).toEqual(keysOf((await plain.get(path)).json))
    }
    expect(keysOf((await withFns.get('/rest/Employee?$orderby=fullName desc')).json)).toEqual([
      '6',
      '7',
      '5',
      '4',
      '2',
      '8',
      '1',
      '3',
    ])
    expect(withFns.log.orderBy.length).toBeGreaterThan(0)
    // The sort never called the getter (a reply that shows fullName does, once per entity shown).
    withFns.log.get = 0
    const r = await withFns.get('/rest/Employee?$orderby=fullName desc&$attributes=firstName')
    expect(keysOf(r.json)).toEqual(['6', '7', '5', '4', '2', '8', '1', '3'])
    expect(withFns.log.get).toBe(0)
  })

  it('$method=update writes a computed attribute through its set function', async () => {
    const { post, ds, log } = fresh()
    const updated = await post('/rest/Employee?$method=update', {
      __KEY: '6',
      __STAMP: 1,
      fullName: 'Flora Martin',
    })
    expect(updated.status).toBe(200)
    expect(updated.json).toMatchObject({
      __KEY: '6',
      __STAMP: 2,
      firstName: 'Flora',
      lastName: 'Martin',
      fullName: 'Flora Martin',
    })
    expect(log.set[0]!.self).not.toBeNull()
    const created = await post('/rest/Employee?$method=update', { fullName: 'Marie Curie' })
    expect(created.status).toBe(200)
    expect(created.json).toMatchObject({ firstName: 'Marie', lastName: 'Curie' })
    // An assignment the set function gives that no write could make: refused, nothing written.
    const before = ds.globalStamp
    const bad = await post('/rest/Employee?$method=update', {
      __KEY: '6',
      fullName: 'Flora Martin',
      salary: 'lots',
    })
    expect(bad.status).toBe(400)
    expect(bad.json.__ERROR[0].errCode).toBe(1570)
    expect(ds.globalStamp).toBe(before)
  })

  it('refuses to write a computed attribute without a set function (1516)', async () => {
    const { post } = fresh(true)
    const r = await post('/rest/Employee?$method=update', { __KEY: '6', fullName: 'Flora Martin' })
    expect(r.status).toBe(400)
    expect(r.json.__ERROR[0].errCode).toBe(1516)
  })

  it('shows in the catalog whether a computed attribute can be written', async () => {
    const attribute = async (plain: boolean) => {
      const r = await fresh(plain).get('/rest/$catalog/Employee')
      return (r.json.attributes as { name: string; readOnly?: boolean }[]).find(
        (a) => a.name === 'fullName',
      )
    }
    expect((await attribute(true))?.readOnly).toBe(true)
    expect((await attribute(false))?.readOnly).toBeFalsy()
  })

  it('answers the usual error when a query function returns a bad filter', async () => {
    const { ds } = computedStore({
      functions: { get: () => 'x', query: () => 'nickName = 1' },
    })
    const res = await createRestHandler(ds).request(`/rest/Employee?$filter="fullName='a b'"`)
    expect(res.status).toBe(404)
    const json = (await res.json()) as Record<string, any>
    expect(json.__ERROR[0].errCode).toBe(1500)
    expect(json.__ERROR[0].message).toContain('the query function of Employee.fullName')
  })
})
