/**
 * @module A write as it travels from the process a client sent it to, to the writer, and its
 * reply on the way back: plain JSON, so that any transport carries it (a socket between machines,
 * a Unix socket between the workers of one `serve`).
 *
 * The request keeps what the core reads of it (method, target, headers, body, the client's
 * address) and an `id` the forwarding process gives it, unique across processes: the writer logs
 * it with the write's commits, so that after a failover the forwarding process can ask whether a
 * write it got no answer for was applied. The reply adds `at`, the log position that holds the
 * write: the forwarding process applies the log up to it before it answers its client, so that
 * the client reads its own write wherever it reads next.
 */
import type { RestHeaders, RestReply, RestRequest } from '@entistore/rest'
import { isStream } from '@entistore/rest'

/** A body as JSON carries it: text as it is, bytes in base64. */
export type WireBody = { readonly text: string } | { readonly base64: string } | null

export interface ForwardedWrite {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly query: string
  readonly headers: Readonly<Record<string, string | string[]>>
  readonly body: WireBody
  readonly remoteAddress?: string
}

export interface ForwardedReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[]>>
  readonly body: WireBody
  /** The log position up to which the forwarding process applies before it answers. */
  readonly at: number
}

/** `request` ready to travel, under `id`. */
export function toForwarded(id: string, request: RestRequest): ForwardedWrite {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers[name] = value
  return {
    id,
    method: request.method,
    path: request.path,
    query: request.query,
    headers,
    body: toWire(request.body ?? null),
    ...(request.remoteAddress === undefined ? {} : { remoteAddress: request.remoteAddress }),
  }
}

/** The request the writer answers. It never waits for a turn of its own: it is already late. */
export function fromForwarded(write: ForwardedWrite): RestRequest {
  const body = fromWire(write.body)
  return {
    method: write.method,
    path: write.path,
    query: write.query,
    headers: write.headers as RestHeaders,
    ...(body === null ? {} : { body }),
    ...(write.remoteAddress === undefined ? {} : { remoteAddress: write.remoteAddress }),
  }
}

/** A reply ready to travel back, its body gathered whole (a write's reply is small). */
export function toForwardedReply(reply: RestReply, at: number): ForwardedReply {
  return { status: reply.status, headers: reply.headers, body: toWire(gathered(reply.body)), at }
}

/** `reply` with its body in one piece: what is run for a forwarded write, before it travels. */
export async function wholeReply(reply: RestReply | Promise<RestReply>): Promise<RestReply> {
  const r = await reply
  return { ...r, body: gathered(r.body) }
}

/** A reply as the log keeps it beside a forwarded write: its JSON text, without a position. */
export function loggedReply(reply: RestReply): string {
  const { at: _, ...kept } = toForwardedReply(reply, 0)
  return JSON.stringify(kept)
}

/** A logged reply, read back, at the log position `at` that holds its write. */
export function fromLoggedReply(text: string, at: number): ForwardedReply {
  return { ...(JSON.parse(text) as Omit<ForwardedReply, 'at'>), at }
}

function gathered(body: RestReply['body']): string | Uint8Array | null {
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) return body
  // A stream (the live feed) is never a write's reply: nothing of it travels.
  if (isStream(body)) return (body.close(), null)
  return [...body].join('')
}

/** The reply the forwarding process sends its client. */
export function fromForwardedReply(reply: ForwardedReply): RestReply {
  return { status: reply.status, headers: reply.headers, body: fromWire(reply.body) }
}

function toWire(body: string | Uint8Array | null): WireBody {
  if (body === null) return null
  if (typeof body === 'string') return { text: body }
  return { base64: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64') }
}

function fromWire(body: WireBody): string | Uint8Array | null {
  if (body === null) return null
  if ('text' in body) return body.text
  return new Uint8Array(Buffer.from(body.base64, 'base64'))
}
