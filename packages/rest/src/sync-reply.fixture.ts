/**
 * @module For tests and benches that call `respond` directly with requests that call no async
 * function: their reply, given synchronously, as a plain value.
 */
import { isPending, type RestReply } from './exchange.js'

/** `reply` as given synchronously; throws when `respond` answered later (a Promise). */
export function syncReply(reply: RestReply | Promise<RestReply>): RestReply {
  if (isPending(reply))
    throw new Error('respond answered with a Promise where a synchronous reply was expected')
  return reply
}
