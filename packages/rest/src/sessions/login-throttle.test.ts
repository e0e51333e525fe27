/**
 * The count of failed logins: free attempts, then waits that double up to a cap, per user name and
 * per address, on the datastore's clock (moved by hand), in bounded memory; and how
 * `$directory/login` and the `authentify` function answer under it.
 */
import {
  createDatastore,
  currentCall,
  defineFunctions,
  ManualClock,
  type DatastoreError,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import { syncReply } from '../sync-reply.fixture.js'
import { addressKey, LoginThrottle } from './login-throttle.js'

/** What `check` says: the seconds to wait, or 0 when a login may be tried now. */
const wait = (throttle: LoginThrottle, user?: string, address?: string): number => {
  try {
    throttle.check(user, address)
    return 0
  } catch (error) {
    const e = error as DatastoreError
    expect(e).toMatchObject({ name: 'LoginThrottled', errCode: 9081, category: 'tooManyRequests' })
    return e.details!.retryAfter as number
  }
}

describe('LoginThrottle', () => {
  it('lets five failures through, then makes the user wait 1, 2, 4 … s, at most 5 minutes', () => {
    const clock = new ManualClock(1_000_000)
    const t = new LoginThrottle(clock)
    const waits: number[] = []
    for (let i = 0; i < 15; i++) {
      expect(wait(t, 'ada', `10.0.0.${i}`)).toBe(0)
      t.failed('ada', `10.0.0.${i}`)
      const w = wait(t, 'ada', '10.9.9.9')
      waits.push(w)
      clock.advance(w * 1000)
    }
    expect(waits).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300])
  })

  it('counts an address across user names, and user names case-blind', () => {
    const clock = new ManualClock(1_000_000)
    const t = new LoginThrottle(clock, { freeAttempts: 2 })
    t.failed('ada', '10.0.0.1')
    t.failed('bob', '10.0.0.1')
    t.failed('cid', '10.0.0.1')
    expect(wait(t, 'dan', '10.0.0.1')).toBe(1)
    expect(wait(t, 'dan', '10.0.0.2')).toBe(0)
    t.failed('Eve', '10.0.0.2')
    t.failed('EVE', '10.0.0.3')
    t.failed('eve', '10.0.0.4')
    expect(wait(t, 'eVe', '10.0.0.5')).toBe(1)
  })

  it('forgets the user name’s failures at a success, not the address’s', () => {
    const clock = new ManualClock(1_000_000)
    const t = new LoginThrottle(clock, { freeAttempts: 1 })
    t.failed('ada', '10.0.0.1')
    t.failed('ada', '10.0.0.1')
    expect(wait(t, 'ada', '10.0.0.2')).toBe(1)
    t.succeeded('ada')
    expect(wait(t, 'ada', '10.0.0.2')).toBe(0)
    expect(wait(t, 'bob', '10.0.0.1')).toBe(1)
  })

  it('forgets failures after an hour without one', () => {
    const clock = new ManualClock(1_000_000)
    const t = new LoginThrottle(clock, { freeAttempts: 1 })
    for (let i = 0; i < 10; i++) t.failed('ada', undefined)
    expect(wait(t, 'ada')).toBe(256)
    clock.advance(3_600_000 - 1)
    expect(wait(t, 'ada')).toBe(0)
    t.failed('ada', undefined) // still the eleventh failure: a wait of 5 minutes
    expect(wait(t, 'ada')).toBe(300)
    clock.advance(3_600_000)
    t.failed('ada', undefined) // forgotten: the first again
    expect(wait(t, 'ada')).toBe(0)
  })

  it('keeps at most maxEntries names and addresses, forgetting the least recent', () => {
    const clock = new ManualClock(1_000_000)
    const t = new LoginThrottle(clock, { freeAttempts: 0, maxEntries: 100 })
    t.failed('ada', undefined)
    for (let i = 0; i < 10_000; i++) t.failed(`user${i}`, `10.0.${i >> 8}.${i & 255}`)
    // ada was forgotten, the last ones are remembered.
    expect(wait(t, 'ada')).toBe(0)
    expect(wait(t, 'user9999')).toBe(1)
    expect(wait(t, undefined, '10.0.39.15')).toBe(1)
  })

  it('counts a name by its first 256 characters', () => {
    const t = new LoginThrottle(new ManualClock(1_000_000), { freeAttempts: 0 })
    t.failed(`${'x'.repeat(256)}a`, undefined)
    expect(wait(t, `${'x'.repeat(256)}b`)).toBe(1)
  })

  it('refuses options that cannot throttle', () => {
    expect(() => new LoginThrottle(new ManualClock(), { baseDelayMs: 0 })).toThrow(RangeError)
    expect(() => new LoginThrottle(new ManualClock(), { maxDelayMs: 10 })).toThrow(RangeError)
  })
})

