/**
 * The header logic of CORS (cors.ts), reply by reply: what a page may read of a reply (exposed
 * headers, those a function sets included, never the cookie), credentials that always name the
 * origin and never go with '*', '*' as the wildcard, the loopback origins, Chrome's private
 * network preflight (never for '*'), and the refusals made before `respond` (a body too
 * large, a chaos 503) that a page can read once the transport says whose request they were.
 * edge.test.ts has the preflight and the allowed and refused origins through the handler.
 */
import {
  createDatastore,
  datastoreError,
  ManualClock,
  type ModelJson,
  OutgoingMessage,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  exposedHeaders,
  isLoopbackOrigin,
  withCors,
} from './cors.js'
import type { RestCore, RestReply, RestRequest } from './exchange.js'
import { createRestHandler } from './handler.js'
import { serveOnSocket } from './node/serve.fixture.js'
import { syncReply } from './sync-reply.fixture.js'

const PAGE = 'http://localhost:5173'

const model: ModelJson = {
  __NAME: 'cors',
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'title', type: 'string' },
      ],
    },
  ],
}

const handler = (cors: Parameters<typeof createRestHandler>[1]) =>
  createRestHandler(
    createDatastore(model, {
      data: { Doc: [{ ID: 1, title: 'one' }] },
      clock: new ManualClock(),
      functions: {
        dataStore: {
          manual: {
            exposed: true,
            onHTTPGet: true,
            call: () =>
              new OutgoingMessage()
                .setBody('%PDF')
                .setHeader('Content-Type', 'application/pdf')
                .setHeader('Content-Disposition', 'attachment; filename="m.pdf"')
                .setHeader('X-Total-Count', '7'),
          },
        },
      },
    }),
    cors,
  )

const get = (path: string, headers: RestRequest['headers']): RestRequest => {
  const [p, q = ''] = path.split('?') as [string, string?]
  return { method: 'GET', path: p, query: q, headers }
}

/** A core whose every reply carries `headers`. */
const replying = (headers: RestReply['headers']): RestCore => ({
  maxBodyBytes: 100,
  respond: () => ({ status: 200, headers, body: '{}' }),
  refuse: () => ({ status: 503, headers: { 'retry-after': '1' }, body: '{}' }),
})

describe('what a page may read of a reply', () => {
  it('exposes the headers a client acts on, and any other a reply carries, never the cookie', () => {
    expect(CORS_EXPOSED_HEADERS.split(', ')).toEqual([
      'content-type',
      'content-disposition',
      'etag',
      'retry-after',
      'allow',
    ])
    const json = { status: 200, body: null }
    expect(
      exposedHeaders({
        ...json,
        headers: {
          'content-type': 'application/json',
          'x-content-type-options': 'nosniff',
          'set-cookie': '4DSID_x=1',
          vary: 'cookie',
        },
      }),
    ).toBe(CORS_EXPOSED_HEADERS)
    expect(
      exposedHeaders({
        ...json,
        headers: { etag: '"1"', 'x-total-count': '7', 'access-control-allow-origin': PAGE },
      }),
    ).toBe(`${CORS_EXPOSED_HEADERS}, x-total-count`)
  })

  it('names them on every reply to an allowed origin, none to a refused one or a preflight', () => {
    const core = withCors(replying({ 'content-type': 'application/json', 'x-page': '2' }), {
      origin: [PAGE],
      credentials: true,
    })
    const allowed = syncReply(core.respond(get('/rest/Doc', { origin: PAGE })))
    expect(allowed.headers['access-control-expose-headers']).toBe(`${CORS_EXPOSED_HEADERS}, x-page`)
    const refused = syncReply(core.respond(get('/rest/Doc', { origin: 'http://evil.test' })))
    expect(refused.headers['access-control-expose-headers']).toBeUndefined()
    const preflight = syncReply(
      core.respond({
        ...get('/rest/Doc', { origin: PAGE, 'access-control-request-method': 'POST' }),
        method: 'OPTIONS',
      }),
    )
    expect(preflight.headers['access-control-expose-headers']).toBeUndefined()
  })

  it("lets a page read a function's file: its type, name and its own headers", async () => {
    const rest = handler({ cors: { origin: PAGE, credentials: true } })
    const res = await rest.request('/rest/$catalog/manual', { headers: { origin: PAGE } })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('%PDF')
    expect(res.headers.get('access-control-expose-headers')).toBe(
      `${CORS_EXPOSED_HEADERS}, x-total-count`,
    )
  })
})

