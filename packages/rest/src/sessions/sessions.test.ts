/**
 * Sessions over REST: guests (first requests without a cookie) cannot evict established sessions,
 * and `maxSessions` with `whenFull: 'refuse'` answers 402. Two cookie jars, a manual clock.
 */
import { createDatastore, ManualClock, type SessionStoreOptions } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import { syncReply } from '../sync-reply.fixture.js'

type Json = Record<string, any>

const sessionFixture = (sessions: SessionStoreOptions = {}, options: RestHandlerOptions = {}) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 10))
  const ds = createDatastore(writeModel(), { data: writeData(), clock, sessions })
  const rest = createRestHandler(ds, options)
  /** A client with its own cookie jar. */
  const client = () => {
    let cookie: string | undefined
    const send = async (path: string, init: RequestInit = {}) => {
      const headers: Record<string, string> = { ...(init.headers as Record<string, string>) }
      if (cookie) headers.cookie = cookie
      const res = await rest.request(path, { ...init, headers })
      const set = res.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]!.endsWith('=') ? undefined : set.split(';')[0]
      const text = await res.text()
      return { status: res.status, json: JSON.parse(text) as Json, setCookie: set }
    }
    return {
      send,
      get: (path: string, headers: Record<string, string> = {}) => send(path, { headers }),
      post: (path: string, body?: unknown, headers: Record<string, string> = {}) =>
        send(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      get session() {
        return cookie?.split('=')[1]
      },
    }
  }
  return { ds, clock, rest, client }
}

