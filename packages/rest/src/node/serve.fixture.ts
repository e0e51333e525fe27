/**
 * @module For tests: a datastore served over node:http on a free port, internal errors (5xx)
 * collected, and every server (and client socket) a test made closed after it (a fixture: not
 * built).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Datastore } from '@entistore/core'
import { afterEach } from 'vitest'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import { toNodeListener } from './index.js'

const servers: Server[] = []
const sockets: Socket[] = []

/** `server`, closed (its connections too) after the test. */
export function closedAfterTest<S extends Server>(server: S): S {
  servers.push(server)
  return server
}

/** `socket`, destroyed after the test. */
export function destroyedAfterTest(socket: Socket): Socket {
  sockets.push(socket)
  return socket
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  }
})

/**
 * Serves `ds` (with the handler's `options`); `base` is `http://127.0.0.1:<port>`, `internal` the
 * errors that became a 5xx.
 */
export async function serveOnSocket(
  ds: Datastore,
  options: RestHandlerOptions = {},
): Promise<{ base: string; internal: unknown[] }> {
  const internal: unknown[] = []
  const rest = createRestHandler(ds, { ...options, onInternalError: (e) => internal.push(e) })
  // The listener's writes share the handler's turns (a test's clock that counts, when it gives one).
  const server = createServer(toNodeListener(rest, { turns: options.turns }))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { base: `http://127.0.0.1:${port}`, internal }
}
