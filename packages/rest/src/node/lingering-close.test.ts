/**
 * Issue 66, item 8: a body refused before its end (503 for want of room in the bodies in flight,
 * 413 too large) is answered while its client still sends; closed at once with bytes unread, the
 * connection was reset and fetch saw `ECONNRESET`/`EPIPE` instead of the answer. Real sockets, bodies
 * of megabytes (more than loopback's buffers hold); the linger's time limit runs on timers the test
 * fires (schedule.fixture.ts), so nothing waits for a real timeout.
 */
import { createDatastore } from '@entistore/core'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { manualSchedule } from '../schedule.fixture.js'
import { DATA, MODEL } from './company-rest.fixture.js'
import { until } from './docs.fixture.js'
import { toNodeListener } from './listener.js'
import { closedAfterTest, destroyedAfterTest } from './serve.fixture.js'

const MiB = 1024 * 1024
/** The upload limit, and the budget of bodies in flight: one upload of the limit fills it. */
const LIMIT = 16 * MiB
const UPLOAD = '/rest/Company(1)/logo?$rawPict=image/png'

async function serve() {
  const timers = manualSchedule()
  const ds = createDatastore(MODEL, { data: structuredClone(DATA) })
  const rest = createRestHandler(ds, { maxUploadBytes: LIMIT })
  const server = closedAfterTest(
    createServer(
      toNodeListener(rest, { maxBodyBytesInFlight: LIMIT, scheduleBodyTimeout: timers.schedule }),
    ),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { port, timers }
}

/** A raw connection that sends the head of an upload of `head` (a Content-Length or chunked). */
function rawUpload(port: number, head: string, allowHalfOpen = false) {
  const socket = destroyedAfterTest(connect({ port, host: '127.0.0.1', allowHalfOpen }))
  let text = ''
  let closed = false
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')))
  socket.on('error', () => {})
  socket.on('close', () => (closed = true))
  socket.write(`POST ${UPLOAD} HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\n${head}\r\n\r\n`)
  return { socket, text: () => text, closed: () => closed }
}

/**
 * A client that sends its whole upload (`bytes` declared and sent) before it reads the answer, as
 * fetch does on a busy machine: what it reads after, and the error (a reset) it gets instead.
 */
function sendWhole(port: number, bytes: number) {
  const socket = destroyedAfterTest(connect(port, '127.0.0.1'))
  const head = `POST ${UPLOAD} HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: ${bytes}\r\n\r\n`
  return new Promise<{ text: string; error?: string }>((resolve) => {
    let text = ''
    let error: string | undefined
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code))
    socket.on('close', () => resolve({ text, error }))
    socket.write(head)
    // Read only once the whole body is written (or its write failed).
    socket.write(Buffer.alloc(bytes), () =>
      socket.on('data', (d: Buffer) => (text += d.toString('latin1'))),
    )
  })
}

describe('a refused body is read and dropped before its connection closes', () => {
  it('a client sending its whole body reads the 503 Retry-After of a full budget, not a reset', async () => {
    const { port, timers } = await serve()
    // An upload of the whole budget, its head sent: every other body is refused before it is read.
    const holder = rawUpload(port, `Content-Length: ${LIMIT}`)
    await timers.until(1)
    const refused = await sendWhole(port, 8 * MiB)
    expect(refused).toEqual({ text: expect.stringMatching(/^HTTP\/1\.1 503/), error: undefined })
    expect(refused.text).toMatch(/retry-after: 1\r\n/i)
    expect(refused.text).toContain('"errCode":9037')
  })

  it('a client sending a body past the limit reads its 413', async () => {
    const { port } = await serve()
    const refused = await sendWhole(port, LIMIT + 4 * MiB)
    expect(refused).toEqual({ text: expect.stringMatching(/^HTTP\/1\.1 413/), error: undefined })
    expect(refused.text).toContain('"errCode":9033')
  })

  it(
    'a client that sends on without end is cut off once it sent twice the limit',
    { timeout: 20_000 },
    async () => {
      const { port } = await serve()
      // Chunked, past the limit: refused 413 while it reads; it is cut off once it has sent twice
      // the limit more.
      const endless = rawUpload(port, 'Transfer-Encoding: chunked', true)
      const part = Buffer.alloc(MiB)
      const chunk = Buffer.concat([
        Buffer.from(`${part.length.toString(16)}\r\n`),
        part,
        Buffer.from('\r\n'),
      ])
      const cut = once(endless.socket, 'close').catch(() => {})
      let sent = 0
      while (!endless.socket.destroyed && sent < 4 * LIMIT) {
        // Until the server cuts it off: a write it refuses is neither drained nor sent.
        if (!endless.socket.write(chunk))
          await Promise.race([once(endless.socket, 'drain').catch(() => {}), cut])
        sent += MiB
      }
      expect(endless.text()).toMatch(/^HTTP\/1\.1 413/)
      expect(sent).toBeLessThan(4 * LIMIT)
    },
  )
})
