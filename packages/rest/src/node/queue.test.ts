import { createServer } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { until } from './docs.fixture.js'
import { toNodeListener } from './listener.js'
import { closedAfterTest, destroyedAfterTest } from './serve.fixture.js'

// Issue 11: requests read while a long one held the event loop. They queue; those whose clients
// went away meanwhile are skipped, and the time the others waited counts against their budget.
// The datastore runs on a ManualClock that never moves: only the wall time waited can spend it.

const spin = (ms: number): void => {
  const end = performance.now() + ms
  while (performance.now() < end);
}

/** A connected socket and the text it has been sent. */
async function client(port: number): Promise<{ socket: Socket; text: () => string }> {
  const socket = connect(port, '127.0.0.1')
  destroyedAfterTest(socket)
  let text = ''
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')))
  socket.on('error', () => {})
  await new Promise((resolve) => socket.once('connect', resolve))
  return { socket, text: () => text }
}

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`

describe('requests read while a long one runs', () => {
  it('skips those whose clients went away, and counts the wait against the budget', async () => {
    let calls = 0
    // Runs while the long request holds the loop: the other clients send now.
    let whileHeld = (): void => {}
    const ds = createDatastore(
      {
        __NAME: 'docs',
        dataClasses: [
          {
            name: 'Doc',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'n', type: 'long' },
              { name: 'slow', kind: 'calculated', type: 'long' },
            ],
          },
        ],
      },
      {
        data: { Doc: [1, 2, 3, 4, 5].map((ID) => ({ ID, n: ID })) } as unknown as DataFile,
        clock: new ManualClock(),
        calculated: {
          Doc: {
            slow: () => {
              if (++calls === 1) whileHeld()
              spin(60)
              return 0
            },
          },
        },
      },
    )
    const listener = toNodeListener(createRestHandler(ds, { queryBudgetMs: 100 }))
    const server = createServer(listener)
    closedAfterTest(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo

    const scan = '/rest/Doc?$filter=slow=1'
    const first = await client(port)
    const leaving = await Promise.all([1, 2, 3].map(() => client(port)))
    const second = await client(port)
    const waiting = await client(port)
    const byKey = await client(port)
    whileHeld = () => {
      whileHeld = () => {}
      // Three clients ask for the same scan and leave. Then, in this order: one asks for the scan
      // and waits, one for a cheap query, one reads by key. Node reads them once the loop is free,
      // in the order they were sent, and queues them.
      for (const c of leaving) {
        c.socket.write(get(scan))
        c.socket.destroy()
      }
      second.socket.write(get(scan))
      waiting.socket.write(get('/rest/Doc?$filter=n>0'))
      byKey.socket.write(get('/rest/Doc(5)'))
    }
    first.socket.write(get(scan))

    // Five rows of 60 ms each: the ManualClock never moves, so neither scan is stopped.
    await until(() => second.text().includes('\r\n\r\n'), 'the second scan is answered')
    expect(first.text()).toMatch(/^HTTP\/1\.1 200 /)
    expect(second.text()).toMatch(/^HTTP\/1\.1 200 /)
    // The cheap query waited for the second scan, 300 ms, more than its 100 ms budget: it stops
    // at once. The read by key, which spends no budget, is answered.
    await until(() => byKey.text().includes('"ID":5'), 'the read by key is answered')
    expect(byKey.text()).toMatch(/^HTTP\/1\.1 200 /)
    expect(waiting.text()).toMatch(/^HTTP\/1\.1 400 /)
    expect(waiting.text()).toContain('9090')
    // The leaving clients were skipped: two scans of five rows, and Doc(5) rendered.
    expect(listener.abandonedRequests).toBe(3)
    expect(calls).toBe(11)
    expect(listener.queuedRequests).toBe(0)

    // Afterwards the loop is free: a request is answered at once again.
    const later = await client(port)
    later.socket.write(get('/rest/Doc(1)'))
    await until(() => later.text().includes('"ID":1'), 'a later read is answered')
  })
})
