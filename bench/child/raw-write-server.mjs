// The writes suite's raw baseline: node:http over a plain Map<ID, row> of the same data file's
// Items, answering the same write requests as `entistore serve`, written by hand without checks:
// - POST /rest/Item?$method=update, one object or an array: with `__KEY`, a copy-on-write update
//   (`map.set(k, { ...old, ...values })`), else an insert (the `ID` given, or the next one); the
//   reply is the row as JSON (an array: `{"__ENTITIES": [...]}`);
// - POST /rest/Item(K)?$method=delete: `map.delete(K)`, `{"ok":true}` (404 if there was none);
// - POST /rest/ImportedItem?$method=update: the same on a Map of its own, keyed by the UUID given.
// Usage: node raw-write-server.mjs <data.json>
// Prints `raw node:http writes at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const rows = new Map()
let maxId = 0
for (const row of JSON.parse(readFileSync(process.argv[2], 'utf8')).Item) {
  rows.set(row.ID, row)
  if (row.ID > maxId) maxId = row.ID
}
const imported = new Map()

const HEADERS = { 'Content-Type': 'application/json; charset=utf-8' }
const OK = Buffer.from('{"ok":true}')
const NOT_FOUND = Buffer.from('{"__ERROR":[{"message":"no such key"}]}')

function reply(res, status, body) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body
  res.writeHead(status, { ...HEADERS, 'Content-Length': String(bytes.length) })
  res.end(bytes)
}

/** One entity object: updated when it has a `__KEY`, created otherwise; undefined: no such key. */
function save(item) {
  const { __KEY, __STAMP, ...values } = item
  if (__KEY !== undefined && __KEY !== null) {
    const key = Number(__KEY)
    const old = rows.get(key)
    if (!old) return undefined
    const next = { ...old, ...values }
    rows.set(key, next)
    return next
  }
  const id = values.ID ?? ++maxId
  if (id > maxId) maxId = id
  const row = { ...values, ID: id }
  rows.set(id, row)
  return row
}

/** An ImportedItem created with its UUID (or updated, when the UUID is already there). */
function saveImported(item) {
  const { __KEY, __STAMP, ...values } = item
  const id = __KEY ?? values.ID
  const row = { ...imported.get(id), ...values, ID: id }
  imported.set(id, row)
  return row
}

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const url = req.url
    const q = url.indexOf('?')
    const path = q < 0 ? url : url.slice(0, q)
    if (req.method === 'POST' && url.includes('$method=delete')) {
      const m = /^\/rest\/Item\((\d+)\)$/.exec(path)
      if (m && rows.delete(Number(m[1]))) return reply(res, 200, OK)
      return reply(res, 404, NOT_FOUND)
    }
    if (req.method === 'POST' && path === '/rest/Item' && url.includes('$method=update')) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      if (!Array.isArray(body)) {
        const row = save(body)
        return row ? reply(res, 200, JSON.stringify(row)) : reply(res, 404, NOT_FOUND)
      }
      return reply(res, 200, JSON.stringify({ __ENTITIES: body.map(save) }))
    }
    if (req.method === 'POST' && path === '/rest/ImportedItem' && url.includes('$method=update')) {
      const row = saveImported(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      return reply(res, 200, JSON.stringify(row))
    }
    reply(res, 404, NOT_FOUND)
  })
})
server.listen(0, '127.0.0.1', () => {
  console.log(`raw node:http writes at http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
