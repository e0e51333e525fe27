// The public benchmark's fixture-server peer (issue 22): json-server 0.17 (the line that runs on
// Node 20; the 1.0 betas need Node 22.12) used as a module as its README shows, on the people of a
// data file ({"Person": [...]}) given as an object, so that lowdb keeps them in memory and writes
// nothing to disk: GET /people/:id, GET /people?city=X&_limit=50, PATCH /people/:id. The default
// middlewares stay (CORS, no-cache, static files), the request logger is off.
// Usage: node json-server.cjs <data.json>
// Prints `json-server at http://127.0.0.1:PORT` once listening (port chosen by the system).
const { readFileSync } = require('node:fs')
const jsonServer = require('json-server')

const people = JSON.parse(readFileSync(process.argv[2], 'utf8')).Person
const app = jsonServer.create()
app.use(jsonServer.defaults({ logger: false }))
app.use(jsonServer.router({ people }))
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`json-server at http://127.0.0.1:${server.address().port}`)
})
process.on('SIGTERM', () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