describe('guest sessions', () => {
  it('20,000 cookie-less requests leave an established session and its lock alone', async () => {
    const { ds, rest, client } = sessionFixture({ maxSessions: 100, maxGuests: 1000 })
    const a = client()
    expect((await a.get('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
    const b = client()
    await b.get('/rest/$catalog')
    await b.get('/rest/$catalog') // b came back with its cookie: established
    for (let i = 0; i < 20_000; i++) {
      const reply = syncReply(
        rest.respond({
          method: 'GET',
          path: '/rest/$catalog',
          query: '',
          headers: {},
          body: null,
        } as never),
      )
      expect(reply.status).toBe(200)
    }
    expect(ds.sessions.counts).toEqual({ established: 2, guests: 1000 })
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(a.session)
    const again = await a.get('/rest/$catalog')
    expect(again.setCookie).toBeNull() // the same session, no new cookie
    expect((await b.post('/rest/Employee?$method=update', { __KEY: '1', salary: 1 })).status).toBe(
      409,
    )
  })

  it('a guest that locks on its first request is established at once', async () => {
    const { ds, client } = sessionFixture({ maxGuests: 1 })
    const a = client()
    await a.get('/rest/Employee(1)?$lock=true')
    expect(ds.sessions.peek(a.session!)?.established).toBe(true)
    client().get('/rest/$catalog') // would evict a guest
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(a.session)
  })
})

describe("maxSessions with whenFull: 'refuse'", () => {
  it('answers 402 to a session that would pass the limit; it is served once there is room', async () => {
    const { ds, client } = sessionFixture({ maxSessions: 1, whenFull: 'refuse' })
    const a = client()
    const b = client()
    await a.get('/rest/$catalog')
    expect((await a.get('/rest/$catalog')).status).toBe(200) // a is established
    expect((await b.get('/rest/$catalog')).status).toBe(200) // b's first request: a guest
    const refused = await b.get('/rest/$catalog')
    expect(refused.status).toBe(402)
    expect(refused.json).toEqual({
      __ERROR: [
        {
          message: 'Maximum number of sessions has been reached (1)',
          componentSignature: 'enti',
          errCode: 9080,
        },
      ],
    })
    expect((await b.get('/rest/Employee(2)?$lock=true')).status).toBe(402)
    ds.sessions.close(a.session!)
    expect((await b.get('/rest/$catalog')).status).toBe(200)
    expect(ds.sessions.counts.established).toBe(1)
  })
})

const USERS: Record<string, { password: string; groups: string[] }> = {
  ada: { password: 'secret', groups: ['Sales'] },
}
const authenticate = ({ user, password }: { user: string; password: string }) =>
  USERS[user]?.password === password ? { name: user, groups: USERS[user]!.groups } : null
const login = (user: string, password: string, more: Record<string, string> = {}) => ({
  'username-4D': user,
  'password-4D': password,
  ...more,
})

describe('$directory', () => {
  it('logs a user in: currentUser, currentUserBelongsTo, then logout ends the session', async () => {
    const { ds, client } = sessionFixture({}, { authenticate })
    const a = client()
    expect((await a.get('/rest/$directory/currentUser')).json).toEqual({ result: null })
    expect(await a.post('/rest/$directory/login', undefined, login('ada', 'secret'))).toMatchObject(
      { status: 200, json: { result: true } },
    )
    expect(ds.sessions.peek(a.session!)?.established).toBe(true)
    expect((await a.get('/rest/$directory/currentUser')).json).toEqual({
      result: { userName: 'ada', fullName: 'ada', ID: 'ada' },
    })
    expect((await a.post('/rest/$directory/currentUserBelongsTo', ['Sales'])).json).toEqual({
      result: true,
    })
    expect((await a.post('/rest/$directory/currentUserBelongsTo', ['HR'])).json).toEqual({
      result: false,
    })
    expect((await a.get('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
    const sid = a.session!
    const out = await a.get('/rest/$directory/logout')
    expect(out.json).toEqual({ result: true })
    expect(out.setCookie).toMatch(/^4DSID_shop=; Path=\/; Max-Age=0/)
    expect(ds.sessions.peek(sid)).toBeUndefined()
    expect(ds.locks.holder('Employee', 1)).toBeUndefined()
    expect(a.session).toBeUndefined()
    expect((await a.get('/rest/$directory/currentUser')).json).toEqual({ result: null })
  })

  it('refuses wrong credentials with 401 and result false; two jars do not share users', async () => {
    const { client } = sessionFixture({}, { authenticate })
    const a = client()
    const b = client()
    expect(await a.post('/rest/$directory/login', undefined, login('ada', 'nope'))).toMatchObject({
      status: 401,
      json: { result: false },
    })
    await b.post('/rest/$directory/login', undefined, login('ada', 'secret'))
    expect((await a.get('/rest/$directory/currentUser')).json.result).toBeNull()
    expect((await b.get('/rest/$directory/currentUser')).json.result.userName).toBe('ada')
  })

  it('session-4D-length sets the inactivity timeout, in minutes, at least 60', async () => {
    const { clock, client } = sessionFixture({}, { authenticate })
    const a = client()
    const b = client()
    await a.post(
      '/rest/$directory/login',
      undefined,
      login('ada', 'secret', { 'session-4D-length': '120' }),
    )
    await b.post(
      '/rest/$directory/login',
      undefined,
      login('ada', 'secret', { 'session-4D-length': '5' }),
    )
    clock.advance(90 * 60_000)
    expect((await a.get('/rest/$directory/currentUser')).json.result.userName).toBe('ada')
    expect((await b.get('/rest/$directory/currentUser')).json.result).toBeNull()
    clock.advance(120 * 60_000)
    expect((await a.get('/rest/$directory/currentUser')).json.result).toBeNull()
    const bad = await client().post('/rest/$directory/login', undefined, {
      'session-4D-length': 'x',
    })
    expect(bad.status).toBe(400)
  })

  it('without authenticate, a login opens a session without a user; wrong methods are 405', async () => {
    const { client } = sessionFixture()
    const a = client()
    expect((await a.post('/rest/$directory/login')).json).toEqual({ result: true })
    expect((await a.get('/rest/$directory/currentUser')).json).toEqual({ result: null })
    expect((await a.get('/rest/$directory/login')).status).toBe(405)
    expect((await a.post('/rest/$directory/currentUserBelongsTo', 'Sales')).status).toBe(400)
    expect((await a.post('/rest/$directory/logout')).json).toEqual({ result: false })
  })

  it('a login past maxSessions in refuse mode is 402 and records no user', async () => {
    const { client } = sessionFixture({ maxSessions: 1, whenFull: 'refuse' }, { authenticate })
    const a = client()
    await a.post('/rest/$directory/login', undefined, login('ada', 'secret'))
    const b = client()
    expect((await b.post('/rest/$directory/login', undefined, login('ada', 'secret'))).status).toBe(
      402,
    )
  })
})

describe('forceLogin', () => {
  it('answers only $catalog and $directory until the session logs in: 401 1557 / 1558', async () => {
    const { client } = sessionFixture({}, { authenticate, forceLogin: true })
    const a = client()
    expect((await a.get('/rest/$catalog')).status).toBe(200)
    expect((await a.get('/rest/$catalog/Employee')).status).toBe(200)
    expect(await a.get('/rest/Employee')).toMatchObject({
      status: 401,
      json: {
        __ERROR: [
          {
            message: 'No permission to read for the Employee dataclass',
            componentSignature: 'dbmg',
            errCode: 1557,
          },
        ],
      },
    })
    const write = await a.post('/rest/Employee?$method=update', { __KEY: '1', salary: 1 })
    expect([write.status, write.json.__ERROR[0].errCode]).toEqual([401, 1558])
    expect((await a.get('/rest/$info')).status).toBe(401)
    await a.post('/rest/$directory/login', undefined, login('ada', 'nope'))
    expect((await a.get('/rest/Employee(1)')).status).toBe(401)
    await a.post('/rest/$directory/login', undefined, login('ada', 'secret'))
    expect((await a.get('/rest/Employee(1)')).status).toBe(200)
    expect((await client().get('/rest/Employee(1)')).status).toBe(401)
  })

  it('needs an authenticate function', () => {
    expect(() => sessionFixture({}, { forceLogin: true })).toThrow(
      'createRestHandler: forceLogin needs an authenticate function',
    )
  })
})
