import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { connect } from 'node:net'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import type { RestReply, RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { clientErrorListener, toNodeListener } from './index.js'
import { deferred, stubReply } from './pending.fixture.js'

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

async function listen(
  listener: RequestListener,
  setup: (server: Server) => void = () => {},
  maxHeaderSize?: number,
): Promise<{ port: number; base: string }> {
  const server = createServer(maxHeaderSize === undefined ? {} : { maxHeaderSize }, listener)
  setup(server)
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

/**
 * Sends `request` as written on a raw socket and returns everything the server answered: until the
 * server closes, or with `keepAlive`, until one whole answer (its head and `content-length` bytes)
 * has come, the connection then closed by us.
 */
function raw(port: number, request: string | Buffer, { keepAlive = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // The request is written and our side left open: ending it at once races an answer made in a
    // later turn, since Node's server drops a request whose client half-closed (seen with the 501
    // of `$getWebForm`, and with a keep-alive GET by key, on a busy machine).
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    let out = ''
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => {
      out += d
      if (keepAlive && wholeAnswer(out)) {
        socket.end()
        resolve(out)
      }
    })
    socket.on('end', () => resolve(out))
    socket.on('error', reject)
  })
}

/** Whether `text` holds an answer's whole head and the `content-length` bytes of its body. */
function wholeAnswer(text: string): boolean {
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return false
  const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))
  return length !== null && Buffer.byteLength(text.slice(end + 4)) >= Number(length[1])
}

/**
 * Writes `request` on a raw socket without ending it (the client is still sending) and returns
 * everything the server answered before closing the connection.
 */
function rawOpen(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    let out = ''
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => (out += d))
    socket.on('close', () => resolve(out))
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

/** The first `__ERROR` entry of a raw answer's body. */
const firstError = (answer: { body: string }) =>
  (JSON.parse(answer.body) as { __ERROR: { message: string; errCode: number }[] }).__ERROR[0]!

