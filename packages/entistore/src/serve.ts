/** @module Serving a datastore over node:http: the REST interface at /rest, nothing else. */
import { createServer, maxHeaderSize, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Datastore } from '@entistore/core'
import { createRestHandler, type RestHandlerOptions } from '@entistore/rest'
import {
  clientErrorListener,
  toNodeListener,
  type BackpressureOptions,
  type NodeListener,
} from '@entistore/rest/node'

export interface ServeOptions extends RestHandlerOptions, BackpressureOptions {
  /** 0 picks a free port. @default 8080 */
  readonly port?: number
  /** @default '127.0.0.1' */
  readonly host?: string
  /**
   * Largest request line and headers, in bytes; a larger request head is refused with 431.
   * @default 16_384 (Node's)
   */
  readonly maxHeaderBytes?: number
}

export interface RunningServer {
  /** `http://HOST:PORT`, with the port actually bound. */
  readonly url: string
  readonly port: number
  readonly server: Server
  /** The listener: its `unsentBytes` and `stalledReplies` say what slow clients hold. */
  readonly listener: NodeListener
  close(): Promise<void>
}

/** Starts an HTTP server for `ds`; resolves once it is listening. */
export function serve(ds: Datastore, options: ServeOptions = {}): Promise<RunningServer> {
  const handler = createRestHandler(ds, options)
  const listener = toNodeListener(handler, options)
  const maxHeaderBytes = options.maxHeaderBytes ?? maxHeaderSize
  const server = createServer({ maxHeaderSize: maxHeaderBytes }, listener)
  // Node answers a request head past maxHeaderSize, or bytes that are not HTTP, with a bare status;
  // this answers with the __ERROR body every other refusal has.
  server.on('clientError', clientErrorListener(handler, { maxHeaderBytes }))
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
        listener,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((e) => (e ? fail(e) : done()))
            server.closeAllConnections()
          }),
      })
    })
  })
}
