/**
 * @module The fetch adapter: `fetch(Request) → Promise<Response>`, the shape Hono, Bun, Deno,
 * workers and Node's own fetch share, mapped onto the plain core (`RestCore.respond`). It reads the
 * URL, the headers and the body (within the limit, the handler's budget of bytes in flight and its
 * body timeout: body/bodies-in-flight.ts), and turns the reply into a Response; a lazy
 * body becomes a pull-based ReadableStream, so a client that reads slowly makes the server render
 * and hold one chunk at a time. No engine logic here.
 */
import { datastoreError, DatastoreError } from '@entistore/core'
import {
  BodiesInFlight,
  type BodyCounters,
  type BodyReadOptions,
} from '../body/bodies-in-flight.js'
import {
  bodyLimitOf,
  isStream,
  readsBody,
  type RestBody,
  type RestCore,
  type RestReply,
  type RestStream,
} from '../exchange.js'
import { nextTurn, SLICE_MS, turnDeadline } from '../slices/turns.js'
import { splitTarget } from '../url/request-target.js'

type FetchBody = ConstructorParameters<typeof Response>[0]

/** Options of `toFetchHandler`: the bounds of the bodies it reads, over all its requests. */
export type FetchHandlerOptions = BodyReadOptions

/** `fetch(Request) → Promise<Response>`, with the counters of the bodies it reads. */
export interface FetchHandler extends BodyCounters {
  (request: Request): Promise<Response>
}

/**
 * `fetch(Request)` over `core`. The promise never rejects: every failure is an `__ERROR` response.
 * Each handler has its own budget of body bytes in flight (`rest.fetch` has one).
 */
export function toFetchHandler(core: RestCore, options: FetchHandlerOptions = {}): FetchHandler {
  const bodies = new BodiesInFlight(options)
  const handler = async (request: Request): Promise<Response> => {
    let reply: RestReply
    try {
      reply = await answer(core, request, bodies)
    } catch (error) {
      reply = core.refuse(error)
    }
    return toResponse(reply)
  }
  return Object.defineProperties(handler, bodies.counters()) as FetchHandler
}

async function answer(
  core: RestCore,
  request: Request,
  bodies: BodiesInFlight,
): Promise<RestReply> {
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
  if (readsBody(core, request.method, target.path) && request.body !== null) {
    // A file POSTed as raw bytes ($upload) may be larger than a JSON body: the core says.
    const limit = bodyLimitOf(core, target.path)
    const read = await readBody(request, limit, bodies)
    if (DatastoreError.is(read)) return core.refuse(read, { headers, path: target.path })
    body = read
  }
  // A Promise for a call of an async function, awaited like the body; should it reject (it must
  // not), the handler above answers the core's 500.
  const reply = core.respond({
    method: request.method,
    path: target.path,
    query: target.query,
    headers,
    body,
    // A client that went away aborts its Request (in the runtimes that tell): its read stops.
    closed: () => request.signal.aborted,
  })
  // A stream (`$changes`) ends when its client goes: in the runtimes that abort a Request then,
  // and otherwise when the Response's body is cancelled (toFetchBody).
  const answered = await reply
  const stream = answered.body
  if (isStream(stream))
    request.signal.addEventListener('abort', () => stream.close(), { once: true })
  return answered
}

/** The host and port of an absolute URL (`http://localhost:8080/rest` → `localhost:8080`). */
function hostOf(url: string): string {
  const start = url.indexOf('//') + 2
  const end = url.indexOf('/', start)
  return url.slice(start, end < 0 ? undefined : end)
}

/**
 * The whole body, or the error that refuses it (as the node listener's readBody): larger than
 * `limit` bytes, known from Content-Length before anything is read or found while reading, which
 * then stops; not fitting in what the other bodies leave of the budget; stopped arriving.
 */
async function readBody(
  request: Request,
  limit: number,
  bodies: BodiesInFlight,
): Promise<Uint8Array | DatastoreError> {
  const max = bodies.limit(limit)
  const header = request.headers.get('content-length')
  const declared = header === null ? undefined : Number(header)
  // A header that is not a length (a runtime that let it through) declares nothing: counted as read.
  const length = declared !== undefined && Number.isSafeInteger(declared) ? declared : undefined
  if (length !== undefined && length > max) {
    await request.body!.cancel()
    return datastoreError('BodyTooLarge', [max])
  }
  let stalled: DatastoreError | undefined
  const reader = request.body!.getReader()
  // The bytes go back at once; cancelling the reader ends the read the loop below waits on, which
  // then answers the timeout.
  const read = bodies.start(length, () => {
    stalled = bodies.stalled()
    read!.end()
    reader.cancel().catch(() => {})
  })
  if (read === undefined) {
    await reader.cancel()
    return bodies.full()
  }
  const parts: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (stalled !== undefined) return stalled
      if (done) break
      size += value.byteLength
      const refused =
        size > max
          ? datastoreError('BodyTooLarge', [max])
          : read.arrived(value.byteLength)
            ? undefined
            : bodies.full()
      if (refused !== undefined) {
        await reader.cancel()
        return refused
      }
      parts.push(value)
    }
  } catch (error) {
    throw datastoreError('BadRequestBody', ['it could not be read to its end'], { cause: error })
  } finally {
    read.end()
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
  if (isStream(body)) return streamBody(body)
  const chunks = body[Symbol.iterator]()
  const encoder = new TextEncoder()
  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    const next = chunks.next()
    if (next.done) controller.close()
    else controller.enqueue(encoder.encode(next.value))
  }
  // A reader that takes each chunk at once pulls the next in a microtask, which never lets other
  // requests in: past the turn's slice (SLICE_MS, shared with all the reply work of the turn:
  // slices/turns.ts), the next chunk waits for another turn.
  return new ReadableStream<Uint8Array>(
    {
      // Pulled, with no queue ahead (highWaterMark 0): a chunk is rendered when the reader asks.
      pull(controller) {
        if (performance.now() < turnDeadline(SLICE_MS)) return enqueue(controller)
        // A rendering error rejects the pull, which errors the stream, as a throw does above.
        return new Promise<void>((resolve, reject) =>
          nextTurn(() => {
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

/** A stream's chunks as they come, pulled as the reader asks; cancelled: the stream is closed. */
function streamBody(stream: RestStream): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]()
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next()
        if (next.done) controller.close()
        else controller.enqueue(encoder.encode(next.value))
      },
      cancel() {
        stream.close()
        void chunks.return?.()
      },
    },
    { highWaterMark: 0 },
  )
}
