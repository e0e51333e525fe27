import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { LockTable, sessionOwnerKey, type LockOwner } from './lock-table.js'

const a: LockOwner = { id: 'A', kind: 'session', info: { host: 'h', userAgent: 'ua' } }
const b: LockOwner = { id: 'B', kind: 'session' }
const p: LockOwner = { id: 'A', kind: 'process' }

describe('LockTable', () => {
  it('records the holder and the time, and locking twice is one lock', () => {
    const clock = new ManualClock(1000)
    const t = new LockTable(clock)
    expect(t.take('Employee', 1, a)).toMatchObject({ owner: a, since: 1000 })
    clock.advance(5)
    expect(t.take('Employee', 1, { id: 'A', kind: 'session' })).toMatchObject({ since: 1000 })
    expect(t.size).toBe(1)
    expect(t.holder('Employee', 1)?.owner).toBe(a)
    expect(t.holder('Employee', 2)).toBeUndefined()
    expect(t.holder('Company', 1)).toBeUndefined()
  })

  it("refuses another owner's lock and unlock; a session and a process of the same id differ", () => {
    const t = new LockTable(new ManualClock())
    t.take('Employee', 1, a)
    expect(t.take('Employee', 1, b).owner).toBe(a)
    expect(t.take('Employee', 1, p).owner).toBe(a)
    expect(t.release('Employee', 1, b)?.owner).toBe(a)
    expect(t.release('Employee', 1, a)).toBeUndefined()
    expect(t.holder('Employee', 1)).toBeUndefined()
    // unlocking what nobody holds: unlocked, nothing to report
    expect(t.release('Employee', 1, b)).toBeUndefined()
    expect(t.take('Employee', 1, b).owner).toBe(b)
  })

  it("releases every lock of an owner at once, and only that owner's", () => {
    const t = new LockTable(new ManualClock())
    t.take('Employee', 1, a)
    t.take('Employee', 2, a)
    t.take('Company', 'x', a)
    t.take('Employee', 3, b)
    expect(t.heldBy(a)).toHaveLength(3)
    expect(t.releaseOwner(sessionOwnerKey('A'))).toBe(3)
    expect(t.releaseOwner(a)).toBe(0)
    expect(t.list().map((l) => l.key)).toEqual([3])
    t.drop('Employee', 3)
    expect(t.size).toBe(0)
    expect(t.heldBy(b)).toEqual([])
  })

  it("gives a renewed session's locks to its new id, each with its time, and no one else's", () => {
    const clock = new ManualClock(1000)
    const t = new LockTable(clock)
    t.take('Employee', 1, a)
    clock.advance(5)
    t.take('Company', 'x', a)
    t.take('Employee', 2, p) // the process of the same id keeps its lock
    t.take('Employee', 3, b)
    expect(t.renameSession('A', 'A2')).toBe(2)
    expect(t.renameSession('A', 'A3')).toBe(0)
    const a2: LockOwner = { id: 'A2', kind: 'session' }
    expect(t.holder('Employee', 1)).toMatchObject({ owner: { ...a, id: 'A2' }, since: 1000 })
    expect(t.holder('Company', 'x')).toMatchObject({ owner: a2, since: 1005 })
    expect(t.take('Employee', 1, a).owner.id).toBe('A2') // the old id is refused
    expect(t.heldBy(a)).toEqual([])
    expect(t.releaseSession('A2')).toBe(2)
    expect(t.list().map((l) => l.owner.id)).toEqual(['A', 'B'])
  })

  it("releases a closed session's locks by its id, and a session's close costs nothing while none is held", () => {
    const t = new LockTable(new ManualClock())
    expect(t.releaseSession('A')).toBe(0)
    t.take('Employee', 1, a)
    t.take('Employee', 2, p)
    expect(t.releaseSession('B')).toBe(0)
    expect(t.releaseSession('A')).toBe(1)
    // The process of the same id keeps its lock.
    expect(t.list().map((l) => l.owner)).toEqual([p])
  })

  it('never honours the lock of an owner that is gone, and forgets all its locks', () => {
    const live = new Set(['A', 'B'])
    const t = new LockTable(new ManualClock(), (o) => live.has(o.id))
    t.take('Employee', 1, a)
    t.take('Employee', 2, a)
    live.delete('A')
    expect(t.holder('Employee', 1)).toBeUndefined()
    expect(t.size).toBe(0)
    expect(t.take('Employee', 2, b).owner).toBe(b)
  })
})
