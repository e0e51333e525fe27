/**
 * @module One-time passcodes of sessions (4D's `Session.createOTP()` and `Session.restore()`,
 * 20 R9): a token names a session once, so that a callback arriving from another browser or device
 * (a payment page, a link in a mail) takes up the session that asked for it, its storage and
 * privileges, without its cookie ever leaving that session's client.
 *
 * As 4D documents (WebServer/sessions.md, "Session Token (OTP)", and API/SessionClass.md): a token
 * lives `lifespan` seconds, by default the session's inactivity timeout, at least 10 seconds; it
 * restores its session once; an expired token, a used one, an unknown one, or one whose session has
 * ended restores nothing.
 *
 * Tokens are 128 random bits from the system's generator (`randomId`, the form of session ids),
 * kept with their expiry on the injected clock, in memory, bounded: at most `maxTokens` in all
 * (the oldest made is dropped past it) and `maxTokensPerSession` a session (its oldest is dropped),
 * so that no client can grow the table by asking for tokens, nor push another session's out
 * unless the table is full. A session's tokens go when it closes. No timer: an expired token is
 * dropped when it is presented, when its session closes, or when the bounds push it out.
 */
import type { Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'
import type { Session, SessionStoreApi } from './session-api.js'
import { randomId } from './session-ids.js'

export interface SessionTokensOptions {
  /** The most tokens kept, all sessions together; past it the oldest made is dropped. @default 10_000 */
  readonly maxTokens?: number
  /** The most tokens one session keeps; past it its oldest is dropped. @default 10 */
  readonly maxTokensPerSession?: number
  /** Makes tokens. @default 32 uppercase hex digits from crypto.getRandomValues */
  readonly newToken?: () => string
}

/** 4D: "the minimum value is 10 seconds, lifespan is reset to 10 if a smaller value is passed". */
export const MIN_TOKEN_LIFESPAN_SECONDS = 10

interface Token {
  readonly session: Session
  readonly expiresAt: number
}

export class SessionTokens {
  readonly #clock: Clock
  readonly #sessions: SessionStoreApi
  readonly #max: number
  readonly #maxPerSession: number
  readonly #newToken: () => string
  // In the order they were made: the first is the one the bound drops.
  readonly #tokens = new Map<string, Token>()
  readonly #bySession = new Map<Session, string[]>()

  constructor(clock: Clock, sessions: SessionStoreApi, options: SessionTokensOptions = {}) {
    this.#clock = clock
    this.#sessions = sessions
    this.#max = options.maxTokens ?? 10_000
    this.#maxPerSession = options.maxTokensPerSession ?? 10
    this.#newToken = options.newToken ?? randomId
    if (!(this.#max >= 1) || !(this.#maxPerSession >= 1))
      throw new RangeError('SessionTokens: maxTokens and maxTokensPerSession must be at least 1')
    sessions.onClose((session) => {
      for (const token of this.#bySession.get(session) ?? []) this.#tokens.delete(token)
      this.#bySession.delete(session)
    })
  }

  /** Tokens kept now (expired ones not presented yet included). */
  get size(): number {
    return this.#tokens.size
  }

  /**
   * A new token for `session`, valid `lifespanSeconds` (at least 10; by default the session's
   * inactivity timeout).
   * @throws DatastoreError SessionTokenLifespanInvalid (9151) for a lifespan that is not a finite number
   */
  create(session: Session, lifespanSeconds?: number): string {
    if (
      lifespanSeconds !== undefined &&
      (typeof lifespanSeconds !== 'number' || !Number.isFinite(lifespanSeconds))
    )
      fail('SessionTokenLifespanInvalid', [lifespanSeconds])
    const lifespan =
      lifespanSeconds === undefined
        ? session.timeout
        : Math.max(MIN_TOKEN_LIFESPAN_SECONDS, lifespanSeconds) * 1000
    const token = this.#newToken()
    // The token names the session: a guest on probation (SessionStoreApi.visit) is kept.
    this.#sessions.hold?.(session.id)
    this.#tokens.set(token, { session, expiresAt: this.#clock.now() + lifespan })
    const own = this.#bySession.get(session) ?? []
    own.push(token)
    this.#bySession.set(session, own)
    if (own.length > this.#maxPerSession) this.#drop(own[0]!)
    while (this.#tokens.size > this.#max) this.#drop(this.#tokens.keys().next().value!)
    return token
  }

  /**
   * The live session `token` names, the token used up; undefined when it names none: unknown,
   * used already, expired, or its session ended (4D's four cases).
   */
  restore(token: string): Session | undefined {
    const found = this.#tokens.get(token)
    if (found === undefined) return undefined
    this.#drop(token)
    if (this.#clock.now() >= found.expiresAt) return undefined
    return this.#sessions.peek(found.session.id)
  }

  #drop(token: string): void {
    const found = this.#tokens.get(token)
    if (found === undefined) return
    this.#tokens.delete(token)
    const own = this.#bySession.get(found.session)
    if (own === undefined) return
    own.splice(own.indexOf(token), 1)
    if (own.length === 0) this.#bySession.delete(found.session)
  }
}
