/**
 * 4D 21 R5's web server quotas over HTTP: each rate quota in its fixed window (the clock moved by
 * hand), per session before server-wide, 429 with the seconds left in the window as `Retry-After`,
 * an empty one for the concurrent limits, exposed to a CORS page; changed while serving; the
 * 21 R4 `Session.quotas` kept as they were.
 */
import { createDatastore, currentCall, ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import type { WebQuotas } from './web-quotas.js'

// 10:00:15 on the clock: 45 s left in the minute, 3,585 s in the hour.
const START = Date.UTC(2026, 0, 1, 10, 0, 15)

function server(quotas: WebQuotas, options: RestHandlerOptions = {}) {
  const clock = new ManualClock(START)
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock,
    functions: {
      dataStore: {
        // A login of its own: a session that is kept (it holds data), as 4D's demo's authentify.
        hello: { exposed: true, call: () => void currentCall()!.session!.data.set('hi', 1) },
        setQuota: {
          exposed: true,
          call: (n: number | null) => {
            currentCall()!.quotas.nbEntitySets = n ?? undefined
          },
        },
        sets: { exposed: true, call: () => currentCall()!.quotas.nbEntitySets },
      },
    },
  })
  const handler = createRestHandler(ds, { ...options, quotas })
  let cookie: string | undefined
  const get = async (path: string, init: RequestInit = {}, withCookie = true) => {
    const headers = new Headers(init.headers)
    if (withCookie && cookie !== undefined) headers.set('cookie', cookie)
    const res = await handler.request(path, { ...init, headers })
    const set = res.headers.get('set-cookie')
    if (withCookie && set) cookie = set.split(';')[0]
    return res
  }
  /** A session that the store keeps: its storage holds something. */
  const login = () => get('/rest/$catalog/hello', { method: 'POST', body: '[]' })
  return { clock, ds, handler, get, login }
}

async function refused(res: Response, name: string) {
  expect(res.status).toBe(429)
  const body = (await res.json()) as { __ERROR: { errCode: number; message: string }[] }
  expect(body.__ERROR[0]).toMatchObject({ errCode: 9065 })
  expect(body.__ERROR[0]!.message).toContain(name)
  return res.headers.get('retry-after')
}

