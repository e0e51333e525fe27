// The adapters suite's raw baseline: a bare node:http handler answering fixed JSON bodies read from
// three files, the size of entistore's replies to the suite's three requests: a GET without a
// query string gets the entity body, a GET with one the list body, a POST the update body once it
// has read and JSON.parse-d the request body (as any handler of a write must).
// Usage: node raw-routes-server.mjs <entity.json> <list.json> <update.json>
// Prints `raw node:http at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const reply = (file) => {
  const body = readFileSync(file)
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
  }
  return (res) => {
    res.writeHead(200, headers)
    res.end(body)
  }
}
const [entity, list, update] = process.argv.slice(2).map(reply)

const server = createServer((req, res) => {
  if (req.method !== 'POST') return (req.url.includes('?') ? list : entity)(res)
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'))
    update(res)
  })
})
server.listen(0, '127.0.0.1', () => {
  console.log(`raw node:http at http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