describe('a preflight', () => {
  const preflight = (method: string, headers?: string): RestRequest => ({
    ...get('/rest/Doc(1)', {
      origin: PAGE,
      'access-control-request-method': method,
      ...(headers === undefined ? {} : { 'access-control-request-headers': headers }),
    }),
    method: 'OPTIONS',
  })

  it("lets through the method and headers it asks, so that the page reads the interface's own answer", () => {
    const rest = handler({ cors: { origin: PAGE, credentials: true } })
    const reply = syncReply(rest.respond(preflight('PATCH', 'content-type, x-requested-with')))
    expect(reply.status).toBe(204)
    expect(reply.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PATCH')
    expect(reply.headers['access-control-allow-headers']).toBe(
      `${CORS_ALLOWED_HEADERS}, x-requested-with`,
    )
    // The request itself: the clear 405 curl gets, readable from the page.
    const patch = syncReply(
      rest.respond({ ...get('/rest/Doc(1)', { origin: PAGE }), method: 'PATCH' }),
    )
    expect(patch.status).toBe(405)
    expect(patch.headers['access-control-allow-origin']).toBe(PAGE)
    expect(patch.headers['access-control-expose-headers']).toContain('allow')
    expect(JSON.parse(patch.body as string).__ERROR[0]).toMatchObject({ errCode: 9032 })
  })

  it('grants what the list lacks once, and nothing that is not a name', () => {
    const rest = handler({ cors: { origin: PAGE, credentials: true } })
    const asked = (method: string, headers?: string) => {
      const h = syncReply(rest.respond(preflight(method, headers))).headers
      return [h['access-control-allow-methods'], h['access-control-allow-headers']]
    }
    expect(asked('POST', 'Content-Type, Username-4D')).toEqual([
      'GET, HEAD, POST',
      CORS_ALLOWED_HEADERS,
    ])
    expect(asked('DELETE', 'x-a,x-a, X-A')).toEqual([
      'GET, HEAD, POST, DELETE',
      `${CORS_ALLOWED_HEADERS}, x-a`,
    ])
    expect(asked('GET\r\nx: 1', 'a b, (c)')).toEqual(['GET, HEAD, POST', CORS_ALLOWED_HEADERS])
  })
})

describe('credentials', () => {
  it('name the origin, never a wildcard, whatever the form of a list or a function', () => {
    for (const origin of [PAGE, [PAGE], (o: string) => o.startsWith('http://localhost')]) {
      const core = withCors(replying({}), { origin, credentials: true })
      const reply = syncReply(core.respond(get('/rest/Doc', { origin: PAGE })))
      expect(reply.headers['access-control-allow-origin']).toBe(PAGE)
      expect(reply.headers['access-control-allow-credentials']).toBe('true')
    }
  })

  it("never go with '*': the handler refuses to start, rather than let any site read with cookies", () => {
    expect(() => withCors(replying({}), { origin: '*', credentials: true })).toThrow(
      /origin '\*' cannot go with credentials/,
    )
    expect(() => handler({ cors: { origin: '*', credentials: true } })).toThrow(TypeError)
  })
})

describe("'*', any origin", () => {
  it('is answered as the wildcard, without credentials, to any page', () => {
    const core = withCors(replying({}), { origin: '*' })
    for (const origin of [PAGE, 'https://evil.test']) {
      const reply = syncReply(core.respond(get('/rest/Doc', { origin })))
      expect(reply.headers['access-control-allow-origin']).toBe('*')
      expect(reply.headers['access-control-allow-credentials']).toBeUndefined()
      expect(reply.headers.vary).toBe('origin')
    }
    // No Origin, no CORS header: a request from no page.
    const plain = syncReply(core.respond(get('/rest/Doc', {})))
    expect(plain.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('isLoopbackOrigin', () => {
  it.each([
    'http://localhost',
    'http://localhost:5173',
    'https://localhost:8443',
    'http://127.0.0.1:5173',
    'https://127.0.0.1',
    'http://[::1]:3000',
    'https://[::1]',
  ])('allows %s, a page on this machine', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(true)
  })

  it.each([
    'null',
    '',
    'http://localhost.evil.test',
    'http://evil.test',
    'http://app.localhost:5173',
    'http://127.0.0.2:5173',
    'http://0.0.0.0:5173',
    'http://192.168.1.10:5173',
    'http://localhost:5173/',
    'http://localhost:5173/app',
    'http://user@localhost:5173',
    'capacitor://localhost',
    'file://localhost',
    'ws://localhost:5173',
    'http://LOCALHOST:5173',
  ])('refuses %j', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(false)
  })
})

describe("Chrome's private network preflight", () => {
  const preflight = (origin: string): RestRequest => ({
    ...get('/rest/Doc', {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-private-network': 'true',
    }),
    method: 'OPTIONS',
  })

  it('is allowed for an allowed origin only, and only when asked', () => {
    const rest = handler({ cors: { origin: 'https://preview.example.com', credentials: true } })
    const allowed = syncReply(rest.respond(preflight('https://preview.example.com')))
    expect(allowed.status).toBe(204)
    expect(allowed.headers['access-control-allow-private-network']).toBe('true')
    const refused = syncReply(rest.respond(preflight('https://evil.test')))
    expect(refused.headers['access-control-allow-private-network']).toBeUndefined()
    const plain = syncReply(
      rest.respond({
        ...get('/rest/Doc', {
          origin: 'https://preview.example.com',
          'access-control-request-method': 'GET',
        }),
        method: 'OPTIONS',
      }),
    )
    expect(plain.headers['access-control-allow-private-network']).toBeUndefined()
  })

  it("is never granted to '*', nor to an origin the option does not allow", () => {
    for (const cors of [
      { origin: '*' as const },
      { origin: isLoopbackOrigin, credentials: true },
    ]) {
      const rest = handler({ cors })
      const reply = syncReply(rest.respond(preflight('https://preview.example.com')))
      expect(reply.headers['access-control-allow-private-network']).toBeUndefined()
    }
    const any = syncReply(handler({ cors: { origin: '*' } }).respond(preflight(PAGE)))
    expect(any.status).toBe(204)
    expect(any.headers['access-control-allow-origin']).toBe('*')
    expect(any.headers['access-control-allow-methods']).toBeDefined()
    expect(any.headers['access-control-allow-private-network']).toBeUndefined()
  })
})

describe('refusals made before respond', () => {
  it('carry the CORS headers when the transport gives the request, none without', () => {
    const core = withCors(replying({}), { origin: PAGE, credentials: true })
    const injected = datastoreError('InjectedFailure', ['10%'])
    const read = core.refuse(injected, { headers: { origin: PAGE } })
    expect(read.headers).toMatchObject({
      'access-control-allow-origin': PAGE,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': CORS_EXPOSED_HEADERS,
      'retry-after': '1',
      vary: 'origin',
    })
    expect(core.refuse(injected).headers['access-control-allow-origin']).toBeUndefined()
    expect(
      core.refuse(injected, { headers: { origin: 'http://evil.test' } }).headers[
        'access-control-allow-origin'
      ],
    ).toBeUndefined()
  })

  it('a body too large, through the node listener, reaches the page as its 413', async () => {
    const { base } = await serveOnSocket(createDatastore(model, { clock: new ManualClock() }), {
      cors: { origin: PAGE, credentials: true },
      maxBodyBytes: 64,
    })
    const res = await fetch(`${base}/rest/Doc?$method=update`, {
      method: 'POST',
      headers: { origin: PAGE, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(200) }),
    })
    expect(res.status).toBe(413)
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE)
    expect(((await res.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode).toBe(
      9033,
    )
  })
})
