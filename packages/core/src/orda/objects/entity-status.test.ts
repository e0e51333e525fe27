// save() and drop() answer 4D's status objects, written from the examples of 4D's page
// API/EntityClass (save, drop) and API/EntitySelectionClass (drop), 4D 21 R4.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import type { LockOwner } from '../../locks/lock-table.js'
import type { WriteResult } from '../../txn/save-status.js'
import { entityPage } from './entity-class.fixture.js'

const STAMP_CHANGED = { success: false, status: 2, statusText: 'Stamp has changed' }
const GONE = { success: false, status: 5, statusText: 'Entity does not exist' }

const session = (ds: ReturnType<typeof entityPage>): LockOwner => ({
  id: ds.sessions.open().id,
  kind: 'session',
  info: { host: 'localhost:80', IPAddr: '127.0.0.1', userAgent: 'UA' },
})

describe('draft.save() (4D API/EntityClass .save())', () => {
  it('example 1: creating a new entity', () => {
    const ds = entityPage()
    const employee = ds.Employee.new()
    employee.set('firstName', 'Mary')
    employee.set('lastName', 'Smith')
    const status = employee.save()
    expectTypeOf(status).toEqualTypeOf<WriteResult>()
    expect(status).toEqual({ success: true })
    expect(employee.isNew()).toBe(false)
    expect(employee.getStamp()).toBe(1)
    expect(ds.Employee.get(employee.getKey())?.get('lastName')).toBe('Smith')
  })

  it('example 2: updating without dk auto merge; a stamp changed since answers 2', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName=:1', 'Smith')
    const employee = employees.first()!.edit()
    employee.set('lastName', 'Mac Arthur')
    expect(employee.save()).toEqual({ success: true })
    expect(ds.Employee.get(672)?.get('lastName')).toBe('Mac Arthur')

    // Someone else saves entity 673 between the read and the save: nothing is written.
    const stale = ds.Employee.get(673)!.edit({ lastName: 'Mac Arthur' })
    ds.Employee.update(673, { salary: 1 })
    const status = stale.save()
    expect(status).toEqual(STAMP_CHANGED)
    if (!status.success && status.status === 2) expect(status.statusText).toBe('Stamp has changed')
    expect(ds.Employee.get(673)?.get('lastName')).toBe('Smith')
    expect(stale.touched()).toBe(true) // still to save
  })

  it('example 3: dk auto merge merges saves of different attributes, fails (6) on the same one', () => {
    const ds = entityPage()
    const employee = ds.Employee.query('lastName=:1', 'Smith').first()!.edit()
    employee.set('lastName', 'Mac Arthur')
    ds.Employee.update(672, { salary: 40000 }) // another process, another attribute
    expect(employee.save({ autoMerge: true })).toEqual({ success: true, autoMerged: true })
    expect(ds.Employee.get(672)!.toObject('lastName, salary')).toEqual({
      lastName: 'Mac Arthur',
      salary: 40000,
    })
    expect(ds.Employee.get(672)!.getStamp()).toBe(3)

    const same = ds.Employee.get(673)!.edit({ lastName: 'Mac Arthur' })
    ds.Employee.update(673, { lastName: 'Other' })
    expect(same.save({ autoMerge: true })).toEqual({
      success: false,
      status: 6,
      statusText: 'Auto merge failed',
    })
    expect(ds.Employee.get(673)?.get('lastName')).toBe('Other')
    // Unchanged since: saved, not merged.
    expect(ds.Employee.get(674)!.edit({ salary: 1 }).save({ autoMerge: true })).toEqual({
      success: true,
      autoMerged: false,
    })
  })

  it('dk auto merge: a relation is its key attribute; a concurrent object or picture change is 2', () => {
    const ds = entityPage()
    const viaRelation = ds.Employee.get(672)!.edit({ employer: 118 })
    ds.Employee.update(672, { employerID: 20 })
    expect(viaRelation.save({ autoMerge: true })).toMatchObject({ status: 6 })
    const draft = ds.Employee.get(673)!.edit({ salary: 1 })
    ds.Employee.update(673, { extra: { note: 'x' } })
    expect(draft.save({ autoMerge: true })).toEqual(STAMP_CHANGED)
    // A deleted entity cannot be merged into: 5.
    const gone = ds.Employee.get(674)!.edit({ salary: 1 })
    ds.Employee.drop(674)
    expect(gone.save({ autoMerge: true })).toEqual(GONE)
  })

  it('does nothing for an entity with nothing touched (no new stamp, no event)', () => {
    const ds = entityPage()
    const draft = ds.Employee.get(413)!.edit()
    expect(draft.touched()).toBe(false)
    expect(draft.save()).toEqual({ success: true })
    expect(ds.Employee.get(413)!.getStamp()).toBe(1)
    expect(ds.globalStamp).toBe(0)
    // saveOrFail() writes a version all the same, as it always did.
    expect(draft.saveOrFail().getStamp()).toBe(2)
  })

  it('answers 3 with the lock holder, 5 for a deleted entity, 4 with errors for a taken key', () => {
    const ds = entityPage()
    const holder = session(ds)
    expect(ds.Employee.get(413)!.lock({ owner: holder })).toEqual({ success: true })
    expect(ds.Employee.get(413)!.edit({ salary: 1 }).save()).toEqual({
      success: false,
      status: 3,
      statusText: 'Already locked',
      lockKind: 7,
      lockKindText: 'Locked by session',
      lockInfo: {
        host: 'localhost:80',
        IPAddr: '127.0.0.1',
        recordNumber: ds.Employee.get(413)!.rowId,
        userAgent: 'UA',
      },
    })

    const gone = ds.Employee.get(420)!.edit({ salary: 1 })
    ds.Employee.drop(420)
    expect(gone.save()).toEqual(GONE)

    const duplicate = ds.Employee.new({ ID: 413, lastName: 'Twin' }).save()
    expect(duplicate).toMatchObject({ success: false, status: 4, statusText: 'Other error' })
    expect(!duplicate.success && duplicate.errors?.[0]).toMatchObject({ errCode: 1545 })
  })

  it('answers 1 when the acting session may not write', () => {
    const ds = entityPage()
    const s = ds.sessions.open()
    const authorize = (_: unknown, action: string) => action === 'read'
    const status = ds.actAs(s, () => ds.Employee.get(413)!.edit({ salary: 1 }).save(), {
      authorize,
    })
    expect(status).toEqual({ success: false, status: 1, statusText: 'Permission Error' })
  })

  it("still throws the calling code's mistakes: an unknown attribute, a value of the wrong type", () => {
    const ds = entityPage()
    const unknown = ds.Employee.get(413)!.edit()
    unknown.set('nmae' as 'lastName', 'x')
    expect(thrown(() => unknown.save()).errCode).toBe(1500)
    const wrong = ds.Employee.get(413)!.edit({ salary: 'lots' as unknown as number })
    expect(thrown(() => wrong.save()).errCode).toBe(1570)
  })

  it('inside a transaction, a refused save answers its status and the others commit', () => {
    const ds = entityPage()
    const stale = ds.Employee.get(672)!.edit({ salary: 1 })
    ds.Employee.update(672, { salary: 2 })
    const statuses = ds.transaction(() => [
      ds.Employee.get(673)!.edit({ salary: 3 }).save(),
      stale.save(),
    ])
    expect(statuses).toEqual([{ success: true }, STAMP_CHANGED])
    expect(ds.Employee.get(673)?.get('salary')).toBe(3)
    expect(ds.Employee.get(672)?.get('salary')).toBe(2)
  })

  it('saveOrFail() keeps the throwing meaning and returns the saved version', () => {
    const ds = entityPage()
    const stale = ds.Employee.get(672)!.edit({ salary: 1 })
    ds.Employee.update(672, { salary: 2 })
    expect(thrown(() => stale.saveOrFail()).name).toBe('StampChanged')
    const saved = ds.Employee.get(672)!.edit({ salary: 5 }).saveOrFail()
    expect([saved.get('salary'), saved.getStamp()]).toEqual([5, 3])
  })
})

