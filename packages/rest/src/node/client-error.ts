/**
 * @module Answers for the requests node:http's parser refuses before any listener sees them: a
 * request head past `maxHeaderSize` (431), bytes that are not HTTP (400), a request not received
 * whole within the server's `headersTimeout` or `requestTimeout` (408). Node's own answers carry no body; these carry
 * the `__ERROR` body every other refusal has. Install it on the server:
 * `server.on('clientError', clientErrorListener(handler, { maxHeaderBytes }))`.
 */
import type * as Http from 'node:http'
import type { Duplex } from 'node:stream'
import { datastoreError } from '@entistore/core'
import type { RestCore } from '../exchange.js'

// Taken from the running process, not imported: an import of node:http from an ES module makes
// its facade, which loads undici (20 ms of a server's start-up) for exports nothing here uses.
const { maxHeaderSize, STATUS_CODES }: typeof Http = process.getBuiltinModule('node:http')

export interface ClientErrorOptions {
  /** The server's `maxHeaderSize`, named in the 431 message. @default http.maxHeaderSize */
  readonly maxHeaderBytes?: number
}

/** A `clientError` listener for a node:http server; the connection is closed after the answer. */
export function clientErrorListener(
  core: RestCore,
  options: ClientErrorOptions = {},
): (error: Error, socket: Duplex) => void {
  const limit = options.maxHeaderBytes ?? maxHeaderSize
  return (error, socket) => {
    const code = (error as NodeJS.ErrnoException).code
    // Node's own check: a reply already started on this connection (pipelining) cannot be followed
    // by another; and a client that is gone needs no answer.
    const started = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
      ?.headersSent
    if (code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy()
      return
    }
    // The client never finished its request (a slow head; a body trickling in faster than the
    // listener's body timeout, slower than this).
    const refused =
      code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? datastoreError('RequestTimeout', [])
        : code === 'HPE_HEADER_OVERFLOW'
          ? datastoreError('HeadersTooLarge', [limit])
          : datastoreError('MalformedRequest', [code ?? 'unknown'])
    const reply = core.refuse(refused)
    const body = typeof reply.body === 'string' ? reply.body : ''
    let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\n`
    for (const [name, value] of Object.entries(reply.headers))
      for (const v of typeof value === 'string' ? [value] : value) head += `${name}: ${v}\r\n`
    head += `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`
    socket.end(head + body)
  }
}
