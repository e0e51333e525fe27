// The node:http part of the plain-JS servers (plain-*-server.mjs): each request's URL to
// `answer`, its JSON text sent with the two headers a hand-written server sends (a 404 when
// `answer` gives undefined); the ready line the bench waits for; a clean stop on SIGTERM.
import { createServer } from 'node:http'

/** Serves `answer(url)` on a free port of 127.0.0.1. */
export function servePlain(answer) {
  const server = createServer((req, res) => {
    const body = answer(req.url)
    if (body === undefined) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    res.end(body)
  })
  server.listen(0, '127.0.0.1', () => {
    console.log(`plain JS at http://127.0.0.1:${server.address().port}`)
  })
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0))
    server.closeAllConnections()
  })
}