describe('entity.drop() and draft.drop() (4D API/EntityClass .drop())', () => {
  it('example 1: without dk force drop if stamp changed', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName=:1', 'Smith')
    const employee = employees.first()!
    const status = employee.drop()
    expect(status).toEqual({ success: true })
    // The dropped entity remains in memory.
    expect(`${employee.get('firstName')} ${employee.get('lastName')}`).toBe('Mary Smith')
    expect(ds.Employee.get(672)).toBeNull()

    const old = ds.Employee.get(673)!
    ds.Employee.update(673, { salary: 1 })
    expect(old.drop()).toEqual(STAMP_CHANGED)
    expect(ds.Employee.get(673)).not.toBeNull()
  })

  it('example 2: with dk force drop if stamp changed; an entity gone answers 5', () => {
    const ds = entityPage()
    const employee = ds.Employee.query('lastName=:1', 'Smith').first()!
    ds.Employee.update(672, { salary: 1 })
    expect(employee.drop({ force: true })).toEqual({ success: true })
    expect(employee.drop({ force: true })).toEqual(GONE)
    expect(employee.drop()).toEqual(GONE)
  })

  it("answers 3 for another owner's lock; dropOrFail() throws as drop() did", () => {
    const ds = entityPage()
    ds.Employee.get(413)!.lock({ owner: session(ds) })
    expect(ds.Employee.get(413)!.drop()).toMatchObject({ success: false, status: 3, lockKind: 7 })
    expect(thrown(() => ds.Employee.get(413)!.dropOrFail()).name).toBe('EntityLocked')
    const old = ds.Employee.get(672)!
    ds.Employee.update(672, { salary: 1 })
    expect(thrown(() => old.dropOrFail()).name).toBe('StampChanged')
  })

  it('a draft drops its base (5 for a new entity, which has none)', () => {
    const ds = entityPage()
    const draft = ds.Employee.get(672)!.edit({ salary: 1 })
    expect(draft.drop()).toEqual({ success: true })
    expect(ds.Employee.get(672)).toBeNull()
    expect(ds.Employee.new().drop()).toEqual(GONE)
  })
})

