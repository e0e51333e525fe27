import { createServer, type IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  companyRest,
  conformance,
  json,
  listen,
  MAX_BODY_BYTES,
  send,
  type Exchange,
} from './conformance.fixture.js'
import { toNodeListener } from './listener.js'
import { pendingReplies } from './pending.fixture.js'

// The listener on its own server, and inside an existing node:http server that has its own
// routes and hands the listener only the requests under /rest.
conformance('node:http', (rest) => listen(createServer(toNodeListener(rest))))

conformance('node:http inside an existing server', (rest) => {
  const listener = toNodeListener(rest)
  return listen(
    createServer((req, res) => {
      if (req.url === '/health') res.end('ok')
      else if (req.url?.startsWith('/rest')) listener(req, res)
      else res.writeHead(404).end()
    }),
  )
})

pendingReplies('node:http', (rest) => listen(createServer(toNodeListener(rest))))

describe('a body read before the listener saw it', () => {
  // A middleware in front that reads the stream to its end, keeping the text or not.
  const serveAfterReading = (parsedBody?: (req: IncomingMessage) => string | undefined) => {
    const listener = toNodeListener(companyRest(), parsedBody ? { parsedBody } : {})
    return listen(
      createServer((req, res) => {
        const parts: Buffer[] = []
        req.on('data', (part: Buffer) => parts.push(part))
        req.on('end', () => {
          ;(req as IncomingMessage & { text?: string }).text = Buffer.concat(parts).toString()
          listener(req, res)
        })
      }),
    )
  }
  const post = (body: string): Exchange => ({
    method: 'POST',
    target: '/rest/Employee?$method=update',
    headers: { 'content-type': 'application/json' },
    body,
  })

  it('is answered 400 (9030) saying so, not left waiting, when no one hands it over', async () => {
    const served = await serveAfterReading()
    try {
      const answer = await send(served.url, post('{"lastName":"Lost"}'))
      expect(answer.status).toBe(400)
      expect(json(answer).__ERROR[0]).toMatchObject({ errCode: 9030 })
      expect(json(answer).__ERROR[0].message).toContain('it was read before it reached Entistore')
    } finally {
      await served.close()
    }
  })

  it('is taken from parsedBody, within maxBodyBytes', async () => {
    const served = await serveAfterReading(
      (req) => (req as IncomingMessage & { text?: string }).text,
    )
    try {
      const created = await send(served.url, post('{"lastName":"Handed"}'))
      expect([created.status, json(created).lastName]).toEqual([200, 'Handed'])
      const big = await send(
        served.url,
        post(JSON.stringify({ lastName: 'x'.repeat(MAX_BODY_BYTES) })),
      )
      expect([big.status, json(big).__ERROR[0].errCode]).toEqual([413, 9033])
    } finally {
      await served.close()
    }
  })
})
