import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandler } from '../handler.js'
import { CHUNK_CHARS } from '../serialize/json-chunks.js'
import { toNodeListener } from './listener.js'

// One table of requests, each answered by the fetch handler and by the node listener on a real
// socket: status, the headers that carry meaning and the body bytes must be the same. Two
// identical datastores answer the two sides, so session ids come out alike.

const DOCS = 4000

function handler(): RestHandler {
  let sessions = 0
  const ds = createDatastore(
    {
      __NAME: 'docs',
      dataClasses: [
        {
          name: 'Doc',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'code', type: 'string', indexed: true },
            { name: 'title', type: 'string' },
            { name: 'day', type: 'date' },
            { name: 'odd', kind: 'calculated', type: 'string' },
          ],
        },
      ],
    },
    {
      data: {
        Doc: Array.from({ length: DOCS }, (_, i) => ({
          ID: i + 1,
          code: `c${i + 1}`,
          title: `Titre n°${i + 1} "quoted" \\ é 😀 ${'z'.repeat(i % 50)}`,
          day: '2024-02-29',
        })),
      } as unknown as DataFile,
      clock: new ManualClock(Date.UTC(2024, 0, 1)),
      sessions: { newId: () => `S${++sessions}` },
      calculated: {
        Doc: {
          odd: (e) => {
            if (e.get('ID') === DOCS) throw new Error('the last one: internal detail')
            return 'ok'
          },
        },
      },
    },
  )
  return createRestHandler(ds, { maxBodyBytes: 1000 })
}

interface Case {
  readonly method?: string
  /** Written as a WHATWG client sends it: `new URL` normalizes it for both sides. */
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

const json = { 'content-type': 'application/json' }
const CASES: Case[] = [
  { path: '/rest/$catalog' },
  { path: '/rest/$catalog', headers: { cookie: '4DSID_docs=S1' } },
  { path: '/rest/$catalog/$all', headers: { cookie: 'a=b; 4DSID_docs="S1"' } },
  { path: '/rest/$catalog/Doc' },
  { path: '/rest/$catalog?$4DSID=S2' },
  { path: '/rest/Doc(1)' },
  { path: '/rest/Doc[2]', headers: { cookie: '4DSID_docs=unknown' } },
  { path: '/rest/Doc:code(c3)' },
  { path: '/rest/Doc' },
  { path: `/rest/Doc?$top=${DOCS - 1}&$skip=0` },
  { path: `/rest/Doc?$top=${DOCS - 1}&$asArray=true` },
  { path: '/rest/Doc?$filter="ID>10 and ID<3000"&$queryplan=true&$querypath=true&$top=2990' },
  { path: '/rest/Doc?$filter="code=:1"&$params=\'["c7"]\'' },
  { path: '/rest/Doc?$orderby="ID desc"&$skip=1&$top=3998' },
  { path: '/rest/Doc/$filter="ID<3"' },
  { method: 'HEAD', path: '/rest/Doc(1)' },
  { method: 'HEAD', path: `/rest/Doc?$top=${DOCS - 1}` },
  { method: 'HEAD', path: '/rest/Doc(99999)' },
  { method: 'OPTIONS', path: '/rest/Doc' },
  { method: 'PUT', path: '/rest/Doc(1)', headers: json, body: '{}' },
  { method: 'DELETE', path: '/rest/Doc(1)' },
  { method: 'PATCH', path: '/rest/Doc(1)', headers: json, body: '{}' },
  { method: 'POST', path: '/rest/Doc', headers: json, body: '{"title":"new"}' },
  { method: 'POST', path: '/rest/Doc', headers: json, body: `{"title":"${'x'.repeat(2000)}"}` },
  { path: '/rest/Nope' },
  { path: '/rest/Doc(99999)' },
  { path: '/rest/Doc(x)' },
  { path: `/rest/Doc(${DOCS})` },
  { path: `/rest/Doc?$skip=${DOCS - 1}` },
  { path: '/rest/Doc?$top=-1' },
  { path: '/rest/Doc?$top=99999999999999999999' },
  { path: '/rest/Doc?$compute=sum' },
  { path: '/rest/Doc?$bogus=1' },
  { path: '/rest/Doc?$filter="ID >"' },
  { path: '/rest/Doc?$top=%E0%A4' },
  { path: '/rest/%C3%28' },
  { path: '/rest/Doc/$entityset/ABC' },
  { path: '/rest/$singleton/x/y' },
  { path: '/rest/$getWebForm' },
  { path: '/rest/$directory/logout' },
  { path: '/rest/' },
  { path: '/anything' },
]

interface Answer {
  readonly status: number
  readonly headers: {
    contentType: string | undefined
    allow: string | undefined
    setCookie: readonly string[]
  }
  readonly body: Buffer
}

const target = (c: Case) => {
  const url = new URL(c.path, 'http://localhost')
  return url.pathname + url.search
}

async function viaFetch(rest: RestHandler, c: Case): Promise<Answer> {
  const res = await rest.fetch(
    new Request(`http://localhost${target(c)}`, {
      method: c.method ?? 'GET',
      headers: c.headers ?? {},
      ...(c.body === undefined ? {} : { body: c.body }),
    }),
  )
  return {
    status: res.status,
    headers: {
      contentType: res.headers.get('content-type') ?? undefined,
      allow: res.headers.get('allow') ?? undefined,
      setCookie: res.headers.getSetCookie(),
    },
    body: Buffer.from(await res.arrayBuffer()),
  }
}

function viaNode(port: number, c: Case): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: IncomingHttpHeaders = { ...c.headers }
    if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body))
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: c.method ?? 'GET',
        path: target(c),
        headers,
        agent: false,
      },
      (res) => {
        const parts: Buffer[] = []
        res.on('data', (part: Buffer) => parts.push(part))
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: {
              contentType: res.headers['content-type'],
              allow: res.headers.allow,
              setCookie: res.headers['set-cookie'] ?? [],
            },
            body: Buffer.concat(parts),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(c.body)
  })
}

describe('the fetch handler and the node listener', () => {
  const fetchSide = handler()
  let server: Server
  let port: number
  beforeAll(async () => {
    server = createServer(toNodeListener(handler()))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  })

  it('give the same status, headers and body bytes for every request of the table', async () => {
    const statuses = new Set<number>()
    let longest = 0
    // In order, one at a time: both sides must see the same sequence (session ids).
    for (const c of CASES) {
      const name = `${c.method ?? 'GET'} ${target(c)}`
      const [a, b] = [await viaFetch(fetchSide, c), await viaNode(port, c)]
      expect({ name, status: b.status, headers: b.headers }).toEqual({
        name,
        status: a.status,
        headers: a.headers,
      })
      expect({ name, same: b.body.equals(a.body), length: b.body.length }).toEqual({
        name,
        same: true,
        length: a.body.length,
      })
      statuses.add(a.status)
      longest = Math.max(longest, a.body.length)
    }
    // The table reaches what it is meant to: every kind of answer, and replies of many chunks.
    expect([...statuses].sort()).toEqual([200, 204, 400, 404, 405, 413, 500, 501])
    expect(longest).toBeGreaterThan(10 * CHUNK_CHARS)
  })
})