describe('entitySelection.drop() (4D API/EntitySelectionClass .drop())', () => {
  const smiths = (ds: ReturnType<typeof entityPage>) => ds.Employee.query('lastName=:1', 'Smith')

  it('example without dk stop dropping on first error: the entities not dropped', () => {
    const ds = entityPage()
    const employees = smiths(ds)
    const notDropped = employees.drop()
    expectTypeOf(notDropped).toEqualTypeOf<typeof employees>()
    expect(notDropped.length).toBe(0) // the delete action is successful
    expect(employees.length).toBe(3) // the dropped entity selection remains in memory
    expect(employees.members()).toEqual([null, null, null])

    // A lock keeps its entity; the others are dropped.
    const ds2 = entityPage()
    ds2.Employee.get(673)!.lock({ owner: session(ds2) })
    const kept = smiths(ds2).drop()
    expect(kept.toArray().map((e) => e.getKey())).toEqual([673])
    expect(
      smiths(ds2)
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([673])
  })

  it('example with dk stop dropping on first error: stops there, the first kept alone answered', () => {
    const ds = entityPage()
    ds.Employee.get(673)!.lock({ owner: session(ds) })
    const notDropped = smiths(ds).drop({ stopOnFirstError: true })
    expect(notDropped.toArray().map((e) => e.getKey())).toEqual([673])
    // 672 was dropped before it, 674 after it was not tried.
    expect(
      smiths(ds)
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([673, 674])
  })

  it('dropOrFail() keeps the throwing meaning: a lock refuses the whole; it counts what it drops', () => {
    const ds = entityPage()
    const employees = smiths(ds)
    ds.Employee.get(674)!.lock({ owner: session(ds) })
    expect(thrown(() => employees.dropOrFail()).name).toBe('EntityLocked')
    expect(smiths(ds).length).toBe(3) // nothing dropped
    ds.locks.drop('Employee', 674)
    expect(employees.dropOrFail()).toBe(3)
    // Members deleted already are gone: nothing left to answer.
    expect(employees.drop().length).toBe(0)
  })

  it('answers every live member when the session may not drop at all', () => {
    const ds = entityPage()
    const authorize = (_: unknown, action: string) => action === 'read'
    const kept = ds.actAs(ds.sessions.open(), () => smiths(ds).drop(), { authorize })
    expect(kept.length).toBe(3)
    expect(smiths(ds).length).toBe(3)
  })
})
