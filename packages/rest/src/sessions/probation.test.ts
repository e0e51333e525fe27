/**
 * A client without a cookie over REST: sent a cookie as 4D sends one, its guest kept only once it
 * holds something or its client comes back with the cookie (core's `visit`, security.md).
 */
import { createDatastore, ManualClock, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import type { RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { syncReply } from '../sync-reply.fixture.js'

const model: ModelJson = {
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
  ],
}
const data = { Item: [1, 2, 3].map((ID) => ({ ID, name: `item ${ID}` })) }
const MINUTE = 60_000

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 10, 26))
  const ds = createDatastore(model, { data, clock })
  const rest = createRestHandler(ds)
  const send = (path: string, query = '', cookie?: string, method = 'GET') => {
    const request: RestRequest = {
      method,
      path,
      query,
      headers: cookie === undefined ? {} : { cookie },
    }
    const reply = syncReply(rest.respond(request))
    const set = reply.headers['set-cookie'] as string | undefined
    return { reply, cookie: set?.split(';')[0], json: () => JSON.parse(reply.body as string) }
  }
  return { ds, clock, send }
}

describe('a client without a cookie', () => {
  it('is sent a cookie for a query, and nothing is kept for it', () => {
    const { ds, send } = setup()
    for (const [path, query] of [
      ['/rest/Item', '$filter="ID>1"'],
      ['/rest/$catalog', ''],
      ['/rest/Item(2)', '$attributes=name'],
      ['/rest/Nope', ''],
    ] as const) {
      const { reply, cookie } = send(path, query)
      expect(cookie).toMatch(/^4DSID_shop=[0-9A-F]{32}$/)
      expect(reply.status).toBe(path === '/rest/Nope' ? 404 : 200)
    }
    expect(ds.sessions.counts).toEqual({ established: 0, users: 0, guests: 0 })
    expect(ds.sessions.size).toBe(0)
  })

  it('of a store that keeps every guest (shared through Redis) is kept from a read by key on', () => {
    const { ds, send } = setup()
    ds.sessions.keepEveryGuest!()
    const opened: string[] = []
    ds.sessions.observe!({ opened: (s) => opened.push(s.id) })
    const first = send('/rest/Item(2)').cookie!
    // Told to the mirrors at once, so that every process finds it (session-mirror.ts).
    expect(opened).toEqual([first.split('=')[1]])
    const back = send('/rest/Item', '$top=1', first)
    expect(back.reply.status).toBe(200)
    expect(back.cookie).toBeUndefined()
    expect(ds.sessions.counts.guests).toBe(1)
  })

  it('coming back with the cookie finds its session: the same id, no new cookie, kept from then on', () => {
    const { ds, clock, send } = setup()
    const first = send('/rest/Item', '$top=1').cookie!
    clock.advance(30 * MINUTE)
    const back = send('/rest/Item', '$top=1', first)
    expect(back.cookie).toBeUndefined()
    expect(ds.sessions.peek(first.split('=')[1]!)).toBeDefined()
    expect(ds.sessions.counts.guests).toBe(1)
    // $info names it as the session of the request.
    const info = send('/rest/$info', '', first).json()
    expect(info.sessionInfo.map((s: { sessionID: string }) => s.sessionID)).toContain(
      first.split('=')[1],
    )
  })

  it('after the inactivity timeout, or a logout, the cookie opens a new session under a new id', () => {
    const { clock, send } = setup()
    const first = send('/rest/$catalog').cookie!
    clock.advance(60 * MINUTE)
    const late = send('/rest/$catalog', '', first).cookie
    expect(late).toMatch(/^4DSID_shop=/)
    expect(late).not.toBe(first)
    send('/rest/$catalog', '', late) // kept
    const out = send('/rest/$directory/logout', '', late, 'POST')
    expect(out.reply.headers['set-cookie']).toMatch(/^4DSID_shop=; /)
    const again = send('/rest/$catalog', '', late).cookie
    expect(again).toMatch(/^4DSID_shop=/)
    expect(again).not.toBe(late)
  })

  it('keeps the session of a request that makes an entity set or takes a lock', () => {
    const { ds, send } = setup()
    const made = send('/rest/Item', '$method=entityset')
    const set = (made.json().__ENTITYSET as string).split('/').at(-1)
    expect(ds.sessions.peek(made.cookie!.split('=')[1]!)).toBeDefined()
    expect(send(`/rest/Item/$entityset/${set}`, '', made.cookie).reply.status).toBe(200)
    const locker = send('/rest/Item(1)', '$lock=true')
    expect(locker.json()).toMatchObject({ result: true })
    expect(ds.sessions.counts).toEqual({ established: 1, users: 0, guests: 1 })
  })
})
