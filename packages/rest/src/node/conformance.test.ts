import { createServer } from 'node:http'
import { conformance, listen } from '../adapters/conformance.fixture.js'
import { toNodeListener } from './listener.js'

// The listener on its own server, and inside an existing node:http server that has its own
// routes and hands the listener only the requests under /rest.
conformance('node:http', (rest) => listen(createServer(toNodeListener(rest))))

conformance('node:http inside an existing server', (rest) => {
  const listener = toNodeListener(rest)
  return listen(
    createServer((req, res) => {
      if (req.url === '/health') res.end('ok')
      else if (req.url?.startsWith('/rest')) listener(req, res)
      else res.writeHead(404).end()
    }),
  )
})
