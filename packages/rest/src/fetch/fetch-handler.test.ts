import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { withCalculated } from '../calculated.fixture.js'
import type { RestReply, RestRequest } from '../exchange.js'
import { createRestHandler } from '../handler.js'
import { deferred } from '../node/pending.fixture.js'
import { CHUNK_CHARS } from '../serialize/json-chunks.js'
import { syncReply } from '../sync-reply.fixture.js'
import { toFetchHandler } from './fetch-handler.js'

function setup(maxBodyBytes = 1000) {
  const ds = createDatastore(
    {
      __NAME: 'shop',
      dataClasses: [
        {
          name: 'Item',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'name', type: 'string' },
          ],
        },
      ],
    },
    {
      data: {
        Item: Array.from({ length: 3000 }, (_, i) => ({ ID: i + 1, name: `item ${i + 1}` })),
      } as unknown as DataFile,
      clock: new ManualClock(),
    },
  )
  const rest = createRestHandler(ds, { maxBodyBytes })
  const seen: RestRequest[] = []
  const fetch = toFetchHandler({
    ...rest,
    respond: (request) => {
      seen.push(request)
      return rest.respond(request)
    },
  })
  return { rest, fetch, seen }
}

const errCode = async (res: Response) =>
  ((await res.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode

/** A body stream of `parts`, with no Content-Length: the size is found only by reading. */
function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let i = 0
  return new ReadableStream({
    pull(controller) {
      if (i < parts.length) controller.enqueue(encoder.encode(parts[i++]))
      else controller.close()
    },
  })
}

const post = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request('http://localhost/rest/Item', {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  } as RequestInit)

describe('toFetchHandler', () => {
  it('hands the core the path and query as written, and the headers', async () => {
    const { fetch, seen } = setup()
    await fetch(
      new Request('http://h:8080/rest/Item(1)?$top=1&x=%20#frag', { headers: { cookie: 'a=b' } }),
    )
    expect(seen[0]).toMatchObject({
      method: 'GET',
      path: '/rest/Item(1)',
      query: '$top=1&x=%20',
      headers: { cookie: 'a=b' },
      body: undefined,
    })
  })

  it('reads a POST body within the limit and hands it to the core', async () => {
    const { fetch, seen } = setup()
    const res = await fetch(post(streamOf(['{"name":', '"new"}'])))
    // Read whole, then refused: a POST without $method writes nothing (1813).
    expect([res.status, await errCode(res)]).toEqual([400, 1813])
    expect(new TextDecoder().decode(seen[0]!.body as Uint8Array)).toBe('{"name":"new"}')
  })

  it('refuses a body past the limit with 413, by Content-Length or while reading', async () => {
    const { fetch, seen } = setup()
    const declared = await fetch(post('{}', { 'content-length': '5000' }))
    expect([declared.status, await errCode(declared)]).toEqual([413, 9033])
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(300))
      },
    })
    const streamed = await fetch(post(endless))
    expect([streamed.status, await errCode(streamed)]).toEqual([413, 9033])
    // Reading stopped at the first part past the limit: the endless body was not read to its end.
    expect(pulled).toBeLessThan(10)
    expect(seen).toEqual([])
  })

  it('reads a file POSTed to $upload within maxUploadBytes, not maxBodyBytes', async () => {
    const { rest } = setup()
    const fetch = toFetchHandler(rest)
    const upload = (body: string | ReadableStream<Uint8Array>, headers = {}) =>
      fetch(
        new Request('http://localhost/rest/$upload?$binary=true', {
          method: 'POST',
          body,
          headers,
          duplex: 'half',
        } as RequestInit),
      )
    const within = await upload(streamOf(['x'.repeat(900), 'y'.repeat(900)]))
    expect(within.status).toBe(200)
    expect(rest.bodyLimit('/rest/$upload')).toBe(16 * 1024 * 1024)
    const declared = await upload('{}', { 'content-length': String(16 * 1024 * 1024 + 1) })
    expect([declared.status, await errCode(declared)]).toEqual([413, 9033])
  })

  it('streams a big reply, pulling one chunk at a time', async () => {
    const { rest } = setup()
    const res = await rest.fetch(new Request('http://localhost/rest/Item?$top=3000'))
    const reader = res.body!.getReader()
    const sizes: number[] = []
    for (let next = await reader.read(); !next.done; next = await reader.read())
      sizes.push(next.value.length)
    expect(sizes.length).toBeGreaterThan(1)
    expect(sizes[0]).toBeGreaterThanOrEqual(CHUNK_CHARS)
  })
})

