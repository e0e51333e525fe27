// Entity members that describe one entity (clone, getKey, getStamp, isNew, touched,
// touchedAttributes, reload, lock, unlock…), each written from the example of 4D's page
// API/EntityClass (4D 21 R4), section named in the test's title.
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { KeyValue } from '../../store/entity-record.js'
import type { ReloadResult } from './entity-draft.js'
import { entityPage, type EmployeeAttributeName } from './entity-class.fixture.js'

describe('Entity and draft members (4D API/EntityClass)', () => {
  it('.clone(): another object of the same version; changes go through drafts, separately', () => {
    const ds = entityPage()
    const emp = ds.Employee.get(672)!
    const empCloned = emp.clone()
    expect(empCloned).not.toBe(emp)
    expect(empCloned.toObject()).toEqual(emp.toObject())
    expect(empCloned.getSelection()).toBeNull()
    const draft = emp.edit()
    draft.set('lastName', 'Smith-Jones') // updates done on the draft are not done on the clone
    const draftCloned = draft.clone()
    draftCloned.set('lastName', 'Other')
    expect([empCloned.get('lastName'), draft.get('lastName'), draftCloned.get('lastName')]).toEqual(
      ['Smith', 'Smith-Jones', 'Other'],
    )
    expect(draftCloned.base).toBe(emp)
    // A new entity cannot be cloned (4D: only entities already saved).
    expect(() => ds.Employee.new().clone()).toThrow(expect.objectContaining({ errCode: 9160 }))
  })

  it('.getDataClass(): the dataclass, for generic code', () => {
    const ds = entityPage()
    const entity = ds.Employee.get(413)!
    expect(entity.getDataClass()).toBe(ds.Employee)
    expect(entity.edit().getDataClass()).toBe(ds.Employee)
    expectTypeOf(entity.getDataClass()).toEqualTypeOf<typeof ds.Employee>()
  })

  it('.getKey(): the key, as text with dk key as string', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName=:1', 'Smith')
    const employee = employees.at(0)!
    expect(`The primary key is ${employee.getKey({ asString: true })}`).toBe(
      'The primary key is 672',
    )
    expect(employee.getKey()).toBe(672)
    expectTypeOf(employee.getKey({ asString: true })).toEqualTypeOf<string>()
    expectTypeOf(employee.getKey()).toEqualTypeOf<KeyValue>()
    const draft = ds.Employee.new()
    expect(draft.getKey()).toBeNull()
    draft.saveOrFail()
    expect(draft.getKey({ asString: true })).toBe('1002')
  })

  it('.getRemoteContextAttributes(): "", no client/server context in one process', () => {
    const ds = entityPage()
    const address = ds.Company.get(20)!
    let text = ''
    for (const p of address.get('employees')) text = `${p.get('firstName')} ${p.get('lastName')}`
    expect(text).toBe('Natasha Locke')
    expect(address.getRemoteContextAttributes()).toBe('')
    expect(address.edit().getRemoteContextAttributes()).toBe('')
  })

  it('.getStamp(): 0 for a new entity, then 1, 2 at each save', () => {
    const ds = entityPage()
    const entity = ds.Employee.new()
    expect(entity.getStamp()).toBe(0)
    entity.set('lastName', 'Smith')
    entity.save()
    expect(entity.getStamp()).toBe(1)
    entity.set('lastName', 'Wesson')
    entity.save()
    expect(entity.getStamp()).toBe(2)
    expect(entity.base!.getStamp()).toBe(2)
  })

  it('.isNew(): a draft of new() until saved; an Entity never', () => {
    const ds = entityPage()
    const emp = ds.Employee.new()
    expect(emp.isNew()).toBe(true)
    emp.save()
    expect(emp.isNew()).toBe(false)
    expect(ds.Employee.get(413)!.isNew()).toBe(false)
    expect(ds.Employee.get(413)!.edit().isNew()).toBe(false)
  })

  it('.touched(): set since loaded or saved, the same value included; an Entity never', () => {
    const ds = entityPage()
    const emp = ds.Employee.get(672)!.edit()
    expect(emp.touched()).toBe(false)
    emp.set('firstName', emp.get('firstName')) // even updated with the same value, it is touched
    expect(emp.touched()).toBe(true)
    if (emp.touched()) emp.save()
    expect(emp.touched()).toBe(false)
    expect(ds.Employee.new().touched()).toBe(false)
    expect(ds.Employee.get(672)!.touched()).toBe(false)
  })

  it('.touchedAttributes() example 1: storage attributes, the same value included', () => {
    const ds = entityPage()
    const emp = ds.Employee.get(725)!.edit()
    emp.set('firstName', emp.get('firstName'))
    emp.set('lastName', 'Martin')
    const touchedAttributes = emp.touchedAttributes()
    expect(touchedAttributes).toEqual(['firstName', 'lastName'])
    expectTypeOf(touchedAttributes).toEqualTypeOf<EmployeeAttributeName[]>()
    expect(ds.Employee.get(725)!.touchedAttributes()).toEqual([])
  })

  it('.touchedAttributes() example 2: a relation with its key attribute', () => {
    const ds = entityPage()
    const emp = ds.Employee.get(672)!.edit()
    emp.set('firstName', emp.get('firstName'))
    emp.set('lastName', 'Martin')
    const company = ds.Company.get(121)!
    emp.set('employer', company)
    expect(emp.touchedAttributes()).toEqual(['firstName', 'lastName', 'employer', 'employerID'])
  })

  it('.reload(): the current version, pending values dropped; 5 once the entity is dropped', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName=:1', 'Hollis')
    const employee = employees.first()!.edit()
    employee.set('firstName', 'Mary')
    ds.Employee.update(716, { salary: 1 }) // saved elsewhere meanwhile
    const result = employee.reload()
    expect(result).toEqual({ success: true, entity: ds.Employee.get(716) })
    expect([employee.get('firstName'), employee.get('salary'), employee.touched()]).toEqual([
      'Ann',
      1,
      false,
    ])
    ds.Employee.drop(716)
    const gone = { success: false, status: 5, statusText: 'Entity does not exist' }
    expect(employee.reload()).toEqual(gone)
    expect(ds.Employee.new().reload()).toEqual(gone)
  })

  it('.reload() of an Entity answers the current version (the same one when unchanged)', () => {
    const ds = entityPage()
    const employee = ds.Employee.get(716)!
    expect(employee.reload()).toEqual({ success: true, entity: employee })
    ds.Employee.update(716, { salary: 1 })
    const result = employee.reload()
    expectTypeOf(result).toEqualTypeOf<
      ReloadResult<NonNullable<ReturnType<typeof ds.Employee.get>>>
    >()
    expect(result.success && result.entity.get('salary')).toBe(1)
    expect(employee.get('salary')).toBe(39000) // a version never changes
    ds.Employee.drop(716)
    expect(employee.reload()).toMatchObject({ success: false, status: 5 })
  })

  it('.lock() example 2: dk reload if stamp changed locks a version saved since', () => {
    const ds = entityPage()
    const employee = ds.Employee.get(717)!
    ds.Employee.update(717, { salary: 1 })
    expect(employee.lock()).toEqual({ success: false, status: 2, statusText: 'Stamp has changed' })
    const status = employee.lock({ reload: true })
    expect(status).toEqual({ success: true, wasReloaded: true, entity: ds.Employee.get(717) })
    expect(ds.locks.holder('Employee', 717)).toBeDefined()
    expect(ds.Employee.get(717)!.lock({ reload: true })).toEqual({
      success: true,
      wasReloaded: false,
      entity: ds.Employee.get(717),
    })
    ds.Employee.get(717)!.unlock()
    ds.Employee.drop(717)
    expect(employee.lock({ reload: true })).toEqual({
      success: false,
      status: 5,
      statusText: 'Entity does not exist',
    })
  })

  it('.unlock(): the example; success also when nobody held the lock (it is unlocked)', () => {
    const ds = entityPage()
    const employee = ds.Employee.get(725)!
    expect(employee.lock()).toEqual({ success: true })
    // …processing
    const status = employee.unlock()
    expect(status.success).toBe(true)
    expect(ds.locks.size).toBe(0)
    expect(employee.unlock()).toEqual({ success: true })
  })
})
