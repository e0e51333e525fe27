/**
 * @module Reading a request body within a size limit, the listener's budget of bytes in flight and
 * its body timeout (body/bodies-in-flight.ts). The limit and the budget are checked before anything
 * is read when the client declares a Content-Length, and while reading otherwise (chunked bodies),
 * which stops at the first byte past them: a large body is never held whole, nor even read to its
 * end.
 */
import type { IncomingMessage } from 'node:http'
import { datastoreError, type DatastoreError } from '@entistore/core'
import type { BodiesInFlight } from '../body/bodies-in-flight.js'

/**
 * Calls `done` with the body of `req`, or with the error that refuses it: BodyTooLarge (413) as
 * soon as it is known to be larger than `limit` bytes (or than the whole budget),
 * BodiesInFlightFull (503) when it does not fit in what the other bodies leave of the budget,
 * BodyTimeout (408) when it stops arriving. A client that goes away before the end of its body
 * gets no call. Whatever the end, the body's bytes are given back to the budget at once.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  inFlight: BodiesInFlight,
  done: (body: Buffer | DatastoreError) => void,
): void {
  const max = inFlight.limit(limit)
  const header = req.headers['content-length']
  // node:http has checked the header: digits only, one value.
  const declared = header === undefined ? undefined : Number(header)
  if (declared !== undefined && declared > max) {
    done(datastoreError('BodyTooLarge', [max]))
    return
  }
  const read = inFlight.start(declared, () => finish(inFlight.stalled()))
  if (read === undefined) {
    done(inFlight.full())
    return
  }
  const parts: Buffer[] = []
  let size = 0
  // Ends the read: the listeners go, the bytes go back; `answer` (if any) is the reply's matter.
  const finish = (answer: Buffer | DatastoreError | undefined): void => {
    req.off('data', onData)
    req.off('end', onEnd)
    req.off('error', onGone)
    req.off('close', onGone)
    read.end()
    parts.length = 0
    // The rest of a refused body still flows in and is dropped (Node discards what no one listens
    // to) until the connection is closed after the reply: pausing instead would leave a client
    // that sends its whole body before reading stuck, never seeing the reply.
    if (answer !== undefined) done(answer)
  }
  const onData = (part: Buffer): void => {
    size += part.length
    if (size > max) finish(datastoreError('BodyTooLarge', [max]))
    else if (!read.arrived(part.length)) finish(inFlight.full())
    else parts.push(part)
  }
  const onEnd = (): void => {
    const body = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size)
    finish(body)
  }
  const onGone = (): void => finish(undefined)
  req.on('data', onData)
  req.on('end', onEnd)
  req.on('error', onGone)
  // A client that goes away mid-body: 'close' without 'end' (an 'error' only when someone listens).
  req.on('close', onGone)
}
