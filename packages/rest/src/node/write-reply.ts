/**
 * @module Writing a reply to a node:http response with backpressure. A small body is written in one
 * `end`. A big one (a lazy sequence of chunks, or a text longer than a chunk) is written a chunk at
 * a time: when `write` says the socket is full, the next chunk waits for `drain`, so a client that
 * reads slowly makes the server render and hold one chunk, not the reply.
 *
 * Two bounds keep clients that stop reading from costing memory or connections without end: a
 * write timeout (a reply whose client has not read for that long is dropped), and a budget for the
 * bytes held by all waiting replies together. Past the budget, the reply that has waited longest is
 * dropped: a client that reads makes its reply wait a few milliseconds at a time, so the one waiting
 * longest is the one that stopped reading. Dropping destroys the connection: the client sees its
 * reply cut short.
 */
import type { OutgoingHttpHeader, ServerResponse } from 'node:http'
import { isStream, type RestReply } from '../exchange.js'
import { writeStream } from './write-stream.js'
import { LOOP_TURNS, SLICE_MS, type Turns } from '../slices/turns.js'
import { CHUNK_CHARS } from '../serialize/json-chunks.js'

export interface BackpressureOptions {
  /**
   * How long a reply waits for its client to read before the connection is destroyed, in
   * milliseconds. @default 30_000
   */
  readonly writeTimeoutMs?: number
  /**
   * The most bytes held, over all connections, for replies waiting for their clients to read;
   * past it, the reply that has waited longest is dropped. @default 67_108_864 (64 MiB)
   */
  readonly maxUnsentBytes?: number
  /**
   * The deadline the writes share with the other work in slices of a turn of the event loop
   * (slices/turns.ts). Tests give the handler's, on a clock of their own, to count a turn's work.
   * @default the event loop's
   */
  readonly turns?: Turns
}

/** The bytes held for clients that are not reading, over all the replies of one listener. */
export class Outbox {
  readonly writeTimeoutMs: number
  readonly maxUnsentBytes: number
  readonly #turns: Turns
  /** Bytes held by waiting replies (what `maxUnsentBytes` bounds). */
  unsentBytes = 0
  /** The waiting replies, the one waiting longest first (a Set keeps insertion order). */
  readonly waiting = new Set<ChunkWriter>()

  constructor(options: BackpressureOptions = {}) {
    this.writeTimeoutMs = options.writeTimeoutMs ?? 30_000
    this.maxUnsentBytes = options.maxUnsentBytes ?? 64 * 1024 * 1024
    this.#turns = options.turns ?? LOOP_TURNS
  }

  /**
   * Whether the turn's slice is over (`SLICE_MS`, shared with every other reply's work and
   * measure: slices/turns.ts): then the next chunks wait for a later turn. One slice for them
   * all: ten clients whose sockets drained in the same turn took 10 ms each, and a fresh GET
   * waited 50 ms behind them.
   */
  sliceOver(): boolean {
    return this.#turns.now() >= this.#turns.deadline(SLICE_MS)
  }
}

/** Writes `reply` to `res`; `extraHeaders` are added to the reply's (`connection: close`). */
export function writeReply(
  res: ServerResponse,
  reply: RestReply,
  outbox: Outbox,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  const { body } = reply
  // A body sent whole goes with its length: the response is then one write of head and body,
  // where chunked encoding made Node write the head, a size line, the body and an end marker.
  // Every header goes in the one list given to writeHead: a header set before with setHeader sends
  // node's writeHead through its slow path, which sets each of them again one by one. A flat list
  // of names and values, not an object: spreading the reply's headers (itself made by a spread
  // when it sets the session cookie) into a new object took V8's slow path for copies of copies,
  // about a microsecond a reply.
  const whole =
    body instanceof Uint8Array || (typeof body === 'string' && body.length <= CHUNK_CHARS)
  const headers: OutgoingHttpHeader[] = []
  for (const name in reply.headers)
    if (extraHeaders?.[name] === undefined)
      headers.push(name, reply.headers[name] as OutgoingHttpHeader)
  if (extraHeaders) for (const name in extraHeaders) headers.push(name, extraHeaders[name]!)
  if (whole)
    headers.push(
      'content-length',
      typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    )
  res.writeHead(reply.status, headers)
  if (body === null) res.end()
  else if (isStream(body)) writeStream(res, body, outbox)
  else if (whole) res.end(body)
  else if (typeof body === 'string') new ChunkWriter(res, slices(body), outbox).write()
  else new ChunkWriter(res, (body as Iterable<string>)[Symbol.iterator](), outbox).write()
}

