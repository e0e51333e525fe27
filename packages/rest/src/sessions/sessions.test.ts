/**
 * Sessions over REST: guests (first requests without a cookie) cannot evict established sessions,
 * and `maxSessions` with `whenFull: 'refuse'` answers 402. Two cookie jars, a manual clock.
 */
import { createDatastore, ManualClock, type SessionStoreOptions } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'

type Json = Record<string, any>

const sessionFixture = (
  sessions: SessionStoreOptions = {},
  options: RestHandlerOptions = {},
) => {
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
      const reply = rest.respond({
        method: 'GET',
        path: '/rest/$catalog',
        query: '',
        headers: {},
        body: null,
      } as never)
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
