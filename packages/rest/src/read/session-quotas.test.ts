/**
 * 4D 21 R4's session quotas over HTTP, set by a function through `currentCall().quotas` as 4D code
 * sets `Session.quotas` (versioned_docs/version-21-R4/API/QuotaManagerClass.md and
 * API/SessionClass.md `.quotas`, 4d/docs): past `nbEntitySets`, "a REST request that need to create
 * an entity set will get a 429 HTTP status code and an error response, until at least one entity
 * set is released"; the timeouts apply to the sets "created afterward in the session".
 */
import { currentCall } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { setsSetup } from './entity-sets.fixture.js'

/** `quotas(values)`: sets the caller's session's quotas (null resets one) and answers them all. */
const functions = {
  dataStore: {
    quotas: {
      exposed: true,
      call(values: Record<string, number | null> = {}) {
        const quotas = currentCall()!.quotas
        const writable = quotas as unknown as Record<string, number | undefined>
        for (const [name, value] of Object.entries(values)) writable[name] = value ?? undefined
        const { nbEntitySets, defaultEntitySetTimeout, maxEntitySetTimeout } = quotas
        const current = quotas.currentValues
        return { nbEntitySets, defaultEntitySetTimeout, maxEntitySetTimeout, current }
      },
    },
  },
}

// Sessions outlive every set here: a set goes with its session at the latest.
const setup = () => setsSetup({ functions, sessions: { inactivityTimeout: 48 * 3_600_000 } })

const MAKE = '/rest/Employee?$method=entityset'

describe('Session.quotas over REST (4D 21 R4)', () => {
  it('past nbEntitySets a request that makes a set gets 429 with __ERROR, until one is released', async () => {
    const { get, post, make, client } = setup()
    expect((await post('/rest/$catalog/quotas', [{ nbEntitySets: 2 }])).json.result).toEqual({
      nbEntitySets: 2,
      defaultEntitySetTimeout: 7200,
      maxEntitySetTimeout: 86_400,
      current: {},
    })
    const first = await make(MAKE)
    await make('/rest/Employee?$filter="salary>5500"&$savedfilter="salary>5500"&$method=entityset')
    const refused = (await get(MAKE)) as { status: number; json: any }
    expect(refused.status).toBe(429)
    expect(refused.json.__ERROR[0]).toMatchObject({ errCode: 9061, componentSignature: 'enti' })
    expect(refused.json.__ERROR[0].message).toContain('quotas.nbEntitySets')
    // Reads that make no set, and other sessions, go on.
    expect((await get('/rest/Employee?$filter="salary>5500"')).status).toBe(200)
    expect((await client().get(MAKE)).status).toBe(200)
    const info = ((await get('/rest/$info')) as { json: any }).json
    expect(info.entitySetCount).toBe(2)
    expect((await post('/rest/$catalog/quotas', [])).json.result.current).toEqual({
      nbEntitySets: 2,
    })
    expect((await post('/rest/Employee/$entityset/$release', [first])).status).toBe(200)
    expect((await get(MAKE)).status).toBe(200)
    expect((await get(MAKE)).status).toBe(429)
  })

  it('a set remade from its $savedfilter counts too; undefined (null here) lifts the quota', async () => {
    const { get, post, make } = setup()
    await post('/rest/$catalog/quotas', [{ nbEntitySets: 1 }])
    const id = await make(
      '/rest/Employee?$filter="salary>5500"&$savedfilter="salary>5500"&$method=entityset',
    )
    expect((await post('/rest/Employee/$entityset/$release', [id])).status).toBe(200)
    await make(MAKE)
    const remake = `/rest/Employee/$entityset/${id}?$savedfilter="salary>5500"`
    expect((await get(remake)).status).toBe(429)
    const reset = await post('/rest/$catalog/quotas', [{ nbEntitySets: null }])
    expect(reset.json.result.nbEntitySets).toBe(0)
    expect((await get(remake)).status).toBe(200)
    expect((await get(MAKE)).status).toBe(200)
  })

  it('a value <= 0 is an error (400 9062), the quota unchanged', async () => {
    const { post } = setup()
    await post('/rest/$catalog/quotas', [{ nbEntitySets: 3 }])
    for (const value of [0, -5]) {
      const r = await post('/rest/$catalog/quotas', [{ nbEntitySets: value }])
      expect([r.status, r.json.__ERROR[0].errCode]).toEqual([400, 9062])
    }
    expect((await post('/rest/$catalog/quotas', [])).json.result.nbEntitySets).toBe(3)
  })

  // QuotaManagerClass.md: defaultEntitySetTimeout is used "for any entity set created afterwards in
  // the session (existing entity set default timeout values are not modified)"; maxEntitySetTimeout
  // 2400 with `$timeout=3000`: "the entity set will be released after 40 minutes".
  it('defaultEntitySetTimeout and maxEntitySetTimeout time the sets made afterwards', async () => {
    const { get, post, make, clock } = setup()
    const before = await make(MAKE)
    await post('/rest/$catalog/quotas', [{ defaultEntitySetTimeout: 1200 }])
    const short = await make(MAKE)
    await post('/rest/$catalog/quotas', [{ maxEntitySetTimeout: 2400 }])
    const capped = await make('/rest/Employee?$method=entityset&$timeout=3000')
    const expires = async () =>
      Object.fromEntries(
        ((await get('/rest/$info')) as { json: any }).json.entitySet.map((s: any) => [
          s.id,
          s.expires,
        ]),
      )
    expect(await expires()).toEqual({
      [before]: '2026-01-02T02:00:00.000Z',
      [short]: '2026-01-02T00:20:00.000Z',
      [capped]: '2026-01-02T00:40:00.000Z',
    })
    clock.advance(2_400_001)
    expect((await get(`/rest/Employee/$entityset/${capped}`)).status).toBe(404)
    expect((await get(`/rest/Employee/$entityset/${before}`)).status).toBe(200)
  })
})
