/**
 * @module The sessions `nbSessions` and `nbGuestSessions` count through Redis (`--redis`): those
 * of every process, read from the index the session scripts keep (redis-scripts.ts: `sx`, `su`),
 * not this process's mirror, which holds only the sessions its clients brought here. A request
 * never waits for Redis: it is checked on the totals of the last read plus the sessions opened
 * here since that read was sent, and a new read goes out when none is in flight. Redis
 * unreachable, the last totals stand (the error is reported); none read yet, this process's own.
 */
import type { Datastore } from '@entistore/core'
import type { SessionTotals, SharedSessions } from '@entistore/rest'
import type { RedisKeys } from './wire.js'

/** The script that reads the index of open sessions (SESSIONS of redis-scripts.ts). */
export interface SessionCountCommands {
  /** Answers `{open sessions, of them with a user}`. */
  esSessions(prefix: string): Promise<unknown[]>
}

export class RedisSessionCounts implements SharedSessions {
  readonly #redis: SessionCountCommands
  readonly #prefix: string
  readonly #report: (error: unknown) => void
  #heard: SessionTotals | undefined
  #reading: Promise<void> | undefined
  /** Sessions opened here, and how many of them the last read's answer counts. */
  #opened = 0
  #counted = 0
  /** Stops following the sessions opened here. */
  readonly stop: () => void

  constructor(
    ds: Datastore,
    redis: SessionCountCommands,
    keys: RedisKeys,
    report: (error: unknown) => void,
  ) {
    this.#redis = redis
    this.#prefix = keys.prefix
    this.#report = report
    // A session opened here is written to Redis (and indexed) before any read sent after it,
    // on the same connection: until that read answers, it is added here.
    this.stop = ds.sessions.observe!({ opened: () => void this.#opened++ })
    void this.read()
  }

  totals(here: SessionTotals): SessionTotals {
    void this.read()
    const heard = this.#heard
    if (heard === undefined) return here
    return { sessions: heard.sessions + this.#opened - this.#counted, users: heard.users }
  }

  /** Reads the totals from Redis, unless a read is in flight; resolves once it is answered. */
  read(): Promise<void> {
    if (this.#reading) return this.#reading
    const opened = this.#opened
    this.#reading = this.#redis
      .esSessions(this.#prefix)
      .then(
        ([sessions, users]) => {
          this.#heard = { sessions: Number(sessions), users: Number(users) }
          this.#counted = opened
        },
        (error: unknown) => this.#report(error),
      )
      .finally(() => (this.#reading = undefined))
    return this.#reading
  }
}
