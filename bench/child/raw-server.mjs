// The HTTP suite's raw baseline: node:http answering fixed JSON bodies read from two files, the
// size of entistore's replies. A request whose target holds a query string gets the list body,
// any other the entity body. Usage: node raw-server.mjs <entity.json> <list.json>
// Prints `raw node:http at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const entity = readFileSync(process.argv[2])
const list = readFileSync(process.argv[3])
const headers = (body) => ({
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(body.length),
})
const entityHeaders = headers(entity)
const listHeaders = headers(list)

const server = createServer((req, res) => {
  const isList = req.url.includes('?')
  res.writeHead(200, isList ? listHeaders : entityHeaders)
  res.end(isList ? list : entity)
})
server.listen(0, '127.0.0.1', () => {
  console.log(`raw node:http at http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
