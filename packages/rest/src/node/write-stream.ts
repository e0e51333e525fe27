/**
 * @module Writing a stream (server-sent events: `/rest/$changes`) to a node:http response. Each
 * chunk is written as it comes; when the socket is full, the next is asked for only once the
 * client has read (`drain`), within the listener's write timeout, past which the connection is
 * destroyed (a client that reads nothing holds neither a socket nor, through its subscription,
 * any event: its feed drops it). When the connection closes, whoever closes it, the stream is
 * closed: nothing it holds outlives its client.
 */
import type { ServerResponse } from 'node:http'
import type { RestStream } from '../exchange.js'

/** What a stream needs of the listener's Outbox (write-reply.ts, which calls this). */
export interface StreamBounds {
  readonly writeTimeoutMs: number
}

/** Writes `stream` to `res`, whose head is written. */
export function writeStream(res: ServerResponse, stream: RestStream, outbox: StreamBounds): void {
  // The client may have gone before the reply was written: its 'close' was then heard already.
  if (res.destroyed || res.socket === null || res.socket.destroyed) {
    stream.close()
    return
  }
  let open = true
  const chunks = stream[Symbol.asyncIterator]()
  let resume: (() => void) | undefined
  const closed = (): void => {
    open = false
    stream.close()
    // Ends the wait of a full socket, and the generator's own `finally`.
    resume?.()
    void chunks.return?.()
  }
  res.once('close', closed)
  // Events are small and must not wait: no delay for Nagle's algorithm.
  res.socket.setNoDelay(true)

  const drained = (): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => done(false), outbox.writeTimeoutMs)
      timer.unref()
      const done = (ok: boolean): void => {
        clearTimeout(timer)
        res.off('drain', onDrain)
        resume = undefined
        resolve(ok)
      }
      const onDrain = (): void => done(true)
      resume = () => done(false)
      res.once('drain', onDrain)
    })

  const pump = async (): Promise<void> => {
    try {
      for (;;) {
        const next = await chunks.next()
        if (!open) return
        if (next.done) {
          res.end()
          return
        }
        if (!res.write(next.value) && !(await drained())) {
          if (open) res.destroy()
          return
        }
      }
    } catch {
      // The status is sent: an error can only cut the stream; the client reconnects.
      res.destroy()
    }
  }
  void pump()
}
