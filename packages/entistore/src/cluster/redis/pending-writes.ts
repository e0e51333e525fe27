/**
 * @module The writes to Redis that replies and writes wait for. A request's reply is sent once
 * what it changed in Redis is there (`written`) and, for a session, known to every process serving
 * (`visible`); a write (inside the write gate) waits for the lock writes in flight (`track`), so
 * that its checks see them in Redis, and fails when one of its own writes failed.
 */
import { datastoreError, DatastoreError } from '@entistore/core'
import type { RestReply } from '@entistore/rest'
import { messageOf } from './options.js'

/**
 * A write to Redis that a reply waits for: `written` once Redis has it, `visible` once every
 * process serving has it too. Each resolves with the error the reply then answers, or undefined.
 */
interface Op {
  readonly written: Promise<Refusal | undefined>
  readonly visible: Promise<Refusal | undefined>
  /** The request whose reply alone a LockTakenElsewhere concerns. */
  readonly owner?: unknown
}

/** Why a reply is not sent as it is: an error to answer, or its request to be answered again. */
export type Refusal = DatastoreError | LockTakenElsewhere

/**
 * A lock taken here for a client without a session was found held in Redis by another session:
 * the request is to be answered again, now that the mirror holds that session's lock.
 */
export class LockTakenElsewhere extends Error {
  constructor() {
    super('the lock was taken through another process first')
    this.name = 'LockTakenElsewhere'
  }
}

/**
 * The error a request that needed Redis answers: 503, try again in a second; the core's own
 * errors (a set over its quota, a key of the wrong form) pass as they are, with their status.
 */
export function unavailable(error: unknown): DatastoreError {
  if (DatastoreError.is(error)) return error
  return datastoreError('SharedStateUnavailable', ['Redis', messageOf(error)], {
    details: { retryAfter: 1 },
  })
}

export class PendingWrites {
  readonly #report: (error: unknown) => void
  /** Writes a reply waits for, by number; `#seq` is the number of the last one. */
  readonly #ops = new Map<number, Op>()
  #seq = 0
  /** The number of the last write before the write in the gate began (see `writeEnded`). */
  #writeFrom = 0
  /** Lock writes in flight: a write waits for them, so that its checks see them in Redis. */
  readonly #tracked = new Set<Promise<void>>()

  constructor(report: (error: unknown) => void) {
    this.#report = report
  }

  /** The number of the last write registered: a reply waits for those after it. */
  get seq(): number {
    return this.#seq
  }

  /**
   * Registers a write a reply waits for; its failure is told (a reply may not wait for it).
   * `owner`: the request a LockTakenElsewhere of it concerns (no other reply is changed by it).
   */
  add(written: Promise<unknown>, visible: Promise<unknown> = written, owner?: unknown): void {
    const seq = ++this.#seq
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (error: unknown) => (error instanceof LockTakenElsewhere ? error : unavailable(error)),
      )
    const op: Op = { written: outcome(written), visible: outcome(visible), owner }
    this.#ops.set(seq, op)
    // A refusal decided on purpose (a DatastoreError, a lock taken elsewhere) is its reply's
    // business, not a failure to tell.
    written.catch((error: unknown) => {
      if (!DatastoreError.is(error) && !(error instanceof LockTakenElsewhere)) this.#report(error)
    })
    void op.visible.then(() => this.#ops.delete(seq))
  }

  /** A write no request waits for: its failure is reported, never thrown. */
  send(work: Promise<unknown>): void {
    work.catch(this.#report)
  }

  /**
   * A lock write: a write (`afterWrite`, `beforeWrite`) waits for it. Answers it as it settles,
   * its failure told, never thrown.
   */
  track(work: Promise<void>): Promise<void> {
    const tracked = work.catch(this.#report)
    this.#tracked.add(tracked)
    void tracked.then(() => this.#tracked.delete(tracked))
    return tracked
  }

  /**
   * A lock's release: a write waits for it (`track`), and so do the replies answered from now,
   * which its failure does not change (it is told, as a tracked write's). Redis releases a lock by
   * session, whichever take of it that was: a release that reached Redis after its reply let the
   * client lock again through another process, then took that new lock away while the client
   * held it (the SIGSTOP fault test saw one land 5 ms after the session's next grant, and the
   * other session granted the lock in between).
   */
  release(work: Promise<void>): void {
    this.add(this.track(work))
  }

  /** Resolves once no tracked write is in flight (those started meanwhile included). */
  async settled(): Promise<void> {
    while (this.#tracked.size > 0) await Promise.all(this.#tracked)
  }

  /**
   * `reply` once every write registered after `from` is visible, or `refuse(the first error)`;
   * synchronously `reply` when there is none.
   */
  settle(
    from: number,
    reply: RestReply,
    refuse: (error: Refusal) => RestReply | Promise<RestReply>,
    request?: unknown,
  ): RestReply | Promise<RestReply> {
    if (this.#seq === from) return reply
    const waits: Promise<Refusal | undefined>[] = []
    for (const [seq, op] of this.#ops)
      if (seq > from)
        waits.push(
          op.owner === request
            ? op.visible
            : op.visible.then((e) => (e instanceof LockTakenElsewhere ? undefined : e)),
        )
    if (waits.length === 0) return reply
    return Promise.all(waits).then((errors) => {
      const error = errors.find((e) => e !== undefined)
      return error === undefined ? reply : refuse(error)
    })
  }

  /** A write in the gate begins: its writes are those registered from now. */
  writeBegins(): void {
    this.#writeFrom = this.#seq
  }

  /**
   * A write in the gate ended: the first error of its writes once written (undefined when all
   * were), and the next write's begin here.
   */
  async writeEnded(): Promise<DatastoreError | undefined> {
    const from = this.#writeFrom
    this.#writeFrom = this.#seq
    const written: Promise<Refusal | undefined>[] = []
    for (const [seq, op] of this.#ops) if (seq > from) written.push(op.written)
    // A lock taken elsewhere is its own request's reply's concern, never a write's.
    return (await Promise.all(written)).find((e) => DatastoreError.is(e))
  }

  /** Resolves once every write registered reached Redis (or failed). */
  async written(): Promise<void> {
    await Promise.all([...this.#ops.values()].map((op) => op.written))
  }
}
