// The changes suite's raw baseline for the live feed over HTTP (issue 50): node:http over a plain
// Map<ID, row> of the data file's Items, written by hand without checks:
// - GET /rest/$changes…: a server-sent events stream, kept in a Set until the client goes;
// - POST /rest/Item?$method=update, one object: the row saved (`map.set`), then one event written
//   to every open stream (`id:` the next stamp, `event:` created or updated, `data:` the row as
//   JSON, one text for all), then the reply: the row.
// Usage: node plain-sse-server.mjs <data.json>
// Prints `raw node:http SSE at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const rows = new Map()
for (const row of JSON.parse(readFileSync(process.argv[2], 'utf8')).Item) rows.set(row.ID, row)
const streams = new Set()
let stamp = 0

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url.startsWith('/rest/$changes')) {
    streams.add(res)
    req.on('close', () => streams.delete(res))
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    })
    res.write('retry: 3000\n\n')
    return
  }
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const { __KEY, __STAMP, ...values } = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    const key = Number(__KEY ?? values.ID)
    const old = rows.get(key)
    const row = { ...old, ...values, ID: key }
    rows.set(key, row)
    const json = JSON.stringify(row)
    const event = `id: ${++stamp}\nevent: ${old ? 'updated' : 'created'}\ndata: ${json}\n\n`
    for (const s of streams) s.write(event)
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    res.end(json)
  })
})
// Idle streams stay open: no request or keep-alive timeout closes them.
server.requestTimeout = 0
server.keepAliveTimeout = 0
server.listen(0, '127.0.0.1', () => {
  console.log(`raw node:http SSE at http://127.0.0.1:${server.address().port}`)
})
