/**
 * Issue 28's session attacks, each as a hostile client against a real server on a socket, with a
 * fresh GET watched during the attack: the guest flood (cookie-less clients and clients that send
 * their cookie back, which evicted every logged-in session and released its locks), the planted
 * cookie (session fixation), the brute force of a password, and the huge `session-4D-length`.
 * Small `maxSessions` and `maxGuests` make the flood fast; time moves on a ManualClock. Counted,
 * not timed (node/responsiveness.fixture.ts): no fresh GET fails, and none waits more than a few
 * turns of the event loop, whatever the machine's load.
 */
import { createDatastore, ManualClock, type SessionStoreOptions } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import type { RestHandlerOptions } from '../handler.js'
import { TURNS_WAITED, watchResponsiveness } from '../node/responsiveness.fixture.js'
import { serveOnSocket } from '../node/serve.fixture.js'
import { countedTurns } from '../slices/counted-turns.fixture.js'

const authenticate = ({ user, password }: { user: string; password: string }) =>
  user === 'ada' && password === 'secret' ? { name: 'ada' } : null

async function serve(sessions: SessionStoreOptions, options: RestHandlerOptions) {
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 10))
  const ds = createDatastore(writeModel(), { data: writeData(), clock, sessions })
  const counted = countedTurns()
  const { base, internal } = await serveOnSocket(ds, options)
  /** A watch of fresh GETs of `$catalog`, counting the turns of the event loop each waits. */
  const watching = () => watchResponsiveness(`${base}/rest/$catalog`, { counted })
  /** One request; its status, JSON, the cookie it sets (name=value) and Retry-After. */
  const send = async (
    path: string,
    init: { method?: string; cookie?: string; headers?: Record<string, string> } = {},
  ) => {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...init.headers, ...(init.cookie ? { cookie: init.cookie } : {}) },
    })
    const text = await res.text()
    return {
      status: res.status,
      json: JSON.parse(text) as Record<string, any>,
      cookie: res.headers.get('set-cookie')?.split(';')[0],
      retryAfter: res.headers.get('retry-after'),
    }
  }
  const login = (password: string, more: Record<string, string> = {}, cookie?: string) =>
    send('/rest/$directory/login', {
      method: 'POST',
      headers: { 'username-4D': 'ada', 'password-4D': password, ...more },
      ...(cookie ? { cookie } : {}),
    })
  return { ds, clock, base, internal, send, login, watching }
}

/** `guests` clients, `parallel` at a time, each a cookie-less GET then a GET with its cookie. */
async function guestFlood(
  send: Awaited<ReturnType<typeof serve>>['send'],
  guests: number,
  parallel = 8,
): Promise<number> {
  let started = 0
  let answered = 0
  const client = async () => {
    while (started < guests) {
      started++
      const first = await send('/rest/$catalog')
      const again = await send('/rest/$catalog', { cookie: first.cookie! })
      if (first.status === 200 && again.status === 200) answered++
    }
  }
  await Promise.all(Array.from({ length: parallel }, client))
  return answered
}

