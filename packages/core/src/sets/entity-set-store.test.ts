/**
 * The entity-set cache's owners: each session's quota, the global bounds that take from the
 * largest share first (never from another session for one session's flood), and a session's sets
 * renamed with it and released with it.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { thrown } from '../errors/thrown.fixture.js'
import { EntitySetStore } from './entity-set-store.js'
import type { EntitySetStoreOptions } from './stored-set.js'
import type { SetOwner } from './set-owners.js'

const session = (id: string, user?: string): SetOwner =>
  user === undefined ? { kind: 'session', id } : { kind: 'session', id, user }
const ann = session('A', 'ann')
const eve = session('E', 'eve')

function store(options: EntitySetStoreOptions = {}) {
  const clock = new ManualClock(1_000_000)
  let n = 0
  const sets = new EntitySetStore(clock, () => (++n).toString(16).padStart(32, '0'), options)
  const keep = (owner: SetOwner, members = 1) =>
    sets.keep(
      'Employee',
      Array.from({ length: members }, (_, i) => i),
      { owner },
    ).id
  const live = (ids: readonly string[]) => ids.filter((id) => sets.peek(id) !== undefined)
  return { sets, clock, keep, live }
}

describe('a session’s quota', () => {
  it('evicts the session’s own least recently used set, and nobody else’s', () => {
    const { sets, keep, live } = store({ maxSetsPerSession: 3 })
    const annSet = keep(ann)
    const mine = Array.from({ length: 3 }, () => keep(eve))
    sets.get(mine[0]!) // used again: now the most recent of eve's
    const more = [keep(eve), keep(eve)]
    expect(live([annSet])).toEqual([annSet])
    expect(live(mine)).toEqual([mine[0]])
    expect(live(more)).toEqual(more)
    expect(sets.usage(eve)).toEqual({ sets: 3, members: 3, maxSets: 3, maxMembers: 10_000_000 })
    expect(sets.usage(ann).sets).toBe(1)
  })

  it('refuses past it in refuse mode (9060), for that session only', () => {
    const { keep } = store({ maxSetsPerSession: 2, whenFull: 'refuse' })
    keep(eve)
    keep(eve)
    expect(thrown(() => keep(eve)).errCode).toBe(9060)
    keep(ann)
    keep(ann)
  })

  it('counts members too; one set past the session’s member bound is refused in both modes', () => {
    const evicting = store({ maxMembersPerSession: 10 })
    const first = evicting.keep(eve, 4)
    const second = evicting.keep(eve, 4)
    const third = evicting.keep(eve, 4)
    expect(evicting.live([first, second, third])).toEqual([second, third])
    expect(evicting.sets.usage(eve).members).toBe(8)
    expect(thrown(() => evicting.keep(eve, 11)).errCode).toBe(9060)
    const refusing = store({ maxMembersPerSession: 10, whenFull: 'refuse' })
    refusing.keep(eve, 6)
    expect(thrown(() => refusing.keep(eve, 5)).errCode).toBe(9060)
    refusing.keep(eve, 4)
  })

  it('does not bind the process (code outside any request), only the global bounds', () => {
    const { sets, keep } = store({ maxSetsPerSession: 2, maxSets: 5 })
    const process: SetOwner = { kind: 'process', id: 'process' }
    for (let i = 0; i < 7; i++) keep(process)
    expect(sets.size).toBe(5)
  })

  it('lets expired sets go before a live one is evicted', () => {
    const { sets, clock, keep, live } = store({ maxSetsPerSession: 2 })
    const old = sets.keep('Employee', [1], { owner: eve, timeout: 10 }).id
    const kept = sets.keep('Employee', [1], { owner: eve, timeout: 100 }).id
    sets.get(old) // the most recent, and the first to expire
    clock.advance(10_001)
    const next = keep(eve)
    expect(live([old, kept, next])).toEqual([kept, next])
  })
})

describe('the global bounds', () => {
  it('take from the session holding the most: a flood by one session evicts only its own', () => {
    const { sets, keep, live } = store({ maxSets: 6, maxSetsPerSession: 6 })
    const annSet = keep(ann)
    const other = keep(session('B', 'bob'))
    const mine: string[] = []
    for (let i = 0; i < 10_001; i++) mine.push(keep(eve))
    expect(live([annSet, other])).toEqual([annSet, other])
    expect(sets.size).toBe(6)
    expect(sets.usage(eve).sets).toBe(4)
    expect(live(mine)).toEqual(mine.slice(-4))
  })

  it('take from a larger share before the maker’s own, the sets without a user first among equals', () => {
    const { sets, keep, live } = store({ maxSets: 5, maxSetsPerSession: 5 })
    const big = [keep(session('B', 'bob')), keep(session('B', 'bob')), keep(session('B', 'bob'))]
    const annSet = keep(ann)
    const guest = keep(session('G'))
    // Full: the next set of a new session is taken from bob, the largest share.
    keep(session('C', 'cid'))
    expect(live(big)).toEqual(big.slice(1))
    // Then from a session without a user among the equal shares (the guest's), not ann's.
    keep(session('D', 'dan'))
    keep(session('F', 'fay'))
    expect(live([annSet, guest])).toEqual([annSet])
    expect(sets.size).toBe(5)
  })

  it('count members as a share: one session holding most of them gives them back first', () => {
    const { sets, keep, live } = store({ maxSets: 100, maxMembers: 100 })
    const hog = keep(session('H', 'hal'), 60)
    const small = Array.from({ length: 30 }, () => keep(eve))
    keep(ann, 20) // 60 + 30 + 20 > 100: hal's set goes, not eve's thirty
    expect(live([hog])).toEqual([])
    expect(live(small)).toEqual(small)
    expect(sets.members).toBe(50)
  })

  it('refuse a new set in refuse mode, whoever holds the rest', () => {
    const { keep } = store({ maxSets: 3, maxSetsPerSession: 2, whenFull: 'refuse' })
    keep(eve)
    keep(eve)
    keep(ann)
    expect(thrown(() => keep(ann)).errCode).toBe(9060)
  })
})

describe('a session’s sets', () => {
  it('follow it when a login renews its id, and tell an observer with the life they have left', () => {
    const { sets, clock, keep } = store()
    const log: string[] = []
    sets.observe({ renamed: (set, remaining) => log.push(`${set.owner.id} ${remaining}`) })
    const id = keep(session('OLD'))
    clock.advance(1000)
    sets.renameSession('OLD', 'NEW')
    expect(sets.peek(id)!.owner).toEqual({ kind: 'session', id: 'NEW' })
    expect(sets.usage(session('NEW')).sets).toBe(1)
    expect(sets.usage(session('OLD')).sets).toBe(0)
    expect(log).toEqual([`NEW ${7_200_000 - 1000}`])
    expect(sets.releaseSession('OLD', 'closed')).toBe(0)
    expect(sets.peek(id)).toBeDefined()
  })

  it('go with it, the observer told why; another session’s stay', () => {
    const { sets, keep, live } = store()
    const log: string[] = []
    sets.observe({ released: (id, reason) => log.push(`${id.slice(0, 4)} ${reason}`) })
    const gone = [keep(eve), keep(eve)]
    const stays = keep(ann)
    expect(sets.releaseSession('E', 'expired')).toBe(2)
    expect(live([...gone, stays])).toEqual([stays])
    expect(log).toEqual(gone.map((id) => `${id.slice(0, 4)} expired`))
    expect(sets.usage(eve)).toMatchObject({ sets: 0, members: 0 })
  })

  it('have ids signed for their user, or their session: nobody else’s names verify', () => {
    const { sets, keep } = store()
    const annId = keep(ann)
    const guestId = keep(session('G'))
    expect(annId).toMatch(/^[0-9A-F]{32}$/)
    expect(sets.signedFor(annId, ['u:ann'])).toBe(true)
    expect(sets.signedFor(annId, ['u:eve', 's:A'])).toBe(false)
    expect(sets.signedFor(guestId, ['s:G'])).toBe(true)
    expect(sets.signedFor(guestId, ['s:H'])).toBe(false)
    expect(sets.signedFor('F'.repeat(32), ['u:ann', 's:G'])).toBe(false)
    // Another key (another server, or a restart without a shared key) verifies none of them.
    sets.useIdKey('0123456789abcdef0123456789abcdef')
    expect(sets.signedFor(annId, ['u:ann'])).toBe(false)
  })
})
