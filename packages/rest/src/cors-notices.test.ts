/**
 * What CORS tells the developer that a browser hides (cors-notices.ts): a refused origin heard of
 * once, never a page's own origin; a cookie sent to a page on another site heard of once; the 401
 * such a page gets names the two hosts. cors-browser.test.ts (entistore) sees them from Chromium.
 */
import { createDatastore, ManualClock, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import {
  hostOf,
  loopbackTwins,
  NOTICED_ORIGINS,
  otherSites,
  sameOrigin,
  serverAt,
  type CorsNotice,
} from './cors-notices.js'
import type { CorsOptions } from './cors.js'
import type { RestRequest } from './exchange.js'
import { createRestHandler } from './handler.js'
import { syncReply } from './sync-reply.fixture.js'

const model: ModelJson = {
  __NAME: 'notices',
  dataClasses: [{ name: 'Doc', attributes: [{ name: 'ID', type: 'long' }] }],
}

/** A handler that logs in anyone whose password is `secret` and lets no guest read. */
function handler(cors: Omit<CorsOptions, 'onNotice'>) {
  const notices: CorsNotice[] = []
  const rest = createRestHandler(
    createDatastore(model, { data: { Doc: [{ ID: 1 }] }, clock: new ManualClock() }),
    {
      cors: { ...cors, onNotice: (n) => notices.push(n) },
      authenticate: ({ user, password }) => (password === 'secret' ? { name: user } : null),
      forceLogin: true,
    },
  )
  const send = (headers: RestRequest['headers'], path = '/rest/Doc(1)', method = 'GET') =>
    syncReply(rest.respond({ method, path, query: '', headers }))
  return { notices, send }
}

const SERVER = '127.0.0.1:8080'
const login = { 'username-4d': 'ada', 'password-4d': 'secret' }

describe('a refused origin', () => {
  it('is heard of once per origin, its replies unchanged; a page of the server itself never', () => {
    const { notices, send } = handler({ origin: 'http://localhost:5173', credentials: true })
    for (let i = 0; i < 3; i++) send({ origin: 'http://127.0.0.1:5173', host: SERVER })
    send(
      { origin: 'http://127.0.0.1:5173', host: SERVER, 'access-control-request-method': 'PATCH' },
      '/rest/Doc(1)',
      'OPTIONS',
    )
    send({ origin: 'https://other.test', host: SERVER })
    // The explorer on the server's own origin sends Origin with its writes: no CORS involved.
    send({ origin: `http://${SERVER}`, host: SERVER })
    // An allowed page, on the server's site: nothing to tell.
    send({ origin: 'http://localhost:5173', host: 'localhost:8080' })
    expect(notices).toEqual([
      { kind: 'refused', origin: 'http://127.0.0.1:5173' },
      { kind: 'refused', origin: 'https://other.test' },
    ])
  })

  it('is heard of for the first origins only: a public server visited by many stays a few lines', () => {
    const { notices, send } = handler({ origin: 'http://localhost:5173' })
    for (let i = 0; i < NOTICED_ORIGINS + 10; i++)
      send({ origin: `https://site${i}.test`, host: SERVER })
    expect(notices).toHaveLength(NOTICED_ORIGINS)
  })

  it('is heard of without the hook costing the page its reply when it throws', () => {
    const rest = createRestHandler(createDatastore(model, { clock: new ManualClock() }), {
      cors: {
        origin: 'http://localhost:5173',
        onNotice: () => {
          throw new Error('a broken hook')
        },
      },
    })
    const reply = syncReply(
      rest.respond({
        method: 'GET',
        path: '/rest/$catalog',
        query: '',
        headers: { origin: 'https://x.test' },
      }),
    )
    expect(reply.status).toBe(200)
  })
})

describe('a page on another site than the server', () => {
  const PAGE = 'http://localhost:5173'

  it('is heard of when it is sent a cookie, once; a page on the same site never', () => {
    const { notices, send } = handler({
      origin: [PAGE, 'http://127.0.0.1:5173', 'http://[::1]:5173'],
      credentials: true,
    })
    for (let i = 0; i < 2; i++)
      expect(
        send({ origin: PAGE, host: SERVER, ...login }, '/rest/$directory/login', 'POST').status,
      ).toBe(200)
    send(
      { origin: 'http://127.0.0.1:5173', host: SERVER, ...login },
      '/rest/$directory/login',
      'POST',
    )
    // A page behind its dev server's proxy: the browser says same-origin.
    send(
      { origin: 'http://[::1]:5173', host: SERVER, 'sec-fetch-site': 'same-origin', ...login },
      '/rest/$directory/login',
      'POST',
    )
    expect(notices).toEqual([{ kind: 'cookie', origin: PAGE, host: SERVER }])
  })

  it("gets a 401 that says why its cookie never comes back, after the interface's own error", () => {
    const { send } = handler({ origin: PAGE, credentials: true })
    // The browser says it is another site; without Sec-Fetch-Site, the hosts say it.
    expect(
      JSON.parse(
        send({ origin: PAGE, host: SERVER, 'sec-fetch-site': 'cross-site' }).body as string,
      ).__ERROR,
    ).toHaveLength(2)
    const reply = send({ origin: PAGE, host: SERVER })
    expect(reply.status).toBe(401)
    expect(reply.headers['access-control-allow-origin']).toBe(PAGE)
    const errors = JSON.parse(reply.body as string).__ERROR as {
      errCode: number
      message: string
    }[]
    expect(errors).toHaveLength(2)
    expect(errors[0]!.errCode).toBe(1557)
    expect(errors[1]).toEqual({
      message:
        'The session cookie is kept for 127.0.0.1, and a browser does not send it with requests from a page on localhost, another site: call the server at localhost:8080, or open the page on 127.0.0.1',
      componentSignature: 'enti',
      errCode: 9180,
    })
  })

  it('gets the plain 401 when it sent a session cookie, is on the same site, or sends none', () => {
    const { send } = handler({ origin: [PAGE, 'http://127.0.0.1:5173'], credentials: true })
    const one = (r: { body: unknown }) => JSON.parse(r.body as string).__ERROR.length
    expect(one(send({ origin: PAGE, host: SERVER, cookie: '4DSID_notices=gone' }))).toBe(1)
    expect(one(send({ origin: 'http://127.0.0.1:5173', host: SERVER }))).toBe(1)
    expect(one(send({ host: SERVER }))).toBe(1)
    // Through a dev server's proxy the page calls its own origin, whatever Host the proxy names.
    expect(one(send({ origin: PAGE, host: SERVER, 'sec-fetch-site': 'same-origin' }))).toBe(1)
    // Without credentials a page sends no cookie at all: nothing to explain.
    expect(one(handler({ origin: PAGE }).send({ origin: PAGE, host: SERVER }))).toBe(1)
  })
})

describe('hosts and sites', () => {
  it('reads the host of an origin or of a Host header', () => {
    expect(hostOf('http://localhost:5173')).toBe('localhost')
    expect(hostOf('https://App.Example.com')).toBe('app.example.com')
    expect(hostOf('http://[::1]:3000')).toBe('[::1]')
    expect(hostOf('127.0.0.1:8080')).toBe('127.0.0.1')
  })

  it('tells a page of the server itself', () => {
    expect(sameOrigin('http://127.0.0.1:8080', { host: '127.0.0.1:8080' })).toBe(true)
    expect(sameOrigin('http://127.0.0.1:5173', { host: '127.0.0.1:8080' })).toBe(false)
    expect(sameOrigin('http://localhost:8080', { host: '127.0.0.1:8080' })).toBe(false)
    expect(sameOrigin('http://127.0.0.1:8080', {})).toBe(false)
    // A page behind its dev server's proxy, which names another Host: the browser says.
    expect(
      sameOrigin('http://localhost:5173', {
        host: '127.0.0.1:8080',
        'sec-fetch-site': 'same-origin',
      }),
    ).toBe(true)
  })

  it.each([
    ['localhost', '127.0.0.1', true],
    ['127.0.0.1', '192.168.1.2', true],
    ['[::1]', 'localhost', true],
    ['app.example.com', 'api.example.org', true],
    ['localhost', 'localhost', false],
    ['app.example.com', 'api.example.com', false],
    ['example.com', 'api.example.com', false],
  ])('%s and %s are two sites: %s', (a, b, two) => {
    expect(otherSites(a, b)).toBe(two)
  })

  it("names where a page finds the server on its own site, and a loopback page's twins", () => {
    expect(serverAt('127.0.0.1:8080', 'localhost')).toBe('localhost:8080')
    expect(serverAt('api.example.org', 'app.example.com')).toBe("a host of app.example.com's site")
    expect(loopbackTwins('http://localhost:5173')).toEqual([
      'http://127.0.0.1:5173',
      'http://[::1]:5173',
    ])
    expect(loopbackTwins('https://app.example.com')).toEqual([])
  })
})
