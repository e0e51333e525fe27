import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { toNodeListener } from './index.js'

function datastore() {
  let n = 0
  return createDatastore(
    {
      __NAME: 'shop',
      dataClasses: [
        {
          name: 'Employee',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'lastName', type: 'string' },
          ],
        },
      ],
    },
    {
      data: { Employee: [{ ID: 1, lastName: 'Smith' }] } as unknown as DataFile,
      clock: new ManualClock(),
      sessions: { newId: () => `S${++n}` },
    },
  )
}

const servers: Server[] = []

async function listen(listener: RequestListener): Promise<{ port: number; base: string }> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { port, base: `http://127.0.0.1:${port}` }
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve, reject) => {
      server.close((e) => (e ? reject(e) : resolve()))
      server.closeAllConnections()
    })
  }
})

/** Sends `request` as written on a raw socket and returns everything the server answered. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request))
    let out = ''
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => (out += d))
    socket.on('end', () => resolve(out))
    socket.on('error', reject)
  })
}

/** The status line, headers (lowercase names) and body of a raw HTTP/1.1 answer, de-chunked. */
function parseRaw(text: string) {
  const [head, ...rest] = text.split('\r\n\r\n')
  const [statusLine, ...headerLines] = head!.split('\r\n')
  const headers = new Map(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]),
  )
  let body = rest.join('\r\n\r\n')
  if (headers.get('transfer-encoding') === 'chunked') {
    let out = ''
    for (;;) {
      const eol = body.indexOf('\r\n')
      const size = parseInt(body.slice(0, eol), 16)
      if (!size) break
      out += body.slice(eol + 2, eol + 2 + size)
      body = body.slice(eol + 2 + size + 2)
    }
    body = out
  }
  return { statusLine, headers, body }
}

const get = (target: string, host = 'localhost') =>
  `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`

