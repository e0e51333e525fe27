/**
 * @module The writer's side of a forwarded write: run it once, however many times it arrives.
 *
 * A forwarding process sends a write again, under the same id, when it lost the answer (a
 * timeout, a cut connection, a writer killed after its commit): so the writer answers an id it
 * already ran with the reply it logged, and one still running with that same run. The replies
 * are known from the log itself (`LoggedReplies`: filled by the writer after its own commits,
 * and, when a process becomes the writer, from the log rows it applied first), so a new writer
 * knows what the old one committed. That is all of them because only the writer appends a
 * forwarded write, under its term's fence (postgres/write-group.ts): one that lost the role, even
 * in the middle of a group, has its append refused.
 */
import type { RestReply, RestRequest } from '@entistore/rest'
import { NotWriter } from './forward-link.js'
import {
  fromForwarded,
  toForwardedReply,
  type ForwardedReply,
  type ForwardedWrite,
} from './forwarded.js'

/** The replies of the last forwarded writes the log holds, by id; the oldest forgotten first. */
export class LoggedReplies {
  readonly #replies = new Map<string, ForwardedReply>()
  readonly #max: number

  /** `max`: how many are kept; a write is sent again within seconds, so the last few suffice. */
  constructor(max = 100_000) {
    this.#max = max
  }

  get size(): number {
    return this.#replies.size
  }

  /** Called for each logged forwarded write, in log order. */
  add(id: string, reply: ForwardedReply): void {
    this.#replies.set(id, reply)
    if (this.#replies.size > this.#max) {
      const oldest = this.#replies.keys().next().value as string
      this.#replies.delete(oldest)
    }
  }

  get(id: string): ForwardedReply | undefined {
    return this.#replies.get(id)
  }
}

/** What running one write gives: its reply and the log position that holds it. */
export interface Ran {
  readonly reply: RestReply
  readonly at: number
}

export interface WriteAnsweringOptions {
  /** Whether this process is the writer now (its term is current as far as it knows). */
  readonly isWriter: () => boolean
  /**
   * Runs `request` through the write gate, its commits logged under `id` with its reply (so that
   * `replies` learns of it as the log is applied).
   */
  readonly run: (request: RestRequest, id: string) => Promise<Ran>
  readonly replies: LoggedReplies
}

export class WriteAnswering {
  readonly #options: WriteAnsweringOptions
  readonly #running = new Map<string, Promise<ForwardedReply>>()

  constructor(options: WriteAnsweringOptions) {
    this.#options = options
  }

  /** The answer to `write`: its logged reply, its run in progress, or a new run. */
  answer(write: ForwardedWrite): Promise<ForwardedReply> {
    const known = this.#options.replies.get(write.id)
    if (known) return Promise.resolve(known)
    const running = this.#running.get(write.id)
    if (running) return running
    if (!this.#options.isWriter())
      return Promise.reject(new NotWriter('this process is not the writer'))
    const run = this.#options
      .run(fromForwarded(write), write.id)
      .then(({ reply, at }) => toForwardedReply(reply, at))
      .finally(() => this.#running.delete(write.id))
    this.#running.set(write.id, run)
    return run
  }
}
