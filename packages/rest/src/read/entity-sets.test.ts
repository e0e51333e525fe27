import { describe, expect, it } from 'vitest'
import { setsSetup as setup } from './entity-sets.fixture.js'

const keys = (json: any): unknown[] => json.__ENTITIES.map((e: any) => e.__KEY ?? null)

describe('$method=entityset', () => {
  it('makes a set from a read: __ENTITYSET first, the page after it, the whole selection kept', async () => {
    const { get, make } = setup()
    const r = (await get(
      '/rest/Employee?$filter="salary>5500"&$orderby="salary desc"&$top=1&$method=entityset',
    )) as { status: number; json: any }
    expect(Object.keys(r.json)[0]).toBe('__ENTITYSET')
    expect(r.json.__ENTITYSET).toMatch(/^\/rest\/Employee\/\$entityset\/[0-9A-F]{32}$/)
    expect([r.json.__COUNT, r.json.__SENT]).toEqual([2, 1])
    const id = await make('/rest/Employee?$orderby="salary desc"&$method=entityset')
    const read = (await get(`/rest/Employee/$entityset/${id}`)) as { status: number; json: any }
    expect(read.json).not.toHaveProperty('__ENTITYSET')
    expect(keys(read.json)).toEqual(['3', '2', '1'])
    const page = (await get(
      `/rest/Employee/$entityset/${id}?$skip=1&$top=1&$attributes=lastName`,
    )) as { status: number; json: any }
    expect(page.json.__ENTITIES).toEqual([
      { __KEY: '2', __TIMESTAMP: '2026-01-02T00:00:00.000Z', __STAMP: 1, lastName: 'Turing' },
    ])
    const filtered = (await get(
      `/rest/Employee/$entityset/${id}?$filter="salary<6500"&$asArray=true`,
    )) as { status: number; json: any }
    expect(filtered.json.map((e: any) => e.__KEY)).toEqual([2, 1])
    expect(
      ((await get(`/rest/Employee/$entityset/${id}?$compute=sum&$attributes=salary`)) as any).json,
    ).toBe(18000)
    expect(
      ((await get(`/rest/Employee/lastName/$entityset/${id}?$distinct=true`)) as any).json,
    ).toEqual(['Hopper', 'Lovelace', 'Turing'])
  })

  it('lives $timeout seconds (7200 by default), restarted by every access', async () => {
    // A set goes with its session at the latest (4D releases a session's sets with it): the
    // session here outlives the sets.
    const { get, error, clock, make } = setup({ sessions: { inactivityTimeout: 3 * 3_600_000 } })
    const id = await make('/rest/Employee?$method=entityset&$timeout=60')
    clock.advance(59_000)
    expect((await get(`/rest/Employee/$entityset/${id}`)).status).toBe(200)
    clock.advance(59_000)
    expect((await get(`/rest/Employee/$entityset/${id}`)).status).toBe(200)
    clock.advance(60_001)
    expect(await error(`/rest/Employee/$entityset/${id}`)).toEqual({ status: 404, errCode: 1802 })
    const expiring = await make('/rest/Employee?$method=entityset&$timeout=60')
    clock.advance(60_001)
    expect(await error(`/rest/Employee/$entityset/${expiring}?$method=release`)).toEqual({
      status: 404,
      errCode: 1802,
    })
    const long = await make('/rest/Employee?$method=entityset')
    clock.advance(7_199_000)
    expect((await get(`/rest/Employee/$entityset/${long}`)).status).toBe(200)
  })

  it('releases, and then answers 1802', async () => {
    const { get, error, make } = setup()
    const id = await make('/rest/Employee?$method=entityset')
    expect((await get(`/rest/Employee/$entityset/${id}?$method=release`)).json).toEqual({
      ok: true,
    })
    expect(await error(`/rest/Employee/$entityset/${id}?$method=release`)).toEqual({
      status: 404,
      errCode: 1802,
    })
    expect(await error(`/rest/Employee/$entityset/${id}`)).toEqual({ status: 404, errCode: 1802 })
    expect(await error('/rest/Company/$entityset/NOPE')).toEqual({ status: 404, errCode: 1802 })
  })

  it('remakes a set that is gone from $savedfilter / $savedorderby, under its id, for 600 s', async () => {
    const { get, clock, make } = setup({ sessions: { inactivityTimeout: 3 * 3_600_000 } })
    const id = await make(
      '/rest/Employee?$filter="salary>5500"&$savedfilter="salary>5500"&$orderby="salary"&$savedorderby="salary"&$method=entityset',
    )
    clock.advance(7_200_001)
    const again = (await get(
      `/rest/Employee/$entityset/${id}?$savedfilter="salary>5500"&$savedorderby="salary desc"`,
    )) as { status: number; json: any }
    expect(again.status).toBe(200)
    expect(keys(again.json)).toEqual(['3', '2'])
    clock.advance(599_000)
    expect((await get(`/rest/Employee/$entityset/${id}`)).status).toBe(200)
    clock.advance(600_001)
    expect((await get(`/rest/Employee/$entityset/${id}`)).status).toBe(404)
  })

  it('keeps deleted members as {"__STAMP": 0}, counted; $clean makes a new set without them', async () => {
    const { get, post, make } = setup()
    const id = await make('/rest/Employee?$method=entityset')
    await post('/rest/Employee(2)?$method=delete')
    const read = (await get(`/rest/Employee/$entityset/${id}`)) as { status: number; json: any }
    expect(read.json.__COUNT).toBe(3)
    expect(read.json.__ENTITIES[1]).toEqual({ __STAMP: 0 })
    const cleaned = (await get(
      `/rest/Employee/$entityset/${id}?$clean=true&$method=entityset`,
    )) as { status: number; json: any }
    expect(cleaned.json.__COUNT).toBe(2)
    expect(cleaned.json.__ENTITYSET).not.toContain(id)
    expect(((await get(`/rest/Employee/$entityset/${id}`)) as any).json.__COUNT).toBe(3)
  })

  it('combines sets with $logicOperator (any case); INTERSECT is a bare true or false', async () => {
    const { get, error, rest, make } = { ...setup(), rest: undefined }
    void rest
    const a = await make(
      '/rest/Employee?$filter="salary>=6000"&$orderby="salary desc"&$method=entityset',
    )
    const b = await make('/rest/Employee?$filter="salary<=6000"&$method=entityset')
    const and = (await get(
      `/rest/Employee/$entityset/${a}?$logicOperator=and&$otherCollection=${b}`,
    )) as { status: number; json: any }
    expect(keys(and.json)).toEqual(['2'])
    const or = (await get(
      `/rest/Employee/$entityset/${a}?$logicOperator=OR&$otherCollection=${b}&$method=entityset`,
    )) as { status: number; json: any }
    expect(keys(or.json)).toEqual(['3', '2', '1'])
    expect(or.json.__ENTITYSET).toBeDefined()
    const except = (await get(
      `/rest/Employee/$entityset/${a}?$logicOperator=Except&$otherCollection=${b}`,
    )) as { status: number; json: any }
    expect(keys(except.json)).toEqual(['3'])
    const yes = await get(
      `/rest/Employee/$entityset/${a}?$logicOperator=INTERSECT&$otherCollection=${b}`,
    )
    expect(yes.text).toBe('true')
    const c = await make('/rest/Employee?$filter="salary>6500"&$method=entityset')
    const d = await make('/rest/Employee?$filter="salary<5500"&$method=entityset')
    expect(
      (await get(`/rest/Employee/$entityset/${c}?$logicOperator=intersect&$otherCollection=${d}`))
        .text,
    ).toBe('false')
    expect(
      await error(`/rest/Employee/$entityset/${a}?$logicOperator=XOR&$otherCollection=${b}`),
    ).toEqual({ status: 400, errCode: 1818 })
    expect(await error(`/rest/Employee/$entityset/${a}?$logicOperator=AND`)).toEqual({
      status: 400,
      errCode: 1819,
    })
    expect(
      await error(`/rest/Employee/$entityset/${a}?$logicOperator=AND&$otherCollection=NOPE`),
    ).toEqual({ status: 404, errCode: 1820 })
    const company = await make('/rest/Company?$method=entityset')
    expect(
      await error(`/rest/Employee/$entityset/${a}?$logicOperator=AND&$otherCollection=${company}`),
    ).toEqual({ status: 400, errCode: 1803 })
    expect(await error(`/rest/Company/$entityset/${a}`)).toEqual({ status: 400, errCode: 1803 })
  })

  it('makes a set of a relation with $method=subentityset, ordered by $subOrderby', async () => {
    const { get } = setup()
    const r = (await get(
      '/rest/Company(1)/staff?$expand=staff&$method=subentityset&$subOrderby=lastName DESC',
    )) as { status: number; json: any }
    expect(r.json.__ENTITYSET).toMatch(/^\/rest\/Employee\/\$entityset\//)
    expect(r.json.__ENTITIES.map((e: any) => e.lastName)).toEqual(['Turing', 'Lovelace'])
    const id = (r.json.__ENTITYSET as string).split('/').at(-1)
    expect(
      ((await get(`/rest/Employee/$entityset/${id}`)) as any).json.__ENTITIES.map(
        (e: any) => e.lastName,
      ),
    ).toEqual(['Turing', 'Lovelace'])
  })

  it('deletes the entities of a set with POST $method=delete', async () => {
    const { ds, post, make } = setup()
    const id = await make('/rest/Employee?$filter="salary>5500"&$method=entityset')
    expect((await post(`/rest/Employee/$entityset/${id}?$method=delete`)).json).toEqual({
      ok: true,
    })
    expect(ds.dataClass('Employee').length).toBe(1)
  })

  it('answers $info from the same cache', async () => {
    const { get, clock, make } = setup()
    const id = await make('/rest/Employee?$orderby="salary"&$method=entityset&$timeout=300')
    clock.advance(1000)
    const { json } = (await get('/rest/$info')) as { status: number; json: any }
    expect(json.entitySetCount).toBe(1)
    expect(json.entitySet[0]).toEqual({
      id,
      dataClass: 'Employee',
      selectionSize: 3,
      sorted: true,
      refreshed: '2026-01-02T00:00:00.000Z',
      expires: '2026-01-02T00:05:00.000Z',
    })
    expect(json.usedCache).toBe(12) // 3 members, 4 bytes each (an Int32Array)
    expect(json.sessionInfo).toHaveLength(1)
  })

  it('evicts the least recently used set past the limits, or refuses with 429', async () => {
    const evicting = setup({ entitySets: { maxSets: 2 } })
    const first = await evicting.make('/rest/Employee?$method=entityset')
    await evicting.make('/rest/Employee?$method=entityset')
    await evicting.make('/rest/Employee?$method=entityset')
    expect((await evicting.get(`/rest/Employee/$entityset/${first}`)).status).toBe(404)
    const refusing = setup({ entitySets: { maxSets: 1, whenFull: 'refuse' } })
    await refusing.make('/rest/Employee?$method=entityset')
    expect(await refusing.error('/rest/Employee?$method=entityset')).toEqual({
      status: 429,
      errCode: 9060,
    })
  })
})
