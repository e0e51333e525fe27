/**
 * HTTP request handlers beside the REST interface on every transport: node:http, Express, Fastify
 * and Hono (mounted at the root), the fetch handler being http-handlers.test.ts's. Each one hands a
 * handler's path over (its PUT body read), serves REST as before, and leaves any other path to the
 * framework's next route (or its 404).
 */
import { createAdaptorServer } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { createServer, type Server } from 'node:http'
import { createDatastore, IncomingMessage, OutgoingMessage, singleton } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import type { MountableRest } from '../adapters/mount.js'
import { createRestHandler } from '../handler.js'
import { honoRest } from '../hono/index.js'
import { listen, send, type Served } from '../node/conformance.fixture.js'
import { expressRest } from '../node/express.js'
import { fastifyRest } from '../node/fastify.js'
import { toNodeListener } from '../node/listener.js'

const rest = (): MountableRest =>
  createRestHandler(
    createDatastore(
      { __NAME: 'web', dataClasses: [{ name: 'Doc', attributes: [{ name: 'ID', type: 'long' }] }] },
      {
        data: { Doc: [{ ID: 1 }] },
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
      },
    ),
    { handlers: [{ class: 'Files', method: 'put', pattern: 'files' }] },
  )

const TRANSPORTS: Record<string, (rest: MountableRest) => Promise<Served>> = {
  'node:http': (r) => listen(createServer(toNodeListener(r))),
  Express: (r) => {
    const app = express()
    app.use(express.json())
    app.use(expressRest(r))
    app.get('/other', (_req, res) => res.send('other'))
    return listen(createServer(app))
  },
  Fastify: async (r) => {
    const app = Fastify()
    app.get('/other', async () => 'other')
    await app.register(fastifyRest, { rest: r })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    return { url: `http://127.0.0.1:${port}`, close: () => app.close() }
  },
  Hono: (r) => {
    const app = new Hono()
    app.route('/', honoRest(r))
    app.get('/other', (c) => c.text('other'))
    return listen(createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server)
  },
}

describe.each(Object.entries(TRANSPORTS))('HTTP request handlers on %s', (name, start) => {
  it('hands a handler’s path over, body included, beside REST and the other routes', async () => {
    const served = await start(rest())
    try {
      const put = await send(served.url, {
        method: 'PUT',
        target: '/files/a.txt',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      })
      expect([put.status, put.body.toString()]).toEqual([200, 'PUT hello'])
      const read = await send(served.url, { target: '/rest/Doc(1)' })
      expect(read.status).toBe(200)
      const nobody = await send(served.url, { target: '/nobody' })
      expect(nobody.status).toBe(404)
      if (name !== 'node:http') {
        const other = await send(served.url, { target: '/other' })
        expect([other.status, other.body.toString()]).toEqual([200, 'other'])
      }
    } finally {
      await served.close()
    }
  })
})

describe('HTTP request handlers and CORS', () => {
  it('let a preflight through for the verb a page asks: a handler takes it, the REST paths answer 405', async () => {
    const page = 'http://localhost:5173'
    const ds = createDatastore({ __NAME: 'web', dataClasses: [] }, {})
    const handler = createRestHandler(ds, {
      cors: { origin: page },
      handlers: [{ class: 'Files', method: 'put', pattern: 'files' }],
    })
    const preflight = (path: string) =>
      handler.request(path, {
        method: 'OPTIONS',
        headers: { origin: page, 'access-control-request-method': 'PUT' },
      })
    const files = await preflight('/files/a')
    expect(files.status).toBe(204)
    expect(files.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT')
    const rest = await preflight('/rest/$catalog')
    expect(rest.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT')
    // The PUT the browser then sends gets the interface's 405, which the page reads.
    const put = await handler.request('/rest/$catalog', {
      method: 'PUT',
      headers: { origin: page },
    })
    expect(put.status).toBe(405)
    expect(put.headers.get('access-control-allow-origin')).toBe(page)
    expect(((await put.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode).toBe(
      9032,
    )
  })
})
