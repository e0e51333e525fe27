/**
 * @module The suite of replies given later, which every transport runs: `respond` answers a call of
 * an async function with a Promise, and the transport writes that reply when it settles. A stub in
 * front of the company handler answers `<basePath>/later/<name>` with a Promise the test settles
 * (no timers: the test decides when), `<basePath>/now/<name>` synchronously with a stub reply, and
 * everything else through the real handler, synchronously. Checked over real HTTP: the status,
 * headers and body of a pending reply arrive intact (a lazy body of many chunks, bytes, HEAD), other
 * requests are answered while it is pending, a Promise that rejects becomes the core's 500, a
 * keep-alive connection that pipelines its requests gets its replies in request order, and a client
 * gone meanwhile costs nothing.
 */
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MountableRest } from '../adapters/mount.js'
import type { RestReply, RestRequest } from '../exchange.js'
import { CHUNK_CHARS } from '../serialize/json-chunks.js'
import { companyRest, json, send, type Served, type StartServer } from './conformance.fixture.js'

/** A Promise and the functions that settle it. */
export interface Deferred<T> {
  readonly promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok
    reject = fail
  })
  return { promise, resolve, reject }
}

/** A request `respond` answered with a pending reply, and that reply, for the test to settle. */
export interface PendingCall {
  readonly request: RestRequest
  readonly reply: Deferred<RestReply>
}

/** The company handler behind a stub that answers `later/<name>` when the test says so. */
export interface PendingRest extends MountableRest {
  /** Resolves once `respond` was called for `<basePath>/later/<name>`. */
  called(name: string): Promise<PendingCall>
  /** What `refuse` was given, in order. */
  readonly refused: unknown[]
}

