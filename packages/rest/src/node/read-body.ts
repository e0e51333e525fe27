/**
 * @module Reading a request body within a size limit. The limit is checked before anything is
 * read when the client declares a Content-Length, and while reading otherwise (chunked bodies),
 * which stops at the first byte past it: a large body is never held whole, nor even read to its end.
 */
import type { IncomingMessage } from 'node:http'

/**
 * Calls `done` with the body of `req`, or with undefined as soon as it is known to be larger than
 * `limit` bytes. A client that goes away before the end of its body gets no call.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  done: (body: Buffer | undefined) => void,
): void {
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) {
    done(undefined)
    return
  }
  const parts: Buffer[] = []
  let size = 0
  const stop = (): void => {
    req.off('data', onData)
    req.off('end', onEnd)
    req.off('error', stop)
  }
  const onData = (part: Buffer): void => {
    size += part.length
    if (size <= limit) {
      parts.push(part)
      return
    }
    // The rest still flows in and is dropped (Node discards what no one listens to) until the
    // connection is closed after the 413: pausing instead would leave a client that sends its whole
    // body before reading stuck, never seeing the reply.
    stop()
    parts.length = 0
    done(undefined)
  }
  const onEnd = (): void => {
    stop()
    done(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size))
  }
  req.on('data', onData)
  req.on('end', onEnd)
  req.on('error', stop)
}
