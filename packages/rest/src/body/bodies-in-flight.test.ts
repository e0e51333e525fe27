/**
 * Issue 28, item 4: uploads that start and stop. Hostile clients on a real socket, against both
 * transports (the node:http listener, and the fetch handler served by @hono/node-server): many
 * connections that stop before the end of their bodies, a client that sends a byte now and then.
 * The budget of bytes in flight is read from the transport's own counters, which are exact; the
 * body timeout runs on timers the test advances (schedule.fixture.ts), so nothing waits for
 * a real timeout and nothing fires early on a busy machine. A fresh GET answers throughout, each
 * within a few turns of the event loop (counted, not timed: node/responsiveness.fixture.ts).
 */
import { createAdaptorServer } from '@hono/node-server'
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { MountableRest } from '../adapters/mount.js'
import { toFetchHandler } from '../fetch/fetch-handler.js'
import { companyRest, MAX_UPLOAD_BYTES } from '../node/company-rest.fixture.js'
import { until } from '../node/docs.fixture.js'
import { toNodeListener } from '../node/listener.js'
import { TURNS_WAITED, watchResponsiveness } from '../node/responsiveness.fixture.js'
import { closedAfterTest, destroyedAfterTest } from '../node/serve.fixture.js'
import type { BodyCounters, BodyReadOptions } from './bodies-in-flight.js'
import { MIN_PROGRESS_BYTES } from './bodies-in-flight.js'
import { manualSchedule, turnEnd, type ManualSchedule } from '../schedule.fixture.js'
import { countedTurns } from '../slices/counted-turns.fixture.js'

/** Room for four whole uploads of the fixture's largest size. */
const IN_FLIGHT = 4 * MAX_UPLOAD_BYTES
const TIMEOUT_MS = 10_000

interface Served {
  readonly port: number
  readonly base: string
  readonly counters: BodyCounters
  readonly timers: ManualSchedule
}

type Transport = (rest: MountableRest, options: BodyReadOptions) => [Server, BodyCounters]

const TRANSPORTS: [string, Transport][] = [
  [
    'node:http listener',
    (rest, options) => {
      const listener = toNodeListener(rest, options)
      return [createServer(listener), listener]
    },
  ],
  [
    'fetch handler',
    (rest, options) => {
      const fetch = toFetchHandler(rest, options)
      return [createAdaptorServer({ fetch, overrideGlobalObjects: false }) as Server, fetch]
    },
  ],
]

async function serve(transport: Transport, options: BodyReadOptions = {}): Promise<Served> {
  const timers = manualSchedule()
  const [server, counters] = transport(companyRest(), {
    maxBodyBytesInFlight: IN_FLIGHT,
    bodyTimeoutMs: TIMEOUT_MS,
    scheduleBodyTimeout: timers.schedule,
    ...options,
  })
  closedAfterTest(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { port, base: `http://127.0.0.1:${port}`, counters, timers }
}

/** A raw client: what it has been sent, and whether the server closed its connection. */
interface Client {
  readonly socket: Socket
  readonly text: () => string
  readonly closed: () => boolean
}

const UPLOAD = '/rest/Company(1)/logo?$rawPict=image/png'

/** Opens a connection and sends the head of an upload (`declared` bytes, or chunked) and `part`. */
function upload(port: number, declared: number | undefined, part: Buffer | string = ''): Client {
  const socket = connect(port, '127.0.0.1')
  destroyedAfterTest(socket)
  let text = ''
  let closed = false
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')))
  socket.on('error', () => {})
  socket.on('close', () => (closed = true))
  const length =
    declared === undefined ? 'Transfer-Encoding: chunked' : `Content-Length: ${declared}`
  socket.write(`POST ${UPLOAD} HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\n${length}\r\n\r\n`)
  if (part.length > 0) socket.write(part)
  return { socket, text: () => text, closed: () => closed }
}

/** A chunk of a chunked body. */
const chunk = (bytes: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])

