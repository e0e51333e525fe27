import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import { withCalculated } from './calculated.fixture.js'
import { CORS_ALLOWED_HEADERS, withCors } from './cors.js'
import { isPending, type RestReply, type RestRequest } from './exchange.js'
import { createRestHandler, type RestHandlerOptions } from './handler.js'
import { toNodeListener } from './node/index.js'
import { deferred, stubReply } from './node/pending.fixture.js'
import { syncReply } from './sync-reply.fixture.js'

// Issue 11, "a hardened edge": security headers on every reply, no internal detail in any reply,
// and CORS for browser clients when the embedder turns it on.

const model: ModelJson = {
  __NAME: 'edge',
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'title', type: 'string' },
        { name: 'file', type: 'blob' },
      ],
    },
  ],
}
const data = {
  Doc: [{ ID: 1, title: 'one', file: { $base64: 'AAEC', type: 'application/pdf' } }],
} as unknown as DataFile

const handler = (options: RestHandlerOptions = {}) =>
  createRestHandler(createDatastore(model, { data, clock: new ManualClock() }), options)

const get = (path: string, headers: RestRequest['headers'] = {}): RestRequest => {
  const [p, q = ''] = path.split('?') as [string, string?]
  return { method: 'GET', path: p, query: q, headers }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

describe('security headers', () => {
  it('sends x-content-type-options: nosniff on JSON, error, binary, OPTIONS, 405 and refused replies', async () => {
    const rest = handler()
    const requests: RestRequest[] = [
      get('/rest/Doc(1)'),
      get('/rest/Doc'),
      get('/rest/$catalog'),
      get('/rest/Doc(99)'),
      get('/rest/Doc(1)/file?$binary=true&$expand=file'),
      { ...get('/rest/Doc'), method: 'OPTIONS' },
      { ...get('/rest/Doc'), method: 'PUT' },
      { ...get('/rest/Doc'), method: 'HEAD' },
    ]
    for (const request of requests) {
      const reply = syncReply(rest.respond(request))
      expect(reply.headers['x-content-type-options'], request.path).toBe('nosniff')
    }
    expect(rest.refuse(new Error('x')).headers['x-content-type-options']).toBe('nosniff')
    // The fetch transport copies them, binary replies included.
    for (const path of ['/rest/Doc(1)', '/rest/Doc(1)/file?$binary=true&$expand=file']) {
      const res = await rest.request(path)
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
    }
  })

  it('sends nosniff through the node listener too', async () => {
    const server = createServer(toNodeListener(handler()))
    closers.push(
      () =>
        new Promise((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    for (const path of ['/rest/Doc(1)', '/rest/Doc(1)/file?$binary=true&$expand=file', '/x']) {
      const res = await fetch(base + path)
      await res.arrayBuffer()
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff')
    }
  })
})

describe('no internal detail in a reply', () => {
  it('answers an internal error with the generic 500, no stack, path or internal name', async () => {
    const internal: unknown[] = []
    const secret = new TypeError('Cannot read properties of undefined (reading "zzInternalName")')
    secret.stack = `TypeError: ${secret.message}\n    at compute (/srv/app/node_modules/x/secret-file.js:1:2)`
    const ds = withCalculated(() => {
      throw secret
    })
    const rest = createRestHandler(ds, { onInternalError: (e) => internal.push(e) })
    for (const path of ['/rest/T(1)', '/rest/T', '/rest/T?$orderby=c', '/rest/T?$filter=c=1']) {
      const res = await rest.request(path)
      const text = await res.text()
      expect(res.status, path).toBe(500)
      expect(JSON.parse(text), path).toEqual({
        __ERROR: [
          {
            message: 'Internal error: the server could not answer this request',
            componentSignature: 'enti',
            errCode: 9099,
          },
        ],
      })
      for (const leak of [
        'zzInternalName',
        'secret-file',
        '/srv/',
        'node_modules',
        ' at ',
        'TypeError',
      ])
        expect(text, path).not.toContain(leak)
    }
    expect(internal.length).toBe(4)
    expect(internal[0]).toBe(secret)
  })

  it('answers a transport failure (`refuse` with a non-DatastoreError) with the same generic reply', async () => {
    const rest = handler()
    const reply = rest.refuse(new Error('ENOENT: /etc/secret/path'))
    expect(reply.status).toBe(500)
    expect(String(reply.body)).not.toContain('/etc/secret')
    expect(String(reply.body)).not.toContain('ENOENT')
  })
})

describe('CORS', () => {
  const ORIGIN = 'https://app.example.com'
  const preflight = (origin: string): RestRequest => ({
    ...get('/rest/Doc'),
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  })

  it('adds nothing when not configured (the behaviour before the option)', () => {
    const rest = handler()
    for (const request of [preflight(ORIGIN), get('/rest/Doc(1)', { origin: ORIGIN })]) {
      const names = Object.keys(syncReply(rest.respond(request)).headers)
      expect(names.filter((n) => n.startsWith('access-control') || n === 'vary')).toEqual([])
    }
  })

  it('answers a preflight from an allowed origin with the methods and the 4D login headers', () => {
    const rest = handler({ cors: { origin: ORIGIN, credentials: true, maxAge: 600 } })
    const reply = syncReply(rest.respond(preflight(ORIGIN)))
    expect(reply.status).toBe(204)
    expect(reply.body).toBe(null)
    expect(reply.headers).toMatchObject({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-methods': 'GET, HEAD, POST',
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '600',
      vary: 'origin',
      'x-content-type-options': 'nosniff',
    })
    expect(CORS_ALLOWED_HEADERS).toContain('username-4D')
    expect(CORS_ALLOWED_HEADERS).toContain('password-4D')
    expect(CORS_ALLOWED_HEADERS).toContain('session-4D-length')
  })

  it('marks replies to an allowed origin, errors and set-cookie replies included', () => {
    const rest = handler({ cors: { origin: [ORIGIN, 'http://localhost:3000'] } })
    for (const path of [
      '/rest/Doc(1)',
      '/rest/Doc(99)',
      '/rest/Doc(1)/file?$binary=true&$expand=file',
    ]) {
      const reply = syncReply(rest.respond(get(path, { origin: 'http://localhost:3000' })))
      expect(reply.headers['access-control-allow-origin'], path).toBe('http://localhost:3000')
      expect(reply.headers.vary, path).toBe('origin')
      expect(reply.headers['access-control-allow-credentials'], path).toBeUndefined()
      expect(reply.headers['access-control-allow-methods'], path).toBeUndefined()
    }
  })

  it('gives a refused origin no CORS header, only vary, whatever the form of the option', () => {
    const options = [
      { origin: ORIGIN },
      { origin: [ORIGIN] },
      { origin: (o: string) => o.endsWith('.example.com') },
      {
        origin: () => {
          throw new Error('a bad predicate allows nothing')
        },
      },
    ]
    for (const cors of options) {
      const rest = handler({ cors })
      for (const request of [
        preflight('https://evil.test'),
        get('/rest/Doc(1)', { origin: 'https://evil.test' }),
        get('/rest/Doc(1)'),
      ]) {
        const reply = syncReply(rest.respond(request))
        expect(reply.headers['access-control-allow-origin']).toBeUndefined()
        expect(reply.headers['access-control-allow-methods']).toBeUndefined()
        expect(reply.headers.vary).toBe('origin')
      }
    }
    // The function form allows what it says.
    const rest = handler({ cors: { origin: (o) => o.endsWith('.example.com') } })
    expect(syncReply(rest.respond(preflight(ORIGIN))).headers['access-control-allow-origin']).toBe(
      ORIGIN,
    )
  })

  it("allows any origin with '*', answered as the wildcard, without credentials", () => {
    const rest = handler({ cors: { origin: '*' } })
    const reply = syncReply(rest.respond(get('/rest/Doc(1)', { origin: 'https://any.test' })))
    expect(reply.headers['access-control-allow-origin']).toBe('*')
    expect(reply.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('adds its headers to a reply given later, and to the 500 of one that rejects', async () => {
    const rest = handler()
    const later = { ok: deferred<RestReply>(), broken: deferred<RestReply>() }
    const cors = withCors(
      {
        ...rest,
        respond: (request) =>
          request.path === '/rest/ok'
            ? later.ok.promise
            : request.path === '/rest/broken'
              ? later.broken.promise
              : rest.respond(request),
      },
      { origin: ORIGIN, credentials: true },
    )
    // A reply given at once stays one: no Promise on that path.
    expect(isPending(cors.respond(get('/rest/Doc(1)', { origin: ORIGIN })))).toBe(false)
    const ok = cors.respond(get('/rest/ok', { origin: ORIGIN }))
    const broken = cors.respond(get('/rest/broken', { origin: ORIGIN }))
    expect([isPending(ok), isPending(broken)]).toEqual([true, true])
    later.ok.resolve({
      ...stubReply('ok'),
      headers: { ...stubReply('ok').headers, vary: 'cookie' },
    })
    later.broken.reject(new Error('rejected'))
    const [answered, refused] = await Promise.all([ok, broken])
    for (const reply of [answered, refused])
      expect(reply.headers).toMatchObject({
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-credentials': 'true',
        'x-content-type-options': 'nosniff',
      })
    expect([answered.status, answered.body, answered.headers.vary]).toEqual([
      200,
      '{"name":"ok"}',
      'cookie, origin',
    ])
    expect(refused.status).toBe(500)
    expect(JSON.parse(refused.body as string).__ERROR[0].errCode).toBe(9099)
  })

  it('reads the Origin header through the fetch transport and through the node listener', async () => {
    const rest = handler({ cors: { origin: ORIGIN } })
    const res = await rest.request('/rest/Doc(1)', { headers: { origin: ORIGIN } })
    await res.text()
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    const pre = await rest.request('/rest/Doc', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-headers')).toBe(CORS_ALLOWED_HEADERS)

    const server = createServer(toNodeListener(rest))
    closers.push(
      () =>
        new Promise((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        }),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const viaNode = await fetch(`${base}/rest/Doc(1)`, { headers: { origin: ORIGIN } })
    await viaNode.text()
    expect(viaNode.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(viaNode.headers.get('vary')).toBe('origin')
  })
})
