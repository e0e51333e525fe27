/**
 * @module The headers of each kind of reply the handler sends: JSON (a 405 says which methods),
 * server-sent events, a picture or BLOB; and the reply to OPTIONS. Every one says `nosniff`, so a
 * browser never reads a JSON or BLOB reply as HTML or script.
 */
import type { RestReply, RestRequest } from './exchange.js'
import { ALLOWED_METHODS, type Reply } from './reply.js'
import { utf8Bytes } from './serialize/utf8-bytes.js'

const JSON_TYPE = 'application/json; charset=utf-8'

// Shared by every reply that sets no cookie: nothing to allocate per request.
// `nosniff` on every reply: a browser never reads a JSON or BLOB reply as HTML or script.
const NOSNIFF = 'nosniff'

const JSON_HEADERS = Object.freeze({ 'content-type': JSON_TYPE, 'x-content-type-options': NOSNIFF })

const JSON_405_HEADERS = Object.freeze({ ...JSON_HEADERS, allow: ALLOWED_METHODS })

// A CORS preflight or a capability probe: say which methods exist, open no session.
export const OPTIONS_REPLY: RestReply = Object.freeze({
  status: 204,
  headers: Object.freeze({ allow: ALLOWED_METHODS, 'x-content-type-options': NOSNIFF }),
  body: null,
})

/**
 * The headers of a JSON reply; a 405 says which methods the resource takes (`allow`), an error may
 * ask for others (`retry-after`: to-error-body.ts).
 */
export function replyHeaders(
  status: number,
  setCookie: string | undefined,
  extra?: Readonly<Record<string, string>>,
): RestReply['headers'] {
  const base =
    extra !== undefined
      ? { ...(status === 405 ? JSON_405_HEADERS : JSON_HEADERS), ...extra }
      : status === 405
        ? JSON_405_HEADERS
        : JSON_HEADERS
  return setCookie === undefined ? base : { ...base, 'set-cookie': setCookie }
}

/**
 * Headers of server-sent events (`$changes`): never cached, nor held back by a proxy that buffers
 * (`x-accel-buffering`, nginx's).
 */
export function streamHeaders(setCookie: string | undefined): RestReply['headers'] {
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'x-content-type-options': NOSNIFF,
  }
  if (setCookie !== undefined) headers['set-cookie'] = setCookie
  return headers
}

/** Headers of a picture or BLOB reply: its own media type instead of JSON's. */
export function fileHeaders(
  file: NonNullable<Reply['file']>,
  setCookie: string | undefined,
): RestReply['headers'] {
  const headers: Record<string, string> = {
    'content-type': file.type,
    'x-content-type-options': NOSNIFF,
  }
  if (file.disposition) headers['content-disposition'] = file.disposition
  // A function's OutgoingMessage may set others (never these: it cannot set the cookie).
  if (file.headers) for (const [name, value] of Object.entries(file.headers)) headers[name] = value
  if (setCookie !== undefined) headers['set-cookie'] = setCookie
  return headers
}

/**
 * The UTF-8 bytes of `text` when they may pass `limit`; else its length, which is then below the
 * limit too (a character takes at most 3 bytes): most replies are far below it, and are not counted.
 */
export function textBytes(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : utf8Bytes(text)
}

export function cookieHeader(request: RestRequest): string | undefined {
  const value = request.headers.cookie
  return typeof value === 'string' ? value : value?.join('; ')
}
