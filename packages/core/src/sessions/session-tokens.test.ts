/**
 * One-time passcodes, from 4D's pages: API/SessionClass.md (`.createOTP()`, `.restore()`) and
 * WebServer/sessions.md ("Session Token (OTP)", its "Lifespan" and invalid tokens), repository
 * 4d/docs. Time is moved on a manual clock, never waited for.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { DatastoreError } from '../errors/datastore-error.js'
import { SessionStore } from './session-store.js'
import { SessionTokens, type SessionTokensOptions } from './session-tokens.js'

const MINUTE = 60_000

function setup(options: SessionTokensOptions = {}) {
  const clock = new ManualClock()
  const sessions = new SessionStore(clock)
  let n = 0
  const tokens = new SessionTokens(clock, sessions, { newToken: () => `T${++n}`, ...options })
  return { clock, sessions, tokens }
}

describe('SessionTokens (4D Session.createOTP / restore)', () => {
  it('a token restores its session once: "an OTP token can only be used once" (WebServer/sessions.md)', () => {
    const { sessions, tokens } = setup()
    const s = sessions.open()
    const token = tokens.create(s)
    expect(tokens.restore(token)).toBe(s)
    expect(tokens.restore(token)).toBeUndefined()
    expect(tokens.restore('never-made')).toBeUndefined()
  })

  it('lives as long as the session’s idleTimeout by default (SessionClass.md, .createOTP())', () => {
    const { clock, sessions, tokens } = setup()
    const s = sessions.open()
    const a = tokens.create(s)
    const b = tokens.create(s)
    // The session is kept alive by its requests; the token is not.
    clock.advance(59 * MINUTE)
    sessions.touch(s.id)
    expect(tokens.restore(a)).toBe(s)
    clock.advance(MINUTE)
    sessions.touch(s.id)
    expect(tokens.restore(b)).toBeUndefined()
  })

  it('takes a lifespan in seconds, raised to 10 when smaller (SessionClass.md, .createOTP())', () => {
    const { clock, sessions, tokens } = setup()
    const s = sessions.open()
    const minute = tokens.create(s, 60)
    const short = tokens.create(s, 1)
    const alsoShort = tokens.create(s, 1)
    clock.advance(9_999)
    expect(tokens.restore(short)).toBe(s)
    clock.advance(1)
    expect(tokens.restore(alsoShort)).toBeUndefined()
    clock.advance(49_999)
    expect(tokens.restore(minute)).toBe(s)
  })

  it('refuses a lifespan that is not a finite number with 9151', () => {
    const { sessions, tokens } = setup()
    const s = sessions.open()
    for (const bad of [Number.NaN, Infinity, '60' as unknown as number]) {
      const e = (() => {
        try {
          tokens.create(s, bad)
        } catch (error) {
          return error
        }
      })()
      expect(DatastoreError.is(e) && e.errCode).toBe(9151)
    }
    expect(tokens.size).toBe(0)
  })

  it('restores nothing once "the original session itself has expired" (SessionClass.md, .restore())', () => {
    const { clock, sessions, tokens } = setup()
    const s = sessions.open()
    const token = tokens.create(s, 24 * 3600)
    clock.advance(60 * MINUTE)
    expect(tokens.restore(token)).toBeUndefined()
    // A closed session's tokens are gone at once.
    const t = sessions.open()
    tokens.create(t)
    tokens.create(t)
    expect(tokens.size).toBe(2)
    sessions.close(t.id)
    expect(tokens.size).toBe(0)
  })

  it('follows its session through a renewal (a login gives it a new id)', () => {
    const { sessions, tokens } = setup()
    const s = sessions.open()
    const token = tokens.create(s)
    sessions.renew(s.id, { user: { name: 'ann' } })
    expect(tokens.restore(token)).toBe(s)
  })

  it('is bounded: the oldest token of a session past maxTokensPerSession, the oldest of all past maxTokens', () => {
    const { sessions, tokens } = setup({ maxTokens: 5, maxTokensPerSession: 3 })
    const a = sessions.open()
    const b = sessions.open()
    const ofA = [1, 2, 3, 4].map(() => tokens.create(a))
    expect(tokens.size).toBe(3)
    expect(tokens.restore(ofA[0]!)).toBeUndefined()
    expect(tokens.restore(ofA[1]!)).toBe(a)
    const ofB = [1, 2, 3].map(() => tokens.create(b))
    tokens.create(a)
    // 2 of a's and 3 of b's, then one more of a's: a's oldest left (T3) went first.
    expect(tokens.size).toBe(5)
    expect(tokens.restore(ofA[2]!)).toBeUndefined()
    expect(tokens.restore(ofA[3]!)).toBe(a)
    expect(ofB.map((t) => tokens.restore(t))).toEqual([b, b, b])
    expect(() => new SessionTokens(new ManualClock(), sessions, { maxTokens: 0 })).toThrow(
      RangeError,
    )
  })

  it('makes 128-bit random tokens, 32 hex digits as 4D’s UUIDs, by default', () => {
    const clock = new ManualClock()
    const sessions = new SessionStore(clock)
    const tokens = new SessionTokens(clock, sessions)
    const s = sessions.open()
    const [a, b] = [tokens.create(s), tokens.create(s)]
    expect(a).toMatch(/^[0-9A-F]{32}$/)
    expect(a).not.toBe(b)
  })
})
