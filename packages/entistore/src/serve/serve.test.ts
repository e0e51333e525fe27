import type { RequestListener } from 'node:http'
import { getHeapStatistics } from 'node:v8'
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import type { Schedule } from './chaos.js'
import { oldSpaceLimitNow } from '../load/heap-limit.js'
import { serve, type HealthReply } from './serve.js'

const datastore = () =>
  createDatastore(
    {
      __NAME: 'shop',
      dataClasses: [
        { name: 'Tag', attributes: [{ name: 'code', type: 'string' }], key: [{ name: 'code' }] },
      ],
    },
    { data: { Tag: [{ code: 'a' }] } as unknown as DataFile, clock: new ManualClock() },
  )

/** Sends `request` on a raw socket and returns everything the server answered. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request))
    let out = ''
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => (out += d))
    socket.on('end', () => resolve(out))
    socket.on('error', reject)
  })
}

describe('serve', () => {
  it('listens on 127.0.0.1 and reports the port actually bound', async () => {
    const running = await serve(datastore(), { port: 0 })
    try {
      expect(running.port).toBeGreaterThan(0)
      expect(running.url).toBe(`http://127.0.0.1:${running.port}`)
      expect((running.server.address() as AddressInfo).address).toBe('127.0.0.1')
      const res = await fetch(`${running.url}/rest/Tag(a)`)
      expect(res.status).toBe(200)
      expect(((await res.json()) as { __KEY: string }).__KEY).toBe('a')
    } finally {
      await running.close()
    }
  })

  it('turns the data explorer off while ds.setAdminProtection(true) holds (4D’s Data Explorer), the REST interface on', async () => {
    const ds = datastore()
    const running = await serve(ds, { port: 0, explorer: true })
    try {
      expect((await fetch(`${running.url}/`)).status).toBe(200)
      ds.setAdminProtection(true)
      expect(ds.isAdminProtected()).toBe(true)
      expect((await fetch(`${running.url}/`)).status).toBe(403)
      expect((await fetch(`${running.url}/rest/Tag(a)`)).status).toBe(200)
      ds.setAdminProtection(false)
      expect((await fetch(`${running.url}/`)).status).toBe(200)
    } finally {
      await running.close()
    }
  })

  it('writes an IPv6 host in brackets', async () => {
    let running
    try {
      running = await serve(datastore(), { port: 0, host: '::1' })
    } catch (e) {
      // Some sandboxes have no IPv6 loopback: nothing to check there.
      if ((e as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') return
      throw e
    }
    try {
      expect(running.url).toBe(`http://[::1]:${running.port}`)
      expect((await fetch(`${running.url}/rest/$catalog`)).status).toBe(200)
    } finally {
      await running.close()
    }
  })

  it('passes the REST options on to the handler', async () => {
    const running = await serve(datastore(), { port: 0, basePath: '/api', maxTop: 1 })
    try {
      expect((await fetch(`${running.url}/api/Tag`)).status).toBe(200)
      expect((await fetch(`${running.url}/rest/Tag`)).status).toBe(404)
      expect((await fetch(`${running.url}/api/Tag?$top=2`)).status).toBe(400)
    } finally {
      await running.close()
    }
  })

  it('passes the size limits on: 413 past maxBodyBytes, 431 past maxHeaderBytes, both __ERROR', async () => {
    const running = await serve(datastore(), { port: 0, maxBodyBytes: 10, maxHeaderBytes: 2048 })
    try {
      const big = await fetch(`${running.url}/rest/Tag`, {
        method: 'POST',
        body: '{"code":"abcdef"}',
      })
      expect(big.status).toBe(413)
      expect(((await big.json()) as { __ERROR: { errCode: number }[] }).__ERROR[0]!.errCode).toBe(
        9033,
      )
      const answer = await rawRequest(
        running.port,
        `GET /rest/Tag HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(3000)}\r\n\r\n`,
      )
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large')
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        __ERROR: [
          {
            message: 'The request line and headers exceed the limit of 2048 bytes',
            componentSignature: 'enti',
            errCode: 9034,
          },
        ],
      })
    } finally {
      await running.close()
    }
  })

  it('hands the write limits to the listener and shows what slow clients hold', async () => {
    const running = await serve(datastore(), { port: 0, writeTimeoutMs: 1000, maxUnsentBytes: 1 })
    try {
      expect([running.listener.stalledReplies, running.listener.unsentBytes]).toEqual([0, 0])
      expect((await fetch(`${running.url}/rest/Tag`)).status).toBe(200)
    } finally {
      await running.close()
    }
  })

  it('rejects with EADDRINUSE when the port is taken', async () => {
    const blocker = createNetServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as AddressInfo
    try {
      await expect(serve(datastore(), { port })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()))
    }
  })

  it('closes at once even with a keep-alive connection open', async () => {
    const running = await serve(datastore(), { port: 0 })
    const socket = connect(running.port, '127.0.0.1')
    await new Promise<void>((resolve) => {
      socket.once('data', () => resolve())
      socket.write('GET /rest/$catalog HTTP/1.1\r\nHost: x\r\n\r\n')
    })
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    await running.close()
    await socketClosed
    expect(running.server.listening).toBe(false)
  })
})

/** One kept-alive connection: sends a request, resolves with its whole reply (by content-length). */
function connection(port: number): Promise<{
  socket: Socket
  send: (request: string) => Promise<{ head: string; body: string }>
  closed: Promise<void>
}> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, send, closed }))
    socket.setEncoding('utf8')
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    let buffered = ''
    let waiting: ((reply: { head: string; body: string }) => void) | undefined
    socket.on('data', (d: string) => {
      buffered += d
      const end = buffered.indexOf('\r\n\r\n')
      if (end < 0 || !waiting) return
      const head = buffered.slice(0, end)
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
      if (buffered.length < end + 4 + length) return
      const body = buffered.slice(end + 4, end + 4 + length)
      buffered = buffered.slice(end + 4 + length)
      const w = waiting
      waiting = undefined
      w({ head, body })
    })
    const send = (request: string) =>
      new Promise<{ head: string; body: string }>((done) => {
        waiting = done
        socket.write(request)
      })
  })
}