describe('toFetchHandler: replies given later (async function calls)', () => {
  it('awaits a pending reply, answering others meanwhile, and answers one that rejects 500', async () => {
    const { rest } = setup()
    const later = { ok: deferred<RestReply>(), broken: deferred<RestReply>() }
    const fetch = toFetchHandler({
      ...rest,
      respond: (request) =>
        request.path === '/rest/ok'
          ? later.ok.promise
          : request.path === '/rest/broken'
            ? later.broken.promise
            : rest.respond(request),
    })
    const ok = fetch(new Request('http://localhost/rest/ok'))
    const broken = fetch(new Request('http://localhost/rest/broken'))
    const now = await fetch(new Request('http://localhost/rest/Item(1)'))
    expect([now.status, ((await now.json()) as { name: string }).name]).toEqual([200, 'item 1'])

    const text = 'x'.repeat(3 * CHUNK_CHARS)
    later.ok.resolve({
      status: 201,
      headers: { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] },
      body: [text.slice(0, CHUNK_CHARS), text.slice(CHUNK_CHARS)],
    })
    later.broken.reject(new Error('rejected'))
    const answered = await ok
    expect(answered.status).toBe(201)
    expect(answered.headers.get('content-type')).toBe('text/plain')
    expect(answered.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(await answered.text()).toBe(text)
    const refused = await broken
    expect([refused.status, await errCode(refused)]).toEqual([500, 9099])
  })
})

describe('a big reply that fails past its first chunk', () => {
  it('errors the stream and reports the error once', async () => {
    const seen: unknown[] = []
    const ds = withCalculated(
      (e) => {
        if (e.get('ID') === 4000) throw new Error('render failed')
        return 1
      },
      { rows: 5000 },
    )
    const rest = createRestHandler(ds, { onInternalError: (e) => seen.push(e) })
    const res = await rest.request('/rest/T?$top=5000')
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow('render failed')
    expect((seen as Error[]).map((e) => e.message)).toEqual(['render failed'])
  })
})

describe('respond', () => {
  it('answers TRACE, CONNECT and unknown methods with 405 and Allow', () => {
    const { rest } = setup()
    for (const method of ['TRACE', 'CONNECT', 'FOO']) {
      const reply = syncReply(
        rest.respond({ method, path: '/rest/Item(1)', query: '', headers: {} }),
      )
      expect(reply.status).toBe(405)
      expect(reply.headers.allow).toBe('GET, HEAD, POST')
      expect(JSON.parse(reply.body as string).__ERROR[0].errCode).toBe(9032)
    }
  })

  it('answers a small selection as one text and a big one as a lazy sequence', () => {
    const { rest } = setup()
    const ask = (query: string) =>
      syncReply(rest.respond({ method: 'GET', path: '/rest/Item', query, headers: {} })).body
    expect(typeof ask('$top=10')).toBe('string')
    const big = ask('$top=3000')
    expect(typeof big).toBe('object')
    const text = [...(big as Iterable<string>)].join('')
    expect(JSON.parse(text).__SENT).toBe(3000)
  })

  it('reads the session cookie from a header given as a list', () => {
    const { rest } = setup()
    const first = syncReply(
      rest.respond({ method: 'GET', path: '/rest/$catalog', query: '', headers: {} }),
    )
    const cookie = String(first.headers['set-cookie']).split(';')[0]!
    const again = syncReply(
      rest.respond({
        method: 'GET',
        path: '/rest/$catalog',
        query: '',
        headers: { cookie: ['a=b', cookie] },
      }),
    )
    expect(again.headers['set-cookie']).toBeUndefined()
  })
})
