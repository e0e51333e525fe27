/**
 * Guests on probation (`visit`, `hold`, `settle`): a client without a cookie is given a session
 * for its request, kept only if it comes to hold something or comes back with its cookie.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { SessionStore } from './session-store.js'
import type { SessionStoreOptions, Session, SessionCloseReason } from './session-api.js'

const MINUTE = 60_000

/** A store with its own ids on a manual clock, what it closed and what its observers heard. */
function setup(options: SessionStoreOptions = {}) {
  const clock = new ManualClock(Date.UTC(2026, 10, 26))
  const store = new SessionStore(clock, options)
  const closed: [string, SessionCloseReason][] = []
  const heard: string[] = []
  store.onClose((s: Session, reason) => closed.push([s.id, reason]))
  store.observe({
    opened: (s) => heard.push(`opened ${s.id}`),
    touched: (s) => heard.push(`touched ${s.id}`),
    established: (s) => heard.push(`established ${s.id}`),
  })
  return { clock, store, closed, heard }
}

const NOTHING = { established: 0, users: 0, guests: 0 }

describe('guests on probation', () => {
  it('a guest that holds nothing is found during its request, then forgotten without a trace', () => {
    const { store, closed, heard } = setup()
    const { session, created } = store.visit(undefined)
    expect(created).toBe(true)
    expect(session.id).toMatch(/^[0-9A-F]{32}$/)
    expect(store.peek(session.id)).toBe(session)
    expect(store.counts).toEqual(NOTHING)
    expect(store.size).toBe(0)
    expect(store.settle(session)).toBe(true)
    expect(store.peek(session.id)).toBeUndefined()
    expect(store.settle(session)).toBe(false)
    expect(closed).toEqual([])
    expect(heard).toEqual([])
  })

  it('is kept as a guest once it holds something: data, a hold, or as established by a lock or a login', () => {
    const { store, heard } = setup()
    const withData = store.visit(undefined).session
    withData.data.set('cart', 3)
    const held = store.visit(undefined).session
    store.hold(held.id)
    const locker = store.visit(undefined).session
    store.establish(locker.id)
    const user = store.visit(undefined).session
    const guestId = user.id
    const renewed = store.renew(guestId, { user: { name: 'ada' } })!
    for (const s of [withData, held, locker, renewed]) {
      expect(store.settle(s)).toBe(false)
      expect(store.peek(s.id)).toBe(s)
    }
    expect(store.counts).toEqual({ established: 2, users: 1, guests: 2 })
    expect(heard).toEqual([
      `opened ${withData.id}`,
      `opened ${held.id}`,
      `opened ${locker.id}`,
      `established ${locker.id}`,
      // Told under the id it had: the renewal is told to onRenew listeners.
      `opened ${guestId}`,
    ])
  })

  it('a client back with the cookie of a guest that held nothing finds it: the same id, kept from then on', () => {
    const { clock, store, heard } = setup()
    const first = store.visit(undefined).session
    store.settle(first)
    clock.advance(59 * MINUTE)
    const { session, created } = store.visit(first.id)
    expect(created).toBe(false)
    expect(session.id).toBe(first.id)
    expect(store.settle(session)).toBe(false)
    expect(store.counts).toEqual({ ...NOTHING, guests: 1 })
    expect(heard).toEqual([`opened ${first.id}`])
    // Kept: its timer restarts with each request, as any session's.
    clock.advance(59 * MINUTE)
    expect(store.visit(first.id).session).toBe(session)
  })

  it('does not take up an id too old, another store’s, made up, or one a logout or a login ended', () => {
    const { clock, store } = setup()
    const other = new SessionStore(clock)
    const old = store.visit(undefined).session
    store.settle(old)
    clock.advance(60 * MINUTE)
    const loggedOut = store.visit(undefined).session
    store.hold(loggedOut.id)
    store.close(loggedOut.id)
    const renewedFrom = store.visit(undefined).session
    const previous = renewedFrom.id
    store.renew(previous, { user: { name: 'ada' } })
    const foreign = other.visit(undefined).session.id
    for (const id of [old.id, loggedOut.id, previous, foreign, 'S1', 'F'.repeat(32)]) {
      const { session, created } = store.visit(id)
      expect(created).toBe(true)
      expect(session.id).not.toBe(id)
      store.settle(session)
    }
  })

  it('a store given its own ids keeps every guest, as resume does: it cannot tell its ids', () => {
    let n = 0
    const { store } = setup({ newId: () => `S${++n}` })
    const { session } = store.visit(undefined)
    expect(store.settle(session)).toBe(false)
    expect(store.counts).toEqual({ ...NOTHING, guests: 1 })
    expect(store.visit('S1')).toEqual({ session, created: false })
  })

  it('guests never settled are swept and bounded as guests are', () => {
    const { clock, store, closed } = setup({ maxGuests: 3 })
    const visits = Array.from({ length: 10 }, () => store.visit(undefined).session)
    expect(visits.filter((s) => store.peek(s.id) !== undefined)).toHaveLength(3)
    expect(closed.map(([, reason]) => reason)).toEqual(Array(7).fill('evicted'))
    clock.advance(60 * MINUTE)
    store.sweep()
    expect(visits.filter((s) => store.peek(s.id) !== undefined)).toHaveLength(0)
  })

  it('random requests: what held something or came back is kept, nothing else, within the bounds', () => {
    type Step =
      | { kind: 'new'; hold: 'nothing' | 'data' | 'hold' | 'lock' }
      | { kind: 'back'; client: number }
      | { kind: 'wait'; minutes: number }
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({
        kind: fc.constant('new' as const),
        hold: fc.constantFrom(
          'nothing' as const,
          'data' as const,
          'hold' as const,
          'lock' as const,
        ),
      }),
      fc.record({ kind: fc.constant('back' as const), client: fc.nat(20) }),
      fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 1, max: 40 }) }),
    )
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const { clock, store } = setup({ maxGuests: 5, maxSessions: 5 })
        // Each client's cookie, and when it was issued.
        const clients: { id: string; issued: number }[] = []
        for (const s of steps) {
          if (s.kind === 'wait') clock.advance(s.minutes * MINUTE)
          else if (s.kind === 'new') {
            const { session } = store.visit(undefined)
            if (s.hold === 'data') session.data.set('x', 1)
            else if (s.hold === 'hold') store.hold(session.id)
            else if (s.hold === 'lock') store.establish(session.id)
            expect(store.settle(session)).toBe(s.hold === 'nothing')
            clients.push({ id: session.id, issued: clock.now() })
          } else if (clients.length > 0) {
            const c = clients[s.client % clients.length]!
            const live = store.peek(c.id) !== undefined
            const { session, created } = store.visit(c.id)
            // Its session when it lives; else taken up under its id unless that is too old (an
            // expired session's always is: it was issued before its last request).
            if (live || clock.now() - c.issued < 60 * MINUTE)
              expect({ id: session.id, created }).toEqual({ id: c.id, created: false })
            else expect(created).toBe(true)
            if (created) expect(store.settle(session)).toBe(true)
            else expect(store.peek(c.id)).toBe(session)
          }
          const { guests, established } = store.counts
          expect(guests).toBeLessThanOrEqual(5)
          expect(established).toBeLessThanOrEqual(5)
          expect(store.size).toBe(guests + established)
        }
      }),
    )
  })
})
