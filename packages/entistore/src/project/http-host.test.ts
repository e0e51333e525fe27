/**
 * 4D code's outgoing HTTP requests (http-host.ts) against a real server. The server runs in a
 * worker thread of its own: a call waits for its answer with the calling thread blocked, as 4D's
 * commands wait, so a server on that thread could never answer.
 */
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { served, type Json } from './four-d-rest.fixture.js'
import { hostRefusal } from './http-host.js'

const PLANNER = fileURLToPath(new URL('test-projects/event-planner', import.meta.url))

const SERVER = `
const http = require('node:http')
const { parentPort } = require('node:worker_threads')
const server = http.createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    if (req.url === '/echo') {
      res.setHeader('content-type', 'application/json')
      return res.end(JSON.stringify({ method: req.method, planner: req.headers['x-planner'], type: req.headers['content-type'], got: JSON.parse(body || 'null') }))
    }
    if (req.url === '/away') {
      // To the same server by another name: localhost is not 127.0.0.1 to the allow-list.
      res.statusCode = 302
      res.setHeader('location', 'http://localhost:' + server.address().port + '/echo')
      return res.end()
    }
    if (req.url === '/big') return res.end(Buffer.alloc(17 * 1024 * 1024, 97))
    res.statusCode = 404
    res.end('no')
  })
})
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port))
`

let worker: Worker
let base = ''
beforeAll(async () => {
  worker = new Worker(SERVER, { eval: true })
  const port = await new Promise<number>((resolve) => worker.once('message', resolve))
  base = `http://127.0.0.1:${port}`
})
afterAll(() => worker.terminate())

describe('the hosts 4D code may reach', () => {
  it('are those the list names: a host, a host and port, the subdomains of *.domain', () => {
    const allowed = ['api.example.com', 'db.local:8443', '*.example.org']
    expect(hostRefusal('https://api.example.com/x', allowed)).toBeUndefined()
    expect(hostRefusal('https://API.example.com:9000/x', allowed)).toBeUndefined()
    expect(hostRefusal('https://db.local:8443/', allowed)).toBeUndefined()
    expect(hostRefusal('http://db.local/', allowed)).toMatch(/allows api\.example\.com/)
    expect(hostRefusal('https://a.b.example.org/', allowed)).toBeUndefined()
    expect(hostRefusal('https://example.org/', allowed)).toBeDefined()
    expect(hostRefusal('https://evil.com/?api.example.com', allowed)).toBeDefined()
    expect(hostRefusal('file:///etc/passwd', allowed)).toMatch(/not http or https/)
    expect(hostRefusal('not a url', allowed)).toMatch(/not a URL/)
    expect(hostRefusal('http://127.0.0.1/', [])).toMatch(/allows no host .*--allow-http/)
  })
})

describe('HTTP Request and HTTP Get in 4D code', () => {
  it('send a JSON body and headers, and read the JSON answer and its headers', async () => {
    const post = await served(PLANNER, { allowHttp: ['127.0.0.1'] })
    const sent = await post('$catalog/forward', [`${base}/echo`, { room: 'Annex' }])
    expect(sent).toEqual({
      status: 200,
      json: {
        result: {
          status: 200,
          answer: {
            method: 'POST',
            planner: 'yes',
            type: 'application/json',
            got: { room: 'Annex' },
          },
          type: 'application/json',
        },
      },
    })
  })

  it('refuse a host not allowed, by default every host, with an error the code can catch', async () => {
    const post = await served(PLANNER)
    const refused = await post('$catalog/forward', [`${base}/echo`, {}])
    expect(refused.status).toBe(422)
    expect((refused.json.__ERROR as Json[])[0]).toMatchObject({
      errCode: 9432,
      message: expect.stringMatching(/127\.0\.0\.1.*allows no host/),
    })
    // A redirection to a host not allowed is not followed.
    const allowed = await served(PLANNER, { allowHttp: ['127.0.0.1'] })
    expect(await allowed('$catalog/tryForward', [`${base}/away`])).toEqual({
      status: 200,
      json: { result: { status: 0, error: 9432 } },
    })
  })

  it('4D.HTTPRequest sends, calls back, and tells a refused host in its errors', async () => {
    const post = await served(PLANNER, { allowHttp: ['127.0.0.1'] })
    expect(await post('$catalog/ask', [`${base}/echo`])).toEqual({
      status: 200,
      json: { result: { status: 200, got: { room: 'Annex' }, seen: 200 } },
    })
    const refused = await served(PLANNER)
    expect(await refused('$catalog/ask', [`${base}/echo`])).toEqual({
      status: 200,
      json: { result: { error: 9432, terminated: true } },
    })
  })

  it('fail, without filling the memory, on an answer past 16 MB', async () => {
    const post = await served(PLANNER, { allowHttp: ['127.0.0.1'] })
    expect(await post('$catalog/tryForward', [`${base}/big`])).toEqual({
      status: 200,
      json: { result: { status: 0, error: 9433 } },
    })
  })
})
