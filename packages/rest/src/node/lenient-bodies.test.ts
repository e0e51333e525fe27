/**
 * A write's body that is JSON is read as JSON whatever Content-Type it declares (the Wakanda client
 * sends JSON as `application/x-www-form-urlencoded`), through every adapter; a form that is not
 * JSON is refused 415 and writes nothing. The conformance suite compares adapters with the
 * listener; this checks what each one answers, on the company demo.
 */
import { createAdaptorServer } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { createServer, type Server } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { MountableRest } from '../adapters/mount.js'
import { toFetchHandler } from '../fetch/fetch-handler.js'
import { honoRest } from '../hono/index.js'
import {
  companyRest,
  json,
  listen,
  send,
  serveNode,
  type Answer,
  type Served,
} from './conformance.fixture.js'
import { expressRest } from './express.js'
import { fastifyRest } from './fastify.js'

const FORM = 'application/x-www-form-urlencoded'

/** On node:http through @hono/node-server, without replacing the global Request and Response. */
const onFetchServer = (fetch: (request: Request) => Promise<Response> | Response) =>
  listen(createAdaptorServer({ fetch, overrideGlobalObjects: false }) as Server)

/** Each adapter serving `rest` at `/rest`, as its own tests mount it. */
const ADAPTERS: [string, (rest: MountableRest) => Promise<Served>][] = [
  ['node:http', serveNode],
  ['Express', (rest) => listen(createServer(express().use('/rest', expressRest(rest))))],
  [
    'Express behind express.json(), text() and raw()',
    (rest) => {
      const app = express()
      app.use(express.json(), express.text(), express.raw({ type: 'application/octet-stream' }))
      return listen(createServer(app.use('/rest', expressRest(rest))))
    },
  ],
  [
    'Fastify',
    async (rest) => {
      const app = Fastify()
      await app.register(fastifyRest, { rest })
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as { port: number }
      return { url: `http://127.0.0.1:${port}`, close: () => app.close() }
    },
  ],
  ['Hono', (rest) => onFetchServer(new Hono().route('/rest', honoRest(rest)).fetch)],
  ['fetch', (rest) => onFetchServer(toFetchHandler(rest))],
]

/** A create through `served`: `$method=update` with `body` declared `type` (none if undefined). */
const create = (served: Served, body: string, type?: string): Promise<Answer> =>
  send(served.url, {
    method: 'POST',
    target: '/rest/Employee?$method=update',
    headers: type === undefined ? {} : { 'content-type': type },
    body,
  })

const employees = async (served: Served): Promise<number> =>
  json(await send(served.url, { target: '/rest/Employee?$top=1' })).__COUNT

/** Runs `check` against `rest` served by `start`, closing the server after. */
async function serving(
  start: (rest: MountableRest) => Promise<Served>,
  check: (served: Served) => Promise<void>,
): Promise<void> {
  const served = await start(companyRest())
  try {
    await check(served)
  } finally {
    await served.close()
  }
}

describe.each(ADAPTERS)('lenient bodies through %s', (_, start) => {
  it.each([FORM, `${FORM}; charset=UTF-8`, 'text/plain', undefined, 'application/octet-stream'])(
    'creates from a JSON body declared %j',
    async (type) => {
      await serving(start, async (served) => {
        const lastName = `Lenient ${type}`
        const created = await create(served, JSON.stringify({ firstName: 'Wa', lastName }), type)
        expect([created.status, json(created).lastName]).toEqual([200, lastName])
        const read = await send(served.url, { target: `/rest/Employee(${json(created).__KEY})` })
        expect(json(read).lastName).toBe(lastName)
      })
    },
  )

  it('refuses a form that is not JSON with 415 and writes nothing', async () => {
    await serving(start, async (served) => {
      const before = await employees(served)
      const form = await create(served, 'a=1&b=2', FORM)
      expect([form.status, json(form).__ERROR.map((e: { errCode: number }) => e.errCode)]).toEqual([
        415,
        [9036],
      ])
      expect(json(form).__ERROR[0].message).toContain(FORM)
      expect(await employees(served)).toBe(before)
    })
  })
})

describe('Express behind express.urlencoded()', () => {
  const behindUrlencoded = (rest: MountableRest) =>
    listen(createServer(express().use(express.urlencoded()).use('/rest', expressRest(rest))))

  it('refuses 415 what the form parser made of a body, JSON or not, and writes nothing', async () => {
    // The parser read JSON text as a form (a key `{"lastName":"Ada"}`): the JSON is gone.
    await serving(behindUrlencoded, async (served) => {
      const before = await employees(served)
      for (const body of ['a=1&b=2', JSON.stringify({ lastName: 'Ada' })]) {
        const answer = await create(served, body, FORM)
        expect([answer.status, json(answer).__ERROR[0].errCode], body).toEqual([415, 9036])
      }
      expect(await employees(served)).toBe(before)
    })
  })

  it('still reads JSON bodies the form parser leaves alone', async () => {
    await serving(behindUrlencoded, async (served) => {
      for (const type of ['text/plain', undefined]) {
        const created = await create(served, JSON.stringify({ lastName: 'Plain' }), type)
        expect([created.status, json(created).lastName], String(type)).toEqual([200, 'Plain'])
      }
    })
  })
})
