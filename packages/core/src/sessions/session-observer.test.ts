/**
 * The hooks a mirror of a shared session store follows (`observe`) and fills (`adopt`): what
 * several processes serving one datastore need to share their sessions.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { SessionStore } from './session-store.js'
import type { SessionStoreOptions } from './session-api.js'
import { sessionUser, setSessionUser } from './session-user.js'

const MINUTE = 60_000

function setup(options: SessionStoreOptions = {}) {
  const clock = new ManualClock()
  let n = 0
  const store = new SessionStore(clock, { newId: () => `S${++n}`, ...options })
  const log: string[] = []
  store.observe({
    opened: (s) => log.push(`opened ${s.id} ${s.established ? 'established' : 'guest'}`),
    touched: (s) => log.push(`touched ${s.id}`),
    established: (s) => log.push(`established ${s.id}`),
    changed: (s) => log.push(`changed ${s.id}`),
  })
  store.onClose((s, reason) => log.push(`closed ${s.id} ${reason}`))
  return { clock, store, log }
}

describe('SessionStore observers', () => {
  it('are told of sessions opened, touched, established and changed', () => {
    const { store, log } = setup()
    const guest = store.openGuest()
    store.touch(guest.id) // a guest that comes back is touched, and stays a guest
    store.establish(guest.id)
    store.touch(guest.id)
    const s = store.open()
    setSessionUser(s, { name: 'ann' })
    s.data.set('cart', [1, 2])
    s.data.delete('cart')
    s.data.delete('cart') // nothing to delete: no change
    s.data.clear()
    store.close(s.id)
    expect(log).toEqual([
      'opened S1 guest',
      'touched S1',
      'established S1',
      'touched S1',
      'opened S2 established',
      'changed S2',
      'changed S2',
      'changed S2',
      'changed S2',
      'closed S2 closed',
    ])
  })

  it('stop being told once they unsubscribe', () => {
    const store = new SessionStore(new ManualClock())
    const seen: string[] = []
    const stop = store.observe({ opened: (s) => seen.push(s.id) })
    store.open()
    stop()
    store.open()
    expect(seen).toHaveLength(1)
  })
})

describe('SessionStore.adopt', () => {
  it('takes in a session made elsewhere, with its id, times and data, and tells no observer', () => {
    const { clock, store, log } = setup()
    clock.advance(10 * MINUTE)
    const s = store.adopt({
      id: 'REMOTE',
      createdAt: 5,
      lastAccess: clock.now() - 2 * MINUTE,
      timeout: 30 * MINUTE,
      established: true,
      data: [['entistore.user', { name: 'bob' }]],
    })
    expect(store.peek('REMOTE')).toBe(s)
    expect(s).toMatchObject({ createdAt: 5, timeout: 30 * MINUTE, established: true })
    expect(sessionUser(s)).toEqual({ name: 'bob' })
    expect(store.counts).toEqual({ established: 1, users: 1, guests: 0 })
    expect(log).toEqual([])
    // It expires on this store's clock from the last access it was given.
    clock.advance(28 * MINUTE - 1)
    expect(store.peek('REMOTE')).toBe(s)
    clock.advance(1)
    expect(store.peek('REMOTE')).toBeUndefined()
    expect(log).toEqual(['closed REMOTE expired'])
  })

  it('updates the session open under that id in place: times, data, a guest established', () => {
    const { clock, store, log } = setup()
    const guest = store.openGuest()
    guest.data.set('x', 1)
    log.length = 0
    clock.advance(MINUTE)
    const same = store.adopt({
      id: guest.id,
      createdAt: guest.createdAt,
      lastAccess: clock.now(),
      timeout: guest.timeout,
      established: true,
      data: [['y', 2]],
    })
    expect(same).toBe(guest)
    expect(same.established).toBe(true)
    expect([...same.data]).toEqual([['y', 2]])
    expect(store.counts).toEqual({ established: 1, users: 0, guests: 0 })
    // A snapshot without data empties it; one that says guest does not undo the establishing.
    store.adopt({ ...same, established: false, data: undefined })
    expect(same.data.size).toBe(0)
    expect(same.established).toBe(true)
    expect(log).toEqual([])
  })

  it('makes room like open: evicts the least recent, or refuses in refuse mode', () => {
    const evicting = setup({ maxSessions: 1 })
    evicting.store.open()
    const snapshot = { id: 'R', createdAt: 0, lastAccess: 0, timeout: MINUTE, established: true }
    evicting.store.adopt(snapshot)
    expect(evicting.log).toEqual(['opened S1 established', 'closed S1 evicted'])
    const refusing = setup({ maxSessions: 1, whenFull: 'refuse' })
    refusing.store.open()
    expect(() => refusing.store.adopt(snapshot)).toThrow(/maximum|limit/i)
    expect(refusing.store.peek('R')).toBeUndefined()
  })

  it('files a session by what it holds: a logged-in one is evicted only for a login of its user', () => {
    const { clock, store, log } = setup({ maxSessions: 1 })
    const now = clock.now()
    const user = [['entistore.user', { name: 'ann' }]] as const
    store.adopt({
      id: 'A',
      createdAt: now,
      lastAccess: now,
      timeout: MINUTE,
      established: true,
      data: user,
    })
    expect(store.counts).toEqual({ established: 1, users: 1, guests: 0 })
    const anonymous = {
      id: 'B',
      createdAt: now,
      lastAccess: now,
      timeout: MINUTE,
      established: true,
    }
    expect(() => store.adopt(anonymous)).toThrow(expect.objectContaining({ name: 'SessionLimit' }))
    // Another user's login evicts nobody; the same user's (by name, ignoring case) its oldest.
    expect(() =>
      store.adopt({ ...anonymous, id: 'C', data: [['entistore.user', { name: 'cid' }]] }),
    ).toThrow(expect.objectContaining({ name: 'SessionLimit' }))
    store.adopt({ ...anonymous, id: 'C', data: [['entistore.user', { name: 'Ann' }]] })
    expect(log).toEqual(['closed A evicted'])
    expect(store.sessionsOf('ann')).toBe(1)
    // Data given as a one-shot iterator is read once, for the pool, the user and the session.
    const data = new Map([['entistore.user', { name: 'ann' }]])
    const d = store.adopt({ ...anonymous, id: 'D', data: data.entries() })
    expect(sessionUser(d)).toEqual({ name: 'ann' })
    expect(log).toEqual(['closed A evicted', 'closed C evicted'])
  })

  it('keeps the per-user counts of a mirror: a user changed, taken off, or the session closed', () => {
    const { clock, store } = setup({ maxSessionsPerUser: 2 })
    const now = clock.now()
    const snapshot = { createdAt: now, lastAccess: now, timeout: MINUTE, established: true }
    const as = (name: string) => [['entistore.user', { name }]] as const
    store.adopt({ ...snapshot, id: 'A', data: as('ann') })
    store.adopt({ ...snapshot, id: 'B', data: as('ann') })
    expect(store.sessionsOf('ann')).toBe(2)
    // B's user changes elsewhere (a new login on it): it moves from ann's count to bob's.
    store.adopt({ ...snapshot, id: 'B', data: as('bob') })
    expect([store.sessionsOf('ann'), store.sessionsOf('bob')]).toEqual([1, 1])
    // Its user taken off (a logout): no user's; then closed here.
    store.adopt({ ...snapshot, id: 'B', data: [] })
    expect(store.sessionsOf('bob')).toBe(0)
    expect(store.counts).toEqual({ established: 2, users: 1, guests: 0 })
    store.close('A')
    expect(store.sessionsOf('ann')).toBe(0)
    // A session that comes to a user past the quota gives up that user's oldest, as a login does.
    store.adopt({ ...snapshot, id: 'C', data: as('cid') })
    store.adopt({ ...snapshot, id: 'D', data: as('cid') })
    store.adopt({ ...snapshot, id: 'B', data: as('CID') })
    expect(store.peek('C')).toBeUndefined()
    expect(store.sessionsOf('cid')).toBe(2)
  })
})