function* slices(text: string): Iterator<string> {
  for (let at = 0; at < text.length; at += CHUNK_CHARS) yield text.slice(at, at + CHUNK_CHARS)
}

/** One big reply on its way: made only for replies longer than a chunk. */
class ChunkWriter {
  readonly #res: ServerResponse
  readonly #chunks: Iterator<string>
  readonly #outbox: Outbox
  #held = 0
  #timer: ReturnType<typeof setTimeout> | undefined
  // The next turn's writing, once asked for.
  #turn: ReturnType<typeof setImmediate> | undefined

  constructor(res: ServerResponse, chunks: Iterator<string>, outbox: Outbox) {
    this.#res = res
    this.#chunks = chunks
    this.#outbox = outbox
    res.once('close', this.#closed)
  }

  /**
   * Writes chunks until the socket is full, the reply is done, or the turn's slice is over (this
   * reply's work and the others', `Outbox.sliceOver`); then the next chunks wait for a later turn
   * of the loop. A client on a fast link (loopback) takes each chunk as soon as it is written:
   * node then says `drain` in the same turn (a nextTick), so waiting for it alone never let
   * another client in, and a 118 MB reply held the loop for 3.4 s.
   */
  readonly write = (): void => this.#write(false)

  /**
   * `write`; with `surely`, at least one chunk, whatever the slice: a turn whose slice other work
   * took (a reply measured before) still moves this reply on.
   */
  #write(surely: boolean): void {
    this.#release()
    const res = this.#res
    if (res.destroyed) return
    if (!surely && this.#outbox.sliceOver()) {
      this.#turn ??= setImmediate(this.#nextSlice)
      return
    }
    for (;;) {
      let next: IteratorResult<string>
      try {
        next = this.#chunks.next()
      } catch {
        // The status is sent: a rendering error (reported by the handler) can only cut the reply.
        res.destroy()
        return
      }
      if (next.done) {
        res.end()
        return
      }
      if (!res.write(next.value)) {
        this.#wait()
        return
      }
      if (this.#outbox.sliceOver()) {
        this.#turn ??= setImmediate(this.#nextSlice)
        return
      }
    }
  }

  readonly #nextSlice = (): void => {
    this.#turn = undefined
    this.#write(true)
  }

  /** Waits for the client to read what the socket holds, within the timeout and the budget. */
  #wait(): void {
    const outbox = this.#outbox
    this.#held = this.#res.writableLength
    outbox.unsentBytes += this.#held
    outbox.waiting.add(this)
    this.#timer = setTimeout(this.drop, outbox.writeTimeoutMs)
    this.#timer.unref()
    this.#res.once('drain', this.write)
    while (outbox.unsentBytes > outbox.maxUnsentBytes) {
      const longest: ChunkWriter = outbox.waiting.values().next().value!
      longest.drop()
    }
  }

  #release(): void {
    if (!this.#outbox.waiting.delete(this)) return
    clearTimeout(this.#timer)
    this.#outbox.unsentBytes -= this.#held
    this.#held = 0
  }

  /** Gives up on the client: its connection is destroyed. */
  readonly drop = (): void => {
    this.#release()
    this.#res.destroy()
  }

  readonly #closed = (): void => {
    this.#release()
    if (this.#turn !== undefined) clearImmediate(this.#turn)
    this.#res.off('drain', this.write)
    // Lets the page snapshot go now, not when the response object is collected.
    this.#chunks.return?.()
  }
}
