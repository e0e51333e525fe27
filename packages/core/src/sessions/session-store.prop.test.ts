/**
 * Model-based test of the session store: random guests, opens, touches, locks, logins (of users
 * `a`, `A`, who is `a`, `b`, `c`, and one without a name), logouts, closes, clock moves and sweeps, in
 * both `whenFull` modes, against plain arrays in recency order. After every command the store
 * holds the model's live sessions with their users, evicts, refuses and expires as the model
 * does, reports each closed session once with the model's reason, and counts each user's
 * sessions as the model; and no login ever closes another user's session. Then random clients
 * against the three pools: the bounds hold, and only a login of the same user ever evicts a
 * logged-in session.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { SessionStore } from './session-store.js'
import type { SessionCloseReason } from './session-api.js'
import { sessionUser } from './session-user.js'

const TIMEOUT = 100
const MAX = 4
const MAX_GUESTS = 4
const QUOTA = 2
const NAMES = ['a', 'A', 'b', 'c', ''] as const

interface ModelSession {
  id: string
  lastAccess: number
  established: boolean
  /** The user's name; undefined: no user. */
  user: string | undefined
}
interface Model {
  /** Least recently used first. */
  live: ModelSession[]
  now: number
  next: number
  closed: [string, SessionCloseReason][]
  refuse: boolean
}
interface Real {
  store: SessionStore
  clock: ManualClock
  closed: [string, SessionCloseReason][]
  /** The user a login under way logs in (its key), for the listener that checks its evictions. */
  login: { key: string | undefined } | undefined
}
type Cmd = fc.Command<Model, Real>

/** A user's key: names compared ignoring case; a user without a name is nobody's. */
const key = (name: string | undefined): string | undefined =>
  name === undefined || name === '' ? undefined : name.toLowerCase()
type PoolName = 'guests' | 'anonymous' | 'users'
const poolOf = (s: ModelSession): PoolName =>
  !s.established ? 'guests' : s.user !== undefined ? 'users' : 'anonymous'
const inPool = (m: Model, pool: PoolName) => m.live.filter((s) => poolOf(s) === pool)
const ownedBy = (m: Model, k: string) => m.live.filter((s) => s.established && key(s.user) === k)
const established = (m: Model) => m.live.filter((s) => s.established)

function closeIn(m: Model, s: ModelSession, reason: SessionCloseReason): void {
  m.live = m.live.filter((x) => x !== s)
  m.closed.push([s.id, reason])
}
/** A looked-up session expires on the spot. */
function expire(m: Model, id: string): ModelSession | undefined {
  const s = m.live.find((x) => x.id === id)
  if (s && m.now - s.lastAccess >= TIMEOUT) {
    closeIn(m, s, 'expired')
    return undefined
  }
  return s
}
/** The store's sweep: each pool from its oldest end, guests first. */
function sweep(m: Model): void {
  for (const pool of ['guests', 'anonymous', 'users'] as const)
    for (let oldest = inPool(m, pool)[0]; oldest && m.now - oldest.lastAccess >= TIMEOUT;)
      (closeIn(m, oldest, 'expired'), (oldest = inPool(m, pool)[0]))
}
function newest(m: Model, s: ModelSession): void {
  m.live = [...m.live.filter((x) => x !== s), s]
}

class Refused extends Error {}
/**
 * The rule: past the quota, a login joining user `k` evicts `k`'s least recent session (refuse
 * mode: UserSessionLimit); to grow the established sessions past MAX, the least recent without
 * a user, else `k`'s own (refuse mode, or none: SessionLimit). Expired ones are swept first.
 */
function admit(
  m: Model,
  entry: ModelSession | undefined,
  k: string | undefined,
  needsRoom: boolean,
): void {
  const entryKey = entry?.established ? key(entry.user) : undefined
  const joins = k !== undefined && entryKey !== k
  const overQuota = () => joins && ownedBy(m, k).length >= QUOTA
  const full = () => needsRoom && established(m).length >= MAX
  if (!overQuota() && !full()) return
  sweep(m)
  if (m.refuse) {
    if (overQuota()) throw new Refused('UserSessionLimit')
    if (full()) throw new Refused('SessionLimit')
    return
  }
  while (overQuota()) closeIn(m, ownedBy(m, k!)[0]!, 'evicted')
  while (full()) {
    const victim = inPool(m, 'anonymous')[0] ?? (k === undefined ? undefined : ownedBy(m, k)[0])
    if (!victim) throw new Refused('SessionLimit')
    closeIn(m, victim, 'evicted')
  }
}

