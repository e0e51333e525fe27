/**
 * @module The forwarding side of a write: a process that is not the writer sends each write to
 * the writer, applies the log up to what the reply says holds it, then answers its client — so
 * the client reads its own write here or anywhere next.
 *
 * What a client is told is never a guess:
 * - the writer answered: its reply, once this process applied the write;
 * - the write could not reach a writer (none, or each refused it unrun) for `failoverMs`: 503
 *   with `Retry-After`, *not applied* (ClusterNoWriter, applied 'no');
 * - the answer was lost (in doubt): the write is sent again, same id, to whoever is the writer
 *   now, which answers from the log if it landed (answering.ts) and runs it otherwise (an old
 *   writer's late append is fenced: writer-lease.ts); only if no writer answers for `doubtMs`
 *   is the outcome given up as unknown, and said so.
 */
import { datastoreError, type DatastoreError } from '@entistore/core'
import type { RestReply, RestRequest } from '@entistore/rest'
import { ForwardFailed, type WriteSender } from './forward-link.js'
import { fromForwardedReply, toForwarded, type ForwardedReply } from './forwarded.js'

/** Where the writer is, as its row in PostgreSQL says. */
export interface WriterAt {
  readonly term: number
  readonly address: string
  readonly token: string
}

export interface WriteForwardingOptions {
  /** This process, as the log names it: the first half of every write's id. */
  readonly origin: string
  /** Where the writer is now (read again after each failure); undefined: none yet. */
  readonly writer: () => Promise<WriterAt | undefined>
  readonly sender: Pick<WriteSender, 'send'>
  /** Resolves once this process applied the log up to `at`. */
  readonly applied: (at: number) => Promise<void>
  /** Milliseconds of a monotonic clock. */
  readonly now: () => number
  /** Waits `ms` on that clock (tests time-travel). */
  readonly wait: (ms: number) => Promise<void>
  /** How long a write looks for a writer before it is refused unapplied. @default 5000 */
  readonly failoverMs?: number
  /** How long a write in doubt is sent again before its outcome is given up. @default 30000 */
  readonly doubtMs?: number
  /** The pause between two tries. @default 100 */
  readonly retryMs?: number
}

export class WriteForwarding {
  readonly #options: WriteForwardingOptions
  #sent = 0
  #writer: WriterAt | undefined

  constructor(options: WriteForwardingOptions) {
    this.#options = options
  }

  /** `request`'s reply from the writer, once applied here; rejects with a DatastoreError (503). */
  async forward(request: RestRequest): Promise<RestReply> {
    const { now, wait, failoverMs = 5000, doubtMs = 30_000, retryMs = 100 } = this.#options
    const write = toForwarded(`${this.#options.origin}:${++this.#sent}`, request)
    const start = now()
    let doubt: string | undefined
    let why = 'no writer yet'
    for (;;) {
      const writer = this.#writer ?? (this.#writer = await this.#options.writer())
      if (writer) {
        let reply: ForwardedReply | undefined
        try {
          reply = await this.#options.sender.send(writer.address, writer.token, write)
        } catch (error) {
          if (!(error instanceof ForwardFailed)) throw error
          this.#writer = undefined
          why = error.message
          if (error.outcome === 'in-doubt') doubt ??= error.message
        }
        if (reply) return this.#afterApplied(reply)
      }
      const waited = now() - start
      if (doubt === undefined && waited >= failoverMs) throw noWriter(why, 'no')
      if (doubt !== undefined && waited >= doubtMs) throw noWriter(doubt, 'unknown')
      await wait(retryMs)
    }
  }

  async #afterApplied(reply: ForwardedReply): Promise<RestReply> {
    try {
      await this.#options.applied(reply.at)
    } catch (error) {
      // Committed, but not applied here: answering would let the client read an older state.
      const why = error instanceof Error ? error.message : String(error)
      throw datastoreError('ClusterWriteUnconfirmed', [why], { details: { retryAfter: 1 } })
    }
    return fromForwardedReply(reply)
  }
}

function noWriter(why: string, applied: 'no' | 'unknown'): DatastoreError {
  return datastoreError('ClusterNoWriter', [why, applied], { details: { retryAfter: 1 } })
}
