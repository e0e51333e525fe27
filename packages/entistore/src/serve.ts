/**
 * @module Serving a datastore over node:http: the REST interface at /rest, and the data explorer's
 * page at / when asked (explorer/explorer-files.ts).
 */
import { createServer, maxHeaderSize, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Datastore } from '@entistore/core'
import { createRestHandler, type RestCore, type RestHandlerOptions } from '@entistore/rest'
import {
  clientErrorListener,
  toNodeListener,
  type BackpressureOptions,
  type NodeListener,
} from '@entistore/rest/node'
import { explorerListener, type ExplorerOptions } from './explorer/explorer-files.js'

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
  /**
   * Wraps the node listener before the server uses it: the CLI's `--delay` and `--fail-rate` slow
   * down or fail requests this way (chaos.ts), in front of an unchanged REST interface. `core`
   * gives the interface's own error replies (`core.refuse(error)`).
   */
  readonly wrapListener?: (listener: NodeListener, core: RestCore) => RequestListener
  /**
   * Serve the data explorer, a page that browses the datastore through this REST interface
   * (docs/explorer.md): `true` at `/`, or `{ path }`. The CLI turns it on. @default false
   */
  readonly explorer?: boolean | Omit<ExplorerOptions, 'restPath'>
  /**
   * Wraps the REST interface before the listener uses it: `joinCluster`'s `wrap` puts writes in
   * line across processes this way (cluster/cluster-core.ts).
   */
  readonly wrapCore?: (core: RestCore) => RestCore
}

export interface RunningServer {
  /** `http://HOST:PORT`, with the port actually bound. */
  readonly url: string
  readonly port: number
  readonly server: Server
  /**
   * The listener: its `unsentBytes` and `stalledReplies` say what slow clients hold, its
   * `pendingReplies` how many calls of async functions are not answered yet.
   */
  readonly listener: NodeListener
  /** The datastore served now (the last one given to `replace`). */
  readonly ds: Datastore
  /**
   * Serves `ds` from now on, on the same port and with the same options (the CLI's `--watch`).
   * Requests already being answered finish on the previous datastore; its sessions, entity sets
   * and locks are not carried over.
   */
  replace(ds: Datastore): void
  close(): Promise<void>
}

/** Starts an HTTP server for `ds`; resolves once it is listening. */
export function serve(ds: Datastore, options: ServeOptions = {}): Promise<RunningServer> {
  const maxHeaderBytes = options.maxHeaderBytes ?? maxHeaderSize
  const explorer = options.explorer === true ? {} : options.explorer || undefined
  // Everything made from the datastore, in one object so that `replace` swaps it in one step.
  const build = (served: Datastore) => {
    const handler = createRestHandler(served, options)
    const listener = toNodeListener(options.wrapCore ? options.wrapCore(handler) : handler, options)
    const wrapped = options.wrapListener ? options.wrapListener(listener, handler) : listener
    return {
      ds: served,
      listener,
      wrapped: explorer
        ? explorerListener(wrapped, { ...explorer, restPath: handler.basePath })
        : wrapped,
      clientError: clientErrorListener(handler, { maxHeaderBytes }),
    }
  }
  let current = build(ds)
  const server = createServer({ maxHeaderSize: maxHeaderBytes }, (req, res) =>
    current.wrapped(req, res),
  )
  // Node answers a request head past maxHeaderSize, or bytes that are not HTTP, with a bare status;
  // this answers with the __ERROR body every other refusal has.
  server.on('clientError', (error: Error, socket) => current.clientError(error, socket))
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
        get listener() {
          return current.listener
        },
        get ds() {
          return current.ds
        },
        replace: (next) => {
          current = build(next)
        },
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((e) => (e ? fail(e) : done()))
            server.closeAllConnections()
          }),
      })
    })
  })
}