/** Runs the model's step and the store's, and checks they agree on the value or the refusal. */
function both<T>(modelStep: () => T, realStep: () => T): void {
  let expected: { value: T } | { refused: string }
  try {
    expected = { value: modelStep() }
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    expected = { refused: error.message }
  }
  let actual: { value: T } | { refused: string }
  try {
    actual = { value: realStep() }
  } catch (error) {
    // A refusal is the store's answer; anything else (a listener's failed expectation) fails.
    const name = (error as { name?: string }).name
    if (name !== 'SessionLimit' && name !== 'UserSessionLimit') throw error
    actual = { refused: name }
  }
  expect(actual).toEqual(expected)
}

function check(m: Model, r: Real): void {
  for (const s of m.live)
    expect(
      ((x) => x && [x.lastAccess, x.established, sessionUser(x)?.name])(r.store.peek(s.id)),
      s.id,
    ).toEqual([s.lastAccess, s.established, s.user])
  // Counting sweeps first, in the store as in the model.
  const counts = r.store.counts
  const perUser = ['a', 'b', 'c'].map((name) => r.store.sessionsOf(name))
  sweep(m)
  expect(r.closed).toEqual(m.closed)
  expect(counts).toEqual({
    established: established(m).length,
    users: inPool(m, 'users').length,
    guests: inPool(m, 'guests').length,
  })
  expect(perUser).toEqual(['a', 'b', 'c'].map((name) => ownedBy(m, name).length))
  for (const n of perUser) expect(n).toBeLessThanOrEqual(QUOTA)
  expect(counts.established).toBeLessThanOrEqual(MAX)
}

/** A live session most of the time, else an id that may be dead (or never was). */
function pick(m: Model, n: number): string {
  return n % 5 === 0 || m.live.length === 0
    ? `S${1 + (n % Math.max(1, m.next))}`
    : m.live[n % m.live.length]!.id
}
/** A live guest most of the time (a login that needs room), else `pick`. */
function pickGuest(m: Model, n: number): string {
  const guests = inPool(m, 'guests')
  return n % 3 === 0 || guests.length === 0 ? pick(m, n) : guests[n % guests.length]!.id
}

class Guest implements Cmd {
  check = () => true
  run(m: Model, r: Real): void {
    both(
      () => {
        sweep(m)
        const s = { id: `S${++m.next}`, lastAccess: m.now, established: false, user: undefined }
        m.live.push(s)
        while (inPool(m, 'guests').length > MAX_GUESTS)
          closeIn(m, inPool(m, 'guests')[0]!, 'evicted')
        return s.id
      },
      () => r.store.openGuest().id,
    )
    check(m, r)
  }
  toString = () => 'guest'
}
class Open implements Cmd {
  check = () => true
  run(m: Model, r: Real): void {
    both(
      () => {
        sweep(m)
        admit(m, undefined, undefined, true)
        const s = { id: `S${++m.next}`, lastAccess: m.now, established: true, user: undefined }
        m.live.push(s)
        return s.id
      },
      () => r.store.open().id,
    )
    check(m, r)
  }
  toString = () => 'open'
}
class Touch implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    const id = pick(m, this.pick)
    both(
      () => {
        const s = expire(m, id)
        if (!s) return undefined
        s.lastAccess = m.now
        newest(m, s)
        return s.id
      },
      () => r.store.touch(id)?.id,
    )
    check(m, r)
  }
  toString = () => `touch(${this.pick})`
}
/** A lock: `establish`. */
class Lock implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    const id = pick(m, this.pick)
    both(
      () => {
        const s = expire(m, id)
        if (!s || s.established) return s?.id
        admit(m, s, key(s.user), true)
        s.established = true
        s.lastAccess = m.now
        newest(m, s)
        return s.id
      },
      () => r.store.establish(id)?.id,
    )
    check(m, r)
  }
  toString = () => `lock(${this.pick})`
}
/** A login as `name` (`renew` with a user), or a logout (`name` undefined: `user: null`). */
class Login implements Cmd {
  constructor(
    readonly pick: number,
    readonly name: string | undefined,
  ) {}
  check = () => true
  run(m: Model, r: Real): void {
    const id = pickGuest(m, this.pick)
    r.login = { key: key(this.name) }
    both(
      () => {
        const s = expire(m, id)
        if (!s) return undefined
        admit(m, s, key(this.name), !s.established)
        s.user = this.name
        s.established = true
        s.lastAccess = m.now
        s.id = `S${++m.next}`
        newest(m, s)
        return s.id
      },
      () => r.store.renew(id, { user: this.name === undefined ? null : { name: this.name } })?.id,
    )
    r.login = undefined
    check(m, r)
  }
  toString = () =>
    this.name === undefined
      ? `logout(${this.pick})`
      : `login(${this.pick}, ${JSON.stringify(this.name)})`
}
class Close implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    const id = pick(m, this.pick)
    both(
      () => {
        const s = m.live.find((x) => x.id === id)
        if (s) closeIn(m, s, 'closed')
        return !!s
      },
      () => r.store.close(id),
    )
    check(m, r)
  }
  toString = () => `close(${this.pick})`
}
class Advance implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    m.now += this.ms
    r.clock.advance(this.ms)
    sweep(m)
    r.store.sweep()
    check(m, r)
  }
  toString = () => `advance(${this.ms})`
}

