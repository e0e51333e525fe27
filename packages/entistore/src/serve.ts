/** @module Serving a datastore over node:http: the REST interface at /rest, nothing else. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Datastore } from '@entistore/core'
import { createRestHandler, type RestHandlerOptions } from '@entistore/rest'
import { toNodeListener } from '@entistore/rest/node'

export interface ServeOptions extends RestHandlerOptions {
  /** 0 picks a free port. @default 8080 */
  readonly port?: number
  /** @default '127.0.0.1' */
  readonly host?: string
}

export interface RunningServer {
  /** `http://HOST:PORT`, with the port actually bound. */
  readonly url: string
  readonly port: number
  readonly server: Server
  close(): Promise<void>
}

/** Starts an HTTP server for `ds`; resolves once it is listening. */
export function serve(ds: Datastore, options: ServeOptions = {}): Promise<RunningServer> {
  const handler = createRestHandler(ds, options)
  const server = createServer(toNodeListener(handler))
  const host = options.host ?? '127.0.0.1'
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      const shown = host.includes(':') ? `[${host}]` : host
      resolve({
        url: `http://${shown}:${port}`,
        port,
        server,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((e) => (e ? fail(e) : done()))
            server.closeAllConnections()
          }),
      })
    })
  })
}
