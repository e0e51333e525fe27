import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { SessionStore } from './session-store.js'
import type { SessionStoreOptions, Session, SessionCloseReason } from './session-api.js'
import { sessionUser, setSessionUser } from './session-user.js'

const MINUTE = 60_000

/** A store on a manual clock with ids S1, S2, … and a log of closed sessions. */
function setup(options: SessionStoreOptions = {}) {
  const clock = new ManualClock()
  let n = 0
  const store = new SessionStore(clock, { newId: () => `S${++n}`, ...options })
  const closed: [string, SessionCloseReason][] = []
  store.onClose((s: Session, reason) => closed.push([s.id, reason]))
  return { clock, store, closed }
}

describe('SessionStore', () => {
  it('opens a session stamped with the clock time and the default 60-minute timeout', () => {
    const { clock, store } = setup()
    const s = store.open()
    expect(s).toMatchObject({
      id: 'S1',
      createdAt: clock.now(),
      lastAccess: clock.now(),
      timeout: 60 * MINUTE,
    })
    expect(s.data.size).toBe(0)
    expect(store.size).toBe(1)
    expect(store.peek('S1')).toBe(s)
  })

  it('makes 32 uppercase hex-digit ids by default, different each time', () => {
    const store = new SessionStore(new ManualClock())
    const a = store.open().id
    const b = store.open().id
    expect(a).toMatch(/^[0-9A-F]{32}$/)
    expect(b).not.toBe(a)
  })

  it('expires a session once the inactivity timeout has passed since its last access', () => {
    const { clock, store, closed } = setup({ inactivityTimeout: 10 * MINUTE })
    store.open()
    clock.advance(10 * MINUTE - 1)
    expect(store.peek('S1')).toBeDefined()
    clock.advance(1)
    expect(store.peek('S1')).toBeUndefined()
    expect(closed).toEqual([['S1', 'expired']])
    // Closed once: a second look finds nothing and reports nothing more.
    expect(store.touch('S1')).toBeUndefined()
    expect(closed).toHaveLength(1)
  })

  it('restarts the inactivity timer on touch, but not on peek', () => {
    const { clock, store } = setup({ inactivityTimeout: 10 * MINUTE })
    store.open()
    store.open()
    clock.advance(6 * MINUTE)
    expect(store.touch('S1')!.lastAccess).toBe(clock.now())
    expect(store.peek('S2')!.lastAccess).toBe(clock.now() - 6 * MINUTE)
    clock.advance(6 * MINUTE)
    expect(store.peek('S1')).toBeDefined()
    expect(store.peek('S2')).toBeUndefined()
  })

  it('closes expired sessions on sweep and when counting', () => {
    const { clock, store, closed } = setup({ inactivityTimeout: MINUTE })
    store.open()
    store.open()
    clock.advance(30_000)
    store.open()
    clock.advance(30_000)
    expect(store.size).toBe(1)
    expect(closed).toEqual([
      ['S1', 'expired'],
      ['S2', 'expired'],
    ])
    clock.advance(30_000)
    store.sweep()
    expect(closed.map(([id]) => id)).toEqual(['S1', 'S2', 'S3'])
  })

  it('honours a longer personal timeout when the session is looked up', () => {
    const { clock, store } = setup({ inactivityTimeout: MINUTE })
    const s = store.open()
    s.timeout = 10 * MINUTE
    clock.advance(5 * MINUTE)
    expect(store.touch('S1')).toBe(s)
  })

  it('closes a session on request, with the reason closed', () => {
    const { store, closed } = setup()
    store.open()
    expect(store.close('S1')).toBe(true)
    expect(store.close('S1')).toBe(false)
    expect(store.close('unknown')).toBe(false)
    expect(store.peek('S1')).toBeUndefined()
    expect(closed).toEqual([['S1', 'closed']])
  })

  it('evicts the least recently used session beyond maxSessions', () => {
    const { clock, store, closed } = setup({ maxSessions: 2 })
    store.open()
    clock.advance(1)
    store.open()
    clock.advance(1)
    store.touch('S1') // S2 is now the least recently used
    store.open()
    expect(closed).toEqual([['S2', 'evicted']])
    expect(store.size).toBe(2)
    expect(store.peek('S1')).toBeDefined()
    expect(store.peek('S3')).toBeDefined()
  })

  it('resumes a live session and opens a new one for an unknown, expired or missing id', () => {
    const { clock, store, closed } = setup({ inactivityTimeout: MINUTE })
    const first = store.resume(undefined)
    expect(first).toMatchObject({ created: true, session: { id: 'S1' } })
    clock.advance(30_000)
    const again = store.resume('S1')
    expect(again.created).toBe(false)
    expect(again.session).toBe(first.session)
    expect(again.session.lastAccess).toBe(clock.now())
    expect(store.resume('nope')).toMatchObject({ created: true, session: { id: 'S2' } })
    clock.advance(MINUTE)
    expect(store.resume('S1')).toMatchObject({ created: true, session: { id: 'S3' } })
    expect(closed).toEqual([
      ['S1', 'expired'],
      ['S2', 'expired'],
    ])
  })

  it('stops calling a listener once it unsubscribes', () => {
    const { store } = setup()
    const seen: string[] = []
    const off = store.onClose((s) => seen.push(s.id))
    store.open()
    store.open()
    store.close('S1')
    off()
    off() // a second call is harmless
    store.close('S2')
    expect(seen).toEqual(['S1'])
  })

  it('keeps per-session data for the layers above', () => {
    const { store } = setup()
    store.open().data.set('user', 'ada')
    expect(store.touch('S1')!.data.get('user')).toBe('ada')
  })

  it('opens guests for unknown clients; one that comes back stays a guest', () => {
    const { clock, store } = setup()
    const { session } = store.resume(undefined)
    expect(session.established).toBe(false)
    expect(store.counts).toEqual({ established: 0, users: 0, guests: 1 })
    clock.advance(1000)
    expect(store.resume(session.id)).toMatchObject({
      created: false,
      session: { established: false, lastAccess: clock.now() },
    })
    expect(store.counts).toEqual({ established: 0, users: 0, guests: 1 })
  })

  it('evicts only guests when the guest pool is full: established sessions survive a flood', () => {
    const { store, closed } = setup({ maxSessions: 2, maxGuests: 3 })
    const kept = store.open()
    for (let i = 0; i < 20_000; i++) store.resume(undefined)
    expect(store.counts).toEqual({ established: 1, users: 0, guests: 3 })
    expect(store.touch(kept.id)).toBe(kept)
    expect(closed.length).toBe(20_000 - 3)
    expect(closed.every(([id, reason]) => id !== kept.id && reason === 'evicted')).toBe(true)
  })

  it('keeps established and logged-in sessions through a flood of guests that come back', () => {
    const { store, closed } = setup({ maxSessions: 2, maxGuests: 3 })
    const locker = store.open()
    const user = store.renew(store.openGuest().id, { user: { name: 'ada' } })!
    for (let i = 0; i < 10_000; i++) {
      const { session } = store.resume(undefined)
      store.resume(session.id) // its cookie, sent back
    }
    expect(store.counts).toEqual({ established: 2, users: 1, guests: 3 })
    expect(store.peek(locker.id)).toBe(locker)
    expect(store.peek(user.id)).toBe(user)
    expect(closed.filter(([, reason]) => reason !== 'evicted')).toEqual([])
  })

  it('a returning guest is the newest of its pool: the flood evicts the guests that went quiet', () => {
    const { store } = setup({ maxGuests: 3 })
    const a = store.openGuest()
    store.openGuest()
    store.openGuest()
    store.touch(a.id)
    store.openGuest() // evicts S2, the least recent guest
    expect(store.peek(a.id)).toBe(a)
    expect(store.peek('S2')).toBeUndefined()
  })

  it('establishes a guest that takes state, without a second request', () => {
    const { store } = setup()
    const guest = store.openGuest()
    expect(store.establish(guest.id)).toBe(guest)
    expect(guest.established).toBe(true)
    expect(store.establish(guest.id)).toBe(guest) // already established: unchanged
    expect(store.establish('unknown')).toBeUndefined()
  })

  it("refuses a new established session past maxSessions with whenFull: 'refuse'", () => {
    const { store, closed } = setup({ maxSessions: 1, whenFull: 'refuse' })
    store.open()
    const guest = store.openGuest()
    expect(() => store.establish(guest.id)).toThrow(
      expect.objectContaining({ name: 'SessionLimit', errCode: 9080 }),
    )
    expect(() => store.open()).toThrow('Maximum number of sessions has been reached (1)')
    // The refused session stays a guest (and is served), and is established once there is room.
    expect(store.touch(guest.id)?.established).toBe(false)
    store.close('S1')
    expect(store.establish(guest.id)?.established).toBe(true)
    expect(closed).toEqual([['S1', 'closed']])
  })

  it('never lets a session without a user evict a logged-in one', () => {
    const { store, closed } = setup({ maxSessions: 2 })
    const ann = store.renew(store.openGuest().id, { user: { name: 'ann' } })!
    const bob = store.renew(store.openGuest().id, { user: { name: 'bob' } })!
    const guest = store.openGuest()
    // A lock (establish) or a deliberate open would need a logged-in session's room: refused.
    expect(() => store.establish(guest.id)).toThrow(
      expect.objectContaining({ name: 'SessionLimit' }),
    )
    expect(() => store.open()).toThrow(expect.objectContaining({ name: 'SessionLimit' }))
    // A login which does not change the user (none: no authenticate) is no login either.
    expect(() => store.renew(guest.id)).toThrow(expect.objectContaining({ name: 'SessionLimit' }))
    expect(store.peek(guest.id)).toMatchObject({ id: guest.id, established: false })
    expect(closed).toEqual([])
    // Nor does a login evict another user's session (issue 46: one user logged the others out).
    expect(() => store.renew(guest.id, { user: { name: 'cid' } })).toThrow(
      expect.objectContaining({ name: 'SessionLimit' }),
    )
    expect(closed).toEqual([])
    // A login gives up its own user's least recent session, the name compared ignoring case.
    const annId = ann.id
    const again = store.renew(guest.id, { user: { name: 'ANN' } })!
    expect(closed).toEqual([[annId, 'evicted']])
    expect(store.counts).toEqual({ established: 2, users: 2, guests: 0 })
    expect(store.peek(again.id)).toBe(guest)
    expect(store.peek(bob.id)).toBe(bob)
  })

  it('a login evicts a session without a user before any logged-in one', () => {
    const { store, closed } = setup({ maxSessions: 2 })
    const ann = store.renew(store.openGuest().id, { user: { name: 'ann' } })!
    const locker = store.open() // more recent than ann, but without a user
    store.renew(store.openGuest().id, { user: { name: 'bob' } })
    expect(closed).toEqual([[locker.id, 'evicted']])
    expect(store.peek(ann.id)).toBe(ann)
    // Sessions without a user still evict each other.
    const { store: other, closed: gone } = setup({ maxSessions: 1 })
    const first = other.open()
    other.open()
    expect(gone).toEqual([[first.id, 'evicted']])
  })

  it('refuses a login in refuse mode when full, changing nothing', () => {
    const { store } = setup({ maxSessions: 1, whenFull: 'refuse' })
    store.open()
    const guest = store.openGuest()
    expect(() => store.renew(guest.id, { user: { name: 'ann' }, timeout: 2 * MINUTE })).toThrow(
      expect.objectContaining({ name: 'SessionLimit' }),
    )
    expect(guest).toMatchObject({ id: guest.id, established: false, timeout: 60 * MINUTE })
    expect(guest.data.size).toBe(0)
  })

  it('expires guests like established sessions', () => {
    const { clock, store, closed } = setup({ inactivityTimeout: MINUTE })
    store.openGuest()
    clock.advance(MINUTE)
    expect(store.size).toBe(0)
    expect(closed).toEqual([['S1', 'expired']])
  })

  it('refuses a timeout that is not positive', () => {
    const clock = new ManualClock()
    expect(() => new SessionStore(clock, { inactivityTimeout: 0 })).toThrow(RangeError)
    expect(() => new SessionStore(clock, { inactivityTimeout: Number.NaN })).toThrow(
      'SessionStore: inactivityTimeout must be positive',
    )
  })
})

