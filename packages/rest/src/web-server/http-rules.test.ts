/**
 * HTTP rules over HTTP (through the fetch handler), on REST replies and a handler's: 4D's example
 * file's rules (security headers on every path, `Allow` added for REST, a maintenance status, a
 * redirection, private folders denied then allowed again), the headers no rule changes, and a
 * denied POST that writes nothing.
 */
import { createDatastore, OutgoingMessage, singleton, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { serveNode } from '../node/conformance.fixture.js'
import type { HttpRuleDef } from './http-rules.js'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies read as JSON
const json = async (r: Response): Promise<any> => r.json()

const model: ModelJson = {
  __NAME: 'rules',
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long', autoSequence: true },
        { name: 'title', type: 'string' },
      ],
    },
  ],
}

const RULES: HttpRuleDef[] = [
  {
    regexPattern: '/(.*)',
    setHeaders: { Allow: 'GET', 'X-Frame-Options': 'SAMEORIGIN' },
    removeHeaders: ['X-Content-Type-Options'],
  },
  { regexPattern: '/rest/(.*)', addHeaders: { Allow: 'POST' } },
  { regexPattern: '^/maintenance', status: 503 },
  { regexPattern: '^(.*\\.(css|js))', redirect: 'https://cdn.example.com/' },
  { regexPattern: '^(.*\\.(jpg|png))', redirect: 'https://cdn.example.com/images/', status: 301 },
  { regexPattern: '/rest/Doc', denyAccess: true },
  { regexPattern: '/rest/Doc\\(1\\)', denyAccess: false },
  {
    regexPattern: '/fixed',
    setHeaders: { Date: 'x', 'Content-Length': '1', Vary: 'cookie', 'Set-Cookie': 'a=1' },
    removeHeaders: ['Vary', 'Set-Cookie', 'Content-Type'],
    addHeaders: { Vary: 'accept' },
  },
]

const make = () => {
  const ds = createDatastore(model, {
    data: { Doc: [{ ID: 1, title: 'One' }] },
    functions: {
      singletons: {
        Pages: singleton(() => ({}), {
          page: {
            call: () =>
              new OutgoingMessage()
                .setBody('page')
                .setHeader('Vary', 'origin')
                .setHeader('X-Content-Type-Options', 'nosniff'),
          },
        }),
      },
    },
  })
  const rest = createRestHandler(ds, {
    handlers: [{ class: 'Pages', method: 'page', regexPattern: '^/(maintenance|fixed|app|x)' }],
    rules: RULES,
  })
  return { ds, rest }
}

describe('HTTP rules', () => {
  it('edit REST replies: set on every path, added to for /rest, removed', async () => {
    const r = await make().rest.request('/rest/$catalog')
    expect(r.status).toBe(200)
    expect(r.headers.get('allow')).toBe('GET, POST')
    expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    expect(r.headers.get('x-content-type-options')).toBeNull()
    expect(r.headers.get('set-cookie')).toMatch(/^4DSID_rules=/)
  })

  it('edit a handler’s reply, and set its status', async () => {
    const r = await make().rest.request('/maintenance')
    expect(r.status).toBe(503)
    expect(await r.text()).toBe('page')
    expect(r.headers.get('allow')).toBe('GET')
  })

  it('redirect with 302, or the status given, without serving the request', async () => {
    const { rest } = make()
    const css = await rest.request('/app/site.css', { redirect: 'manual' })
    expect(css.status).toBe(302)
    expect(css.headers.get('location')).toBe('https://cdn.example.com/')
    expect(await css.text()).toBe('')
    const png = await rest.request('/x/logo.png', { redirect: 'manual' })
    expect(png.status).toBe(301)
    expect(png.headers.get('location')).toBe('https://cdn.example.com/images/')
  })

  it('deny access with 403 and serve nothing; a later rule allows again', async () => {
    const { ds, rest } = make()
    const denied = await rest.request('/rest/Doc', {
      method: 'POST',
      body: JSON.stringify({ title: 'Two' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(denied.status).toBe(403)
    expect((await json(denied)).__ERROR[0]).toMatchObject({ errCode: 9170 })
    expect(ds.dataClass('Doc').all().length).toBe(1)
    // The rule headers go on the refusal too.
    expect(denied.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    const allowed = await rest.request('/rest/Doc(1)')
    expect(allowed.status).toBe(200)
    expect((await json(allowed)).title).toBe('One')
  })

  it('never change Date or Content-Length; only add to Vary and Set-Cookie', async () => {
    const r = await make().rest.request('/fixed')
    expect(r.headers.get('date')).not.toBe('x')
    expect(await r.text()).toBe('page')
    // Each rule's edits in the page's order: removals, additions, then changes; Vary is not set.
    expect(r.headers.get('vary')).toBe('origin, accept')
    expect(r.headers.get('content-type')).toBeNull()
    expect(r.headers.getSetCookie()).toEqual([expect.stringMatching(/^4DSID_rules=/), 'a=1'])
  })

  it('apply to the transport’s own refusals; a denied path’s body is not read', async () => {
    const { ds, rest } = make()
    const served = await serveNode(rest)
    try {
      const post = (path: string, bytes: number) =>
        fetch(served.url + path, {
          method: 'POST',
          body: `"${'a'.repeat(bytes - 2)}"`,
          headers: { 'content-type': 'application/json' },
        })
      // Past the body limit: the refusal carries the rules' headers.
      const tooLarge = await post('/rest/Doc(1)', rest.maxBodyBytes + 1)
      expect(tooLarge.status).toBe(413)
      expect((await json(tooLarge)).__ERROR[0]).toMatchObject({ errCode: 9033 })
      expect(tooLarge.headers.get('x-frame-options')).toBe('SAMEORIGIN')
      expect(tooLarge.headers.get('allow')).toBe('GET, POST')
      // Well under it, to a denied path: denied at its first byte, whatever its size.
      const denied = await post('/rest/Doc', 1000)
      expect(denied.status).toBe(403)
      expect((await json(denied)).__ERROR[0]).toMatchObject({ errCode: 9170 })
      const empty = await fetch(served.url + '/rest/Doc', { method: 'POST' })
      expect(empty.status).toBe(403)
      expect(ds.dataClass('Doc').all().length).toBe(1)
    } finally {
      await served.close()
    }
  })

  it('refuse malformed rules when the handler is made, naming the rule', () => {
    const ds = make().ds
    const rules = (r: unknown) => () => createRestHandler(ds, { rules: r as HttpRuleDef[] })
    expect(rules({})).toThrow(/rules: expected an array/)
    expect(rules([{ status: 200 }])).toThrow(/rules\[0\].regexPattern/)
    expect(rules([{ regexPattern: '/', status: 'x' }])).toThrow(/rules\[0\].status/)
    expect(rules([{ regexPattern: '/', setHeaders: { 'a b': 'x' } }])).toThrow(/not a header name/)
    // 4D's prose spells it RegExPattern.
    expect(rules([{ RegExPattern: '/', status: 200 }])).not.toThrow()
  })
})
