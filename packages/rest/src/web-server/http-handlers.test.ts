/**
 * HTTP request handlers written in JavaScript (singleton functions), over HTTP through the fetch
 * handler: 4D's routing (prefix patterns between slashes, regular expressions, order, verbs, the
 * paths never taken), the IncomingMessage a function receives (4D's example request), the
 * OutgoingMessage it answers, the session it runs as, and the errors 4D names.
 */
import {
  createDatastore,
  currentCall,
  IncomingMessage,
  OutgoingMessage,
  sessionSingleton,
  singleton,
  type Datastore,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import type { HttpHandlerDef } from './http-handlers.js'

const model: ModelJson = {
  __NAME: 'web',
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

const seen: IncomingMessage[] = []

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read as JSON
const json = async (r: Response): Promise<any> => r.json()

/** What `request` holds, as the 4D page's example handler writes it. */
const describeRequest = (request: IncomingMessage): OutgoingMessage =>
  new OutgoingMessage()
    .setBody(
      JSON.stringify({
        url: request.url,
        urlPath: request.urlPath,
        urlQuery: request.urlQuery,
        verb: request.verb,
        type: request.getHeader('CONTENT-TYPE') ?? null,
        text: request.getText(),
      }),
    )
    .setHeader('Content-Type', 'application/json')

const functions = {
  singletons: {
    GeneralHandling: singleton(() => ({ calls: 0 }), {
      gettingStarted: {
        call(request: IncomingMessage) {
          seen.push(request)
          return describeRequest(request)
        },
      },
      named: {
        call(this: { calls: number }, request: IncomingMessage) {
          this.calls++
          return new OutgoingMessage()
            .setBody(`${request.urlPath.at(-1)} ${this.calls}`)
            .setStatus(201)
            .setHeader('X-Handler', 'named')
        },
      },
      json: { call: (request: IncomingMessage) => ({ got: request.getJSON() }) },
      nothing: { call: () => undefined },
      fails: {
        call() {
          throw new Error('the handler failed')
        },
      },
      doc: {
        call(request: IncomingMessage): OutgoingMessage {
          const doc = docs.dataClass('Doc').get(Number(request.urlQuery.id))
          return new OutgoingMessage().setBody(String(doc?.get('title')))
        },
      },
    }),
    PerSession: sessionSingleton(() => ({}), { hit: { call: () => 'no' } }),
  },
}

const docs: Datastore = createDatastore(model, {
  data: { Doc: [{ ID: 1, title: 'Invoices' }] },
  functions,
})

const HANDLERS: HttpHandlerDef[] = [
  { class: 'GeneralHandling', method: 'gettingStarted', pattern: 'start', verbs: 'get, post' },
  {
    class: 'GeneralHandling',
    method: 'named',
    regexPattern: '/docs/invoices/(past|today)',
    verbs: 'GET',
  },
  { class: 'GeneralHandling', method: 'json', pattern: '/docs/invoices/', verbs: 'PUT' },
  { class: 'GeneralHandling', method: 'nothing', pattern: 'docs/invoices', verbs: 'DELETE' },
  { class: 'GeneralHandling', method: 'doc', pattern: 'doc' },
  { class: 'GeneralHandling', method: 'fails', pattern: 'fails' },
  { class: 'GeneralHandling', method: 'missing', pattern: 'missing' },
  { class: 'Unknown', method: 'x', pattern: 'unknown' },
  { class: 'PerSession', method: 'hit', pattern: 'session' },
  { class: 'GeneralHandling', method: 'gettingStarted', regexPattern: '/(.*)' },
]

const rest = (options: RestHandlerOptions = {}) =>
  createRestHandler(docs, { handlers: HANDLERS, ...options })

describe('HTTP request handlers', () => {
  it('hands the function the request as 4D describes it, and sends its OutgoingMessage', async () => {
    const r = await rest().request('/start/example?param=demo&name=4D', {
      headers: { 'content-type': 'text/plain' },
    })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(await json(r)).toEqual({
      url: '/start/example?param=demo&name=4D',
      urlPath: ['start', 'example'],
      urlQuery: { param: 'demo', name: '4D' },
      verb: 'GET',
      type: 'text/plain',
      text: '',
    })
    // The session cookie goes out as on every reply.
    expect(r.headers.get('set-cookie')).toMatch(/^4DSID_web=/)
  })

  it('reads a POST body as text, bytes and JSON; decodes the path and the query', async () => {
    const r = await rest().request('/start/caf%C3%A9?q=a%20b&j=%5B1%5D', {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    })
    const body = await json(r)
    expect(body.urlPath).toEqual(['start', 'café'])
    expect(body.urlQuery).toEqual({ q: 'a b', j: '[1]' })
    expect(body.text).toBe('{"a":1}')
    const request = seen.at(-1)!
    expect([...request.getBlob()]).toEqual([...new TextEncoder().encode('{"a":1}')])
    expect(request.getJSON()).toEqual({ a: 1 })
    expect(request.getPicture()).toBeNull()
  })

  it('takes a PUT body (the transports read it for a handler) and answers any value as JSON', async () => {
    const r = await rest().request('/docs/invoices/x', { method: 'PUT', body: '[1,2]' })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await json(r)).toEqual({ got: [1, 2] })
  })

  it('answers nothing with 204 and no body', async () => {
    const r = await rest().request('/docs/invoices', { method: 'DELETE' })
    expect(r.status).toBe(204)
    expect(await r.text()).toBe('')
  })

  it('matches a prefix between slashes, a regular expression anywhere, in order', async () => {
    const handler = rest()
    const text = async (path: string) => (await handler.request(path)).text()
    // The regex entry (second) before the prefix entries: status, header and state kept.
    const today = await handler.request('/docs/invoices/today/latest')
    expect(today.status).toBe(201)
    expect(today.headers.get('x-handler')).toBe('named')
    expect(await today.text()).toBe('latest 1')
    expect(await text('/docs/invoices/past')).toBe('past 2')
    // `start` is `/start` and below, not `/started`: that one falls to the catch-all regex.
    expect(JSON.parse(await text('/started')).url).toBe('/started')
    expect(JSON.parse(await text('/start')).urlPath).toEqual(['start'])
  })

  it('refuses a verb that no matching handler takes: 405 with Allow', async () => {
    // `/docs/invoices/x`: the json entry takes PUT, nothing DELETE, and nothing else matches
    // until the catch-all, which takes every verb: so a PATCH of `/docs/invoices/today`…
    const handler = createRestHandler(docs, {
      handlers: [
        { class: 'GeneralHandling', method: 'named', pattern: 'only', verbs: 'GET' },
        { class: 'GeneralHandling', method: 'json', pattern: 'only', verbs: 'put,Post' },
      ],
    })
    const r = await handler.request('/only/x', { method: 'PATCH' })
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, PUT, POST')
    expect((await json(r)).__ERROR[0].errCode).toBe(9171)
    expect((await handler.request('/only/x', { method: 'POST', body: '1' })).status).toBe(200)
  })

  it('never takes the REST interface, nor 4D’s built-in paths', async () => {
    const handler = rest()
    const catalog = await handler.request('/rest/$catalog')
    expect((await json(catalog)).dataClasses).toBeDefined()
    for (const path of ['/4DACTION/x', '/$lib/renderer', '/$shared/x', '/REST/$catalog']) {
      const r = await handler.request(path)
      expect(r.status, path).toBe(404)
    }
    expect(handler.handles!('/rest/x')).toBe(false)
    expect(handler.handles!('/start/x')).toBe(true)
  })

  it('answers 404 in 4D’s words for a class that is no shared singleton, or a function it lacks', async () => {
    const handler = rest()
    const error = async (path: string) => {
      const r = await handler.request(path)
      expect(r.status, path).toBe(404)
      return (await json(r)).__ERROR[0]
    }
    const singleton = { message: 'Cannot find singleton', errCode: 9105 }
    expect(await error('/unknown')).toEqual({ ...singleton, componentSignature: 'enti' })
    expect(await error('/session')).toEqual({ ...singleton, componentSignature: 'enti' })
    expect(await error('/missing')).toEqual({
      message: 'Cannot find singleton function',
      componentSignature: 'dbmg',
      errCode: 1573,
    })
  })

  it('answers a function that throws as a REST call’s failure, and a body that is not JSON 400', async () => {
    const handler = rest()
    const r = await handler.request('/fails')
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
    expect((await json(r)).__ERROR[0].message).toContain('the handler failed')
    const bad = await handler.request('/docs/invoices/x', { method: 'PUT', body: '{' })
    expect(bad.status).toBe(400)
  })

  it('reads the datastore as the request’s session', async () => {
    expect(await (await rest().request('/doc?id=1')).text()).toBe('Invoices')
  })

  it('refuses malformed handlers when the handler is made, naming the entry', () => {
    const make = (handlers: unknown) => () =>
      createRestHandler(docs, { handlers: handlers as HttpHandlerDef[] })
    expect(make({})).toThrow(/handlers: expected an array/)
    expect(make([{ class: 'A', method: 'b' }])).toThrow(/handlers\[0\]: expected a "pattern"/)
    expect(make([{ class: 'A', method: 'b', regexPattern: '(' }])).toThrow(
      /handlers\[0\].regexPattern/,
    )
    expect(make([{ class: 'A', pattern: 'x' }])).toThrow(/handlers\[0\].method/)
  })
})

describe('HTTP request handlers and privileges', () => {
  const guarded = (promote: boolean) =>
    createRestHandler(
      createDatastore(model, {
        data: { Doc: [{ ID: 1, title: 'Secret' }] },
        roles: {
          privileges: [{ privilege: 'reader', includes: [] }],
          permissions: {
            allowed: [
              { applyTo: 'Doc', type: 'dataclass', read: ['reader'] },
              ...(promote
                ? [{ applyTo: 'Pages.doc', type: 'singletonMethod' as const, promote: ['reader'] }]
                : []),
            ],
          },
        },
        functions: {
          singletons: {
            Pages: singleton(() => ({}), {
              doc: {
                call(): OutgoingMessage {
                  const doc = currentCall()!.datastore.dataClass('Doc').get(1)
                  return new OutgoingMessage().setBody(String(doc?.get('title')))
                },
              },
            }),
          },
        },
      }),
      { handlers: [{ class: 'Pages', method: 'doc', pattern: 'doc' }] },
    )

  it('reads as the request’s session: a read it may not make is refused', async () => {
    const r = await guarded(false).request('/doc')
    expect(r.status).toBe(403)
    expect((await json(r)).__ERROR[0].errCode).toBe(1557)
  })

  it('runs with the privileges roles.json promotes the function to', async () => {
    expect(await (await guarded(true).request('/doc')).text()).toBe('Secret')
  })
})
