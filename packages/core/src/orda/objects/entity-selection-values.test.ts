// Values out of a selection: extract(), toCollection(), distinct(), distinctPaths() and the
// aggregates, each written from the example of 4D's page API/EntitySelectionClass (4D 21 R4).
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { Entity } from './entity.js'
import type { EntitySelection } from './entity-selection.js'
import { keysOf, pageExamples } from './entity-selection.fixture.js'

describe('EntitySelection values (4D API/EntitySelectionClass)', () => {
  it('.extract(): values, entities (null kept on demand), selections, and pairs to objects', () => {
    const ds = pageExamples()
    const firstnames = ds.Teacher.all().extract('firstname')
    expectTypeOf(firstnames).toEqualTypeOf<string[]>()
    expect(firstnames).toEqual(['Ann', 'Bea', 'Cid'])
    const addresses = ds.Teacher.all().extract('address', { keepNull: true })
    expect(addresses.map((a) => a?.getKey() ?? null)).toEqual([1, 2, null])
    expect(ds.Teacher.all().extract('address')).toHaveLength(2)
    const mailing = ds.Teacher.all().extract('lastname', 'who', 'address', 'to')
    expect(mailing.map((m) => [m.who, (m.to as Entity | null)?.getKey() ?? null])).toEqual([
      ['Archer', 1],
      ['Brook', 2],
      ['Cole', null],
    ])
    expect(ds.Teacher.all().extract('lastname', 'who', 'address.city', 'city')).toEqual([
      { who: 'Archer', city: 'Paris' },
      { who: 'Brook', city: 'Lyon' },
      { who: 'Cole', city: null },
    ])
    const teachers = ds.Address.all().extract('city', 'where', 'teachers', 'who')
    expect(teachers.map((t) => [t.where, keysOf(t.who as EntitySelection)])).toEqual([
      ['Paris', [1]],
      ['Lyon', [2]],
    ])
    const selections = ds.Address.all().extract('teachers')
    expect(selections.map((s) => s.length)).toEqual([1, 1])
    expect(ds.Address.all().extract('nowhere' as never)).toEqual([])
  })

  it('.project(name): the projection a property gives, also for a name a member takes', () => {
    const ds = pageExamples()
    const teachers = ds.Teacher.all()
    expect(teachers.project('lastname')).toEqual(teachers.lastname)
    expect(keysOf(teachers.project('address') as EntitySelection)).toEqual(keysOf(teachers.address))
    expect(keysOf(ds.Address.all().project('teachers') as EntitySelection)).toEqual([1, 2])
    expect(() => teachers.project('length')).toThrow(expect.objectContaining({ errCode: 1500 }))
  })

  it('.toCollection(): every attribute, with key and stamp, filtered, sliced, relations', () => {
    const ds = pageExamples()
    const employees = ds.Employee.query('employer.ID = 2')
    expect(employees.toCollection()[0]).toEqual({
      ID: 686,
      firstName: 'Mary',
      lastName: 'Smith',
      salary: 45000,
      gender: 'female',
      city: 'New York',
      jobName: 'Office manager',
      fullData: null,
      employer: { __KEY: 2 },
      manager: { __KEY: 710 },
    })
    const [first] = employees.toCollection('', { withKey: true, withStamp: true })
    expect(Object.keys(first!).slice(0, 3)).toEqual(['__KEY', '__STAMP', 'ID'])
    expect(first).toMatchObject({ __KEY: 686, __STAMP: 1 })
    const all = ds.Employee.all()
    expect(all.toCollection(['firstName', 'lastName'], {}, 0, 2)).toEqual([
      { firstName: 'Cath', lastName: 'Kidston' },
      { firstName: 'Mary', lastName: 'Smith' },
    ])
    expect(employees.toCollection('firstName,lastName,employer')).toEqual([
      { firstName: 'Mary', lastName: 'Smith', employer: { __KEY: 2 } },
      { firstName: 'Sherlock', lastName: 'Holmes', employer: { __KEY: 2 } },
    ])
    expect(employees.toCollection(['firstName', 'employer.*'])[0]).toEqual({
      firstName: 'Mary',
      employer: { ID: 2, name: 'Baker Street' },
    })
    expect(employees.toCollection('firstName, employer.name')[1]).toEqual({
      firstName: 'Sherlock',
      employer: { name: 'Baker Street' },
    })
    expect(employees.toCollection('firstName, directReports.firstName')).toEqual([
      { firstName: 'Mary', directReports: [] },
      { firstName: 'Sherlock', directReports: [{ firstName: 'Mary' }] },
    ])
    const star = employees.toCollection('lastName, directReports.*')[1]!
    expect((star.directReports as { ID: number }[]).map((r) => r.ID)).toEqual([686])
    expect(all.toCollection('lastName', {}, 100)).toEqual([])
  })

  it('.distinct(): sorted values, and with { count: true } how many of each', () => {
    const ds = pageExamples()
    expect(ds.Employee.all().distinct('city')).toEqual(['Boston', 'London', 'New York', 'Paris'])
    expect(ds.Employee.all().distinct('jobName', { count: true })).toEqual([
      { value: 'Accountant', count: 1 },
      { value: 'Developer', count: 4 },
      { value: 'Office manager', count: 1 },
    ])
  })

  it('.distinctPaths(): the paths of an object attribute', () => {
    const ds = pageExamples()
    expect(ds.Employee.all().distinctPaths('fullData')).toEqual([
      'age',
      'Children',
      'Children[].age',
      'Children[].name',
      'Children.length',
      'telephone',
      'telephone[]',
      'telephone.length',
    ])
    expect(() => ds.Employee.all().distinctPaths('city')).toThrow(
      expect.objectContaining({ errCode: 9050 }),
    )
  })

  it(".average(), .count(), .sum(), .min(), .max() as in 4D, null for 4D's undefined", () => {
    const ds = pageExamples()
    const averageSalary = ds.Employee.all().average('salary')!
    expect(averageSalary).toBeCloseTo(551000 / 7)
    expect(keysOf(ds.Employee.query('salary > :1', averageSalary))).toEqual([610, 701, 710])
    expect(ds.Employee.query('employer.name = :1', 'Acme, Inc').count('jobName')).toBe(4)
    expect(ds.Employee.query('salary < :1', 50000).sum('salary')).toBe(123000)
    expect(ds.Employee.query('salary < 0').sum('salary')).toBe(0)
    const women = ds.Employee.query('gender = :1', 'female')
    expect(women.max('salary')).toBe(98000)
    expect(women.min('salary')).toBe(45000)
    expect(ds.Employee.query('salary < 0').average('salary')).toBeNull()
    expect(ds.Employee.query('salary < 0').max('salary')).toBeNull()
    expect(() => ds.Employee.all().sum('employer')).toThrow(
      expect.objectContaining({ errCode: 9050 }),
    )
  })
})
