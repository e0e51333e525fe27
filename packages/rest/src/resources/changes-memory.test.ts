/**
 * What an idle subscriber of the live feed costs (issue 50's goal: at most 20 KB each): the heap
 * that 1,000 idle streams over node:http hold on the server (the core's subscription, the stream,
 * node's response, and, since the clients run in the same process, their sockets too: an upper
 * bound), after a full garbage collection. And one write to a dataclass they all follow.
 */
import { connect, type Socket } from 'node:net'
import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { serveOnSocket } from '../node/serve.fixture.js'
import { feedDatastore, turnsUntil } from './changes.fixture.js'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void
const heapUsed = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const SUBSCRIBERS = 1000

describe('the live feed at 1,000 idle subscribers', () => {
  it('costs at most 20 KB of heap each, and every one closes with its connection', async () => {
    const { ds } = feedDatastore()
    const { base } = await serveOnSocket(ds)
    const port = Number(new URL(base).port)
    const before = heapUsed()
    const sockets: Socket[] = []
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const socket = connect(port, '127.0.0.1')
      socket.write('GET /rest/Employee/$changes HTTP/1.1\r\nHost: x\r\n\r\n')
      await new Promise((resolve) => socket.once('data', resolve))
      sockets.push(socket)
    }
    expect(ds.changeFeed.size).toBe(SUBSCRIBERS)
    const perSubscriber = Math.round((heapUsed() - before) / SUBSCRIBERS)
    console.log(`live feed: ${perSubscriber} bytes of heap per idle subscriber over node:http`)
    expect(perSubscriber).toBeLessThan(20 * 1024)
    // One write reaches them all.
    let got = 0
    for (const s of sockets) s.on('data', () => got++)
    ds.dataClass('Employee').update(1, { salary: 1 })
    await turnsUntil(() => got >= SUBSCRIBERS, 'every subscriber got the event')
    for (const s of sockets) s.destroy()
    await turnsUntil(() => ds.changeFeed.size === 0, 'every subscription closed')
  })
})
