// The adapters suite's framework servers (and the contention suite's host): the files given loaded
// with loadDatastoreFiles and served at /rest through one framework adapter, as the examples
// (examples/express, fastify, hono) set them up and as a user's application imports them: the
// built packages (dist/, plain node, no source condition) and the frameworks from node_modules.
// Usage: node adapter-server.mjs <kind> <model.json> <data.json>, kind one of
//   express       Express 5, app.use('/rest', expressRest(rest)), no body parser in front;
//   express-json  the same with app.use(express.json()) in front of every route;
//   fastify       Fastify 5, app.register(fastifyRest, { rest, prefix: '/rest' });
//   hono          Hono, app.route('/rest', honoRest(rest)), on @hono/node-server;
//   node          a host's own node:http server: GET /ping answers `ok` (a route of the host's),
//                 every other request goes to toNodeListener(rest) (its paths under /rest).
// Prints `<kind> at http://127.0.0.1:PORT` once listening (port chosen by the system).
import { createRestHandler, loadDatastoreFiles } from 'entistore'

const [kind, model, data] = process.argv.slice(2)
const rest = createRestHandler(await loadDatastoreFiles({ model, data })) // basePath: '/rest'

/** Listens on a free port of 127.0.0.1; resolves to the port and a function that stops. */
async function listen() {
  switch (kind) {
    case 'express':
    case 'express-json': {
      const { default: express } = await import('express')
      const { expressRest } = await import('@entistore/rest/express')
      const app = express()
      if (kind === 'express-json') app.use(express.json())
      app.use('/rest', expressRest(rest))
      const server = await new Promise((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s))
      })
      return { port: server.address().port, stop: () => closeServer(server) }
    }
    case 'fastify': {
      const { default: Fastify } = await import('fastify')
      const { fastifyRest } = await import('@entistore/rest/fastify')
      const app = Fastify()
      await app.register(fastifyRest, { rest, prefix: '/rest' })
      await app.listen({ port: 0, host: '127.0.0.1' })
      return { port: app.server.address().port, stop: () => app.close() }
    }
    case 'hono': {
      const { Hono } = await import('hono')
      const { serve } = await import('@hono/node-server')
      const { honoRest } = await import('@entistore/rest/hono')
      const app = new Hono()
      app.route('/rest', honoRest(rest))
      const server = await new Promise((resolve) => {
        const s = serve(
          // Node's own Request and Response stay as they are (the default replaces them globally).
          { fetch: app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false },
          () => resolve(s),
        )
      })
      return { port: server.address().port, stop: () => closeServer(server) }
    }
    case 'node': {
      const { createServer } = await import('node:http')
      const { toNodeListener } = await import('@entistore/rest/node')
      const listener = toNodeListener(rest)
      const server = createServer((req, res) => {
        if (req.url !== '/ping') return listener(req, res)
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' })
        res.end('ok')
      })
      await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
      return { port: server.address().port, stop: () => closeServer(server) }
    }
    default:
      throw new Error(
        `adapter-server.mjs: unknown kind ${kind} (express, express-json, fastify, hono, node)`,
      )
  }
}

function closeServer(server) {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

const { port, stop } = await listen()
console.log(`${kind} at http://127.0.0.1:${port}`)
process.on('SIGTERM', () => {
  void stop().then(() => process.exit(0))
})