const statusOf = (client: Client): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(client.text())?.[1])
const errCodeOf = (client: Client): number => Number(/"errCode":(\d+)/.exec(client.text())?.[1])

describe.each(TRANSPORTS)('uploads that start and stop, on the %s', (name, transport) => {
  it('keeps the bytes in flight within the budget, refuses the rest at once, and lets go of the stalled ones after the timeout', async () => {
    const { port, base, counters, timers } = await serve(transport)
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted: countedTurns() })
    // Twenty clients each declare a whole upload and stop at four fifths of it.
    const sent = Buffer.alloc((MAX_UPLOAD_BYTES * 4) / 5, 7)
    const clients = Array.from({ length: 20 }, () => upload(port, MAX_UPLOAD_BYTES, sent))
    await until(() => counters.bodiesInFlight + counters.bodiesRefused === 20, 'all were seen')
    // Four fit; the sixteen others were refused before their bodies were read.
    expect(counters.bodiesInFlight).toBe(4)
    expect(counters.bodyBytesInFlight).toBe(IN_FLIGHT)
    expect(counters.bodiesRefused).toBe(16)
    await until(() => clients.filter((c) => statusOf(c) === 503).length === 16, '16 answers')
    for (const refused of clients.filter((c) => statusOf(c) === 503)) {
      expect(refused.text()).toMatch(/\r\nretry-after: 1\r\n/i)
      expect(errCodeOf(refused)).toBe(9037)
    }
    // The node listener closes a refused body's connection: its bytes are not read to keep it.
    if (name === 'node:http listener')
      await until(() => clients.filter((c) => c.closed()).length === 16, 'refusals closed')

    // The stalled four are answered 408 once their time has passed, and their bytes go back.
    const stalled = clients.filter((c) => statusOf(c) !== 503)
    expect(stalled.every((c) => c.text() === '')).toBe(true)
    timers.advance(TIMEOUT_MS - 1)
    expect(counters.bodiesInFlight).toBe(4)
    timers.advance(1)
    // The verdict waits for the I/O of the timers' turn (bytes that arrived would save them).
    await turnEnd()
    expect(counters.bodiesTimedOut).toBe(4)
    expect(counters.bodiesInFlight).toBe(0)
    expect(counters.bodyBytesInFlight).toBe(0)
    await until(() => stalled.every((c) => statusOf(c) === 408), 'the 408s')
    for (const client of stalled) expect(errCodeOf(client)).toBe(9038)
    if (name === 'node:http listener')
      await until(() => stalled.every((c) => c.closed()), 'the stalled connections closed')

    const probes = await watch.stop()
    expect(probes.failed).toBe(0)
    expect(probes.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
    // The room is back: a whole upload is taken.
    const whole = await fetch(`${base}${UPLOAD}`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.alloc(MAX_UPLOAD_BYTES, 1),
    })
    expect(whole.status).toBe(200)
    expect(counters.bodyBytesInFlight).toBe(0)
    expect(timers.pending).toEqual([])
  })

  it('answers a body that trickles in 408, and keeps one that arrives', async () => {
    const { port, base, counters, timers } = await serve(transport)
    const watch = watchResponsiveness(`${base}/rest/Company(1)`, { counted: countedTurns() })
    // A chunked body: its bytes in flight are what has arrived, so the test sees them come in.
    const slow = upload(port, undefined)
    const steady = upload(port, undefined)
    await until(() => counters.bodiesInFlight === 2, 'both are read')
    // Nine and a half seconds at a time: the steady client sends 1 KiB each time, the slow one
    // a byte, four times over (38 s in all).
    for (let step = 1; step <= 4; step++) {
      slow.socket.write(chunk(Buffer.from('x')))
      steady.socket.write(chunk(Buffer.alloc(MIN_PROGRESS_BYTES, 2)))
      const arrived = step * (MIN_PROGRESS_BYTES + 1)
      await until(() => counters.bodyBytesInFlight === arrived, `step ${step} arrived`)
      timers.advance(TIMEOUT_MS * 0.95)
      await turnEnd()
      if (step === 1) expect(counters.bodiesTimedOut).toBe(0)
      // The slow client's bytes never add up to 1 KiB: the timeout started with its head ends it.
      if (step === 2) break
    }
    expect(counters.bodiesTimedOut).toBe(1)
    await until(() => statusOf(slow) === 408, 'the 408')
    expect(errCodeOf(slow)).toBe(9038)
    expect(slow.text()).toContain('less than 1024 bytes of it in 10 s')
    // Only the steady client's bytes are held now; it goes on and finishes its upload.
    expect(counters.bodyBytesInFlight).toBe(2 * MIN_PROGRESS_BYTES)
    for (let step = 3; step <= 4; step++) {
      steady.socket.write(chunk(Buffer.alloc(MIN_PROGRESS_BYTES, 2)))
      await until(() => counters.bodyBytesInFlight === step * MIN_PROGRESS_BYTES, `step ${step}`)
      timers.advance(TIMEOUT_MS * 0.95)
    }
    steady.socket.write('0\r\n\r\n')
    await until(() => statusOf(steady) === 200, 'the steady upload is answered')
    expect(counters.bodiesTimedOut).toBe(1)
    expect(counters.bodyBytesInFlight).toBe(0)
    const probes = await watch.stop()
    expect(probes.failed).toBe(0)
    expect(probes.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
  })

  it('refuses a chunked body once it outgrows the room the others leave', async () => {
    const { port, counters } = await serve(transport)
    // Declared uploads leave 20,000 bytes of room.
    const others = 3 * MAX_UPLOAD_BYTES + 30_000
    for (let i = 0; i < 3; i++) upload(port, MAX_UPLOAD_BYTES)
    upload(port, 30_000)
    await until(() => counters.bodiesInFlight === 4, 'four are read')
    expect(counters.bodyBytesInFlight).toBe(others)
    const chunked = upload(port, undefined)
    const part = Buffer.alloc(10_000, 3)
    for (const expected of [others + 10_000, IN_FLIGHT]) {
      chunked.socket.write(chunk(part))
      await until(() => counters.bodyBytesInFlight === expected, `${expected} bytes in flight`)
    }
    // The third part would pass the budget: the body is refused, what it sent given back.
    chunked.socket.write(chunk(part))
    await until(() => statusOf(chunked) === 503, 'the refusal')
    expect(errCodeOf(chunked)).toBe(9037)
    expect(counters.bodiesRefused).toBe(1)
    expect(counters.bodyBytesInFlight).toBe(others)
  })

  it('refuses 413 a body larger than the whole budget, which could never fit', async () => {
    const { port, counters } = await serve(transport, {
      maxBodyBytesInFlight: MAX_UPLOAD_BYTES / 2,
    })
    const client = upload(port, MAX_UPLOAD_BYTES / 2 + 1)
    await until(() => statusOf(client) === 413, 'the 413')
    expect(errCodeOf(client)).toBe(9033)
    expect(client.text()).toContain(`limit of ${MAX_UPLOAD_BYTES / 2} bytes`)
    expect(counters.bodiesRefused).toBe(0)
  })

  it('gives back the bytes of a client that goes away mid-body', async () => {
    const { port, counters } = await serve(transport)
    const client = upload(port, MAX_UPLOAD_BYTES, Buffer.alloc(1000))
    await until(() => counters.bodiesInFlight === 1, 'it is read')
    expect(counters.bodyBytesInFlight).toBe(MAX_UPLOAD_BYTES)
    client.socket.destroy()
    await until(() => counters.bodiesInFlight === 0, 'it is let go')
    expect(counters.bodyBytesInFlight).toBe(0)
  })
})
