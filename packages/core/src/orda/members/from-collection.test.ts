// DataClass.fromCollection(), written from the examples of 4D's page API/DataClassClass (4D 21 R4),
// `.fromCollection()` examples 1 to 6, and the rules of its description (create or update mode,
// related entities, stamp, properties that are not attributes or not of the attribute's type).
import { describe, expect, expectTypeOf, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { dataClassExamples } from '../objects/data-class.fixture.js'

describe('DataClass.fromCollection (4D API/DataClassClass)', () => {
  it('example 1: no __NEW, the key given as is and existing: that entity is updated', () => {
    const ds = dataClassExamples()
    const employees = ds.Employee.fromCollection([
      { ID: 668, firstName: 'Arthur', lastName: 'Martin', employer: { ID: 121 } },
    ])
    expectTypeOf(employees).toEqualTypeOf<ReturnType<typeof ds.Employee.all>>()
    const e = ds.Employee.get(668)!
    expect([e.get('firstName'), e.get('lastName'), e.get('employer')?.getKey()]).toEqual([
      'Arthur',
      'Martin',
      121,
    ])
    // Only what was given changes; the entity is in the selection returned.
    expect(e.get('salary')).toBe(51000)
    expect(e.getStamp()).toBe(2)
    expect(employees.extract('ID')).toEqual([668])
    expect(ds.Employee.getCount()).toBe(3)
  })

  it('example 2: the key given as __KEY and existing: that entity is updated', () => {
    const ds = dataClassExamples()
    ds.Employee.fromCollection([
      { __KEY: 1720, firstName: 'John', lastName: 'Boorman', employer: { ID: 121 } },
    ])
    expect(ds.Employee.get(1720)?.get('lastName')).toBe('Boorman')
    expect(ds.Employee.getCount()).toBe(3)
    // A __KEY as REST gives it, as text.
    ds.Employee.fromCollection([{ __KEY: '167', lastName: 'Marten' }])
    expect(ds.Employee.get(167)?.get('lastName')).toBe('Marten')
  })

  it('example 3: no key: a new entity, its key given by the database', () => {
    const ds = dataClassExamples()
    const employees = ds.Employee.fromCollection([{ firstName: 'Victor', lastName: 'Hugo' }])
    const created = employees.first()!
    expect(created.get('lastName')).toBe('Hugo')
    expect(created.getKey()).toBe(1721)
    // Attributes not given are null (or filled by the database).
    expect(created.get('salary')).toBeNull()
    expect(created.get('sequenceNumber')).toMatch(/^[0-9A-F]{32}$/)
  })

  it('example 4: __NEW true, no key: a new entity related by {__KEY}', () => {
    const ds = dataClassExamples()
    const employees = ds.Employee.fromCollection([
      { firstName: 'Mary', lastName: 'Smith', employer: { __KEY: 121 }, __NEW: true },
    ])
    expect(employees.first()?.get('employer')?.get('name')).toBe('Acme')
    expect(ds.Employee.getCount()).toBe(4)
  })

  it('example 5: no __NEW, a key given as is that no entity has: created with that key', () => {
    const ds = dataClassExamples()
    ds.Employee.fromCollection([{ ID: 10000, firstName: 'Françoise', lastName: 'Sagan' }])
    expect(ds.Employee.get(10000)?.get('lastName')).toBe('Sagan')
  })

  it('example 6: __NEW true twice with one key: the first is created, the second fails (1545)', () => {
    const ds = dataClassExamples()
    const error = thrown(() =>
      ds.Employee.fromCollection([
        { ID: 10001, firstName: 'Simone', lastName: 'Martin', __NEW: true },
        { ID: 10001, firstName: 'Marc', lastName: 'Smith', __NEW: true },
      ]),
    )
    expect(error.errCode).toBe(1545)
    expect(ds.Employee.get(10001)?.get('firstName')).toBe('Simone')
    // __NEW true with a key that exists: refused too, never an update.
    expect(thrown(() => ds.Employee.fromCollection([{ ID: 668, __NEW: true }])).errCode).toBe(1545)
    expect(ds.Employee.get(668)?.get('firstName')).toBe('Paul')
  })

  it('a __KEY no entity has is ignored: a creation with a key of its own', () => {
    const ds = dataClassExamples()
    const [made] = ds.Employee.fromCollection([{ __KEY: 5555, lastName: 'Nobody' }])
    expect(made?.getKey()).toBe(1721)
    expect(ds.Employee.get(5555)).toBeNull()
    // With __NEW true, __KEY is ignored even when that entity exists.
    const [other] = ds.Employee.fromCollection([{ __KEY: 668, __NEW: true, lastName: 'Twin' }])
    expect(other?.getKey()).toBe(1722)
    expect(ds.Employee.get(668)?.get('lastName')).toBe('Smith')
  })

  it('__STAMP: an update only if the entity still has that stamp (1263, 4D’s wording)', () => {
    const ds = dataClassExamples()
    const read = ds.Employee.all().toCollection('firstName', { withKey: true, withStamp: true })
    const mine = { ...read[0]!, firstName: 'Kimberley' }
    ds.Employee.update(167, { salary: 43000 })
    const error = thrown(() => ds.Employee.fromCollection([mine]))
    expect([error.errCode, error.message]).toEqual([
      1263,
      `Given stamp does not match current one for record# 0 of table Employee`,
    ])
    expect(ds.Employee.get(167)?.get('firstName')).toBe('Kim')
    // With the current stamp it is saved; a stamp is checked even when nothing else is given.
    ds.Employee.fromCollection([{ ...mine, __STAMP: 2 }])
    expect(ds.Employee.get(167)?.get('firstName')).toBe('Kimberley')
    expect(thrown(() => ds.Employee.fromCollection([{ __KEY: 167, __STAMP: 1 }])).errCode).toBe(
      1263,
    )
    expect(
      ds.Employee.fromCollection([{ __KEY: 167, __STAMP: 3 }])
        .first()
        ?.getStamp(),
    ).toBe(3)
  })

  it('properties that are not attributes, or not of the attribute’s type, are ignored', () => {
    const ds = dataClassExamples()
    const [e] = ds.Employee.fromCollection([
      // Sent as a plain object, as data from elsewhere would be.
      {
        ID: 668,
        nickname: 'Pauly',
        salary: 'a lot',
        lastName: 12,
        birthDate: '1990-05-04',
        extraInfo: { hobbies: [{ name: 'horsebackriding' }] },
        type: null,
      } as never,
    ])
    expect(e?.get('salary')).toBe(51000)
    expect(e?.get('lastName')).toBe('Smith')
    expect(e?.get('birthDate')).toBe('1990-05-04')
    expect(e?.get('extraInfo')).toEqual({ hobbies: [{ name: 'horsebackriding' }] })
    // null is a value of every type.
    expect(e?.get('type')).toBeNull()
  })

  it('what toCollection gives goes back: computed, alias, read-only and 1→N values are ignored', () => {
    const ds = dataClassExamples()
    const col = ds.Employee.all().toCollection('', { withKey: true })
    const changed = col.map((o) => ({ ...o, salary: Number(o['salary']) + 1, employerName: 'X' }))
    const back = ds.Employee.fromCollection([
      ...changed,
      { ...changed[0]!, fullName: 'Ignored', badge: 'B-1' },
    ])
    expect(back.extract('salary')).toEqual([42001, 51001, 63001, 42001])
    expect(back.isOrdered()).toBe(true)
    expect(ds.Company.get(7)?.get('name')).toBe('Lima West Kilo')
    expect(ds.Employee.get(167)?.get('badge')).toBeNull()
    expect(
      ds.Company.fromCollection([{ ID: 7, employees: [{ __KEY: 1720 }] } as never]).length,
    ).toBe(1)
    expect(ds.Employee.get(1720)?.get('employer')?.getKey()).toBe(121)
  })

  it('a related object without a key is ignored; null unlinks; an Entity or a key link', () => {
    const ds = dataClassExamples()
    ds.Employee.fromCollection([{ ID: 167, employer: { name: 'New Co' } }])
    expect(ds.Employee.get(167)?.get('employer')?.getKey()).toBe(7)
    expect(ds.Company.getCount()).toBe(2)
    ds.Employee.fromCollection([{ ID: 167, employer: null }])
    expect(ds.Employee.get(167)?.get('employer')).toBeNull()
    ds.Employee.fromCollection([{ ID: 167, employer: ds.Company.get(121) }])
    expect(ds.Employee.get(167)?.get('employer')?.getKey()).toBe(121)
    ds.Employee.fromCollection([{ ID: 167, employer: 7 }])
    expect(ds.Employee.get(167)?.get('employer')?.getKey()).toBe(7)
    // A key no related entity has: refused as any write is (1570).
    expect(
      thrown(() => ds.Employee.fromCollection([{ ID: 167, employer: { ID: 99 } }])).errCode,
    ).toBe(1570)
  })

  it('inside a transaction, a failure takes back every object of the collection', () => {
    const ds = dataClassExamples()
    expect(() =>
      ds.transaction(() =>
        ds.Employee.fromCollection([
          { ID: 668, lastName: 'Changed' },
          { ID: 20000, lastName: 'New' },
          { ID: 167, employer: { ID: 99 } },
        ]),
      ),
    ).toThrow(expect.objectContaining({ errCode: 1570 }))
    expect(ds.Employee.get(668)?.get('lastName')).toBe('Smith')
    expect(ds.Employee.get(20000)).toBeNull()
  })

  it('takes only a collection of objects (1806); an empty one gives an empty selection', () => {
    const ds = dataClassExamples()
    expect(ds.Employee.fromCollection([]).length).toBe(0)
    expect(thrown(() => ds.Employee.fromCollection({} as never)).errCode).toBe(1806)
    expect(thrown(() => ds.Employee.fromCollection([3] as never)).errCode).toBe(1806)
  })

  it('is typed by the model: attribute names and value types, relations by key object', () => {
    const ds = dataClassExamples()
    ds.Employee.fromCollection([
      { ID: 1720, salary: 1, employer: { ID: 121 }, __STAMP: 1 },
      // @ts-expect-error: Employee has no attribute `salry`
      { salry: 1 },
      // @ts-expect-error: salary is a number
      { salary: 'a lot' },
    ])
    const selection = ds.Employee.fromCollection([])
    expectTypeOf(selection.first()?.get('salary')).toEqualTypeOf<number | null | undefined>()
  })
})
