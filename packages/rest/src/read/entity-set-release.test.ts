/**
 * 4D 21 R4's `POST /rest/{dataClass}/$entityset/$release` with a body of set ids
 * (versioned_docs/version-21-R4/REST/$entityset.md, "$entityset/$release", 4d/docs): "Releases one
 * or more existing entity set(s) stored in 4D Server's cache". The page gives the request and not
 * the reply: it is answered as the GET `$method=release` it deprecates answers one id.
 */
import { describe, expect, it } from 'vitest'
import { setsSetup as setup } from './entity-sets.fixture.js'

const RELEASE = '/rest/Employee/$entityset/$release'

describe('POST $entityset/$release (4D 21 R4)', () => {
  // $entityset.md: "Release two entity sets from the server's cache: POST
  // /rest/Employee/$entityset/$release" with the ids as "a collection" in the body.
  it('releases the sets the body names, answering {"ok":true} as $method=release does', async () => {
    const { get, post, error, make } = setup()
    const a = await make('/rest/Employee?$method=entityset')
    const b = await make('/rest/Employee?$filter="salary>5500"&$method=entityset')
    const c = await make('/rest/Employee?$method=entityset')
    expect(await post(RELEASE, [a, b])).toEqual({ status: 200, json: { ok: true } })
    expect(await error(`/rest/Employee/$entityset/${a}`)).toEqual({ status: 404, errCode: 1802 })
    expect(await error(`/rest/Employee/$entityset/${b}`)).toEqual({ status: 404, errCode: 1802 })
    expect((await get(`/rest/Employee/$entityset/${c}`)).status).toBe(200)
    expect(await post(RELEASE, [])).toEqual({ status: 200, json: { ok: true } })
    // The GET form stays, deprecated: still one id at a time.
    expect((await get(`/rest/Employee/$entityset/${c}?$method=release`)).json).toEqual({
      ok: true,
    })
  })

  it('answers 404 1802 naming the ids it held no set for (unknown, expired), the others released', async () => {
    const { post, make, clock } = setup({ sessions: { inactivityTimeout: 3 * 3_600_000 } })
    const expiring = await make('/rest/Employee?$method=entityset&$timeout=60')
    const live = await make('/rest/Employee?$method=entityset')
    clock.advance(60_001)
    const r = await post(RELEASE, [live, expiring, 'NOPE', live])
    expect(r.status).toBe(404)
    expect(r.json.__ERROR).toHaveLength(1)
    expect(r.json.__ERROR[0]).toMatchObject({ errCode: 1802, componentSignature: 'dbmg' })
    expect(r.json.__ERROR[0].message).toBe(`The "${expiring}, NOPE" entity set cannot be found`)
    // The live one went all the same; sending the list again says so.
    expect((await post(RELEASE, [live])).status).toBe(404)
  })

  it('releases only the session’s own sets: another’s is answered as one not there, and stays', async () => {
    const { post, make, client } = setup()
    const mine = await make('/rest/Employee?$method=entityset')
    const other = client()
    const theirs = await other.make('/rest/Employee?$method=entityset')
    const r = await post(RELEASE, [theirs, mine])
    expect([r.status, r.json.__ERROR[0].errCode]).toEqual([404, 1802])
    expect(r.json.__ERROR[0].message).toContain(theirs)
    expect((await other.get(`/rest/Employee/$entityset/${theirs}`)).status).toBe(200)
    expect(await other.post(RELEASE, [theirs])).toEqual({ status: 200, json: { ok: true } })
  })

  it('takes only a JSON array of ids (400 9030), and only by POST (GET: 405)', async () => {
    const { post, error, make } = setup()
    const id = await make('/rest/Employee?$method=entityset')
    for (const body of [{ ids: [id] }, id, [id, 3], null]) {
      const r = await post(RELEASE, body)
      expect([r.status, r.json.__ERROR[0].errCode]).toEqual([400, 9030])
    }
    expect((await error(RELEASE)).status).toBe(405)
    expect(await post(RELEASE, [id])).toEqual({ status: 200, json: { ok: true } })
  })

  // $entityset.md: "you can call $savedfilter and $savedorderby to save the filter and order by
  // statements when you create an entity set", for a set gone from the cache.
  it('a set released this way comes back when named with its $savedfilter and $savedorderby', async () => {
    const { get, post, make } = setup()
    const id = await make(
      '/rest/Employee?$filter="salary>5500"&$savedfilter="salary>5500"&$orderby="salary desc"&$savedorderby="salary desc"&$method=entityset',
    )
    expect((await post(RELEASE, [id])).status).toBe(200)
    const again = (await get(
      `/rest/Employee/$entityset/${id}?$savedfilter="salary>5500"&$savedorderby="salary desc"`,
    )) as { status: number; json: any }
    expect(again.status).toBe(200)
    expect(again.json.__ENTITIES.map((e: any) => e.__KEY)).toEqual(['3', '2'])
    expect((await get(`/rest/Employee/$entityset/${id}`)).status).toBe(200)
  })

  it('$info counts and lists what is left', async () => {
    const { get, post, make } = setup()
    const ids = [
      await make('/rest/Employee?$method=entityset'),
      await make('/rest/Employee?$method=entityset'),
      await make('/rest/Company?$method=entityset'),
    ]
    const info = async () => ((await get('/rest/$info')) as { json: any }).json
    expect((await info()).entitySetCount).toBe(3)
    // The dataclass of the path is not checked against the sets', as the GET form does not.
    expect((await post(RELEASE, [ids[0], ids[2]])).status).toBe(200)
    const after = await info()
    expect(after.entitySetCount).toBe(1)
    expect(after.entitySet.map((s: any) => s.id)).toEqual([ids[1]])
  })

  // 4D's own quota demo releases every set `$info` lists with `POST /rest/$entityset/$release`
  // (no dataclass) and reads `$info` with POST.
  it('POST /rest/$entityset/$release releases sets of any dataclass; POST $info answers as GET', async () => {
    const { get, post, error, make, client } = setup()
    const people = await make('/rest/Employee?$method=entityset')
    const firms = await make('/rest/Company?$method=entityset')
    const kept = await make('/rest/Company?$method=entityset')
    const info = await post('/rest/$info', [])
    expect(info.status).toBe(200)
    expect(info.json).toEqual((await get('/rest/$info')).json)
    expect(info.json.entitySet.map((s: any) => s.id).sort()).toEqual([people, firms, kept].sort())
    expect(await post('/rest/$entityset/$release', [people, firms])).toEqual({
      status: 200,
      json: { ok: true },
    })
    expect(await error(`/rest/Employee/$entityset/${people}`)).toEqual({
      status: 404,
      errCode: 1802,
    })
    expect(await error(`/rest/Company/$entityset/${firms}`)).toEqual({ status: 404, errCode: 1802 })
    expect((await post('/rest/$info')).json.entitySet.map((s: any) => s.id)).toEqual([kept])
    // Only the session's own, as with a dataclass; a body of ids only; POST only.
    const other = client()
    const r = await other.post('/rest/$entityset/$release', [kept])
    expect([r.status, r.json.__ERROR[0].errCode]).toEqual([404, 1802])
    expect((await get(`/rest/Company/$entityset/${kept}`)).status).toBe(200)
    expect((await post('/rest/$entityset/$release', { ids: [kept] })).status).toBe(400)
    expect((await error('/rest/$entityset/$release')).status).toBe(405)
    expect((await error('/rest/$entityset/ABC')).status).toBe(404)
    expect(await post('/rest/$entityset/$release', [])).toEqual({ status: 200, json: { ok: true } })
  })
})
