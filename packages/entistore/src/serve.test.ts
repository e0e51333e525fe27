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
