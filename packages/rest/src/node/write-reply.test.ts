import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRestHandler } from '../handler.js'
import { DOCS, TEXT, docsDatastore, until } from './docs.fixture.js'
import { toNodeListener, type NodeListener, type NodeListenerOptions } from './listener.js'
import { Outbox, writeReply } from './write-reply.js'
import { CHUNK_CHARS } from '../serialize/json-chunks.js'

// Clients that ask for a big selection and then never read. Before replies were written with
// backpressure, each such client made the server build and hold its whole reply (ten clients of a
// 71 MB reply took a server from 185 MB to 1.6 GB). What is measured here is bytes held: what the
// listener counts, and what Node buffers for the sockets, never RSS over time.

function setup(options: NodeListenerOptions, failAt = 0, onInternalError?: (e: unknown) => void) {
  let rendered = 0
  const ds = docsDatastore(() => {
    if (++rendered === failAt) throw new Error('render failed')
    return rendered
  })
  const listener = toNodeListener(createRestHandler(ds, { onInternalError }), options)
  return { listener, rendered: () => rendered, ds }
}

const servers: Server[] = []
const clients: Socket[] = []

afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  }
})

/** A server side connection, and a promise of its end. */
interface Accepted {
  readonly socket: Socket
  readonly closed: Promise<void>
}

/** A server for `listener`, and the server side of each connection it accepted. */
async function listen(listener: NodeListener) {
  const server = createServer(listener)
  const accepted: Accepted[] = []
  server.on('connection', (socket: Socket) =>
    accepted.push({ socket, closed: new Promise((resolve) => socket.once('close', resolve)) }),
  )
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { port, base: `http://127.0.0.1:${port}`, accepted }
}

/** A client that asks for every Doc and never reads: its socket is paused before it connects. */
function stalledClient(port: number): Socket {
  const socket = connect(port, '127.0.0.1')
  socket.pause()
  socket.write(`GET /rest/Doc?$top=${DOCS} HTTP/1.1\r\nHost: x\r\n\r\n`)
  clients.push(socket)
  return socket
}

/** Resolves once `check()` holds; polls every 10 ms for at most 10 s. */

/** Reads everything a paused client was sent until the server closed the connection. */
function drain(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0
    socket.on('data', (d: Buffer) => (bytes += d.length))
    socket.on('close', () => resolve(bytes))
    socket.resume()
  })
}

// One chunk of about 64K characters, Node's 16 KB high-water mark and one entity of slack.
const HELD_PER_REPLY = 64 * 1024 + 16 * 1024 + 2 * 1024
const REPLY_BYTES = DOCS * (TEXT.length + 60)