describe('the guest flood', () => {
  it('with --users: 1,000 guests (2,000 GETs) evict no logged-in session and release none of its locks', async () => {
    const { ds, internal, send, login, watching } = await serve(
      { maxSessions: 4, maxGuests: 50 },
      { authenticate, forceLogin: true },
    )
    const victim = (await login('secret')).cookie!
    expect((await send('/rest/Employee(1)?$lock=true', { cookie: victim })).json.result).toBe(true)
    const watch = watching()
    expect(await guestFlood(send, 1000)).toBe(1000)
    const seen = await watch.stop()
    expect(
      (await send('/rest/$directory/currentUser', { cookie: victim })).json.result,
    ).toMatchObject({
      userName: 'ada',
    })
    const other = (await login('secret')).cookie!
    expect((await send('/rest/Employee(1)?$lock=true', { cookie: other })).json).toMatchObject({
      result: false,
      __STATUS: { status: 3 },
    })
    expect(ds.sessions.counts).toMatchObject({ established: 2, users: 2 })
    expect(ds.sessions.counts.guests).toBeLessThanOrEqual(50)
    expect(seen.failed).toBe(0)
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    expect(internal).toEqual([])
  })

  it('without authentication: a guest that holds a lock outlives 1,000 guests that come back', async () => {
    const { ds, base, internal, send, watching } = await serve(
      { maxSessions: 4, maxGuests: 50 },
      {},
    )
    const locked = await send('/rest/Employee(1)?$lock=true')
    expect(locked.json.result).toBe(true)
    const holder = locked.cookie!
    const watch = watching()
    expect(await guestFlood(send, 1000)).toBe(1000)
    const seen = await watch.stop()
    expect(ds.locks.holder('Employee', 1)?.owner.id).toBe(holder.split('=')[1])
    const write = await fetch(`${base}/rest/Employee?$method=update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: holder },
      body: JSON.stringify({ __KEY: '1', salary: 1 }),
    })
    expect(write.status).toBe(200)
    expect(ds.sessions.counts).toMatchObject({ established: 1, users: 0 })
    expect(seen.failed).toBe(0)
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    expect(internal).toEqual([])
  })
})

describe('the planted cookie', () => {
  it('an id the server gave a guest, planted in the victim’s browser, is dead once the victim logs in', async () => {
    const { send, login, watching } = await serve({}, { authenticate, forceLogin: true })
    const watch = watching()
    const planted = (await send('/rest/$catalog')).cookie!
    const victim = await login('secret', {}, planted)
    expect(victim.status).toBe(200)
    expect(victim.cookie).toMatch(/^4DSID_shop=[0-9A-F]{32}$/)
    expect(victim.cookie).not.toBe(planted)
    expect((await send('/rest/Employee(1)', { cookie: victim.cookie! })).status).toBe(200)
    // The attacker, with the id it planted: a stranger.
    const attacker = await send('/rest/Employee(1)', { cookie: planted })
    expect(attacker.status).toBe(401)
    expect(attacker.cookie).not.toBe(planted)
    expect((await send('/rest/$directory/currentUser', { cookie: planted })).json.result).toBeNull()
    const seen = await watch.stop()
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
  })
})

describe('the brute force', () => {
  it('400 wrong passwords: 6 checked, the rest 429 with a Retry-After that grows as the clock moves', async () => {
    const { clock, login, internal, watching } = await serve({}, { authenticate, forceLogin: true })
    const watch = watching()
    const statuses: Record<number, number> = {}
    for (let i = 0; i < 400; i++) {
      const { status } = await login(`wrong${i}`)
      statuses[status] = (statuses[status] ?? 0) + 1
    }
    expect(statuses).toEqual({ 401: 6, 429: 394 })
    // Each wait, once waited, lets one more password be tried, and the next wait is twice as long.
    const waits: string[] = []
    for (let i = 0; i < 5; i++) {
      const refused = await login('wrong')
      expect(refused.status).toBe(429)
      waits.push(refused.retryAfter!)
      clock.advance(Number(refused.retryAfter) * 1000)
      expect((await login('wrong')).status).toBe(401)
    }
    expect(waits).toEqual(['1', '2', '4', '8', '16'])
    const right = await login('secret')
    expect(right).toMatchObject({ status: 429, retryAfter: '32' })
    expect(right.json.__ERROR[0]).toMatchObject({ errCode: 9081 })
    clock.advance(32_000)
    expect((await login('secret')).status).toBe(200)
    const seen = await watch.stop()
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    expect(internal).toEqual([])
  })
})

describe('the huge session length', () => {
  it('session-4D-length 1e16 is refused with 400, and $info answers', async () => {
    const { send, login, internal, watching } = await serve({}, { authenticate, forceLogin: true })
    const watch = watching()
    const huge = await login('secret', { 'session-4D-length': '1e16' })
    expect(huge.status).toBe(400)
    expect(huge.json.__ERROR[0]).toMatchObject({
      errCode: 1806,
      message:
        'Invalid value "1e16" for session-4D-length: expected a number of minutes, at most 1440',
    })
    const day = await login('secret', { 'session-4D-length': '1440' })
    expect(day.status).toBe(200)
    const info = await send('/rest/$info', { cookie: day.cookie! })
    expect(info.status).toBe(200)
    expect(info.json.sessionInfo[0]).toMatchObject({ userName: 'ada', lifeTime: 86_400 })
    const seen = await watch.stop()
    expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    expect(internal).toEqual([])
  })
})