describe('SessionStore.renew', () => {
  it('gives the session a new id and kills the old one, carrying its state over', () => {
    const { clock, store, closed } = setup()
    const renewed: [string, string][] = []
    store.onRenew((s, previous) => renewed.push([previous, s.id]))
    const guest = store.openGuest()
    guest.data.set('cart', [1])
    clock.advance(MINUTE)
    const same = store.renew(guest.id, { user: { name: 'ada' }, timeout: 120 * MINUTE })
    expect(same).toBe(guest)
    expect(guest).toMatchObject({
      id: 'S2',
      createdAt: clock.now() - MINUTE,
      lastAccess: clock.now(),
      timeout: 120 * MINUTE,
      established: true,
    })
    expect(sessionUser(guest)).toEqual({ name: 'ada' })
    expect(guest.data.get('cart')).toEqual([1])
    expect(renewed).toEqual([['S1', 'S2']])
    // The old id is dead: a client that sends it gets a new guest, and it closes nothing.
    expect(store.peek('S1')).toBeUndefined()
    expect(store.resume('S1')).toMatchObject({ created: true, session: { id: 'S3' } })
    expect(store.close('S1')).toBe(false)
    expect(closed).toEqual([])
    expect(store.counts).toEqual({ established: 1, users: 1, guests: 1 })
    expect(store.renew('S1')).toBeUndefined()
  })

  it('logs out (user null) into the pool of sessions without a user, under a new id again', () => {
    const { store } = setup()
    const s = store.renew(store.openGuest().id, { user: { name: 'ada' } })!
    expect(s.id).toBe('S2')
    store.renew(s.id, { user: null })
    expect(s.id).toBe('S3')
    expect(sessionUser(s)).toBeUndefined()
    expect(store.counts).toEqual({ established: 1, users: 0, guests: 0 })
  })

  it('files a session whose user is set on its data directly by what it holds', () => {
    const { store } = setup()
    const s = store.open()
    setSessionUser(s, { name: 'ada' })
    expect(store.counts).toMatchObject({ established: 1, users: 1 })
    setSessionUser(s, undefined)
    expect(store.counts).toMatchObject({ established: 1, users: 0 })
  })
})

