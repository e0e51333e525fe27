/**
 * @module The node:http listener: `createServer(toNodeListener(handler))`. A thin mapping from
 * IncomingMessage / ServerResponse onto the plain core (`RestCore.respond`): it never builds a web
 * Request, Headers or stream, which cost ten times the answer to a read by key. The path comes from
 * the request line only; the Host header is checked, never used. Bodies are read within the
 * handler's limit (read-body.ts), replies written with backpressure (write-reply.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { datastoreError } from '@entistore/core'
import { takesBody, type RestCore, type RestRequest } from '../exchange.js'
import { isHostHeader, splitTarget } from '../url/request-target.js'
import { readBody } from './read-body.js'
import { Outbox, writeReply, type BackpressureOptions } from './write-reply.js'

export interface NodeListenerOptions extends BackpressureOptions {
  /**
   * The request target to serve; Express under a mount path needs `(req) => req.originalUrl`.
   * @default req.url
   */
  readonly url?: (req: IncomingMessage) => string
}

export interface NodeListener {
  (req: IncomingMessage, res: ServerResponse): void
  /** Bytes now held for replies waiting for their clients to read (what `maxUnsentBytes` bounds). */
  readonly unsentBytes: number
  /** Replies now waiting for their clients to read. */
  readonly stalledReplies: number
}

// The connection is closed after a 413: the rest of the body is not worth reading to keep it.
const CLOSE = Object.freeze({ connection: 'close' })

/** A node:http request listener serving `core` (the object `createRestHandler` returns). */
export function toNodeListener(core: RestCore, options: NodeListenerOptions = {}): NodeListener {
  const outbox = new Outbox(options)
  const targetOf = options.url ?? ((req: IncomingMessage) => req.url ?? '/')

  const respond = (res: ServerResponse, request: RestRequest): void => {
    let reply
    try {
      reply = core.respond(request)
    } catch (error) {
      reply = core.refuse(error)
    }
    writeReply(res, reply, outbox)
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const target = targetOf(req)
    const split = splitTarget(target)
    if (split === undefined) {
      // An absolute-form target whose authority is no host (`GET http://[/rest/…`).
      writeReply(
        res,
        core.refuse(datastoreError('UrlMalformed', [target, 'not a valid URL'])),
        outbox,
      )
      return
    }
    const host = req.headers.host
    if (host !== undefined && !isHostHeader(host)) {
      const why = `its Host header "${host}" is not a host`
      writeReply(res, core.refuse(datastoreError('UrlMalformed', [target, why])), outbox)
      return
    }
    const method = req.method ?? 'GET'
    if (!takesBody(method)) {
      respond(res, {
        method,
        path: split.path,
        query: split.query,
        headers: req.headers,
        remoteAddress: req.socket.remoteAddress,
      })
      return
    }
    readBody(req, core.maxBodyBytes, (body) => {
      if (body === undefined) {
        const tooLarge = datastoreError('BodyTooLarge', [core.maxBodyBytes])
        writeReply(res, core.refuse(tooLarge), outbox, CLOSE)
        return
      }
      respond(res, {
        method,
        path: split.path,
        query: split.query,
        headers: req.headers,
        remoteAddress: req.socket.remoteAddress,
        body,
      })
    })
  }

  return Object.defineProperties(listener, {
    unsentBytes: { get: () => outbox.unsentBytes },
    stalledReplies: { get: () => outbox.waiting.size },
  }) as NodeListener
}