describe('writing replies to clients that stop reading', () => {
  it('holds about one chunk per such client, and serves other clients meanwhile', async () => {
    const { listener, rendered } = setup({ writeTimeoutMs: 60_000 })
    const { port, base, accepted } = await listen(listener)
    for (let i = 0; i < 4; i++) stalledClient(port)
    await until(() => listener.stalledReplies === 4, 'four replies wait for their clients')

    expect(listener.unsentBytes).toBeGreaterThan(0)
    expect(listener.unsentBytes).toBeLessThanOrEqual(4 * HELD_PER_REPLY)
    const buffered = accepted.reduce((sum, a) => sum + a.socket.writableLength, 0)
    expect(buffered).toBeLessThanOrEqual(4 * HELD_PER_REPLY)
    // Only what the kernel took (a few MB per socket) was rendered, not four 20 MB replies.
    expect(rendered()).toBeLessThan(4 * DOCS * 0.6)

    const res = await fetch(`${base}/rest/Doc(7)`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { ID: number }).ID).toBe(7)
    expect(listener.stalledReplies).toBe(4)
  })

  it('reads the rows it has written and one chunk more, not the reply: what the socket took', async () => {
    // Issue 47: the reply held its page's 20,000 entities from the start (100,000 rows of the
    // company demo's Employee for each of ten such clients: 190 MB of 350).
    const { listener, rendered, ds } = setup({ writeTimeoutMs: 60_000 })
    const read = vi.spyOn(ds.dataClass('Doc'), 'entityAt')
    const { port, accepted } = await listen(listener)
    stalledClient(port)
    await until(() => listener.stalledReplies === 1, 'the reply waits for its client')
    const socket = accepted[0]!.socket
    // Each row is more than TEXT.length bytes: the rows the socket took, at most, and a chunk's.
    const took = Math.ceil(socket.bytesWritten / TEXT.length)
    const chunkRows = Math.ceil(CHUNK_CHARS / TEXT.length)
    expect(read.mock.calls.length).toBeLessThanOrEqual(took + chunkRows)
    expect(rendered()).toBeLessThanOrEqual(took + chunkRows)
    expect(socket.writableLength).toBeLessThanOrEqual(HELD_PER_REPLY)
    // And no more while it waits.
    const before = read.mock.calls.length
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(read.mock.calls.length).toBe(before)
  })

  it('drops a client that has not read for writeTimeoutMs', async () => {
    const { listener } = setup({ writeTimeoutMs: 100 })
    const { port, accepted } = await listen(listener)
    const client = stalledClient(port)
    await until(() => accepted.length === 1, 'the connection is accepted')
    await until(() => listener.stalledReplies === 1, 'the reply waits for its client')
    await accepted[0]!.closed
    expect([listener.stalledReplies, listener.unsentBytes]).toEqual([0, 0])
    // The client gets what was sent before the drop, then the end of the connection.
    expect(await drain(client)).toBeLessThan(REPLY_BYTES)
  })

  it('past maxUnsentBytes, drops the client that has waited longest, and serves readers', async () => {
    // Room for one waiting reply (at least one 64K chunk each), not two.
    const { listener } = setup({ writeTimeoutMs: 60_000, maxUnsentBytes: 100_000 })
    const { port, base, accepted } = await listen(listener)
    const first = stalledClient(port)
    await until(() => listener.stalledReplies === 1, 'the first reply waits for its client')
    stalledClient(port)
    await until(() => accepted.length === 2, 'the second connection is accepted')
    await accepted[0]!.closed
    // The second reply goes on being written (10 ms a turn) until its client's socket is full.
    await until(() => listener.stalledReplies === 1, 'the second reply waits for its client')
    expect(listener.unsentBytes).toBeLessThanOrEqual(100_000)
    expect(await drain(first)).toBeLessThan(REPLY_BYTES)
    // A client that reads waits a few milliseconds at a time for its 2 MB: it is not the one
    // dropped when its waits pass the budget; the client that stopped reading is.
    const res = await fetch(`${base}/rest/Doc?$top=2000`)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { __SENT: number }).__SENT).toBe(2000)
    // Whether the reader's waits passed the budget (then the second silent client was dropped)
    // depends on how fast the kernel took its bytes; either way at most that client still waits.
    expect(listener.stalledReplies).toBeLessThanOrEqual(1)
  })

  it('sends the whole reply to a client that reads slowly but within the timeout', async () => {
    const { listener } = setup({ writeTimeoutMs: 5_000 })
    const { port } = await listen(listener)
    const client = stalledClient(port)
    await until(() => listener.stalledReplies === 1, 'the reply waits for its client')
    // Read in bursts with pauses: every wait for `drain` ends before the timeout.
    let bytes = 0
    const done = new Promise<void>((resolve) => {
      client.on('data', (d: Buffer) => {
        bytes += d.length
        if (d.toString('latin1').endsWith('\r\n0\r\n\r\n')) resolve()
        client.pause()
        setTimeout(() => client.resume(), 1)
      })
    })
    client.resume()
    await done
    expect(bytes).toBeGreaterThan(REPLY_BYTES * 0.9)
    expect([listener.stalledReplies, listener.unsentBytes]).toEqual([0, 0])
  })

  it('cuts the reply short when an entity past the first chunk fails, and reports the error', async () => {
    const seen: unknown[] = []
    const { listener } = setup({}, 5_000, (e) => seen.push(e))
    const { base } = await listen(listener)
    // The status (200) is on its way when entity 5,000 fails: the reply can only be cut short,
    // which a client sees as a broken body, never as a complete one.
    const res = await fetch(`${base}/rest/Doc?$top=${DOCS}`)
    expect(res.status).toBe(200)
    await expect(res.text()).rejects.toThrow()
    expect((seen as Error[]).map((e) => e.message)).toEqual(['render failed'])
  })
})

describe('writeReply', () => {
  it("sends the reply's headers, the extra ones in place of the same names, and the length", async () => {
    const server = createServer((_req, res) =>
      writeReply(
        res,
        {
          status: 200,
          headers: { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'], connection: 'x' },
          body: 'héllo',
        },
        new Outbox(),
        { connection: 'close' },
      ),
    )
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const res = await fetch(`http://127.0.0.1:${port}/`)
    expect(res.headers.get('content-type')).toBe('text/plain')
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(res.headers.get('connection')).toBe('close')
    expect(res.headers.get('content-length')).toBe('6')
    expect(await res.text()).toBe('héllo')
  })
})
