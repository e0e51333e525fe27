/**
 * The forward link on real sockets (a Unix socket and TCP on loopback): what travels arrives
 * whole, and each failure says whether the write may have run.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  ForwardFailed,
  listenForWrites,
  NotWriter,
  WriteSender,
  type WriteListener,
} from './forward-link.js'
import {
  fromForwarded,
  fromForwardedReply,
  toForwarded,
  toForwardedReply,
  type ForwardedReply,
  type ForwardedWrite,
} from './forwarded.js'

const dir = mkdtempSync(join(tmpdir(), 'entistore-forward-'))
const closing: (() => unknown)[] = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let sockets = 0
const listen = async (
  answer: (w: ForwardedWrite) => Promise<ForwardedReply>,
  over: 'unix' | 'tcp' = 'unix',
  extra: { maxBytes?: number } = {},
): Promise<WriteListener> => {
  const address = over === 'unix' ? `unix:${join(dir, `w${++sockets}.sock`)}` : 'http://127.0.0.1:0'
  const listener = await listenForWrites({ address, token: 'secret', answer, ...extra })
  closing.push(() => listener.close())
  return listener
}
const sender = (timeoutMs?: number) => {
  const s = new WriteSender(timeoutMs === undefined ? {} : { timeoutMs })
  closing.push(() => s.close())
  return s
}
const failure = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(e).toBeInstanceOf(ForwardFailed)
  return e as ForwardFailed
}

describe('the forward link', () => {
  it.each(['unix', 'tcp'] as const)(
    'carries a write and its reply whole over %s: bytes, text, headers, cookies',
    async (over) => {
      const bytes = new Uint8Array([0, 1, 2, 250, 255])
      let seen: ReturnType<typeof fromForwarded> | undefined
      const listener = await listen(async (write) => {
        seen = fromForwarded(write)
        return toForwardedReply(
          {
            status: 201,
            headers: { 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/json' },
            body: ['{"ok":', 'true}'],
          },
          42,
        )
      }, over)
      const write = toForwarded('p1:7', {
        method: 'POST',
        path: '/rest/Employee',
        query: '%24method=update',
        headers: { cookie: '4DSID_x=abc', 'content-type': 'image/png', absent: undefined },
        body: bytes,
        remoteAddress: '10.0.0.9',
      })
      const reply = await sender().send(listener.address, 'secret', write)
      expect(seen).toEqual({
        method: 'POST',
        path: '/rest/Employee',
        query: '%24method=update',
        headers: { cookie: '4DSID_x=abc', 'content-type': 'image/png' },
        body: bytes,
        remoteAddress: '10.0.0.9',
      })
      expect(reply.at).toBe(42)
      expect(fromForwardedReply(reply)).toEqual({
        status: 201,
        headers: { 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/json' },
        body: '{"ok":true}',
      })
    },
  )

  it('a process that is not the writer sends the write back unrun: refused', async () => {
    const listener = await listen(() => Promise.reject(new NotWriter('fenced at term 3')))
    const write = toForwarded('p1:1', { method: 'POST', path: '/rest/A', query: '', headers: {} })
    const e = await failure(sender().send(listener.address, 'secret', write))
    expect(e.outcome).toBe('refused')
    expect(e.message).toMatch(/409.*fenced at term 3/)
  })

  it('refuses a wrong token and a write over the bound, running neither', async () => {
    let ran = 0
    const listener = await listen(
      async () => {
        ran++
        return toForwardedReply({ status: 200, headers: {}, body: null }, 1)
      },
      'tcp',
      { maxBytes: 1000 },
    )
    const small = toForwarded('p:1', { method: 'POST', path: '/rest/A', query: '', headers: {} })
    expect((await failure(sender().send(listener.address, 'guess', small))).outcome).toBe('refused')
    const big = toForwarded('p:2', {
      method: 'POST',
      path: '/rest/A',
      query: '',
      headers: {},
      body: 'x'.repeat(5000),
    })
    const e = await failure(sender().send(listener.address, 'secret', big))
    expect(['refused', 'in-doubt']).toContain(e.outcome)
    expect(ran).toBe(0)
  })

  it('nobody listening: unsent, never applied', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port
        s.close(() => resolve(p))
      })
    })
    const write = toForwarded('p:1', { method: 'POST', path: '/rest/A', query: '', headers: {} })
    const tcp = await failure(sender().send(`http://127.0.0.1:${port}`, 'secret', write))
    expect(tcp.outcome).toBe('unsent')
    const unix = await failure(sender().send(`unix:${join(dir, 'none.sock')}`, 'secret', write))
    expect(unix.outcome).toBe('unsent')
  })

  it('an answer that never comes, or a writer that dies while it runs: in doubt', async () => {
    let release: () => void = () => undefined
    const stuck = await listen(
      () =>
        new Promise<ForwardedReply>((resolve) => {
          release = () => resolve(toForwardedReply({ status: 200, headers: {}, body: null }, 1))
        }),
    )
    const write = toForwarded('p:1', { method: 'POST', path: '/rest/A', query: '', headers: {} })
    const late = await failure(sender(200).send(stuck.address, 'secret', write))
    expect(late.outcome).toBe('in-doubt')
    release()
    const dying = await listen(async () => {
      await dying.close() // the writer goes away with the write in hand
      return new Promise<ForwardedReply>(() => undefined)
    })
    expect((await failure(sender().send(dying.address, 'secret', write))).outcome).toBe('in-doubt')
  })

  it('writes sent in one turn travel in one request, each told its own outcome', async () => {
    // A writer by hand: what arrives is one array; one write is refused, one fails, one runs.
    const bodies: unknown[] = []
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const writes = JSON.parse(Buffer.concat(chunks).toString()) as ForwardedWrite[]
        bodies.push(writes.map((w) => w.id))
        const reply = toForwardedReply({ status: 200, headers: {}, body: 'done' }, 9)
        res.end(JSON.stringify([{ reply }, { refused: 'fenced at term 4' }, { failed: 'boom' }]))
      })
    })
    const path = join(dir, `w${++sockets}.sock`)
    await new Promise<void>((resolve) => server.listen(path, resolve))
    closing.push(() => new Promise((resolve) => server.close(resolve)))
    const s = sender()
    const write = (id: string) =>
      toForwarded(id, { method: 'POST', path: '/rest/A', query: '', headers: {} })
    const [ran, refused, failed] = await Promise.allSettled(
      ['p:1', 'p:2', 'p:3'].map((id) => s.send(`unix:${path}`, 'secret', write(id))),
    )
    expect(bodies).toEqual([['p:1', 'p:2', 'p:3']])
    expect(ran).toMatchObject({ status: 'fulfilled', value: { at: 9, body: { text: 'done' } } })
    expect(refused).toMatchObject({ status: 'rejected', reason: { outcome: 'refused' } })
    expect(String((refused as PromiseRejectedResult).reason)).toMatch(/409.*fenced at term 4/)
    expect(failed).toMatchObject({ status: 'rejected', reason: { outcome: 'in-doubt' } })
    // The next turn makes the next request.
    await s.send(`unix:${path}`, 'secret', write('p:4')).catch(() => undefined)
    expect(bodies).toEqual([['p:1', 'p:2', 'p:3'], ['p:4']])
  })

  it('answers a batch write by write, and one write alone as before', async () => {
    const listener = await listen(async (write) => {
      if (write.id === 'p:2') throw new NotWriter('not the writer')
      if (write.id === 'p:3') throw new Error('lost its way')
      return toForwardedReply({ status: 201, headers: {}, body: write.id }, 5)
    }, 'tcp')
    const post = async (body: unknown) => {
      const res = await fetch(new URL('/forward', listener.address), {
        method: 'POST',
        headers: { authorization: 'Bearer secret' },
        body: JSON.stringify(body),
      })
      return { status: res.status, body: (await res.json()) as unknown }
    }
    const write = (id: string) =>
      toForwarded(id, { method: 'POST', path: '/rest/A', query: '', headers: {} })
    expect(await post([write('p:1'), write('p:2'), write('p:3')])).toEqual({
      status: 200,
      body: [
        { reply: { status: 201, headers: {}, body: { text: 'p:1' }, at: 5 } },
        { refused: 'not the writer' },
        { failed: 'lost its way' },
      ],
    })
    expect(await post(write('p:1'))).toEqual({
      status: 200,
      body: { status: 201, headers: {}, body: { text: 'p:1' }, at: 5 },
    })
    expect(await post(write('p:2'))).toEqual({ status: 409, body: { error: 'not the writer' } })
  })

  it('only unix: and http: addresses', async () => {
    const write = toForwarded('p:1', { method: 'POST', path: '/rest/A', query: '', headers: {} })
    expect(() => sender().send('https://x:1', 't', write)).toThrow(TypeError)
  })
})