export function pendingRest(basePath = '/rest'): PendingRest {
  const rest = companyRest(basePath)
  const calls = new Map<string, Deferred<PendingCall>>()
  const call = (name: string): Deferred<PendingCall> => {
    let entry = calls.get(name)
    if (entry === undefined) calls.set(name, (entry = deferred()))
    return entry
  }
  const refused: unknown[] = []
  const later = `${basePath}/later/`
  const now = `${basePath}/now/`
  return {
    ...rest,
    respond(request) {
      if (request.path.startsWith(later)) {
        const reply = deferred<RestReply>()
        call(request.path.slice(later.length)).resolve({ request, reply })
        return reply.promise
      }
      if (request.path.startsWith(now)) return stubReply(request.path.slice(now.length))
      return rest.respond(request)
    },
    refuse(error) {
      refused.push(error)
      return rest.refuse(error)
    },
    called: (name) => call(name).promise,
    refused,
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** A small JSON reply that says which request it answers, with `status`. */
export function stubReply(name: string, status = 200): RestReply {
  return {
    status,
    headers: { 'content-type': JSON_TYPE, 'x-content-type-options': 'nosniff' },
    body: JSON.stringify({ name }),
  }
}

/** The rows of the big reply: many chunks' worth of JSON. */
const ROWS = Array.from({ length: 8 * 64 }, (_, i) => `row ${i} `.padEnd(1000, '.'))
const BIG_TEXT = JSON.stringify({ rows: ROWS })

/** A reply bigger than many chunks, as a lazy sequence: its text is `BIG_TEXT`. */
function bigReply(): RestReply {
  function* chunks(): Iterable<string> {
    yield '{"rows":['
    for (let i = 0; i < ROWS.length; i++) yield (i === 0 ? '' : ',') + JSON.stringify(ROWS[i])
    yield ']}'
  }
  return {
    status: 201,
    headers: {
      'content-type': JSON_TYPE,
      'x-content-type-options': 'nosniff',
      'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
    },
    body: chunks(),
  }
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255])

export interface PendingSuiteOptions {
  /** The handler's basePath (the public path). @default '/rest' */
  readonly basePath?: string
}

/**
 * Runs the suite for one transport: `start` serves the handler it is given (a `PendingRest`) through
 * it, on a free port of 127.0.0.1.
 */
export function pendingReplies(
  name: string,
  start: StartServer,
  options: PendingSuiteOptions = {},
): void {
  const base = options.basePath ?? '/rest'
  describe(`${name}: replies given later (async function calls)`, () => {
    let rest: PendingRest
    let served: Served
    beforeAll(async () => {
      rest = pendingRest(base)
      served = await start(rest)
    })
    afterAll(async () => {
      await served?.close()
    })

    it('writes a pending reply when it settles, intact, and answers others meanwhile', async () => {
      const big = send(served.url, { method: 'POST', target: `${base}/later/big`, body: '{}' })
      const bytes = send(served.url, { target: `${base}/later/bytes` })
      const head = send(served.url, { method: 'HEAD', target: `${base}/later/head` })
      const [bigCall, bytesCall, headCall] = await Promise.all(
        ['big', 'bytes', 'head'].map((n) => rest.called(n)),
      )
      // The body was read before `respond` was called, the query and headers handed over.
      const body = bigCall!.request.body
      const sent = typeof body === 'string' ? body : Buffer.from(body ?? []).toString('utf8')
      expect([bigCall!.request.method, sent]).toEqual(['POST', '{}'])

      // While three replies are pending, reads are answered at once, by the real handler.
      const read = await send(served.url, { target: `${base}/Employee(1)` })
      expect([read.status, json(read).lastName]).toEqual([200, 'Silva'])

      bytesCall!.reply.resolve({
        status: 200,
        headers: {
          'content-type': 'image/png',
          'content-disposition': 'inline; filename="logo.png"',
          'x-content-type-options': 'nosniff',
        },
        body: PNG,
      })
      bigCall!.reply.resolve(bigReply())
      headCall!.reply.resolve({ ...stubReply('head', 404), body: null })

      const answered = await bytes
      expect(answered.status).toBe(200)
      expect(answered.headers['content-type']).toBe('image/png')
      expect(answered.headers['content-disposition']).toBe('inline; filename="logo.png"')
      expect(answered.body.equals(Buffer.from(PNG))).toBe(true)

      const whole = await big
      expect(whole.status).toBe(201)
      expect(whole.headers['content-type']).toBe(JSON_TYPE)
      expect(whole.headers['x-content-type-options']).toBe('nosniff')
      expect(whole.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/'])
      expect(whole.body.length).toBeGreaterThan(4 * CHUNK_CHARS)
      expect(whole.body.toString('utf8')).toBe(BIG_TEXT)

      const headers = await head
      expect([headers.status, headers.headers['content-type'], headers.body.length]).toEqual([
        404,
        JSON_TYPE,
        0,
      ])
    })

    it('answers a pending reply that rejects with the 500 __ERROR of refuse', async () => {
      const answer = send(served.url, { target: `${base}/later/broken` })
      const broken = new Error('an async function broke the promise')
      ;(await rest.called('broken')).reply.reject(broken)
      const refused = await answer
      expect(refused.status).toBe(500)
      expect(refused.headers['content-type']).toBe(JSON_TYPE)
      expect(json(refused)).toEqual({
        __ERROR: [
          {
            message: 'Internal error: the server could not answer this request',
            componentSignature: 'enti',
            errCode: 9099,
          },
        ],
      })
      expect(rest.refused).toContain(broken)
    })

    it('keeps the replies of a pipelined keep-alive connection in request order', async () => {
      const { hostname, port } = new URL(served.url)
      const socket = connect(Number(port), hostname)
      let text = ''
      socket.setEncoding('latin1')
      socket.on('data', (part: string) => (text += part))
      const ended = new Promise<void>((resolve, reject) => {
        socket.on('end', resolve)
        socket.on('error', reject)
      })
      const get = (target: string, last = false) =>
        `GET ${target} HTTP/1.1\r\nHost: x\r\n${last ? 'Connection: close\r\n' : ''}\r\n`
      // Four requests in one write: two answered later, two at once, the last one closing.
      socket.write(
        get(`${base}/later/first`) +
          get(`${base}/now/second`) +
          get(`${base}/later/third`) +
          get(`${base}/now/fourth`, true),
      )
      const [first, third] = await Promise.all([rest.called('first'), rest.called('third')])
      // The later request settles first: its reply must still wait for the first one's.
      third!.reply.resolve(stubReply('third', 202))
      await third!.reply.promise
      await new Promise((resolve) => setImmediate(resolve))
      first!.reply.resolve(stubReply('first', 201))
      await ended
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))
      expect(statuses).toEqual([201, 200, 202, 200])
      const names = ['first', 'second', 'third', 'fourth'].map((n) => text.indexOf(`"${n}"`))
      expect(names.every((at) => at >= 0)).toBe(true)
      expect([...names].sort((a, b) => a - b)).toEqual(names)
    })

    it('goes on serving when the client of a pending reply has gone', async () => {
      const { hostname, port } = new URL(served.url)
      const socket = connect(Number(port), hostname)
      socket.on('error', () => {})
      socket.write(`GET ${base}/later/gone HTTP/1.1\r\nHost: x\r\n\r\n`)
      const gone = await rest.called('gone')
      const closed = new Promise((resolve) => socket.once('close', resolve))
      socket.destroy()
      await closed
      gone.reply.resolve(bigReply())
      await gone.reply.promise
      const after = await send(served.url, { target: `${base}/now/after` })
      expect([after.status, json(after)]).toEqual([200, { name: 'after' }])
    })
  })
}
