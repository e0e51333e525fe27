import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import type { LockOwner } from '../../locks/lock-table.js'
import { writeClock, writeData, writeModel } from '../../txn/writes.fixture.js'
import { saveStatusOf } from '../../txn/save-status.js'
import { createDatastore } from '../objects/datastore.js'

const HOUR = 3_600_000

const fresh = () => {
  const clock = writeClock()
  const ds = createDatastore(writeModel(), { data: writeData(), clock })
  const Employee = ds.dataClass('Employee')
  const session = (info?: LockOwner['info']): LockOwner => ({
    id: ds.sessions.open().id,
    kind: 'session',
    ...(info ? { info } : {}),
  })
  return { ds, clock, Employee, session }
}

describe('entity.lock() and unlock()', () => {
  it('locks for the process by default; API callers share it and keep writing', () => {
    const { ds, Employee } = fresh()
    expect(Employee.get(1)!.lock()).toEqual({ success: true })
    expect(Employee.get(1)!.lock()).toEqual({ success: true })
    expect(ds.locks.holder('Employee', 1)?.owner).toBe(ds.processOwner)
    expect(Employee.update(1, { salary: 1 }).get('salary')).toBe(1)
    expect(Employee.get(1)!.unlock()).toEqual({ success: true })
    expect(ds.locks.size).toBe(0)
  })

  it("refuses another owner's lock, unlock, update and drop with status 3 / EntityLocked", () => {
    const { ds, Employee, session } = fresh()
    const s1 = session({ host: 'localhost:80', userAgent: 'UA' })
    const s2 = session()
    expect(Employee.get(2)!.lock({ owner: s1 })).toEqual({ success: true })
    const refused = {
      success: false,
      status: 3,
      statusText: 'Already locked',
      lockKind: 7,
      lockKindText: 'Locked by session',
      lockInfo: { host: 'localhost:80', recordNumber: Employee.get(2)!.rowId, userAgent: 'UA' },
    }
    expect(Employee.get(2)!.lock({ owner: s2 })).toEqual(refused)
    expect(Employee.get(2)!.unlock({ owner: s2 })).toEqual(refused)
    expect(Employee.get(2)!.lock()).toEqual(refused) // the process too
    for (const write of [
      () => Employee.update(2, { salary: 1 }),
      () => Employee.update(2, { salary: 1 }, { owner: s2 }),
      () => Employee.get(2)!.dropOrFail(),
      () => ds.runAs(s2, () => Employee.drop(2)),
      () => Employee.get(2)!.edit({ salary: 3 }).saveOrFail(),
      () => Employee.query('ID >= 1').dropOrFail(),
    ]) {
      const e = thrown(write)
      expect([e.name, e.errCode, e.category]).toEqual(['EntityLocked', 9070, 'conflict'])
      expect(saveStatusOf(e)).toEqual({ status: 3, statusText: 'Already locked' })
    }
    expect(Employee.get(2)!.stamp).toBe(1)
    expect(Employee.length).toBe(3)
    // the holder writes
    expect(Employee.update(2, { salary: 9 }, { owner: s1 }).get('salary')).toBe(9)
    expect(ds.runAs(s1, () => Employee.update(2, { salary: 10 })).get('salary')).toBe(10)
  })

  it('says "Locked by record" for a process lock, and sessions cannot write it', () => {
    const { Employee, session } = fresh()
    Employee.get(1)!.lock()
    const r = Employee.get(1)!.lock({ owner: session() })
    expect(r).toMatchObject({ status: 3, lockKindText: 'Locked by record', lockInfo: {} })
    expect(thrown(() => Employee.update(1, { salary: 1 }, { owner: session() })).name).toBe(
      'EntityLocked',
    )
  })

  it('cancels a whole transaction when one of its writes meets a lock', () => {
    const { ds, Employee, session } = fresh()
    Employee.get(3)!.lock({ owner: session() })
    const e = thrown(() =>
      ds.transaction(() => {
        Employee.update(1, { salary: 1 })
        Employee.create({ lastName: 'New' })
        Employee.update(3, { salary: 1 })
      }),
    )
    expect(e.name).toBe('EntityLocked')
    expect(Employee.get(1)!.get('salary')).toBe(5000)
    expect(Employee.length).toBe(3)
    expect(ds.globalStamp).toBe(0)
  })

  it('answers 2 for a stale version, 5 for a deleted entity, 4 for a closed session', () => {
    const { ds, Employee, session } = fresh()
    const old = Employee.get(1)!
    Employee.update(1, { salary: 1 })
    expect(old.lock()).toEqual({ success: false, status: 2, statusText: 'Stamp has changed' })
    expect(Employee.get(1)!.lock()).toEqual({ success: true })
    Employee.drop(1)
    expect(ds.locks.size).toBe(0) // a deleted entity's lock goes with it
    const gone = { success: false, status: 5, statusText: 'Entity does not exist' }
    expect(old.lock()).toEqual(gone)
    expect(old.unlock()).toEqual(gone)
    const s = session()
    ds.sessions.close(s.id)
    expect(Employee.get(2)!.lock({ owner: s })).toMatchObject({ status: 4 })
    expect(Employee.get(2)!.lock({ owner: { id: 'nobody', kind: 'session' } })).toMatchObject({
      status: 4,
    })
  })

  it("releases a session's locks when it is closed or evicted", () => {
    const clock = writeClock()
    const ds = createDatastore(writeModel(), {
      data: writeData(),
      clock,
      sessions: { maxSessions: 2 },
    })
    const Employee = ds.dataClass('Employee')
    const s1: LockOwner = { id: ds.sessions.open().id, kind: 'session' }
    const s2: LockOwner = { id: ds.sessions.open().id, kind: 'session' }
    Employee.get(1)!.lock({ owner: s1 })
    Employee.get(2)!.lock({ owner: s2 })
    ds.sessions.close(s2.id)
    expect(ds.locks.list().map((l) => l.key)).toEqual([1])
    ds.sessions.open()
    ds.sessions.open() // s1 is the least recently used: evicted
    expect(ds.locks.size).toBe(0)
    expect(Employee.update(1, { salary: 2 }).stamp).toBe(2)
  })

  it('does not let an expired session block anyone, even before any sweep', () => {
    const { ds, clock, Employee, session } = fresh()
    const s1 = session()
    const s2 = session()
    Employee.get(1)!.lock({ owner: s1 })
    clock.advance(HOUR - 1)
    ds.sessions.touch(s2.id)
    expect(Employee.get(1)!.lock({ owner: s2 })).toMatchObject({ status: 3 })
    clock.advance(1) // s1: 60 minutes without a request
    expect(Employee.update(1, { salary: 1 }, { owner: s2 }).stamp).toBe(2)
    expect(ds.locks.size).toBe(0)
    expect(Employee.get(1)!.lock({ owner: s2 })).toEqual({ success: true })
  })
})