describe('addressKey', () => {
  it('keeps an IPv4 address, and an IPv6 one by its /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7')
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0db8::1:2:3:4:5')).toBe('2001:db8:0:1::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey(undefined)).toBeUndefined()
    expect(addressKey('')).toBeUndefined()
  })
})

const authenticate = ({ user, password }: { user: string; password: string }) =>
  user === 'ada' && password === 'secret' ? { name: 'ada' } : null

const functions = defineFunctions({
  dataStore: {
    authentify: {
      exposed: true,
      params: ['object'],
      call(credentials: { name?: string; password?: string }) {
        if (credentials?.password !== 'secret') return 'Wrong name or password'
        currentCall()!.logIn({ name: credentials.name ?? '?' })
        return 'Authentication successful'
      },
    },
  },
})

function server(options: RestHandlerOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 10))
  const ds = createDatastore(writeModel(), { data: writeData(), clock, functions })
  const rest = createRestHandler(ds, { authenticate, ...options })
  const send = (path: string, headers: Record<string, string>, address: string, body?: unknown) => {
    const reply = syncReply(
      rest.respond({
        method: 'POST',
        path,
        query: '',
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        remoteAddress: address,
      }),
    )
    return {
      status: reply.status,
      retryAfter: reply.headers['retry-after'],
      json: JSON.parse(String(reply.body)) as Record<string, any>,
    }
  }
  const login = (user: string, password: string, address = '10.0.0.1') =>
    send('/rest/$directory/login', { 'username-4d': user, 'password-4d': password }, address)
  const authentify = (password: string, address = '10.0.0.1') =>
    send('/rest/$catalog/authentify', {}, address, [{ name: 'ada', password }])
  return { clock, login, authentify }
}

describe('failed logins over REST', () => {
  it('$directory/login: 429 with a growing Retry-After, the password not even checked', () => {
    const { clock, login } = server()
    for (let i = 0; i < 5; i++) expect(login('ada', `wrong${i}`).status).toBe(401)
    expect(login('ada', 'wrong').status).toBe(401) // the sixth: counted, and now a wait
    const refused = login('ada', 'secret') // the right password, refused unchecked
    expect(refused).toMatchObject({
      status: 429,
      retryAfter: '1',
      json: {
        __ERROR: [
          {
            errCode: 9081,
            componentSignature: 'enti',
            message: 'Too many failed logins: try again in 1 s',
          },
        ],
      },
    })
    clock.advance(1000)
    expect(login('ada', 'wrong').status).toBe(401)
    expect(login('ada', 'wrong')).toMatchObject({ status: 429, retryAfter: '2' })
    clock.advance(2000)
    expect(login('ada', 'secret').status).toBe(200)
    // The user's count starts again; the address's does not: its next failure waits 4 s.
    expect(login('bob', 'x').status).toBe(401)
    expect(login('ada', 'secret')).toMatchObject({ status: 429, retryAfter: '4' })
    expect(login('ada', 'secret', '10.0.0.2').status).toBe(200)
  })

  it('counts a user name across addresses, and an address across user names', () => {
    const { login } = server({ loginThrottle: { freeAttempts: 2 } })
    for (let i = 0; i < 3; i++) expect(login('ada', 'wrong', `10.0.1.${i}`).status).toBe(401)
    expect(login('ada', 'secret', '10.0.1.99').status).toBe(429)
    for (let i = 0; i < 3; i++) expect(login(`user${i}`, 'wrong', '10.0.2.1').status).toBe(401)
    expect(login('cid', 'x', '10.0.2.1').status).toBe(429)
    expect(login('cid', 'x', '10.0.2.2').status).toBe(401)
  })

  it('authentify: a call that does not log in counts against the address; one that does forgets its user', () => {
    const { clock, authentify, login } = server({ loginThrottle: { freeAttempts: 2 } })
    for (let i = 0; i < 3; i++)
      expect(authentify('wrong').json).toEqual({ result: 'Wrong name or password' })
    expect(authentify('secret')).toMatchObject({ status: 429, retryAfter: '1' })
    expect(authentify('secret', '10.0.0.2').json).toEqual({ result: 'Authentication successful' })
    // The user ada had failures through $directory/login: the success through authentify forgets them.
    for (let i = 0; i < 3; i++) login('ada', 'wrong', `10.0.3.${i}`)
    expect(login('ada', 'secret', '10.0.3.9').status).toBe(429)
    clock.advance(1000)
    expect(authentify('secret', '10.0.0.3').status).toBe(200)
    expect(login('ada', 'secret', '10.0.3.9').status).toBe(200)
  })

  it('loginThrottle: false lets every attempt be checked', () => {
    const { login } = server({ loginThrottle: false })
    for (let i = 0; i < 50; i++) expect(login('ada', 'wrong').status).toBe(401)
    expect(login('ada', 'secret').status).toBe(200)
  })
})
