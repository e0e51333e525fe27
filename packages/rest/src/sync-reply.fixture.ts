/**
 * @module For tests and benches that call `respond` directly with requests that call no async
 * function: their reply, given synchronously, as a plain value.
 */
import { isPending, type RestBody, type RestReply } from './exchange.js'

/** `reply` as given synchronously; throws when `respond` answered later (a Promise). */
export function syncReply(reply: RestReply | Promise<RestReply>): RestReply {
  if (isPending(reply))
    throw new Error('respond answered with a Promise where a synchronous reply was expected')
  return reply
}

/**
 * A reply body as text, whatever form the handler gave it: a text, bytes (a read by key sends the
 * entity's kept bytes), or chunks; '' for none.
 */
export function replyText(body: RestBody): string {
  if (body === null) return ''
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return new TextDecoder().decode(body)
  return [...(body as Iterable<string>)].join('')
}
