/**
 * @module Lingering close, as Node's keep-alive and nginx's `lingering_close` do it: a body refused
 * before its end (413, 503) is answered while its client is still sending, and the connection is
 * closed after the answer. Closed with bytes unread, the kernel resets it, and a client that sends
 * its whole body before it reads (fetch, most clients) gets ECONNRESET or EPIPE instead of the
 * answer: a 16 MiB picture told 503 `Retry-After` never saw the 503. So the answer is sent, then
 * the rest of the body is read and dropped (nothing is kept) before the connection is closed, within
 * two bounds that keep a refusal cheap: bytes (a body declared larger is closed at once, as before:
 * reading it would cost more than its answer is worth) and time (the body timeout's, on its
 * injectable schedule), so a client that never stops sending is still cut off.
 */
import type { IncomingMessage } from 'node:http'
import type { Schedule } from '../schedule.js'

export interface LingerBounds {
  /** The most bytes of the body read and dropped after the answer. */
  readonly maxBytes: number
  /** The longest the connection stays open after the answer, in milliseconds, on `schedule`. */
  readonly ms: number
  readonly schedule: Schedule
}

/**
 * Makes the close that follows the answer to `req` linger: its connection's end is sent after the
 * answer, and the socket destroyed once the body has arrived whole, `maxBytes` more have arrived,
 * or `ms` have passed, whichever comes first. A body declared larger than `maxBytes` does not
 * linger. Called before the answer is written (node:http closes the socket as the answer finishes).
 */
export function lingerAfterAnswer(req: IncomingMessage, bounds: LingerBounds): void {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (req.complete || declared > bounds.maxBytes) return
  const socket = req.socket
  // node:http's close after an answer with `connection: close` (_http_server.js's resOnFinish):
  // it ends the socket and destroys it as soon as the answer is written.
  socket.destroySoon = () => {
    socket.end()
    if (req.complete) return close()
    let read = 0
    const onData = (part: Buffer): void => {
      read += part.length
      if (read > bounds.maxBytes) close()
    }
    // The body's end: nothing is left unread, the connection closes without a reset.
    req.on('data', onData).once('end', close)
    const cancel = bounds.schedule(close, bounds.ms)
    socket.once('close', () => {
      cancel()
      req.off('data', onData).off('end', close)
    })
  }
  // Destroyed once the answer is written: destroying before would drop it.
  const close = (): void => {
    if (socket.writableFinished) socket.destroy()
    else socket.once('finish', () => socket.destroy())
  }
}
