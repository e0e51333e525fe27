/**
 * Entistore inside an existing node:http server that has routes of its own: requests under /rest
 * go to the Entistore listener, the others to the application.
 *
 *   npx tsx --conditions=source examples/node-server/server.ts     # http://127.0.0.1:8080/rest
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { clientErrorListener, createRestHandler, toNodeListener } from 'entistore'
import { loadCompany } from '../company/datastore.ts'

/** The application's own routes, as they were before Entistore came. */
function app(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'GET' && req.url === '/hello') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ hello: 'from node:http' }))
    return
  }
  res.writeHead(404, { 'content-type': 'text/plain' })
  res.end('Not found\n')
}

/** Starts the server on `port` (0: a free one); `url` is `http://127.0.0.1:<port>`. */
export async function start(port = 8080): Promise<{ url: string; server: Server }> {
  const rest = createRestHandler(await loadCompany()) // basePath: '/rest'
  const entistore = toNodeListener(rest)

  const server = createServer((req, res) => {
    // The request target as sent: `/rest`, `/rest/…` and `/rest?…` are Entistore's.
    const path = req.url?.split('?', 1)[0] ?? '/'
    if (path === '/rest' || path.startsWith('/rest/')) entistore(req, res)
    else app(req, res)
  })
  // Requests Node's parser refuses (a head too large) get an __ERROR body too.
  server.on('clientError', clientErrorListener(rest))

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await start(Number(process.env.PORT ?? 8080))
  console.log(`Entistore on node:http at ${url}/rest, the app's own route at ${url}/hello`)
}
