// EntitySelection members that read positions and membership, each written from the example of
// 4D's page API/EntitySelectionClass (4D 21 R4), section named in the test's title.
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { Entity } from '../objects/entity.js'
import { keysOf, pageExamples } from '../objects/entity-selection.fixture.js'

describe('EntitySelection positions and membership (4D API/EntitySelectionClass)', () => {
  it('.first(): the first entity, null for an empty selection', () => {
    const ds = pageExamples()
    const sel = ds.Employee.query('salary > :1', 100000)
    const first = sel.length !== 0 ? sel.first() : null
    expectTypeOf(first?.get('salary')).toEqualTypeOf<number | null | undefined>()
    expect(first?.getKey()).toBe(701)
    expect(ds.Employee.query('lastName = :1', 'Nonexistentname').first()).toBeNull()
  })

  it('.last(): the last entity, null for an empty selection', () => {
    const ds = pageExamples()
    const sel = ds.Employee.query('salary < :1', 50000)
    expect(sel.last()?.getKey()).toBe(715)
    expect(ds.Employee.query('salary < 0').last()).toBeNull()
  })

  it('.at(): positive and negative positions, undefined past the end', () => {
    const ds = pageExamples()
    const employees = ds.Employee.query('lastName = :1', 'H@')
    expect(keysOf(employees)).toEqual([701, 702, 710])
    expect(employees.at(2)?.getKey()).toBe(710)
    expect(employees.at(-3)?.getKey()).toBe(701)
    expect(employees.at(3)).toBeUndefined()
  })

  it('.length: deleted members still count', () => {
    const ds = pageExamples()
    expect(ds.Employee.query('gender = :1', 'male').length).toBe(4)
  })

  it('.slice(): startFrom to end (excluded), negative bounds from the end', () => {
    const ds = pageExamples()
    const sel = ds.Employee.query('salary > :1', 40000)
    expect(keysOf(sel.slice(0, 9))).toEqual(keysOf(sel))
    expect(keysOf(sel.slice(1, 3))).toEqual([686, 701])
    expect(keysOf(sel.slice(-2))).toEqual([710, 714])
    const all = ds.Employee.all()
    expect(all.length).toBe(7)
    // 4D's example 2: from index 6 to index 5, nothing.
    expect(all.slice(-1, -2).length).toBe(0)
    expect(all.slice(7).length).toBe(0)
    expect(keysOf(all.slice(-100, 1))).toEqual([610])
  })

  it('.contains(): whether an entity is a member; null is not; another dataclass throws 1587', () => {
    const ds = pageExamples()
    const employees = ds.Employee.query('lastName = :1', 'H@')
    expect(employees.contains(ds.Employee.get(610))).toBe(false)
    expect(employees.contains(ds.Employee.get(710))).toBe(true)
    expect(employees.contains(null)).toBe(false)
    const other = ds.Company.get(1) as unknown as Entity<never, never>
    expect(() => employees.contains(other as never)).toThrow(
      expect.objectContaining({ errCode: 1587 }),
    )
  })

  it('.selected(): ranges of positions of another selection', () => {
    const ds = pageExamples()
    const invoices = ds.Invoice.all()
    const cash = ds.Invoice.query('payment = :1', 'Cash')
    const credit = ds.Invoice.query('payment IN :1', ['Cash', 'Credit Card'])
    expect(invoices.selected(cash)).toEqual({
      ranges: [
        { start: 0, end: 0 },
        { start: 3, end: 3 },
        { start: 6, end: 6 },
      ],
    })
    expect(invoices.selected(credit)).toEqual({
      ranges: [
        { start: 0, end: 1 },
        { start: 3, end: 4 },
        { start: 6, end: 7 },
      ],
    })
    expect(invoices.selected(ds.Invoice.newSelection())).toEqual({ ranges: [] })
  })

  it('.getDataClass(): the dataclass, for generic code (duplicating every entity)', () => {
    const ds = pageExamples()
    const sel = ds.Product.query('ID < 20')
    const dataClass = sel.getDataClass()
    expect(dataClass).toBe(ds.Product)
    for (const e of sel) dataClass.create({ ID: (e.get('ID') ?? 0) + 1000, name: e.get('name') })
    expect(ds.Product.query('ID > 1000').length).toBe(3)
  })

  it('.isOrdered(): ordered for newSelection({ keepOrder }), orderBy, a query with order by', () => {
    const ds = pageExamples()
    const employees = ds.Employee.newSelection({ keepOrder: true })
    const employee = ds.Employee.get(714)
    employees.add(employee).add(employee).add(employee)
    expect(employees.isOrdered()).toBe(true)
    expect(employees.length).toBe(3)
    expect(ds.Employee.query('salary > 0').isOrdered()).toBe(false)
    expect(ds.Employee.query('salary > 0 order by salary').isOrdered()).toBe(true)
    expect(ds.Employee.all().orderBy('lastName').isOrdered()).toBe(true)
    expect(ds.Employee.all().and(ds.Employee.all()).isOrdered()).toBe(false)
  })

  it('.refresh() and .getRemoteContextAttributes(): nothing to invalidate, no remote context', () => {
    const ds = pageExamples()
    const selection = ds.Employee.query('lastName = :1', 'Jones')
    ds.Employee.update(714, { lastName: 'Jonas' })
    selection.refresh()
    expect(selection.first()?.get('lastName')).toBe('Jonas')
    expect(selection.getRemoteContextAttributes()).toBe('')
  })
})
