// The public benchmark's hand-written HTTP peers (issue 22): the people of a data file
// ({"Person": [...]}, ids 1…n in order) in an array, served as a user writes it by hand, by
// node:http alone (`raw`, the floor) or by an Express 5 app (`express`), the same handler code in
// both so that the difference is the framework's. Three routes, those json-server has:
//   GET   /people/:id                    the row at rows[id - 1]
//   GET   /people?city=X&_limit=50       rows.filter(city === X).slice(0, 50) (exact case)
//   PATCH /people/:id  {"age": n}        Object.assign on the row, the row in reply
// Usage: node array-server.mjs <raw|express> <data.json>
// Prints `<kind> at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const [kind, file] = process.argv.slice(2)
const rows = JSON.parse(readFileSync(file, 'utf8')).Person

const byId = (id) => (Number.isInteger(id) && id >= 1 ? rows[id - 1] : undefined)
const list = (city, limit) => rows.filter((r) => r.city === city).slice(0, limit)
const patch = (id, body) => {
  const row = byId(id)
  if (row) Object.assign(row, { age: body.age })
  return row
}

function send(res, status, value) {
  const body = JSON.stringify(value ?? {})
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
  })
  res.end(body)
}

function rawHandler(req, res) {
  const url = new URL(req.url, 'http://x')
  const id = /^\/people\/(\d+)$/.exec(url.pathname)
  if (req.method === 'GET' && id) {
    const row = byId(Number(id[1]))
    return send(res, row ? 200 : 404, row)
  }
  if (req.method === 'GET' && url.pathname === '/people') {
    const limit = Number(url.searchParams.get('_limit') ?? Infinity)
    return send(res, 200, list(url.searchParams.get('city'), limit))
  }
  if (req.method === 'PATCH' && id) {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const row = patch(Number(id[1]), JSON.parse(Buffer.concat(chunks).toString('utf8')))
      send(res, row ? 200 : 404, row)
    })
    return
  }
  send(res, 404, {})
}

async function expressApp() {
  const { default: express } = await import('express')
  const app = express()
  app.get('/people/:id', (req, res) => {
    const row = byId(Number(req.params.id))
    res.status(row ? 200 : 404).json(row ?? {})
  })
  app.get('/people', (req, res) => {
    res.json(list(req.query.city, Number(req.query._limit ?? Infinity)))
  })
  app.patch('/people/:id', express.json(), (req, res) => {
    const row = patch(Number(req.params.id), req.body)
    res.status(row ? 200 : 404).json(row ?? {})
  })
  return app
}

let server
if (kind === 'raw') server = createServer(rawHandler)
else if (kind === 'express') server = createServer(await expressApp())
else throw new Error(`array-server.mjs: unknown kind ${kind} (raw, express)`)
server.listen(0, '127.0.0.1', () => {
  console.log(`${kind} at http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