const GET_HEALTH = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n'

/** Timers the test fires: `fire(ms)` runs those set for `ms`, as if that time had passed. */
function manualSchedule(): { schedule: Schedule; fire: (ms: number) => void } {
  const due = new Set<{ fn: () => void; ms: number }>()
  return {
    schedule: (fn, ms) => {
      const timer = { fn, ms }
      due.add(timer)
      return () => due.delete(timer)
    },
    fire: (ms) => {
      for (const timer of [...due].filter((t) => t.ms === ms)) {
        due.delete(timer)
        timer.fn()
      }
    },
  }
}

/** A listener in front of the REST one that holds every request until `release()`. */
function holding(): {
  wrapListener: (l: RequestListener) => RequestListener
  release: () => void
  held: Promise<void>
} {
  const waiting: (() => void)[] = []
  let arrived!: () => void
  const held = new Promise<void>((resolve) => (arrived = resolve))
  return {
    wrapListener: (listener) => (req, res) => {
      waiting.push(() => void listener(req, res))
      arrived()
    },
    release: () => waiting.splice(0).forEach((go) => go()),
    held,
  }
}

describe('the health endpoint', () => {
  it('answers GET /health with its status alone by default: it answers anyone', async () => {
    const timer = manualSchedule()
    const running = await serve(datastore(), {
      port: 0,
      schedule: timer.schedule,
      healthFields: () => ({ worker: 2 }),
    })
    const res = await fetch(`${running.url}/health`)
    expect([res.status, res.headers.get('cache-control'), await res.text()]).toEqual([
      200,
      'no-store',
      '{"status":"ok"}',
    ])
    const stopped = running.shutdown({ delayMs: 5000 })
    const stopping = await fetch(`${running.url}/health`)
    expect([stopping.status, await stopping.text()]).toEqual([503, '{"status":"stopping"}'])
    timer.fire(5000)
    expect(await stopped).toMatchObject({ forced: false })
  })

  it('answers GET /health with the state of the server with healthDetails, and HEAD with its head', async () => {
    const ds = datastore()
    const running = await serve(ds, {
      port: 0,
      healthDetails: true,
      healthFields: () => ({ worker: 2 }),
    })
    try {
      await fetch(`${running.url}/rest/Tag?$method=update`, {
        method: 'POST',
        body: '{"code":"b"}',
      })
      const res = await fetch(`${running.url}/health?probe=1`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(res.headers.get('cache-control')).toBe('no-store')
      const body = (await res.json()) as HealthReply
      expect(body).toEqual({
        status: 'ok',
        pid: process.pid,
        uptime: expect.any(Number),
        globalStamp: ds.globalStamp,
        sessions: ds.sessions.size,
        inFlight: 0,
        memory: {
          heapUsed: expect.any(Number),
          heapLimit: expect.any(Number),
          rss: expect.any(Number),
        },
        worker: 2,
      })
      expect(body.globalStamp).toBeGreaterThan(0)
      // This process's own figures: the heap in use below its limit (the old space's, under V8's
      // heap_size_limit, which counts the young generation too), and within what the system
      // counts as resident (the heap's pages are, once touched).
      const memory = body.memory!
      expect(memory.heapLimit).toBe(oldSpaceLimitNow())
      expect(memory.heapLimit).toBeLessThan(getHeapStatistics().heap_size_limit)
      expect(memory.heapUsed).toBeGreaterThan(0)
      expect(memory.heapUsed).toBeLessThan(memory.heapLimit)
      expect(memory.rss).toBeGreaterThan(memory.heapUsed / 2)
      const head = await fetch(`${running.url}/health`, { method: 'HEAD' })
      expect([head.status, await head.text()]).toEqual([200, ''])
      const post = await fetch(`${running.url}/health`, { method: 'POST' })
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD'])
    } finally {
      await running.close()
    }
  })

  it('is outside authentication, at the path given, or not there at all', async () => {
    const auth = { authenticate: () => null, forceLogin: true }
    const running = await serve(datastore(), { port: 0, ...auth, healthPath: '/-/up' })
    const none = await serve(datastore(), { port: 0, healthPath: false })
    try {
      expect((await fetch(`${running.url}/rest/Tag`)).status).toBe(401)
      expect((await fetch(`${running.url}/-/up`)).status).toBe(200)
      expect((await fetch(`${running.url}/health`)).status).toBe(404)
      expect((await fetch(`${none.url}/health`)).status).toBe(404)
    } finally {
      await running.close()
      await none.close()
    }
  })
})

describe('shutdown', () => {
  it('fails the health check through its delay, then answers the request in flight and closes', async () => {
    const hold = holding()
    const timer = manualSchedule()
    const ran: string[] = []
    const running = await serve(datastore(), {
      port: 0,
      wrapListener: hold.wrapListener,
      schedule: timer.schedule,
      healthDetails: true,
      onShutdown: [() => void ran.push('first added')],
    })
    running.onShutdown(async () => {
      await Promise.resolve()
      ran.push('last added')
    })
    running.onShutdown(() => void ran.push('removed'))()
    const write = fetch(`${running.url}/rest/Tag?$method=update`, {
      method: 'POST',
      body: '{"code":"b"}',
    })
    await hold.held
    const stopped = running.shutdown({ delayMs: 5000, timeoutMs: 60_000 })
    expect(running.stopping).toBe(true)
    // The delay: still serving, but telling the load balancer to go away.
    const health = await fetch(`${running.url}/health`)
    expect([health.status, health.headers.get('connection')]).toEqual([503, 'close'])
    expect(await health.json()).toMatchObject({ status: 'stopping', inFlight: 1 })
    timer.fire(5000)
    // The delay's end runs on: one turn of the loop and the server is closed.
    await new Promise((resolve) => setImmediate(resolve))
    expect(running.server.listening).toBe(false)
    await expect(fetch(`${running.url}/health`)).rejects.toThrow()
    expect(ran).toEqual([])
    hold.release()
    const reply = await write
    expect([reply.status, reply.headers.get('connection')]).toEqual([200, 'close'])
    expect(await stopped).toEqual({ forced: false, dropped: 0, errors: [] })
    expect(ran).toEqual(['last added', 'first added'])
    // close() after it waits for the same stop.
    await running.close()
  })

  it('closes idle keep-alive connections at once', async () => {
    const running = await serve(datastore(), { port: 0 })
    const idle = await connection(running.port)
    await idle.send(GET_HEALTH)
    expect(await running.shutdown({ timeoutMs: 60_000 })).toMatchObject({ forced: false })
    await idle.closed
  })

  it('ends the live feed’s streams at once: their clients resume elsewhere, nothing waits for them', async () => {
    // The deadline's timer never fires: a stop waiting for the streams would never end.
    const timer = manualSchedule()
    const running = await serve(datastore(), { port: 0, schedule: timer.schedule })
    const streams = await Promise.all(
      [0, 1].map(() =>
        fetch(`${running.url}/rest/Tag/$changes`, { headers: { accept: 'text/event-stream' } }),
      ),
    )
    for (const res of streams)
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const result = await running.shutdown({ timeoutMs: 60_000 })
    expect(result).toMatchObject({ forced: false, dropped: 0 })
    // Each stream ends cleanly (after its `retry:` line), as a reconnecting client expects.
    for (const res of streams) expect(await res.text()).toMatch(/^retry: \d+/)
  })

  it('past its deadline, destroys the connections left, still runs the steps, and says forced', async () => {
    const hold = holding()
    const timer = manualSchedule()
    const ran: string[] = []
    const running = await serve(datastore(), {
      port: 0,
      wrapListener: hold.wrapListener,
      schedule: timer.schedule,
    })
    running.onShutdown(() => void ran.push('sync'))
    running.onShutdown(() => new Promise<void>(() => ran.push('never ends')))
    running.onShutdown(() => {
      throw new Error('pool already closed')
    })
    const write = fetch(`${running.url}/rest/Tag?$method=update`, {
      method: 'POST',
      body: '{"code":"b"}',
    })
    await hold.held
    const stopped = running.shutdown({ timeoutMs: 10 })
    timer.fire(10)
    const result = await stopped
    expect(result).toMatchObject({ forced: true, dropped: 1 })
    expect((result.errors[0] as Error).message).toBe('pool already closed')
    expect(ran).toEqual(['never ends', 'sync'])
    await expect(write).rejects.toThrow()
  })

  it('close() runs the steps without a deadline and rejects with the first error', async () => {
    const running = await serve(datastore(), { port: 0 })
    let closedPool = false
    running.onShutdown(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      closedPool = true
    })
    running.onShutdown(() => Promise.reject(new Error('no')))
    await expect(running.close()).rejects.toThrow('no')
    expect(closedPool).toBe(true)
  })
})
