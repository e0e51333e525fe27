/**
 * `restHandlers` under MSW in Node (`setupServer`, no process, no port): a 4D client's flows as
 * `@4d/rest`-style calls make them (the catalog, filters, a create and its read, a class function,
 * a login and what it opens, an entity set), the session kept between calls as a browser would
 * keep its cookie, `reset()` between tests, and every other request left to the next handler.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  createDatastore,
  IncomingMessage,
  OutgoingMessage,
  singleton,
  type DataFile,
  type ModelJson,
} from '@entistore/core'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../commands/cli-serve.fixture.js'
import { FUNCTIONS, WEB_SERVER } from '../project/four-d-rest.fixture.js'
import { projectHandlers, restHandlers } from './msw-handlers.js'
import type { BundledProject } from './project-in-page.js'

// The shop the page's test and the packed tarballs' smoke serve too: three items, a model of one class.
const { model, data } = JSON.parse(
  readFileSync(new URL('./shop.json', import.meta.url), 'utf8'),
) as { model: ModelJson; data: DataFile }

const API = 'https://api.shop.test'
const handlers = restHandlers(
  createDatastore(model, {
    data,
    functions: {
      dataClasses: {
        Item: {
          dataClass: {
            cheapest: {
              exposed: true,
              call() {
                return this.query('price < 4').length
              },
            },
          },
        },
      },
    },
  }),
  {
    baseUrl: API,
    authenticate: ({ user, password }) => (password === 'secret' ? { name: user } : null),
    forceLogin: true,
  },
)
// After the mocked 4D server, another service of the same origin, which its handlers pass over.
const server = setupServer(
  ...handlers,
  http.get(`${API}/health`, () => HttpResponse.text('ok')),
)

beforeAll(() => {
  if (!oldNode) server.listen()
})
beforeEach(() => handlers.reset())
afterAll(() => server.close())

const json = async (path: string, init?: RequestInit) => {
  const reply = await fetch(`${API}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  })
  return { status: reply.status, body: (await reply.json()) as Record<string, any> }
}
const login = () =>
  fetch(`${API}/rest/$directory/login`, {
    method: 'POST',
    headers: { 'username-4d': 'ada', 'password-4d': 'secret', 'content-type': 'application/json' },
    body: '{}',
  })

/** msw 3 runs on Node 22 and later (its engines; on 20 its interceptor fails on every fetch). */
const oldNode = Number(process.versions.node.split('.')[0]) < 22

describe.skipIf(oldNode)('restHandlers in Node, through msw/node', () => {
  it('answers the catalog and refuses a read before the login, as forceLogin does', async () => {
    expect((await json('/rest/$catalog')).status).toBe(200)
    const refused = await json('/rest/Item')
    expect(refused.status).toBe(401)
    expect(refused.body.__ERROR).toBeDefined()
  })

  it('keeps the session a login opens: reads, filters, writes and a class function follow', async () => {
    expect((await login()).status).toBe(200)
    const cheap = await json(`/rest/Item?$filter="price<4"&$orderby="name"`)
    expect(cheap.body.__ENTITIES.map((e: { name: string }) => e.name)).toEqual(['pad', 'pen'])
    const made = await json('/rest/Item?$method=update', {
      method: 'POST',
      body: JSON.stringify({ name: 'nib', price: 1 }),
    })
    expect(made.status).toBe(200)
    expect((await json(`/rest/Item(${made.body.__KEY})`)).body.name).toBe('nib')
    expect((await json('/rest/Item/cheapest', { method: 'POST', body: '[]' })).body).toEqual({
      result: 3,
    })
  })

  it('keeps an entity set for the session that made it', async () => {
    await login()
    const set = await json(`/rest/Item?$filter="price>2"&$method=entityset`)
    const uri: string = set.body.__ENTITYSET
    expect(uri).toMatch(/\/rest\/Item\/\$entityset\//)
    const again = await json(uri.slice(uri.indexOf('/rest/')))
    expect(again.body.__COUNT).toBe(2)
  })

  it('puts the data back and forgets the session at reset', async () => {
    await login()
    await json('/rest/Item?$method=update', { method: 'POST', body: JSON.stringify({ name: 'x' }) })
    expect((await json('/rest/Item')).body.__COUNT).toBe(4)
    handlers.reset()
    expect((await json('/rest/Item')).status).toBe(401)
    await login()
    expect((await json('/rest/Item')).body.__COUNT).toBe(3)
    // Kept on asking: a login made before the tests survives a reset.
    handlers.reset({ keepSessions: true })
    expect((await json('/rest/Item')).status).toBe(200)
  })

  it('leaves a request the interface does not answer to the next handler', async () => {
    expect(await (await fetch(`${API}/health`)).text()).toBe('ok')
  })

  it('answers a project’s HTTP request handler outside /rest, and nothing else there', async () => {
    const files = restHandlers(
      createDatastore(model, {
        data,
        functions: {
          singletons: {
            Files: singleton(() => ({}), {
              put: {
                call: (request: IncomingMessage) =>
                  new OutgoingMessage().setBody(`${request.verb} ${request.getText()}`),
              },
            }),
          },
        },
      }),
      {
        baseUrl: 'https://files.test',
        handlers: [{ class: 'Files', method: 'put', pattern: 'files' }],
      },
    )
    // The entistore handlers first: a path neither REST's nor a handler's goes on to the next.
    server.use(
      ...files,
      http.get('https://files.test/elsewhere', () => HttpResponse.text('next')),
    )
    const put = await fetch('https://files.test/files/a.txt', { method: 'PUT', body: 'hello' })
    expect(await put.text()).toBe('PUT hello')
    expect(await (await fetch('https://files.test/elsewhere')).text()).toBe('next')
    server.resetHandlers()
  })

  it('sends a cookie of the request’s own rather than the one it keeps', async () => {
    await login()
    const other = await json('/rest/Item', { headers: { cookie: '4DSID_shop=nobody' } })
    expect(other.status).toBe(401)
    expect((await json('/rest/Item')).status).toBe(200)
  })

  it('serves a 4D project bundled by entistore bundle through projectHandlers, not restHandlers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'entistore-msw-project-'))
    try {
      const out = join(dir, 'project.js')
      expect((await runCli(['bundle', '-p', FUNCTIONS, '-o', out])).code).toBe(0)
      const project = ((await import(pathToFileURL(out).href)) as { default: BundledProject })
        .default
      expect(() => restHandlers(project as never)).toThrow(/projectHandlers\(project\)/)
      server.use(...(await projectHandlers(project, { baseUrl: 'https://project.test' })))
      const reply = await fetch('https://project.test/rest/$catalog/getName', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '[]',
      })
      expect(await reply.json()).toEqual({ result: 'US cities and zip codes manager' })
      // A project's HTTPHandlers.json: its class answers a path outside /rest, its rules apply.
      const web = join(dir, 'web.js')
      expect((await runCli(['bundle', '-p', WEB_SERVER, '-o', web])).code).toBe(0)
      const site = ((await import(pathToFileURL(web).href)) as { default: BundledProject }).default
      server.use(...(await projectHandlers(site, { baseUrl: 'https://site.test' })))
      const start = await fetch('https://site.test/start/example?param=demo')
      expect(start.headers.get('x-frame-options')).toBe('SAMEORIGIN')
      expect(await start.text()).toContain('There are 2 url parts - Url parts are: start - example')
    } finally {
      server.resetHandlers()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
