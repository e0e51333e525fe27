import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { DOCS, docsDatastore, until } from './docs.fixture.js'
import { toNodeListener } from './listener.js'

// Issue 11: work for a client that has gone away. A big reply is rendered a chunk at a time as the
// client reads (write-reply.ts): once the client closes its connection, no further chunk is taken
// and nothing is held for it.

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
})

describe('a client that closes its connection mid-reply', () => {
  it('stops the rendering: no further chunk is taken, nothing is held', async () => {
    let rendered = 0
    const ds = docsDatastore(() => ++rendered)
    const listener = toNodeListener(createRestHandler(ds), { writeTimeoutMs: 60_000 })
    const server = createServer(listener)
    servers.push(server)
    const closed: Promise<void>[] = []
    server.on('connection', (s: Socket) => closed.push(new Promise((r) => s.once('close', r))))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo

    // A client that asks for every Doc and does not read: the reply waits for it.
    const client = connect(port, '127.0.0.1')
    client.pause()
    client.write(`GET /rest/Doc?$top=${DOCS} HTTP/1.1\r\nHost: x\r\n\r\n`)
    await until(() => listener.stalledReplies === 1, 'the reply waits for its client')
    const before = rendered
    expect(before).toBeLessThan(DOCS)

    client.destroy()
    await closed[0]
    // Several turns of the event loop: a drain or a timer would render more by now.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(rendered).toBe(before)
    expect([listener.stalledReplies, listener.unsentBytes]).toEqual([0, 0])
  })
})
