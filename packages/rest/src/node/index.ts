/**
 * @module The node:http bridge: `createServer(toNodeListener(handler))`. It turns an
 * IncomingMessage into a web `Request` and streams the `Response` back; it never replaces the
 * global Request/Response. Express: mount it with `app.use('/rest', toNodeListener(h, { url: (req) => req.originalUrl }))`
 * and no body parser in front (the body stream must reach the handler unread).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { datastoreError } from '@entistore/core'
import { toErrorReply } from '../errors/to-error-body.js'

export type FetchHandler = (request: Request) => Promise<Response>

export interface NodeListenerOptions {
  /** The URL to hand to the handler; Express under a mount path needs `req.originalUrl`. @default req.url */
  readonly url?: (req: IncomingMessage) => string
}

function writeError(res: ServerResponse, error: unknown): void {
  const { status, body } = toErrorReply(error)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}

export function toWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  path = req.url ?? '/',
): Request {
  const origin = `http://${req.headers.host ?? 'localhost'}`
  // An origin-form target is appended, not resolved: resolving `//x/rest/…` would read `x` as a host
  // and serve /rest/… for a path that is not below /rest. Absolute-form targets are resolved.
  const url = path.startsWith('/') ? new URL(origin + path) : new URL(path, origin)
  const headers = new Headers()
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue
    if (Array.isArray(v)) for (const x of v) headers.append(k, x)
    else headers.set(k, v)
  }
  const abort = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) abort.abort() // the client went away
  })
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method ?? 'GET',
    headers,
    signal: abort.signal,
  }
  if (hasBody) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream
    init.duplex = 'half'
  }
  return new Request(url, init)
}

export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((v, k) => {
    if (k !== 'set-cookie') headers[k] = v
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  // An empty statusText would print as `HTTP/1.1 200 ` with no reason phrase: let Node fill it in.
  if (response.statusText) res.writeHead(response.status, response.statusText, headers)
  else res.writeHead(response.status, headers)
  if (!response.body) {
    res.end()
    return
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res)
}

/** A node:http request listener serving `handler` (a `fetch`-shaped function or an object with one). */
export function toNodeListener(
  handler: FetchHandler | { fetch: FetchHandler },
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const fetch = typeof handler === 'function' ? handler : handler.fetch.bind(handler)
  return (req, res) => {
    let request: Request
    try {
      request = toWebRequest(req, res, options.url?.(req))
    } catch {
      // Node accepts request targets the WHATWG URL parser refuses; that is the client's error.
      writeError(res, datastoreError('UrlMalformed', [req.url ?? '', 'not a valid URL']))
      return
    }
    fetch(request)
      .then((response) => writeWebResponse(response, res))
      .catch((error: unknown) => {
        if (!res.headersSent) writeError(res, error)
        else res.destroy(error as Error)
      })
  }
}
