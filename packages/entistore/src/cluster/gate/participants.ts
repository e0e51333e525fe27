/**
 * @module The participants of a process's requests and writes (participant.ts), sorted by the
 * steps they take part in, in the order they were added: the request path loops over its own
 * short lists, never over every participant.
 */
import type { DatastoreError } from '@entistore/core'
import type { ClusterParticipant } from '../participant.js'

export class Participants {
  readonly #all: ClusterParticipant[] = []
  // Those with a step around every request (Redis), kept apart: the read path loops over them.
  // Each list is replaced, never changed, when one is added: a request in flight keeps its own.
  #before: ClusterParticipant[] = []
  #after: ClusterParticipant[] = []
  // Those that say when a read may not be answered here (PostgreSQL: fenced, cut off).
  #guards: ClusterParticipant[] = []
  // Whether a participant logs every commit (PostgreSQL): then commits made outside a write are
  // appended in one of their own. Without one (Redis alone) they are left as they are: taking
  // them out of memory and applying them again would only show readers the state before them.
  #logsOutside = false

  /** Takes `participant` in from now on, after those already there. */
  add(participant: ClusterParticipant): void {
    this.#all.push(participant)
    if (participant.logsEveryCommit) this.#logsOutside = true
    if (participant.beforeRequest) this.#before = [...this.#before, participant]
    if (participant.afterRequest) this.#after = [...this.#after, participant]
    if (participant.readError) this.#guards = [...this.#guards, participant]
  }

  /** Every participant, in the order they were added. */
  get all(): readonly ClusterParticipant[] {
    return this.#all
  }

  get before(): readonly ClusterParticipant[] {
    return this.#before
  }

  get after(): readonly ClusterParticipant[] {
    return this.#after
  }

  get guards(): readonly ClusterParticipant[] {
    return this.#guards
  }

  get logsOutside(): boolean {
    return this.#logsOutside
  }

  /** The first guard's reason a read may not be answered here now, or undefined. */
  readError(): DatastoreError | undefined {
    for (const p of this.#guards) {
      const error = p.readError!()
      if (error !== undefined) return error
    }
    return undefined
  }

  /** The log position this process applied up to (0 without a log). */
  position(): number {
    for (const p of this.#all) if (p.position) return p.position()
    return 0
  }
}