describe('web server quotas', () => {
  it('nbRequestsPerMin: 429 past it with the seconds left in the minute, then a new minute lets it through', async () => {
    const s = server({ nbRequestsPerMin: 3 })
    for (let i = 0; i < 3; i++) expect((await s.get('/rest/Company')).status).toBe(200)
    expect(await refused(await s.get('/rest/Company'), 'nbRequestsPerMin')).toBe('45')
    s.clock.advance(30_000)
    expect(await refused(await s.get('/rest/Company'), 'nbRequestsPerMin')).toBe('15')
    s.clock.advance(15_000)
    expect((await s.get('/rest/Company')).status).toBe(200)
  })

  it('nbRequestsPerHour: the hour window wins when both are reached', async () => {
    const s = server({ nbRequestsPerMin: 2, nbRequestsPerHour: 2 })
    await s.get('/rest/Company')
    await s.get('/rest/Company')
    expect(await refused(await s.get('/rest/Company'), 'nbRequestsPerHour')).toBe('3585')
    s.clock.advance(60_000)
    expect(await refused(await s.get('/rest/Company'), 'nbRequestsPerHour')).toBe('3525')
    s.clock.advance(3_525_000)
    expect((await s.get('/rest/Company')).status).toBe(200)
  })

  it('inBytesPerMin counts the request line, headers and body; a refused request is not counted', async () => {
    const s = server({ inBytesPerMin: 1000 })
    const big = 'x'.repeat(900)
    expect((await s.get(`/rest/Company?$filter="name='${big}'"`)).status).toBe(200)
    expect((await s.get('/rest/Company')).status).toBe(200)
    expect(await refused(await s.get('/rest/Company'), 'inBytesPerMin')).toBe('45')
    s.clock.advance(45_000)
    expect((await s.get('/rest/Company')).status).toBe(200)
  })

  it('outBytesPerMin counts replies; the next request is refused', async () => {
    const s = server({ outBytesPerMin: 600 })
    expect((await s.get('/rest/Employee')).status).toBe(200)
    expect(await refused(await s.get('/rest/$catalog'), 'outBytesPerMin')).toBe('45')
  })

  it('a reply in chunks that crosses an output quota is cut there', async () => {
    const s = server({ outBytesPerMin: 2000 })
    // Enough employees for the reply to go out in several chunks of about 64K characters.
    s.ds
      .dataClass('Employee')
      .fromCollection(
        Array.from({ length: 3000 }, (_, i) => ({ lastName: `n${i}`.padEnd(40, 'x'), salary: i })),
      )
    expect((await s.get('/rest/Company')).status).toBe(200)
    const res = await s.get('/rest/Employee?$top=3000')
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
  })

  it('per session: checked first, counted apart for each session, the server-wide one for all', async () => {
    const a = server({ nbRequestsPerMinPerSession: 2, nbRequestsPerMin: 5 })
    // The login opens the session: its first request, counted by the session as by the server.
    await a.login()
    expect((await a.get('/rest/Company')).status).toBe(200)
    expect(await refused(await a.get('/rest/Company'), 'nbRequestsPerMinPerSession')).toBe('45')
    // Another client (no cookie) is under the server's quota only: 2 of 5 counted so far.
    for (let i = 0; i < 3; i++) expect((await a.get('/rest/Company', {}, false)).status).toBe(200)
    expect(await refused(await a.get('/rest/Company', {}, false), 'nbRequestsPerMin')).toBe('45')
  })

  it('per-session values set at run time are for the sessions opened since', async () => {
    const s = server({})
    await s.login()
    expect((await s.get('/rest/Company')).status).toBe(200)
    s.clock.advance(1000)
    s.handler.quotas.nbRequestsPerMinPerSession = 1
    for (let i = 0; i < 3; i++) expect((await s.get('/rest/Company')).status).toBe(200)
    // A new session gets it.
    const other = await s.get('/rest/$catalog/hello', { method: 'POST', body: '[]' }, false)
    const cookie = other.headers.get('set-cookie')!.split(';')[0]!
    const again = () => s.handler.request('/rest/Company', { headers: { cookie } })
    // The request that opened it was its one of the minute.
    expect(await refused(await again(), 'nbRequestsPerMinPerSession')).toBe('44')
  })

  it('nbSessions and nbGuestSessions: a request that would open one more gets 429 with an empty Retry-After', async () => {
    const s = server({ nbSessions: 1 })
    await s.login()
    expect((await s.get('/rest/Company')).status).toBe(200)
    const res = await s.get('/rest/Company', {}, false)
    expect(await refused(res, 'nbSessions')).toBe('')
    const g = server({ nbGuestSessions: 1 })
    await g.login()
    expect(await refused(await g.get('/rest/Company', {}, false), 'nbGuestSessions')).toBe('')
    // The session closes (its inactivity timeout): room again.
    g.clock.advance(3_600_001)
    expect((await g.get('/rest/Company', {}, false)).status).toBe(200)
  })

  it('nbEntitySetsPerSession becomes the session’s quotas.nbEntitySets: 429 with an empty Retry-After', async () => {
    const s = server({ nbEntitySetsPerSession: 1 })
    await s.login()
    expect(
      await (await s.get('/rest/$catalog/sets', { method: 'POST', body: '[]' })).json(),
    ).toEqual({ result: 1 })
    expect((await s.get('/rest/Company?$method=entityset')).status).toBe(200)
    const res = await s.get('/rest/Employee?$method=entityset')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('')
    // The session's code resets it (4D's demo's logout): no limit of its own any more.
    await s.get('/rest/$catalog/setQuota', { method: 'POST', body: '[null]' })
    expect((await s.get('/rest/Employee?$method=entityset')).status).toBe(200)
  })

  it('a guest’s first requests count for its session once it is kept: n requests, not n + 2', async () => {
    const s = server({ nbRequestsPerMinPerSession: 3, inBytesPerMinPerSession: 100_000 })
    // Opens a guest (not kept until it comes back), then comes back: both count.
    const first = await s.get('/rest/Company')
    expect(first.status).toBe(200)
    expect((await s.get('/rest/Company')).status).toBe(200)
    expect((await s.get('/rest/Company')).status).toBe(200)
    expect(await refused(await s.get('/rest/Company'), 'nbRequestsPerMinPerSession')).toBe('45')
    // A client that never comes back leaves nothing counted against another session.
    for (let i = 0; i < 3; i++) expect((await s.get('/rest/Company', {}, false)).status).toBe(200)
  })

  // Issue 78: a GET by key took the quick lane, which sent a cookie but kept no session, so the
  // per-session counts went to an id nothing checked (7 of 7 passed a quota of 4).
  describe('a client that only reads by key', () => {
    /** A client of its own cookie jar sending `GET /rest/Company(1)`: each reply's status. */
    const reader = (s: ReturnType<typeof server>) => {
      let cookie: string | undefined
      return async () => {
        const res = await s.handler.request(
          '/rest/Company(1)',
          cookie ? { headers: { cookie } } : {},
        )
        cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie
        await res.arrayBuffer()
        return res.status
      }
    }
    const times = async (n: number, read: () => Promise<number>) => {
      const statuses = []
      for (let i = 0; i < n; i++) statuses.push(await read())
      return statuses
    }

    it('is held by nbRequestsPerMinPerSession and outBytesPerMinPerSession; another is served', async () => {
      const s = server({ nbRequestsPerMinPerSession: 4 })
      const attacker = reader(s)
      expect(await times(7, attacker)).toEqual([200, 200, 200, 200, 429, 429, 429])
      expect(await times(4, reader(s))).toEqual([200, 200, 200, 200])
      // A client whose session a query opened is served by key too.
      const other = (await s.get('/rest/$catalog', {}, false)).headers.get('set-cookie')!
      const byKey = await s.handler.request('/rest/Company(1)', { headers: { cookie: other } })
      expect(byKey.status).toBe(200)
      // Bytes out: a reply by key is a few hundred bytes with its headers.
      const out = await times(6, reader(server({ outBytesPerMinPerSession: 1000 })))
      const first = out.indexOf(429)
      expect(first).toBeGreaterThan(1)
      expect(new Set(out.slice(first))).toEqual(new Set([429]))
      s.clock.advance(45_000)
      expect(await attacker()).toBe(200)
    })

    it('counts for nbGuestSessions and nbSessions: a third guest is refused, the two others served', async () => {
      for (const quotas of [{ nbGuestSessions: 2 }, { nbSessions: 2 }]) {
        const s = server(quotas)
        const [a, b, c] = [reader(s), reader(s), reader(s)]
        expect(await times(2, a)).toEqual([200, 200])
        expect(await times(2, b)).toEqual([200, 200])
        const third = await s.handler.request('/rest/Company(1)')
        expect(await refused(third, Object.keys(quotas)[0]!)).toBe('')
        expect(await c()).toBe(429)
        expect([await a(), await b()]).toEqual([200, 200])
        expect(s.ds.sessions.counts.guests).toBe(2)
      }
    })
  })

  it('a CORS page reads the Retry-After of a 429', async () => {
    const s = server({ nbRequestsPerMin: 1 }, { cors: { origin: 'http://page' } })
    const origin = { headers: { origin: 'http://page' } }
    await s.get('/rest/Company', origin)
    const res = await s.get('/rest/Company', origin)
    expect(res.status).toBe(429)
    expect(res.headers.get('access-control-allow-origin')).toBe('http://page')
    expect(res.headers.get('access-control-expose-headers')).toContain('retry-after')
  })

  it('WebServer.quotas: changed while serving, a value 4D refuses throws and keeps the old one', async () => {
    const s = server({ nbRequestsPerMin: 1 })
    await s.get('/rest/Company')
    expect((await s.get('/rest/Company')).status).toBe(429)
    expect(() => (s.handler.quotas.nbRequestsPerMin = 0)).toThrow(RangeError)
    expect(() => (s.handler.quotas.nbRequestsPerMin = 2.5)).toThrow(RangeError)
    expect(s.handler.quotas.nbRequestsPerMin).toBe(1)
    s.handler.quotas.nbRequestsPerMin = undefined
    expect((await s.get('/rest/Company')).status).toBe(200)
    expect(() => createRestHandler(s.ds, { quotas: { nbSessions: -1 } })).toThrow(/nbSessions/)
  })
})