describe('toNodeListener', () => {
  it('serves the REST handler over node:http', async () => {
    const { base } = await listen(toNodeListener(createRestHandler(datastore())))
    const res = await fetch(`${base}/rest/Employee(1)`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.json()).toMatchObject({ __KEY: '1', lastName: 'Smith' })
  })

  it('delivers the session cookie, and keeps the session when it comes back', async () => {
    const { base } = await listen(toNodeListener(createRestHandler(datastore())))
    const first = await fetch(`${base}/rest/$catalog`)
    expect(first.headers.getSetCookie()).toEqual(['4DSID_shop=S1; Path=/; HttpOnly; SameSite=Lax'])
    const again = await fetch(`${base}/rest/$catalog`, { headers: { cookie: '4DSID_shop=S1' } })
    expect(again.headers.getSetCookie()).toEqual([])
    expect(((await again.json()) as { __UNIQID: string }).__UNIQID).toBe('S1')
  })

  it('writes a reason phrase on the status line', async () => {
    const { port } = await listen(toNodeListener(createRestHandler(datastore())))
    expect(parseRaw(await raw(port, get('/rest/$catalog'))).statusLine).toBe('HTTP/1.1 200 OK')
    expect(parseRaw(await raw(port, get('/rest/Employee(2)'))).statusLine).toBe(
      'HTTP/1.1 404 Not Found',
    )
    expect(parseRaw(await raw(port, get('/rest/Employee(x)'))).statusLine).toBe(
      'HTTP/1.1 400 Bad Request',
    )
    expect(parseRaw(await raw(port, get('/rest/Employee?$compute=sum'))).statusLine).toBe(
      'HTTP/1.1 501 Not Implemented',
    )
  })

  it('answers a request target the URL parser refuses with 400 __ERROR 1806', async () => {
    const { port } = await listen(toNodeListener(createRestHandler(datastore())))
    // Node accepts this absolute-form target; `new URL` does not.
    const answer = parseRaw(await raw(port, get('http://[/rest/$catalog')))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(JSON.parse(answer.body)).toEqual({
      __ERROR: [
        {
          message: 'The URL "http://[/rest/$catalog" is malformed: not a valid URL',
          componentSignature: 'dbmg',
          errCode: 1806,
        },
      ],
    })
  })

  it('answers a Host header that makes no URL with 400 __ERROR 1806', async () => {
    const { port } = await listen(toNodeListener(createRestHandler(datastore())))
    const answer = parseRaw(await raw(port, get('/rest/$catalog', '[::1')))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(JSON.parse(answer.body).__ERROR[0].errCode).toBe(1806)
  })

  it('reads a target starting with // as a path, not as a host', async () => {
    const { port } = await listen(toNodeListener(createRestHandler(datastore())))
    const answer = parseRaw(await raw(port, get('//elsewhere/rest/$catalog')))
    expect(answer.statusLine).toBe('HTTP/1.1 404 Not Found')
    expect(JSON.parse(answer.body).__ERROR[0]).toEqual({
      message: 'Nothing is served at "//elsewhere/rest/$catalog"',
      componentSignature: 'enti',
      errCode: 9031,
    })
    // An absolute-form target is read as the URL it is.
    const absolute = parseRaw(await raw(port, get('http://elsewhere/rest/Employee(1)')))
    expect(absolute.statusLine).toBe('HTTP/1.1 200 OK')
  })

  it('answers HEAD with headers and no body', async () => {
    const { base } = await listen(toNodeListener(createRestHandler(datastore())))
    const res = await fetch(`${base}/rest/Employee(1)`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.text()).toBe('')
  })

  it('answers a POST with a body with 501 without waiting for the body to be read', async () => {
    const { base } = await listen(toNodeListener(createRestHandler(datastore())))
    const res = await fetch(`${base}/rest/Employee`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lastName: 'New' }),
    })
    expect(res.status).toBe(501)
    expect(JSON.parse(await res.text()).__ERROR[0].errCode).toBe(9010)
  })

  it('hands the handler the URL chosen by the url option (Express mount paths)', async () => {
    const handler = createRestHandler(datastore())
    // As under `app.use('/rest', …)`: req.url has lost the mount path, originalUrl has it.
    const { base } = await listen((req, res) => {
      const originalUrl = req.url
      req.url = req.url!.replace(/^\/rest/, '')
      toNodeListener(handler, { url: () => originalUrl! })(req, res)
    })
    const res = await fetch(`${base}/rest/Employee(1)`)
    expect(res.status).toBe(200)
  })

  it('serves any RestCore, keeping every Set-Cookie header apart', async () => {
    const rest = createRestHandler(datastore())
    const { base } = await listen(
      toNodeListener({
        ...rest,
        respond: (request) => ({
          status: 201,
          headers: { 'x-path': request.path, 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] },
          body: '{}',
        }),
      }),
    )
    const res = await fetch(`${base}/some/path?x=1`)
    expect([res.status, res.statusText]).toEqual([201, 'Created'])
    expect(res.headers.get('x-path')).toBe('/some/path')
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
  })

  it('turns a core that throws into a 500 __ERROR 9099 without its message', async () => {
    const seen: unknown[] = []
    const rest = createRestHandler(datastore(), { onInternalError: (e) => seen.push(e) })
    const broken = new Error('handler broke')
    const { base } = await listen(
      toNodeListener({
        ...rest,
        respond: () => {
          throw broken
        },
      }),
    )
    const res = await fetch(`${base}/rest/$catalog`)
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({
      __ERROR: [
        {
          message: 'Internal error: the server could not answer this request',
          componentSignature: 'enti',
          errCode: 9099,
        },
      ],
    })
    expect(seen).toEqual([broken])
  })

  it('closes cleanly while a keep-alive connection is open', async () => {
    const server = createServer(toNodeListener(createRestHandler(datastore())))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const socket = connect(port, '127.0.0.1')
    await new Promise<void>((resolve) => {
      socket.once('data', () => resolve())
      socket.write('GET /rest/$catalog HTTP/1.1\r\nHost: x\r\n\r\n')
    })
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    await new Promise<void>((resolve, reject) => {
      server.close((e) => (e ? reject(e) : resolve()))
      server.closeAllConnections()
    })
    await ended
    expect(server.listening).toBe(false)
  })
})
