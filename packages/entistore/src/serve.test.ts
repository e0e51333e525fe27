import { connect, createServer as createNetServer, type AddressInfo } from 'node:net'
import { createDatastore, ManualClock, type DataFile } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { serve } from './serve.js'

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