describe('SessionStore sessions per user (issue 46: one user logs the others out)', () => {
  /** A guest logged in as `name`. */
  const login = (store: SessionStore, name: string) =>
    store.renew(store.openGuest().id, { user: { name } })!

  it("one user's 10,050 logins evict only that user's sessions, past 100 by default", () => {
    const { store, closed } = setup()
    const admin = login(store, 'root')
    for (let i = 0; i < 10_050; i++) login(store, 'carl')
    expect(store.peek(admin.id)).toBe(admin)
    expect(store.sessionsOf('carl')).toBe(100)
    expect(store.counts).toEqual({ established: 101, users: 101, guests: 0 })
    expect(closed).toHaveLength(10_050 - 100)
    expect(closed.every(([id, reason]) => id !== admin.id && reason === 'evicted')).toBe(true)
  })

  it("evicts the user's own least recently used session past maxSessionsPerUser", () => {
    const { clock, store, closed } = setup({ maxSessionsPerUser: 2 })
    const a = login(store, 'ann')
    clock.advance(1)
    const b = login(store, 'ann')
    clock.advance(1)
    store.touch(a.id) // b is now ann's least recent
    const bob = login(store, 'bob')
    const bId = b.id
    const c = login(store, 'Ann') // the same user: names are compared ignoring case
    expect(closed).toEqual([[bId, 'evicted']])
    expect([store.peek(a.id), store.peek(c.id), store.peek(bob.id)]).toEqual([a, c, bob])
    expect(store.sessionsOf('ANN')).toBe(2)
    // Diacritics are not ignored, as in 4D's comparisons: another user.
    login(store, 'Ånn')
    expect(store.sessionsOf('ann')).toBe(2)
    expect(store.sessionsOf('ånn')).toBe(1)
  })

  it('refuses a login past maxSessionsPerUser in refuse mode (UserSessionLimit), changing nothing', () => {
    const { store, closed } = setup({ maxSessionsPerUser: 1, whenFull: 'refuse' })
    login(store, 'ann')
    const guest = store.openGuest()
    expect(() => store.renew(guest.id, { user: { name: 'ann' } })).toThrow(
      expect.objectContaining({
        name: 'UserSessionLimit',
        errCode: 9082,
        message: 'Maximum number of sessions per user has been reached (1)',
      }),
    )
    expect(guest).toMatchObject({ id: guest.id, established: false })
    expect(guest.data.size).toBe(0)
    // Another user logs in on it; a second login of that user on the same session is no new one.
    const bob = store.renew(guest.id, { user: { name: 'bob' } })!
    expect(store.renew(bob.id, { user: { name: 'bob', privileges: ['admin'] } })).toBe(bob)
    expect(store.sessionsOf('bob')).toBe(1)
    expect(closed).toEqual([])
  })

  it("a full store: a login evicts one without a user, then its own user's; else refused", () => {
    const { store, closed } = setup({ maxSessions: 3 })
    const root = login(store, 'root')
    const anonymous = store.open()
    const carl = login(store, 'carl')
    const carlId = carl.id
    login(store, 'carl') // evicts the session without a user
    expect(closed).toEqual([[anonymous.id, 'evicted']])
    login(store, 'carl') // then carl's own least recent
    expect(closed).toEqual([
      [anonymous.id, 'evicted'],
      [carlId, 'evicted'],
    ])
    // ann has no session to give up: refused, in evict mode too.
    const guest = store.openGuest()
    expect(() => store.renew(guest.id, { user: { name: 'ann' } })).toThrow(
      expect.objectContaining({ name: 'SessionLimit', errCode: 9080 }),
    )
    expect(store.peek(root.id)).toBe(root)
    expect(closed).toHaveLength(2)
  })

  it('a user without a name (setPrivileges without userName) has no quota and evicts no logged-in session', () => {
    const { store, closed } = setup({ maxSessions: 3, maxSessionsPerUser: 1 })
    login(store, '')
    login(store, '')
    expect(store.sessionsOf('')).toBe(0)
    expect(store.counts).toMatchObject({ established: 2, users: 2 })
    login(store, 'ann')
    expect(() => login(store, '')).toThrow(expect.objectContaining({ name: 'SessionLimit' }))
    expect(closed).toEqual([])
  })

  it('moves a session between users at each change of who it is', () => {
    const { store } = setup()
    const s = login(store, 'ann')
    store.renew(s.id, { user: { name: 'bob' } })
    expect([store.sessionsOf('ann'), store.sessionsOf('bob')]).toEqual([0, 1])
    store.renew(s.id, { user: null })
    expect(store.sessionsOf('bob')).toBe(0)
    // A user set on the data directly is counted too (without the quota: a Map cannot refuse).
    setSessionUser(s, { name: 'cid' })
    expect(store.sessionsOf('cid')).toBe(1)
    setSessionUser(s, undefined)
    expect(store.sessionsOf('cid')).toBe(0)
    const t = login(store, 'dan')
    store.close(t.id)
    expect(store.sessionsOf('dan')).toBe(0)
  })

  it('closes expired sessions before judging a limit reached', () => {
    const { clock, store, closed } = setup({
      inactivityTimeout: MINUTE,
      maxSessions: 1,
      maxSessionsPerUser: 1,
      whenFull: 'refuse',
    })
    const old = login(store, 'ann')
    clock.advance(MINUTE / 2)
    const guest = store.openGuest()
    clock.advance(MINUTE / 2)
    // ann's first session is past its time, and nothing swept since: the guest's requests do not.
    expect(store.touch(guest.id)).toBe(guest)
    expect(closed).toEqual([])
    expect(store.renew(guest.id, { user: { name: 'ann' } })).toBe(guest)
    expect(closed).toEqual([[old.id, 'expired']])
  })

  it('refuses a maxSessionsPerUser below 1', () => {
    expect(() => new SessionStore(new ManualClock(), { maxSessionsPerUser: 0 })).toThrow(
      'SessionStore: maxSessions, maxSessionsPerUser and maxGuests must be at least 1',
    )
  })
})
