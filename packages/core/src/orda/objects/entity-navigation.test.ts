// An entity read from a selection remembers it: getSelection, indexOf, next, previous, first and
// last, each written from the example of 4D's page API/EntityClass (4D 21 R4). 4D's
// `$employees[i]` is `memberAt(i)`; `first()` and `last()` of a selection remember it too.
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { EntitySelection } from './entity-selection.js'
import { entityPage } from './entity-class.fixture.js'

const keyOf = (e: { getKey(): unknown } | null | undefined) => e?.getKey() ?? null

describe('the selection an entity was read from (4D API/EntityClass)', () => {
  it('.getSelection(): null for an entity read on its own, the selection for one read from it', () => {
    const ds = entityPage()
    let emp = ds.Employee.get(672)! // this entity does not belong to any entity selection
    expect(emp.getSelection()).toBeNull()
    const employees2 = ds.Employee.query('lastName=:1', 'Smith') // this selection holds 3 entities
    emp = employees2.memberAt(0)! // this entity belongs to an entity selection
    expect(`The entity selection contains ${emp.getSelection()!.length} entities`).toBe(
      'The entity selection contains 3 entities',
    )
    expect(emp.getSelection()).toBe(employees2)
    expectTypeOf(emp.getSelection()).toEqualTypeOf<typeof employees2 | null>()
  })

  it('.indexOf(): its position in its own selection, -1 without one', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName = :1', 'H@') // 3 entities
    let employee = employees.memberAt(1)! // belongs to an entity selection
    expect(employee.indexOf()).toBe(1)
    employee = ds.Employee.get(725)! // does not belong to one
    expect(employee.indexOf()).toBe(-1)
  })

  it('.indexOf(selection): its position in another selection; null or another dataclass throws', () => {
    const ds = entityPage()
    const hs = ds.Employee.query('lastName = :1', 'H@')
    const hollis = ds.Employee.get(716)!
    expect(hollis.indexOf(hs)).toBe(2)
    expect(hollis.indexOf(ds.Employee.query('lastName=:1', 'Smith'))).toBe(-1)
    // Read from `hs`, asked of another selection: its place there (key order: 411, 412, … 716).
    expect(hs.memberAt(2)!.indexOf(ds.Employee.all())).toBe(12)
    expect(() => hollis.indexOf(null)).toThrow(expect.objectContaining({ errCode: 1806 }))
    const companies = ds.Company.all() as unknown as EntitySelection<never, never>
    expect(() => hollis.indexOf(companies as never)).toThrow(
      expect.objectContaining({ errCode: 1587 }),
    )
  })

  it('.first() and .last(): the ends of its selection, null without one', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName = :1', 'H@') // 3 entities
    const employee = employees.memberAt(2)!
    const firstEmployee = employee.first() // the first entity of the $employees selection
    expect(keyOf(firstEmployee)).toBe(701)
    const lastEmployee = employees.memberAt(0)!.last()
    expect(keyOf(lastEmployee)).toBe(716)
    expect(lastEmployee!.getSelection()).toBe(employees)
    expect(ds.Employee.get(701)!.first()).toBeNull()
    expect(ds.Employee.get(701)!.last()).toBeNull()
  })

  it('.next() and .previous(): the neighbours in its selection, null past the ends', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName = :1', 'H@')
    const employee = employees.memberAt(0)!
    const nextEmployee = employee.next() // the second entity of the $employees selection
    expect(keyOf(nextEmployee)).toBe(702)
    expect(keyOf(nextEmployee!.next())).toBe(716)
    expect(nextEmployee!.next()!.next()).toBeNull()
    const previousEmployee = employees.memberAt(1)!.previous() // the first entity
    expect(keyOf(previousEmployee)).toBe(701)
    expect(previousEmployee!.previous()).toBeNull()
    expect(ds.Employee.get(701)!.next()).toBeNull()
    expect(ds.Employee.get(701)!.previous()).toBeNull()
  })

  it('next() and previous() pass over members dropped since', () => {
    const ds = entityPage()
    const employees = ds.Employee.query('lastName = :1', 'H@')
    const first = employees.first()!
    const last = employees.last()!
    ds.Employee.drop(702)
    expect(employees.memberAt(1)).toBeNull()
    expect(keyOf(first.next())).toBe(716)
    expect(first.next()!.indexOf()).toBe(2)
    expect(keyOf(last.previous())).toBe(701)
  })

  it('one entity read through two selections answers each, and the stored version none', () => {
    const ds = entityPage()
    const bySalary = ds.Employee.query('lastName = :1 order by salary', 'H@') // 716, 702, 701
    const byKey = ds.Employee.query('lastName = :1', 'H@') // 701, 702, 716
    const a = bySalary.memberAt(1)!
    const b = byKey.memberAt(1)!
    expect([keyOf(a), keyOf(b)]).toEqual([702, 702])
    expect([keyOf(a.next()), keyOf(b.next())]).toEqual([701, 716])
    expect([a.getSelection(), b.getSelection()]).toEqual([bySalary, byKey])
    expect(a.indexOf(byKey)).toBe(1)
    // at(), iteration and get() hand out the stored version, the same object each time.
    const stored = ds.Employee.get(702)!
    expect(byKey.at(1)).toBe(stored)
    expect([...byKey][1]).toBe(stored)
    expect(stored.getSelection()).toBeNull()
    expect(a).not.toBe(stored)
    expect(a.toObject()).toEqual(stored.toObject())
  })

  it('an ordered selection holding an entity twice: each read knows its own position', () => {
    const ds = entityPage()
    const sel = ds.Employee.newSelection({ keepOrder: true })
    const e = ds.Employee.get(701)!
    sel.add(e).add(ds.Employee.get(702)).add(e)
    expect(sel.memberAt(2)!.indexOf()).toBe(2)
    expect(sel.memberAt(0)!.indexOf()).toBe(0)
    expect(keyOf(sel.memberAt(2)!.previous())).toBe(702)
    expect(e.indexOf(sel)).toBe(0)
    expect(sel.memberAt(3)).toBeUndefined()
    expect(keyOf(sel.memberAt(-1))).toBe(701)
    expect(sel.memberAt(-1)!.indexOf()).toBe(2)
  })
})
