/**
 * Entity sets belong to the session that made them and to its user: read by anyone through their
 * own `restrict`, released, listed and remade by their owner only, renamed with their session at
 * a login and released when it closes. Code outside any request acts as the process: full rights.
 */
import { describe, expect, it } from 'vitest'
import type { LockOwner } from '../../locks/lock-table.js'
import { sessionUser } from '../../sessions/session-user.js'
import { writeClock, writeData, writeModel } from '../../txn/writes.fixture.js'
import { createDatastore } from './datastore.js'

/** Employees of the company named in the user's groups; a session without a user sees none. */
function shop() {
  const clock = writeClock()
  const ds = createDatastore(writeModel(), {
    data: writeData(),
    clock,
    functions: {
      dataClasses: {
        Employee: {
          restrict({ session }) {
            const user = session && sessionUser(session)
            if (user?.name === 'root') return null
            return this.query('employerID in :1', (user?.groups ?? []).map(Number))
          },
        },
      },
    },
  })
  const login = (name: string, company: number) => {
    const s = ds.sessions.open()
    return ds.sessions.renew(s.id, { user: { name, groups: [String(company)] } })!
  }
  const as = <T>(session: { id: string }, fn: () => T): T =>
    ds.runAs({ kind: 'session', id: session.id } satisfies LockOwner, fn)
  return { ds, clock, login, as, Employee: ds.dataClass('Employee') }
}

describe('entity sets and their owners', () => {
  it('belong to the acting session and its user; to the process outside any request', () => {
    const { ds, login, as, Employee } = shop()
    const ann = login('ann', 1)
    const set = as(ann, () => Employee.all().keep())
    expect(set.owner).toEqual({ kind: 'session', id: ann.id, user: 'ann' })
    expect(Employee.all().keep().owner).toEqual({ kind: 'process', id: 'process' })
    expect(
      ds.entitySets.keep(Employee.all(), { owner: { kind: 'session', id: 'X' } }).owner,
    ).toEqual({
      kind: 'session',
      id: 'X',
    })
  })

  it('are read by anyone, narrowed by the reader’s restrict', () => {
    const { ds, login, as, Employee } = shop()
    const ann = login('ann', 1)
    const bob = login('bob', 2)
    const root = login('root', 0)
    const set = as(root, () => Employee.all().keep())
    const keys = (s: { id: string }) =>
      as(s, () =>
        ds.entitySets
          .get(set.id)!
          .selection.toArray()
          .map((e) => e.key),
      )
    expect(keys(ann)).toEqual([1, 2])
    expect(keys(bob)).toEqual([3])
    expect(keys(root)).toEqual([1, 2, 3])
    // A delete through it drops what the deleter sees.
    expect(as(bob, () => ds.entitySets.get(set.id)!.selection.dropOrFail())).toBe(1)
    expect(Employee.length).toBe(2)
  })

  it('are released and listed by their owner only: another user’s session is told nothing', () => {
    const { ds, login, as, Employee } = shop()
    const ann = login('ann', 1)
    const ann2 = login('ann', 1)
    const bob = login('bob', 1)
    const set = as(ann, () => Employee.all().keep())
    const other = as(bob, () => Employee.all().keep())
    expect(as(bob, () => ds.entitySets.release(set.id))).toBe(false)
    expect(as(bob, () => ds.entitySets.info().map((s) => s.id))).toEqual([other.id])
    expect(as(ann2, () => ds.entitySets.info().map((s) => s.id))).toEqual([set.id])
    expect(ds.entitySets.info()).toHaveLength(2) // the process sees all
    expect(as(ann2, () => ds.entitySets.release(set.id))).toBe(true)
    expect(ds.entitySets.release(other.id)).toBe(true) // the process releases any
  })

  it('may be remade once gone by their owning user (any of their sessions), nobody else', () => {
    const { ds, login, as, Employee } = shop()
    const ann = login('ann', 1)
    const ann2 = login('ann', 1)
    const bob = login('bob', 1)
    const set = as(ann, () => Employee.all().keep())
    ds.entitySets.release(set.id)
    expect(as(ann2, () => ds.entitySets.mayRemake(set.id))).toBe(true)
    expect(as(bob, () => ds.entitySets.mayRemake(set.id))).toBe(false)
    expect(as(bob, () => ds.entitySets.mayRemake('A'.repeat(32)))).toBe(false)
    expect(ds.entitySets.mayRemake(set.id)).toBe(true) // the process
  })

  it('made by a guest stay its session’s across a login: released, remade by it, not another', () => {
    const { ds, as, Employee } = shop()
    const guest = ds.sessions.open()
    const other = ds.sessions.open()
    const early = as(guest, () => Employee.all().keep())
    const gone = as(guest, () => Employee.all().keep())
    const before = guest.id
    ds.sessions.renew(guest.id, { user: { name: 'ann', groups: ['1'] } })
    expect(guest.id).not.toBe(before)
    expect(ds.entitySets.get(early.id)!.owner).toEqual({ kind: 'session', id: guest.id })
    expect(as(other, () => ds.entitySets.release(early.id))).toBe(false)
    expect(as(guest, () => ds.entitySets.release(early.id))).toBe(true)
    expect(as(guest, () => ds.entitySets.release(gone.id))).toBe(true)
    // Signed for the id it had then: still its own to remake, nobody else's.
    expect(as(guest, () => ds.entitySets.mayRemake(gone.id))).toBe(true)
    expect(as(other, () => ds.entitySets.mayRemake(gone.id))).toBe(false)
  })

  it('go with their session when it closes: logout, expiry, eviction', () => {
    const { ds, clock, login, as, Employee } = shop()
    const ann = login('ann', 1)
    const bob = login('bob', 2)
    const annSet = as(ann, () => Employee.all().keep())
    const bobSet = as(bob, () => Employee.all().keep())
    const processSet = Employee.all().keep()
    ds.sessions.close(ann.id)
    expect(ds.entitySets.has(annSet.id)).toBe(false)
    expect(ds.entitySets.has(bobSet.id)).toBe(true)
    clock.advance(3_600_000) // bob's hour of inactivity
    ds.sessions.sweep()
    expect(ds.entitySets.has(bobSet.id)).toBe(false)
    expect(ds.entitySets.has(processSet.id)).toBe(true)
  })

  it('count against their session’s quota: one session’s flood leaves another’s sets alone', () => {
    const clock = writeClock()
    const ds = createDatastore(writeModel(), {
      data: writeData(),
      clock,
      entitySets: { maxSetsPerSession: 10, maxSets: 50 },
    })
    const Employee = ds.dataClass('Employee')
    const [a, b] = [ds.sessions.open(), ds.sessions.open()]
    const as = <T>(s: { id: string }, fn: () => T): T => ds.runAs({ kind: 'session', id: s.id }, fn)
    const kept = as(a, () => Employee.all().keep())
    for (let i = 0; i < 10_001; i++) as(b, () => Employee.all().keep())
    expect(ds.entitySets.get(kept.id)).toBeDefined()
    expect(as(b, () => ds.entitySets.usage())).toEqual({
      sets: 10,
      members: 30,
      maxSets: 10,
      maxMembers: 10_000_000,
    })
    expect(ds.entitySets.size).toBe(11)
  })
})
