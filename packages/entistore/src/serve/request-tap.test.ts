/**
 * The reply's tap on a plain node:http server: the body's bytes as handed to node:http however
 * the head is given (an object in any case, a flat list, a list of pairs) and the body written
 * (whole in `end` at its declared length, in parts, as a Buffer, with none); a reply's cookie
 * names its session's user; a `$4DSID` in the URL is read only when the URL can hold one.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SessionStore, setSessionUser, systemClock } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestLogEntry } from './request-log.js'
import { logClosed, tappedResponse, type SessionsServed } from './request-tap.js'

const COOKIE = '4DSID_test'

async function served(reply: (res: ServerResponse, url: string) => void) {
  const sessions: SessionsServed = {
    store: new SessionStore(systemClock),
    cookieName: COOKIE,
    basePath: '/rest',
  }
  const entries: RequestLogEntry[] = []
  const server = createServer({ ServerResponse: tappedResponse(() => sessions) }, (req, res) => {
    res.on('close', () => logClosed(res, sessions, (e) => entries.push(e)))
    reply(res, req.url ?? '')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  closers.push(() => new Promise<void>((r) => server.close(() => r())))
  /** The entry of one request, once its reply is closed. */
  const entryOf = async (path: string, init?: RequestInit) => {
    const before = entries.length
    const body = await (await fetch(base + path, init)).arrayBuffer()
    for (let i = 0; entries.length === before && i < 200; i++)
      await new Promise((r) => setTimeout(r, 5))
    return { entry: entries[before]!, received: body.byteLength }
  }
  return { entryOf, sessions }
}

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

describe('the reply tap', () => {
  it('counts the body as handed to node:http, however the head and body are given', async () => {
    const text = 'héllo wörld'
    const { entryOf } = await served((res, url) => {
      const length = Buffer.byteLength(text)
      if (url === '/object')
        res.writeHead(200, { 'Content-Length': length, 'Content-Type': 'text/plain' }).end(text)
      else if (url === '/flat') res.writeHead(200, ['content-length', String(length)]).end(text)
      else if (url === '/pairs')
        res.writeHead(201, 'Made', [['Content-Length', length]] as never).end(Buffer.from(text))
      else if (url === '/parts') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.write('abc')
        res.write(Buffer.from('déf'))
        res.end('ghi')
      } else if (url === '/implicit') res.end(text)
      else res.writeHead(204).end()
    })
    const bytes = Buffer.byteLength(text)
    for (const path of ['/object', '/flat', '/pairs', '/implicit']) {
      const { entry, received } = await entryOf(path)
      expect(received).toBe(bytes)
      expect(entry).toMatchObject({ target: path, bytes, complete: true })
    }
    expect((await entryOf('/pairs')).entry.status).toBe(201)
    const parts = await entryOf('/parts')
    expect(parts.entry.bytes).toBe(parts.received)
    expect(parts.received).toBe(Buffer.byteLength('abcdéfghi'))
    expect((await entryOf('/none')).entry).toMatchObject({ status: 204, bytes: 0 })
    expect((await entryOf('/object', { method: 'HEAD' })).entry.bytes).toBe(0)
  })

  it("names the user of the session the reply's cookie or the URL's $4DSID names", async () => {
    const { entryOf, sessions } = await served((res, url) => {
      const session = sessions.store.openGuest()
      setSessionUser(session, { name: 'ada' })
      const cookie = url.startsWith('/set') ? [`${COOKIE}=${session.id}; Path=/`] : []
      res.writeHead(200, ['set-cookie', cookie, 'content-length', '2']).end('ok')
    })
    expect((await entryOf('/set')).entry.user).toBe('ada')
    expect((await entryOf('/plain')).entry.user).toBeUndefined()
    const held = sessions.store.openGuest()
    setSessionUser(held, { name: 'grace' })
    expect((await entryOf(`/rest/Item(4)?%244DsId=${held.id}`)).entry.user).toBe('grace')
    expect((await entryOf(`/rest/Item(4)?x=${held.id}`)).entry.user).toBeUndefined()
  })
})