describe('toNodeListener', () => {
  it('serves the REST handler over node:http', async () => {
    const { base } = await listen(toNodeListener(createRestHandler(datastore())))
    const res = await fetch(`${base}/rest/Employee(1)`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.json()).toMatchObject({ __KEY: '1', lastName: 'Smith' })
  })

  it('answers a GET by key with these bytes, a new session to a client without a cookie', async () => {
    // What a keep-alive client reads, byte for byte but the date: the order of the headers, their
    // case, the cookie of a new session. The read by key has a shortcut through the URL parser and
    // the load benchmarks measure exactly this reply: any change to it shows here.
    const { port } = await listen(toNodeListener(createRestHandler(datastore())))
    const keepAlive = (cookie = '') =>
      `GET /rest/Employee(1) HTTP/1.1\r\nHost: localhost\r\n${cookie}\r\n`
    const dated = (text: string) => text.replace(/\r\nDate: [^\r]+/g, '\r\nDate: D')
    const body =
      '{"__entityModel":"Employee","__DATACLASS":"Employee","__KEY":"1",' +
      '"__TIMESTAMP":"2024-01-01T00:00:00.000Z","__STAMP":1,"ID":1,"lastName":"Smith"}'
    const reply = (cookie: string) =>
      'HTTP/1.1 200 OK\r\n' +
      'content-type: application/json; charset=utf-8\r\n' +
      'x-content-type-options: nosniff\r\n' +
      cookie +
      `content-length: ${body.length}\r\n` +
      'Date: D\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n' +
      body
    const newSession = (id: string) =>
      `set-cookie: 4DSID_shop=${id}; Path=/; HttpOnly; SameSite=Strict\r\n`
    expect(dated(await raw(port, keepAlive(), { keepAlive: true }))).toBe(reply(newSession('S1')))
    // Each request without a cookie opens its own session, as the real server does.
    expect(dated(await raw(port, keepAlive(), { keepAlive: true }))).toBe(reply(newSession('S2')))
    // The cookie sent back resumes that session: nothing to set.
    expect(
      dated(await raw(port, keepAlive('Cookie: 4DSID_shop=S1\r\n'), { keepAlive: true })),
    ).toBe(reply(''))
  })

  it('delivers the session cookie, and keeps the session when it comes back', async () => {
    const { base } = await listen(toNodeListener(createRestHandler(datastore())))
    const first = await fetch(`${base}/rest/$catalog`)
    expect(first.headers.getSetCookie()).toEqual([
      '4DSID_shop=S1; Path=/; HttpOnly; SameSite=Strict',
    ])
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
    expect(parseRaw(await raw(port, get('/rest/$getWebForm'))).statusLine).toBe(
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

  it('hands a POST body to the core: $method=update creates the entity', async () => {
    const { base } = await listen(toNodeListener(createRestHandler(datastore())))
    const res = await fetch(`${base}/rest/Employee?$method=update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ID: 2, lastName: 'New' }),
    })
    expect(res.status).toBe(200)
    expect(JSON.parse(await res.text())).toMatchObject({
      __STATUS: { success: true },
      lastName: 'New',
    })
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

  it('says Connection: close on the replies it writes while `closing` says so, not before', async () => {
    let stopping = false
    const listener = toNodeListener(createRestHandler(datastore()), { closing: () => stopping })
    const { base } = await listen(listener)
    const before = await fetch(`${base}/rest/Employee(1)`)
    stopping = true
    const after = await fetch(`${base}/rest/Employee(1)`)
    const refused = await fetch(`${base}/rest/Nobody`)
    expect([before, after, refused].map((r) => [r.status, r.headers.get('connection')])).toEqual([
      [200, 'keep-alive'],
      [200, 'close'],
      [404, 'close'],
    ])
  })
})

describe('toNodeListener: replies given later (async function calls)', () => {
  it('counts them, and drops one whose client went away: nothing written, nothing refused', async () => {
    const rest = createRestHandler(datastore())
    const later = deferred<RestReply>()
    const called = deferred<void>()
    const refused: unknown[] = []
    const listener = toNodeListener({
      ...rest,
      respond: () => {
        called.resolve()
        return later.promise
      },
      refuse: (error) => {
        refused.push(error)
        return rest.refuse(error)
      },
    })
    let response: ServerResponse | undefined
    const closed: Promise<void>[] = []
    const { port } = await listen(
      (req, res) => {
        response = res
        listener(req, res)
      },
      (server) =>
        server.on('connection', (s: Socket) => closed.push(new Promise((r) => s.once('close', r)))),
    )
    const client = connect(port, '127.0.0.1')
    client.on('error', () => {})
    client.write('GET /rest/Employee(1) HTTP/1.1\r\nHost: x\r\n\r\n')
    await called.promise
    expect(listener.pendingReplies).toBe(1)
    client.destroy()
    await closed[0]
    later.resolve(stubReply('too late'))
    // The listener's handlers were attached first: they have run once this await resumes.
    await later.promise
    expect(listener.pendingReplies).toBe(0)
    expect([response!.headersSent, response!.destroyed]).toEqual([false, true])
    expect(refused).toEqual([])
  })

  it('answers a reply node cannot write (a bad header value) 500, at once or later', async () => {
    const seen: unknown[] = []
    const rest = createRestHandler(datastore(), { onInternalError: (e) => seen.push(e) })
    const bad: RestReply = {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-bad': 'line\nbreak' },
      body: '{"a long body, not the length of the error":true}',
    }
    const { port } = await listen(
      toNodeListener({
        ...rest,
        respond: (request) => (request.path === '/later' ? Promise.resolve(bad) : bad),
      }),
    )
    for (const target of ['/now', '/later']) {
      const answer = parseRaw(await raw(port, get(target)))
      expect(answer.statusLine, target).toBe('HTTP/1.1 500 Internal Server Error')
      expect(answer.headers.has('x-bad'), target).toBe(false)
      expect(firstError(answer), target).toMatchObject({ errCode: 9099 })
    }
    expect(seen.map((e) => (e as NodeJS.ErrnoException).code)).toEqual([
      'ERR_INVALID_CHAR',
      'ERR_INVALID_CHAR',
    ])
  })
})

describe('toNodeListener: what is served comes from the request line', () => {
  it('never takes the path from the Host header', async () => {
    const { port } = await listen(toNodeListener(createRestHandler(datastore())))
    // The URL was once built as `http://${host}` + target: this Host made /anything read Employee 1.
    const hostile = parseRaw(await raw(port, get('/anything', 'x/rest/Employee(1)#')))
    expect(hostile.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(firstError(hostile)).toEqual({
      message:
        'The URL "/anything" is malformed: its Host header "x/rest/Employee(1)#" is not a host',
      componentSignature: 'dbmg',
      errCode: 1806,
    })
    // A well-formed Host, whatever its name, serves what the request line asks for and only that.
    for (const host of ['x', 'evil.example:81', '[::1]:1']) {
      const employee = parseRaw(await raw(port, get('/rest/Employee(1)', host)))
      expect(JSON.parse(employee.body)).toMatchObject({ __KEY: '1', lastName: 'Smith' })
      const other = parseRaw(await raw(port, get('/anything', host)))
      expect(firstError(other)).toMatchObject({
        errCode: 9031,
        message: 'Nothing is served at "/anything"',
      })
    }
    // HTTP/1.0 needs no Host at all.
    const old = parseRaw(await raw(port, 'GET /rest/Employee(1) HTTP/1.0\r\n\r\n'))
    expect(old.statusLine).toBe('HTTP/1.1 200 OK')
  })

  it('answers TRACE and every other method it does not use with 405, Allow and __ERROR', async () => {
    const { port } = await listen(toNodeListener(createRestHandler(datastore())))
    for (const method of ['TRACE', 'PUT', 'DELETE', 'PATCH', 'PROPFIND']) {
      const answer = parseRaw(
        await raw(
          port,
          `${method} /rest/Employee(1) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      )
      expect(answer.statusLine).toBe('HTTP/1.1 405 Method Not Allowed')
      expect(answer.headers.get('allow')).toBe('GET, HEAD, POST')
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(JSON.parse(answer.body)).toEqual({
        __ERROR: [
          {
            message: `The ${method} method is not used by the REST interface (it answers GET, HEAD, POST)`,
            componentSignature: 'enti',
            errCode: 9032,
          },
        ],
      })
    }
  })
})

describe('toNodeListener: request bodies', () => {
  const post = (headers: string, body = '') =>
    `POST /rest/Employee HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n${body}`
  const tooLarge = {
    message: 'The request body exceeds the limit of 1000 bytes',
    componentSignature: 'enti',
    errCode: 9033,
  }

  it('refuses a body whose Content-Length passes the limit with 413, reading none of it', async () => {
    const { port } = await listen(
      toNodeListener(createRestHandler(datastore(), { maxBodyBytes: 1000 })),
    )
    // Ten megabytes are announced, eleven bytes sent, and the connection left open: the answer
    // comes at once, so the server did not wait for (or hold) the body.
    const answer = parseRaw(
      await rawOpen(port, post('Content-Length: 10000000\r\n', '{"lastName"')),
    )
    expect(answer.statusLine).toBe('HTTP/1.1 413 Payload Too Large')
    expect(answer.headers.get('connection')).toBe('close')
    expect(JSON.parse(answer.body)).toEqual({ __ERROR: [tooLarge] })
  })

  // webServerConfig.md, "Maximum Request Size": 2,000,000 bytes by default, past it refused.
  it('takes a body up to 4D’s maximum request size by default, 2,000,000 bytes; past it 413', async () => {
    const { port, base } = await listen(toNodeListener(createRestHandler(datastore())))
    const body = (bytes: number) => {
      const text = JSON.stringify({ ID: 2, lastName: '' })
      return text.replace('""', `"${'x'.repeat(bytes - text.length)}"`)
    }
    const at = await fetch(`${base}/rest/Employee?$method=update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(2_000_000),
    })
    expect(at.status).toBe(200)
    const answer = parseRaw(await rawOpen(port, post('Content-Length: 2000001\r\n', '{')))
    expect(answer.statusLine).toBe('HTTP/1.1 413 Payload Too Large')
    expect(JSON.parse(answer.body).__ERROR[0]).toMatchObject({
      errCode: 9033,
      message: 'The request body exceeds the limit of 2000000 bytes',
    })
  })

  it('stops reading a chunked body at the limit and answers 413 before its end', async () => {
    const { port } = await listen(
      toNodeListener(createRestHandler(datastore(), { maxBodyBytes: 1000 })),
    )
    const chunk = 'x'.repeat(600)
    // Two chunks of 600 bytes, and no last chunk: the body never ends.
    const request = post('Transfer-Encoding: chunked\r\n', `258\r\n${chunk}\r\n258\r\n${chunk}\r\n`)
    const answer = parseRaw(await rawOpen(port, request))
    expect(answer.statusLine).toBe('HTTP/1.1 413 Payload Too Large')
    expect(JSON.parse(answer.body)).toEqual({ __ERROR: [tooLarge] })
  })

  it('hands a body within the limit to the core, read whole, by length or chunked', async () => {
    const seen: RestRequest[] = []
    const rest = createRestHandler(datastore(), { maxBodyBytes: 1000 })
    const { port } = await listen(
      toNodeListener({
        ...rest,
        respond: (request) => {
          seen.push(request)
          return rest.respond(request)
        },
      }),
    )
    const body = JSON.stringify({ lastName: 'Ünal', pad: 'y'.repeat(900) })
    const bytes = Buffer.byteLength(body)
    const byLength = parseRaw(
      await raw(port, post(`Content-Length: ${bytes}\r\nConnection: close\r\n`, body)),
    )
    // The body is read whole; a POST without $method is then refused (1813), nothing written.
    expect(byLength.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(firstError(byLength).errCode).toBe(1813)
    const bodyBytes = Buffer.from(body)
    const chunk = (part: Buffer) =>
      Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])
    const chunked = parseRaw(
      await raw(
        port,
        Buffer.concat([
          Buffer.from(post('Transfer-Encoding: chunked\r\nConnection: close\r\n')),
          chunk(bodyBytes.subarray(0, 500)),
          chunk(bodyBytes.subarray(500)),
          Buffer.from('0\r\n\r\n'),
        ]),
      ),
    )
    expect(chunked.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(seen.map((r) => Buffer.from(r.body as Uint8Array).toString('utf8'))).toEqual([
      body,
      body,
    ])
  })
})

describe('toNodeListener: files sent as raw bytes', () => {
  const upload = (headers: string, body = '') =>
    `POST /rest/$upload?$binary=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n${headers}\r\n${body}`

  it('reads an upload within maxUploadBytes, past maxBodyBytes; past it 413 before reading', async () => {
    const rest = createRestHandler(datastore(), { maxBodyBytes: 1000, maxUploadBytes: 3000 })
    const { port } = await listen(toNodeListener(rest))
    const file = 'x'.repeat(2500)
    const taken = parseRaw(
      await raw(port, upload(`Content-Length: ${file.length}\r\nConnection: close\r\n`, file)),
    )
    expect(taken.statusLine).toBe('HTTP/1.1 200 OK')
    expect(JSON.parse(taken.body).ID).toMatch(/^[0-9A-F]{32}$/)
    const refused = parseRaw(await rawOpen(port, upload('Content-Length: 10000000\r\n', 'xx')))
    expect(refused.statusLine).toBe('HTTP/1.1 413 Payload Too Large')
    expect(firstError(refused).message).toBe('The request body exceeds the limit of 3000 bytes')
  })
})

describe('clientErrorListener', () => {
  it('answers a request head past maxHeaderSize with 431 and an __ERROR body', async () => {
    const rest = createRestHandler(datastore())
    const { port } = await listen(
      toNodeListener(rest),
      (server) => server.on('clientError', clientErrorListener(rest, { maxHeaderBytes: 1024 })),
      1024,
    )
    const answer = parseRaw(
      await raw(
        port,
        `GET /rest/$catalog HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(2000)}\r\n\r\n`,
      ),
    )
    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(answer.headers.get('connection')).toBe('close')
    expect(JSON.parse(answer.body)).toEqual({
      __ERROR: [
        {
          message: 'The request line and headers exceed the limit of 1024 bytes',
          componentSignature: 'enti',
          errCode: 9034,
        },
      ],
    })
  })

  it("answers a request not received whole within the server's requestTimeout with 408 and an __ERROR body", async () => {
    const rest = createRestHandler(datastore())
    // Short, so that the test does not wait Node's 300 s; checked every 50 ms.
    const timeouts = { headersTimeout: 200, requestTimeout: 200, connectionsCheckingInterval: 50 }
    const server = createServer(timeouts, toNodeListener(rest))
    server.on('clientError', clientErrorListener(rest))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    // A head that never ends.
    const answer = parseRaw(await rawOpen(port, 'GET /rest/$catalog HTTP/1.1\r\nHost: x\r\n'))
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout')
    expect(answer.headers.get('connection')).toBe('close')
    expect(firstError(answer)).toMatchObject({ errCode: 9039 })
  })

  it('answers bytes that are not HTTP with 400 and an __ERROR body', async () => {
    const rest = createRestHandler(datastore())
    const { port } = await listen(toNodeListener(rest), (server) =>
      server.on('clientError', clientErrorListener(rest)),
    )
    const answer = parseRaw(await raw(port, 'HELLO THERE\r\n\r\n'))
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(firstError(answer)).toMatchObject({ errCode: 9035 })
    expect(firstError(answer).message).toMatch(/^The request is not valid HTTP \(HPE_[A-Z_]+\)$/)
  })
})
