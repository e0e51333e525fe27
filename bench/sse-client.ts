/**
 * @module Subscribers over server-sent events (bench/feed-latency.ts's `Subscribe`), as a browser's
 * EventSource is one: a GET on a connection of its own, held open, its text parsed into events
 * (`event:` the type, dispatched at the blank line that ends an event with `data:`; a block
 * without data, such as the opening `retry:`, is no event).
 */
import { request, type ClientRequest } from 'node:http'
import type { FeedEvent, Subscribe } from './feed-latency.ts'

/**
 * Subscribers of `origin + path`; one is ready once the server answered 200 (it then listens).
 * `headers` go with each GET (a session's cookie: the feed then acts as that session).
 */
export function sseSubscribe(
  origin: string,
  path: string,
  headers: Readonly<Record<string, string>> = {},
): Subscribe {
  return (onEvent) => {
    let req: ClientRequest | undefined
    let closed = false
    const ready = new Promise<void>((resolve, reject) => {
      req = request(
        origin + path,
        { agent: false, headers: { ...headers, accept: 'text/event-stream' } },
        (res) => {
          res.setEncoding('utf8')
          if (res.statusCode !== 200) {
            let text = ''
            res.on('data', (d: string) => (text += d))
            res.on('end', () =>
              reject(new Error(`GET ${path}: ${res.statusCode} ${text.slice(0, 200)}`)),
            )
            return
          }
          resolve()
          let buf = ''
          let type = 'message'
          let data = false
          res.on('data', (chunk: string) => {
            buf += chunk
            for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
              const line = buf.slice(0, nl)
              buf = buf.slice(nl + 1)
              if (line === '') {
                if (data) onEvent({ type } as FeedEvent)
                type = 'message'
                data = false
              } else if (line.startsWith('event:')) type = line.slice(6).trim()
              else if (line.startsWith('data:')) data = true
            }
          })
        },
      )
      req.on('error', (e) => {
        if (!closed) reject(e)
      })
      req.end()
    })
    return {
      ready,
      close: () => {
        closed = true
        req?.destroy()
      },
    }
  }
}
