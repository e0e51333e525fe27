/**
 * @module The fetch adapter: `fetch(Request) → Promise<Response>`, the shape Hono, Bun, Deno,
 * workers and Node's own fetch share, mapped onto the plain core (`RestCore.respond`). It reads the
 * URL, the headers and (within the limit) the body, and turns the reply into a Response; a lazy
 * body becomes a pull-based ReadableStream, so a client that reads slowly makes the server render
 * and hold one chunk at a time. No engine logic here.
 */
import { datastoreError } from '@entistore/core'
import {
  bodyLimitOf,
  takesBody,
  type RestBody,
  type RestCore,
  type RestReply,
} from '../exchange.js'
import { nextTurn, SLICE_MS } from '../serialize/first-piece.js'
import { splitTarget } from '../url/request-target.js'

type FetchBody = ConstructorParameters<typeof Response>[0]

/** `fetch(Request)` over `core`. The promise never rejects: every failure is an `__ERROR` response. */
export function toFetchHandler(core: RestCore): (request: Request) => Promise<Response> {
  return async (request) => {
    let reply: RestReply
    try {
      reply = await answer(core, request)
    } catch (error) {
      reply = core.refuse(error)
    }
    return toResponse(reply)
  }
}

async function answer(core: RestCore, request: Request): Promise<RestReply> {
  // A Request's URL is absolute and was parsed by the runtime already: its split cannot fail.
  const target = splitTarget(request.url)!
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  // A Request carries its host in its URL, not among its headers (fetch does not let one set
  // Host): the core reads it as the node listener gives it (a lock's `lockInfo.host`).
  if (headers.host === undefined) headers.host = hostOf(request.url)
  let body: Uint8Array | undefined
  if (takesBody(request.method) && request.body !== null) {
    // A file POSTed as raw bytes ($upload) may be larger than a JSON body: the core says.
    const limit = bodyLimitOf(core, target.path)
    body = await readBody(request, limit)
    if (body === undefined) return core.refuse(datastoreError('BodyTooLarge', [limit]))
  }
  // A Promise for a call of an async function, awaited like the body; should it reject (it must
  // not), the handler above answers the core's 500.
  return core.respond({
    method: request.method,
    path: target.path,
    query: target.query,
    headers,
    body,
  })
}

/** The host and port of an absolute URL (`http://localhost:8080/rest` → `localhost:8080`). */
function hostOf(url: string): string {
  const start = url.indexOf('//') + 2
  const end = url.indexOf('/', start)
  return url.slice(start, end < 0 ? undefined : end)
}

/**
 * The whole body, or undefined when it is larger than `limit` bytes: known from Content-Length
 * before anything is read, or found while reading, which then stops.
 */
async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) {
    await request.body!.cancel()
    return undefined
  }
  const reader = request.body!.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) {
        await reader.cancel()
        return undefined
      }
      parts.push(value)
    }
  } catch (error) {
    throw datastoreError('BadRequestBody', ['it could not be read to its end'], { cause: error })
  }
  if (parts.length === 1) return parts[0]!
  const out = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/** The Response for a reply: the same status, headers and body bytes the node listener writes. */
export function toResponse(reply: RestReply): Response {
  const headers = new Headers()
  for (const name in reply.headers) {
    const value = reply.headers[name]!
    if (typeof value === 'string') headers.set(name, value)
    else for (const v of value) headers.append(name, v)
  }
  return new Response(toFetchBody(reply.body), { status: reply.status, headers })
}

function toFetchBody(body: RestBody): FetchBody {
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) return body
  const chunks = body[Symbol.iterator]()
  const encoder = new TextEncoder()
  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    const next = chunks.next()
    if (next.done) controller.close()
    else controller.enqueue(encoder.encode(next.value))
  }
  // When this turn of the event loop began writing: a reader that takes each chunk at once pulls
  // the next in a microtask, which never lets other requests in; past SLICE_MS, the next chunk
  // waits for another turn.
  let sliceStart = performance.now()
  return new ReadableStream<Uint8Array>(
    {
      // Pulled, with no queue ahead (highWaterMark 0): a chunk is rendered when the reader asks.
      pull(controller) {
        if (performance.now() - sliceStart < SLICE_MS) return enqueue(controller)
        // A rendering error rejects the pull, which errors the stream, as a throw does above.
        return new Promise<void>((resolve, reject) =>
          nextTurn(() => {
            sliceStart = performance.now()
            try {
              enqueue(controller)
              resolve()
            } catch (error) {
              reject(error)
            }
          }),
        )
      },
      cancel() {
        chunks.return?.()
      },
    },
    { highWaterMark: 0 },
  )
}
