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
  it('20,000 guests, cookie-less or coming back, leave an established session and its lock alone', async () => {
    const { ds, rest, client } = sessionFixture({ maxSessions: 2, maxGuests: 1000 })
    const a = client()
    expect((await a.get('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
    const b = client()
    await b.get('/rest/$catalog')
    await b.get('/rest/$catalog') // b came back with its cookie: still a guest
    expect(ds.sessions.peek(b.session!)?.established).toBe(false)
    const get = (cookie?: string) =>
      syncReply(
        rest.respond({
          method: 'GET',
          path: '/rest/$catalog',
          query: '',
          headers: cookie ? { cookie } : {},
          body: null,
        } as never),
      )
    for (let i = 0; i < 10_000; i++) {
      const first = get()
      expect(first.status).toBe(200)
      const cookie = String(first.headers['set-cookie']).split(';')[0]!
      expect(get(cookie).status).toBe(200)
    }
    expect(ds.sessions.counts).toEqual({ established: 1, users: 0, guests: 1000 })
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(a.session)
    const again = await a.get('/rest/$catalog')
    expect(again.setCookie).toBeNull() // the same session, no new cookie
    // b was evicted with the other guests: its next request is a new guest, refused the write.
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
  it('answers 402 to a lock that would pass the limit; it is served once there is room', async () => {
    const { ds, client } = sessionFixture({ maxSessions: 1, whenFull: 'refuse' })
    const a = client()
    const b = client()
    expect((await a.get('/rest/Employee(1)?$lock=true')).json.result).toBe(true) // a is established
    expect((await b.get('/rest/$catalog')).status).toBe(200) // b's requests: a guest's
    expect((await b.get('/rest/$catalog')).status).toBe(200)
    const refused = await b.get('/rest/Employee(2)?$lock=true')
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
    expect(ds.locks.holder('Employee', 2)).toBeUndefined()
    ds.sessions.close(a.session!)
    expect((await b.get('/rest/Employee(2)?$lock=true')).json.result).toBe(true)
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

describe('a login renews the session (session fixation)', () => {
  it('a guest id planted before the login is dead after it', async () => {
    const { ds, client } = sessionFixture({}, { authenticate, forceLogin: true })
    const attacker = client()
    await attacker.get('/rest/$catalog')
    const planted = attacker.session!
    // The victim's browser carries the attacker's id, and logs in with it.
    const victim = client()
    await victim.send('/rest/$catalog', { headers: { cookie: `4DSID_shop=${planted}` } })
    const loggedIn = await victim.send('/rest/$directory/login', {
      method: 'POST',
      headers: { cookie: `4DSID_shop=${planted}`, ...login('ada', 'secret') },
    })
    expect(loggedIn.status).toBe(200)
    expect(loggedIn.setCookie).toMatch(
      /^4DSID_shop=[0-9A-F]{32}; Path=\/; HttpOnly; SameSite=Strict$/,
    )
    expect(victim.session).not.toBe(planted)
    expect((await victim.get('/rest/Employee(1)')).status).toBe(200)
    // The attacker's copy of the id is a stranger's: a new guest, refused the data.
    expect((await attacker.get('/rest/$directory/currentUser')).json).toEqual({ result: null })
    expect((await attacker.get('/rest/Employee(1)')).status).toBe(401)
    expect(attacker.session).not.toBe(planted)
    expect(ds.sessions.peek(planted)).toBeUndefined()
  })

  it('carries the locks a guest took to the id its login gives it', async () => {
    const { ds, client } = sessionFixture({}, { authenticate })
    const a = client()
    expect((await a.get('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
    const before = a.session!
    await a.post('/rest/$directory/login', undefined, login('ada', 'secret'))
    expect(a.session).not.toBe(before)
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(a.session)
    expect((await a.post('/rest/Employee?$method=update', { __KEY: '1', salary: 1 })).status).toBe(
      200,
    )
    const other = client()
    expect((await other.get('/rest/Employee(1)?$lock=true')).json.result).toBe(false)
  })

  it('renews again at a failed login that logs the user out, and at a login without authenticate', async () => {
    const { client } = sessionFixture({}, { authenticate })
    const a = client()
    await a.post('/rest/$directory/login', undefined, login('ada', 'secret'))
    const first = a.session
    const failed = await a.post('/rest/$directory/login', undefined, login('ada', 'nope'))
    expect(failed.status).toBe(401)
    expect(a.session).not.toBe(first)
    expect((await a.get('/rest/$directory/currentUser')).json.result).toBeNull()
    const plain = sessionFixture().client()
    await plain.get('/rest/$catalog')
    const guest = plain.session
    expect((await plain.post('/rest/$directory/login')).json).toEqual({ result: true })
    expect(plain.session).not.toBe(guest)
  })
})

describe('$info of a logged-in session, and the longest session-4D-length', () => {
  it('names the user in sessionInfo', async () => {
    const { client } = sessionFixture({}, { authenticate })
    const a = client()
    expect((await a.get('/rest/$info')).json.sessionInfo[0].userName).toBe('default guest')
    await a.post('/rest/$directory/login', undefined, login('ada', 'secret'))
    expect((await a.get('/rest/$info')).json.sessionInfo[0]).toMatchObject({
      sessionID: a.session,
      userName: 'ada',
    })
  })

  it('takes up to a day (maxSessionLength), refuses more with 400, and $info never fails', async () => {
    const { clock, client } = sessionFixture({}, { authenticate })
    const a = client()
    const day = await a.post(
      '/rest/$directory/login',
      undefined,
      login('ada', 'secret', { 'session-4D-length': '1440' }),
    )
    expect(day.status).toBe(200)
    expect((await a.get('/rest/$info')).json.sessionInfo[0]).toMatchObject({
      lifeTime: 86_400,
      expiration: new Date(clock.now() + 86_400_000).toISOString(),
    })
    for (const length of ['1441', '1e16', 'Infinity', '-5', '']) {
      const b = client()
      const refused = await b.post(
        '/rest/$directory/login',
        undefined,
        login('ada', 'secret', { 'session-4D-length': length }),
      )
      expect(refused.status, length).toBe(400)
      expect(refused.json.__ERROR[0]).toMatchObject({
        errCode: 1806,
        message: `Invalid value "${length}" for session-4D-length: expected a number of minutes, at most 1440`,
      })
      // Nothing was logged in.
      expect((await b.get('/rest/$directory/currentUser')).json.result).toBeNull()
      expect((await b.get('/rest/$info')).status).toBe(200)
    }
    const week = sessionFixture({}, { authenticate, maxSessionLength: 10_080 }).client()
    expect(
      (
        await week.post(
          '/rest/$directory/login',
          undefined,
          login('ada', 'secret', { 'session-4D-length': '10080' }),
        )
      ).status,
    ).toBe(200)
    expect(() => sessionFixture({}, { maxSessionLength: 59 })).toThrow(/at least 60 minutes/)
  })

  it('answers $info for a session whose timeout code made larger than any date', async () => {
    const { ds, client } = sessionFixture()
    const a = client()
    // The client comes back with its cookie: its guest is kept from then on.
    await a.get('/rest/$catalog')
    await a.get('/rest/$catalog')
    ds.sessions.peek(a.session!)!.timeout = 1e16 * 60_000
    const info = await a.get('/rest/$info')
    expect(info.status).toBe(200)
    expect(info.json.sessionInfo[0].expiration).toBe('+275760-09-13T00:00:00.000Z')
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
