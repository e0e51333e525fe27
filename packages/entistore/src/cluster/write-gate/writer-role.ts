/**
 * @module This process's part in the one-writer scheme, over time: it looks at the lease every
 * `beatMs` (writer-lease.ts: a writer beats, a follower watches and takes over), and tells the
 * process when it becomes the writer and when it stops being one.
 *
 * Becoming the writer is not instant: the new writer first applies the whole log (`onWriter`:
 * every append of the old term is committed or fenced once the term was raised, so the log is
 * final up to its head) — only then does `isWriter` say yes and forwarded writes run here, so a
 * write sent again after a failover is found in the log rather than run twice. Stopping is
 * instant: `onFollower` is told as soon as the lease says so.
 */
import type { Schedule } from '@entistore/rest'
import type { WriterAt } from './forwarding.js'
import type { LeaseState, WriterLease } from './writer-lease.js'

export interface WriterRoleOptions {
  readonly lease: Pick<WriterLease, 'check' | 'beatMs' | 'term'>
  readonly schedule: Schedule
  /** Became the writer: apply the whole log, start taking writes. A rejection steps down. */
  readonly onWriter: (term: number, token: string) => Promise<void>
  /** No longer the writer (fenced, or a failed start): stop taking writes at once. */
  readonly onFollower: (reason: string) => void
  /** A look that failed (PostgreSQL unreachable): told, then tried again at the next beat. */
  readonly onError: (error: Error) => void
}

export class WriterRole {
  readonly #options: WriterRoleOptions
  #writerTerm: number | undefined
  #seen: WriterAt | undefined
  #cancel: (() => void) | undefined
  #looking: Promise<void> | undefined
  #closed = false

  constructor(options: WriterRoleOptions) {
    this.#options = options
  }

  /** Whether this process runs writes now: the writer, caught up. */
  get isWriter(): boolean {
    return this.#writerTerm !== undefined
  }

  /** The writer the last look saw (another process, or this one). */
  get writer(): WriterAt | undefined {
    return this.#seen
  }

  /** The first look, then one every beat. Resolves after the first look. */
  start(): Promise<void> {
    return this.look()
  }

  /** One look now (a forward that failed asks for one rather than wait for the beat). */
  look(): Promise<void> {
    this.#looking ??= this.#look().finally(() => {
      this.#looking = undefined
      if (!this.#closed) {
        this.#cancel?.()
        this.#cancel = this.#options.schedule(() => void this.look(), this.#options.lease.beatMs)
      }
    })
    return this.#looking
  }

  /** Told by the lease (its onFenced) the moment it learns it is no longer the writer. */
  fenced(reason: string): void {
    if (this.#writerTerm === undefined) return
    this.#writerTerm = undefined
    this.#options.onFollower(reason)
  }

  close(): void {
    this.#closed = true
    this.#cancel?.()
    this.#cancel = undefined
    this.fenced('closing')
  }

  async #look(): Promise<void> {
    let state: LeaseState
    try {
      state = await this.#options.lease.check()
    } catch (error) {
      this.#options.onError(error as Error)
      return
    }
    if (state.role === 'follower') {
      this.#seen = state.writer
      this.fenced(`process ${state.writer?.address ?? '(none)'} writes now`)
      return
    }
    const { term, token } = state
    if (this.#writerTerm === term) return
    this.#seen = undefined // the writer it followed is gone: this process takes over
    try {
      await this.#options.onWriter(term, token)
    } catch (error) {
      this.#options.onError(error as Error)
      this.#options.onFollower(`could not start as the writer: ${(error as Error).message}`)
      return // the next look tries again: the lease is still this process's
    }
    // Fenced while it caught up: it never starts.
    if (this.#options.lease.term !== term || this.#closed) return
    this.#writerTerm = term
  }
}