describe('SessionStore against a model', () => {
  it('opens, evicts, refuses and expires as plain lists in recency order do; no login closes another user’s session', () => {
    fc.assert(
      fc.property(
        fc.commands(
          [
            // Weighted by repetition: guests that log in (and need room) most.
            fc.constant(new Guest()),
            fc.constant(new Guest()),
            fc.constant(new Guest()),
            fc.constant(new Open()),
            fc.nat(40).map((p) => new Touch(p)),
            fc.nat(40).map((p) => new Lock(p)),
            ...Array.from({ length: 4 }, () =>
              fc
                .tuple(fc.nat(40), fc.constantFrom(...NAMES))
                .map(([p, name]) => new Login(p, name)),
            ),
            fc.nat(40).map((p) => new Login(p, undefined)),
            fc.nat(40).map((p) => new Close(p)),
            fc.integer({ min: 1, max: 60 }).map((ms) => new Advance(ms)),
          ],
          // Long runs: a store that fills, users past their quota, sessions that expire.
          { maxCommands: 80, size: 'max' },
        ),
        fc.boolean(),
        (cmds, refuse) => {
          const clock = new ManualClock()
          let n = 0
          const store = new SessionStore(clock, {
            newId: () => `S${++n}`,
            inactivityTimeout: TIMEOUT,
            maxSessions: MAX,
            maxGuests: MAX_GUESTS,
            maxSessionsPerUser: QUOTA,
            whenFull: refuse ? 'refuse' : 'evict',
          })
          const real: Real = { store, clock, closed: [], login: undefined }
          store.onClose((s, reason) => {
            real.closed.push([s.id, reason])
            // The rule itself, whatever the model says: a login evicts a session without a user
            // (or a guest, none here) or one of its own user's, never another user's.
            const user = sessionUser(s)
            if (real.login && reason === 'evicted' && user) {
              expect(real.login.key).toBeDefined()
              expect(user.name.toLowerCase()).toBe(real.login.key)
            }
          })
          fc.modelRun(
            () => ({
              model: { live: [], now: clock.now(), next: 0, closed: [], refuse },
              real,
            }),
            cmds,
          )
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('SessionStore pools', () => {
  // What a client can do: come without a cookie, come back, lock, log in or out, leave, wait.
  type Op =
    | { op: 'guest' }
    | { op: 'back' | 'lock' | 'logout' | 'close'; pick: number }
    | { op: 'login'; pick: number; user: string }
    | { op: 'wait'; ms: number }
  const op: fc.Arbitrary<Op> = fc.oneof(
    { arbitrary: fc.constant({ op: 'guest' as const }), weight: 4 },
    fc.record({ op: fc.constantFrom('back' as const, 'lock' as const), pick: fc.nat(40) }),
    fc.record({ op: fc.constantFrom('logout' as const, 'close' as const), pick: fc.nat(40) }),
    fc.record({
      op: fc.constant('login' as const),
      pick: fc.nat(40),
      user: fc.constantFrom(...NAMES),
    }),
    fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 40 }) }),
  )

  it('keep their bounds, and only a login of the same user ever evicts a logged-in session', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 120 }),
        fc.constantFrom<'evict' | 'refuse'>('evict', 'refuse'),
        (ops, whenFull) => {
          const clock = new ManualClock()
          let n = 0
          const store = new SessionStore(clock, {
            newId: () => `S${++n}`,
            inactivityTimeout: TIMEOUT,
            maxSessions: 3,
            maxGuests: 4,
            maxSessionsPerUser: QUOTA,
            whenFull,
          })
          const sessions: ReturnType<SessionStore['openGuest']>[] = []
          let current: Op | undefined
          store.onClose((s, reason) => {
            if (reason !== 'evicted') return
            // A client without a live cookie (a new guest) evicts only guests; an established
            // session is evicted only to establish another (a lock, a login, or a logout, which
            // renews a guest's id and so establishes it too), and a logged-in one only by a login.
            if (current?.op === 'guest' || current?.op === 'back') expect(s.established).toBe(false)
            if (s.established) expect(['lock', 'login', 'logout']).toContain(current?.op)
            const user = sessionUser(s)
            if (user) {
              expect(current?.op).toBe('login')
              expect(user.name.toLowerCase()).toBe((current as { user: string }).user.toLowerCase())
              expect(user.name).not.toBe('')
            }
          })
          for (const o of ops) {
            current = o
            const pick = 'pick' in o ? sessions[o.pick % Math.max(1, sessions.length)] : undefined
            try {
              if (o.op === 'guest') sessions.push(store.resume(undefined).session)
              else if (o.op === 'wait') clock.advance(o.ms)
              else if (pick && o.op === 'back') store.resume(pick.id)
              else if (pick && o.op === 'lock') store.establish(pick.id)
              else if (pick && o.op === 'login') store.renew(pick.id, { user: { name: o.user } })
              else if (pick && o.op === 'logout') store.renew(pick.id, { user: null })
              else if (pick && o.op === 'close') store.close(pick.id)
            } catch (error) {
              // Refused for want of room: never a guest coming back, never a new guest.
              expect(['SessionLimit', 'UserSessionLimit']).toContain((error as Error).name)
              expect(['lock', 'login', 'logout']).toContain(o.op)
            }
            const counts = store.counts
            expect(counts.guests).toBeLessThanOrEqual(4)
            expect(counts.established).toBeLessThanOrEqual(3)
            expect(counts.users).toBeLessThanOrEqual(counts.established)
            expect(store.sessionsOf('a')).toBeLessThanOrEqual(QUOTA)
            expect(store.sessionsOf('b')).toBeLessThanOrEqual(QUOTA)
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  // Found by a random run of the property above: a guest that logs out is renewed, hence
  // established, and with the established pool full it evicts an anonymous established session.
  it('lets a guest logging out evict an anonymous established session, not a logged-in one', () => {
    const clock = new ManualClock()
    let n = 0
    const store = new SessionStore(clock, {
      newId: () => `S${++n}`,
      inactivityTimeout: TIMEOUT,
      maxSessions: 2,
      maxGuests: 4,
      whenFull: 'evict',
    })
    const evicted: string[] = []
    store.onClose((s, reason) => {
      if (reason === 'evicted') evicted.push(s.id)
    })
    const user = store.resume(undefined).session
    store.renew(user.id, { user: { name: 'a' } })
    const locker = store.resume(undefined).session
    store.establish(locker.id)
    const lockerId = locker.id
    const guest = store.resume(undefined).session
    store.renew(guest.id, { user: null })
    expect(evicted).toEqual([lockerId])
    expect(sessionUser(store.peek(user.id)!)?.name).toBe('a')
    expect(store.counts).toMatchObject({ established: 2, users: 1 })
  })
})
