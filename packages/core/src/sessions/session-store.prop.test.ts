/**
 * Model-based test of the session store's recency list: random opens, touches, peeks, closes,
 * clock moves and sweeps against a plain array in recency order. After every command the store
 * holds the model's live sessions, evicts and expires in the model's order, and reports each
 * closed session once with the model's reason. Then random clients against the three pools: the
 * bounds hold, and only a login ever evicts a logged-in session.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { SessionStore, type SessionCloseReason } from './session-store.js'
import { sessionUser } from './session-user.js'

const TIMEOUT = 100
const MAX = 5

interface Model {
  /** Least recently used first. */
  live: { id: string; lastAccess: number }[]
  now: number
  next: number
  closed: [string, SessionCloseReason][]
}
interface Real {
  store: SessionStore
  clock: ManualClock
  closed: [string, SessionCloseReason][]
}
type Cmd = fc.Command<Model, Real>

/** What the model's store does on any access: close the expired ones, oldest first. */
function expire(m: Model, id?: string): void {
  const expired = (s: { lastAccess: number }) => m.now - s.lastAccess >= TIMEOUT
  // Looked-up sessions expire on the spot; sweep closes the expired ones from the oldest end.
  if (id !== undefined) {
    const s = m.live.find((x) => x.id === id)
    if (s && expired(s)) {
      m.live = m.live.filter((x) => x !== s)
      m.closed.push([s.id, 'expired'])
    }
  }
}
function sweep(m: Model): void {
  while (m.live.length && m.now - m.live[0]!.lastAccess >= TIMEOUT)
    m.closed.push([m.live.shift()!.id, 'expired'])
}

function check(m: Model, r: Real): void {
  expect(r.closed).toEqual(m.closed)
  for (const s of m.live) expect(r.store.peek(s.id)?.lastAccess, s.id).toBe(s.lastAccess)
}

class Open implements Cmd {
  check = () => true
  run(m: Model, r: Real): void {
    sweep(m)
    const id = `S${++m.next}`
    m.live.push({ id, lastAccess: m.now })
    while (m.live.length > MAX) m.closed.push([m.live.shift()!.id, 'evicted'])
    expect(r.store.open().id).toBe(id)
    check(m, r)
  }
  toString = () => 'open'
}
class Touch implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    const id = `S${1 + (this.pick % Math.max(1, m.next))}`
    expire(m, id)
    const s = m.live.find((x) => x.id === id)
    if (s) {
      s.lastAccess = m.now
      m.live = [...m.live.filter((x) => x !== s), s]
    }
    expect(r.store.touch(id)?.id).toBe(s?.id)
    check(m, r)
  }
  toString = () => `touch(${this.pick})`
}
class Close implements Cmd {
  constructor(readonly pick: number) {}
  check = () => true
  run(m: Model, r: Real): void {
    const id = `S${1 + (this.pick % Math.max(1, m.next))}`
    const s = m.live.find((x) => x.id === id)
    if (s) {
      m.live = m.live.filter((x) => x !== s)
      m.closed.push([id, 'closed'])
    }
    expect(r.store.close(id)).toBe(!!s)
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
    expect(r.closed).toEqual(m.closed)
  }
  toString = () => `advance(${this.ms})`
}

describe('SessionStore recency list', () => {
  it('expires and evicts as a plain list in recency order does', () => {
    fc.assert(
      fc.property(
        fc.commands(
          [
            fc.constant(new Open()),
            fc.constant(new Open()),
            fc.nat(20).map((p) => new Touch(p)),
            fc.nat(20).map((p) => new Close(p)),
            fc.integer({ min: 1, max: 60 }).map((ms) => new Advance(ms)),
          ],
          { maxCommands: 60 },
        ),
        (cmds) => {
          const clock = new ManualClock()
          let n = 0
          const store = new SessionStore(clock, {
            newId: () => `S${++n}`,
            inactivityTimeout: TIMEOUT,
            maxSessions: MAX,
          })
          const closed: [string, SessionCloseReason][] = []
          store.onClose((s, reason) => closed.push([s.id, reason]))
          fc.modelRun(
            () => ({
              model: { live: [], now: clock.now(), next: 0, closed: [] },
              real: { store, clock, closed },
            }),
            cmds,
          )
        },
      ),
      { numRuns: 200 },
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
      user: fc.constantFrom('a', 'b'),
    }),
    fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 40 }) }),
  )

  it('keep both bounds, and only a login ever evicts a logged-in session', () => {
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
            if (sessionUser(s)) expect(current?.op).toBe('login')
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
              expect(error).toMatchObject({ name: 'SessionLimit' })
              expect(['lock', 'login', 'logout']).toContain(o.op)
            }
            const counts = store.counts
            expect(counts.guests).toBeLessThanOrEqual(4)
            expect(counts.established).toBeLessThanOrEqual(3)
            expect(counts.users).toBeLessThanOrEqual(counts.established)
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
