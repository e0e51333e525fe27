// DataClass members, each written from the example of 4D's page API/DataClassClass (4D 21 R4),
// section named in the test's title. `fromCollection()` has its own file (from-collection.test.ts).
import { describe, expect, expectTypeOf, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { dataClassExamples } from '../objects/data-class.fixture.js'
import type { DataClassAttribute } from './data-class-info.js'
import type { Entity } from '../objects/entity.js'

const keysOf = (sel: Iterable<{ getKey(): unknown }>): unknown[] => [...sel].map((e) => e.getKey())

describe('DataClass: what it tells of itself (4D API/DataClassClass)', () => {
  it('.attributeName: attributeInfo(name) answers 4D’s attribute object (examples 1 and 2)', () => {
    const ds = dataClassExamples()
    expect(ds.Employee.attributeInfo('firstName')).toEqual({
      name: 'firstName',
      kind: 'storage',
      fieldType: 0,
      type: 'string',
      fieldNumber: 2,
      indexed: true,
      keywordIndexed: false,
      autoFilled: false,
      mandatory: false,
      unique: false,
      exposed: true,
      readOnly: false,
    })
    // 38 = Is object, 42 = Is collection; relations have no field facts.
    expect(ds.Employee.attributeInfo('employer')).toEqual({
      name: 'employer',
      kind: 'relatedEntity',
      relatedDataClass: 'Company',
      fieldType: 38,
      type: 'Company',
      inverseName: 'employees',
      exposed: true,
      readOnly: false,
    })
    expect(ds.Company.attributeInfo('employees')).toMatchObject({
      name: 'employees',
      kind: 'relatedEntities',
      relatedDataClass: 'Employee',
      fieldType: 42,
      type: 'EmployeeSelection',
      inverseName: 'employer',
    })
    expect(ds.Company.attributeInfo('employees')).not.toHaveProperty('indexed')
    expectTypeOf(ds.Employee.attributeInfo('salary')).toEqualTypeOf<
      DataClassAttribute<
        | 'ID'
        | 'firstName'
        | 'lastName'
        | 'salary'
        | 'birthDate'
        | 'type'
        | 'extraInfo'
        | 'sequenceNumber'
        | 'badge'
        | 'employer'
        | 'employerName'
        | 'fullName'
      >
    >()
    // @ts-expect-error: not an attribute of Employee
    expect(thrown(() => ds.Employee.attributeInfo('salry')).errCode).toBe(1500)
  })

  it('.attributeName: a value 4D fills (example 3), numbers, dates, an alias, a computed attribute', () => {
    const ds = dataClassExamples()
    expect(ds.Employee.attributeInfo('sequenceNumber')).toEqual({
      name: 'sequenceNumber',
      kind: 'storage',
      fieldType: 0,
      type: 'string',
      fieldNumber: 8,
      indexed: true,
      keywordIndexed: false,
      autoFilled: true,
      mandatory: false,
      unique: true,
      exposed: true,
      readOnly: false,
    })
    expect(ds.Employee.attributeInfo('ID')).toMatchObject({
      type: 'number',
      fieldType: 9,
      autoFilled: true,
      mandatory: true,
      unique: true,
    })
    expect(ds.Employee.attributeInfo('salary')).toMatchObject({ type: 'number', fieldType: 1 })
    expect(ds.Employee.attributeInfo('birthDate')).toMatchObject({ type: 'date', fieldType: 4 })
    expect(ds.Employee.attributeInfo('extraInfo')).toMatchObject({ type: 'object', fieldType: 38 })
    expect(ds.Employee.attributeInfo('badge')).toMatchObject({ readOnly: true })
    expect(ds.Employee.attributeInfo('employerName')).toEqual({
      name: 'employerName',
      kind: 'alias',
      type: 'string',
      fieldType: 0,
      path: 'employer.name',
      exposed: true,
      readOnly: true,
    })
    expect(ds.Employee.attributeInfo('fullName')).toEqual({
      name: 'fullName',
      kind: 'calculated',
      type: 'string',
      fieldType: 0,
      exposed: true,
      readOnly: true,
    })
  })

  it('.attributeName: the object may be changed, the structure is not; a new index shows', () => {
    const ds = dataClassExamples()
    const info = ds.Employee.attributeInfo('lastName') as { indexed?: boolean; name: string }
    expect(info.indexed).toBe(false)
    info.name = 'changed'
    expect(ds.Employee.attributeInfo('lastName').name).toBe('lastName')
    ds.Employee.createIndex('lastName')
    expect(ds.Employee.attributeInfo('lastName').indexed).toBe(true)
  })

  it('.getInfo(): exposed, name, primaryKey, tableNumber (examples 1 to 3)', () => {
    const ds = dataClassExamples()
    expect(ds.Employee.getInfo()).toEqual({
      exposed: true,
      name: 'Employee',
      primaryKey: 'ID',
      tableNumber: 2,
    })
    // Example 2: the key named by a placeholder for an attribute.
    const settings = {
      parameters: { receivedIds: [1, 3] },
      attributes: { pk: ds.Clients.getInfo().primaryKey },
    }
    expect(keysOf(ds.Clients.query(':pk in :receivedIds', settings))).toEqual([1, 3])
    // Example 3: the key attribute read by that name.
    const pk = ds.Employee.getInfo().primaryKey
    expect(ds.Employee.attributeInfo(pk as 'ID').kind).toBe('storage')
  })

  it('.getDataStore(): the datastore, which reads another dataclass by name (SearchDuplicate)', () => {
    const ds = dataClassExamples()
    const pet = ds.Cats.all().first()!
    const searchDuplicate = (entity: Entity, dataClassName: string) =>
      entity.dataClass.getDataStore().dataClass(dataClassName).query('name=:1', entity.get('name'))
    expect(ds.Cats.getDataStore()).toBe(ds)
    // Typed by the model: another dataclass by its name, its entities typed too.
    const company = ds.Employee.getDataStore().dataClass('Company').get(7)
    expectTypeOf(company?.get('revenues')).toEqualTypeOf<number | null | undefined>()
    expect(company?.get('revenues')).toBe(5_000_000)
    expect(
      searchDuplicate(pet as unknown as Entity, 'Dogs')
        .first()
        ?.get('name'),
    ).toBe('Felix')
  })

  it('.getCount(): the number of entities, a transaction’s own creations and deletions counted', () => {
    const ds = dataClassExamples()
    expect(ds.Employee.getCount()).toBe(3)
    ds.transaction(() => {
      ds.Employee.create({ lastName: 'New' })
      expect(ds.Employee.getCount()).toBe(4)
      ds.Employee.drop(167)
      ds.Employee.drop(668)
      expect(ds.Employee.getCount()).toBe(2)
      // Not yet committed: other counts still see the three.
      expect(ds.Employee.length).toBe(3)
    })
    expect(ds.Employee.getCount()).toBe(2)
  })

  it('.getCount() inside a transaction that is then refused: back to what was committed', () => {
    const ds = dataClassExamples()
    expect(() =>
      ds.transaction(() => {
        ds.Log.create({ info: 'one' })
        expect(ds.Log.getCount()).toBe(1)
        throw new Error('refused')
      }),
    ).toThrow('refused')
    expect(ds.Log.getCount()).toBe(0)
  })
})

describe('DataClass: reading entities (4D API/DataClassClass)', () => {
  it('.all(settings): every entity, in key order; the context setting changes nothing', () => {
    const ds = dataClassExamples()
    const allEmp = ds.Employee.all()
    expect(keysOf(allEmp)).toEqual([167, 668, 1720])
    expect(keysOf(ds.Employee.all({ context: 'summary' }))).toEqual([167, 668, 1720])
    expect(ds.Log.all().length).toBe(0)
  })

  it('.get(primaryKey, settings): by an integer or a text key, null when none (examples 1, 2)', () => {
    const ds = dataClassExamples()
    expect(ds.Employee.get(167)?.get('lastName')).toBe('Martin')
    expect(ds.Invoice.get('DGGX20030')?.get('total')).toBe(120)
    const settings = { context: 'detail' }
    expect(ds.Employee.get(1720, settings)?.get('firstName')).toBe('Joan')
    expect(ds.Employee.get(2, settings)).toBeNull()
  })

  it('.new(): a new blank entity, saved by save() (the Log example)', () => {
    const ds = dataClassExamples()
    const entity = ds.Log.new()
    expect(entity.get('info')).toBeNull()
    entity.set('info', 'New entry')
    expect(ds.Log.getCount()).toBe(0)
    entity.save()
    expect(ds.Log.query('info = :1', 'New entry').length).toBe(1)
  })

  it('.newSelection(keepOrder): empty alterable selections, unordered or ordered', () => {
    const ds = dataClassExamples()
    const unordered = ds.Employee.newSelection()
    const ordered = ds.Employee.newSelection({ keepOrder: true })
    expect([unordered.length, unordered.isOrdered(), unordered.isAlterable()]).toEqual([
      0,
      false,
      true,
    ])
    expect([ordered.length, ordered.isOrdered()]).toEqual([0, true])
  })

  it('.clearRemoteCache(), .getRemoteCache(), .setRemoteCacheSettings(): no remote cache', () => {
    const ds = dataClassExamples()
    // 4D: "Calling this function from a 4D single-user application returns Null".
    expect(ds.Employee.getRemoteCache()).toBeNull()
    ds.Employee.setRemoteCacheSettings({ timeout: 60, maxEntries: 350 })
    expect(ds.Employee.getRemoteCache()).toBeNull()
    ds.Employee.clearRemoteCache()
    expect(ds.Employee.getRemoteCache()).toBeNull()
    expect(keysOf(ds.Employee.all())).toEqual([167, 668, 1720])
  })
})

describe('DataClass.query (4D API/DataClassClass, .query())', () => {
  it('a formula alone: the entities it answers true for, the entity as `this` (example 3)', () => {
    const ds = dataClassExamples()
    const es = ds.Student.query(function () {
      return String(this.get('lastname')).length >= 10
    })
    expect(es.extract('lastname')).toEqual(['Martin-Dupont', 'Grey-Smith'])
    // A formula then a text query (4D combines them in one text; here one after the other).
    expect(
      ds.Student.query((s) => String(s.get('lastname')).length >= 10)
        .query('nationality = :1', 'French')
        .extract('lastname'),
    ).toEqual(['Martin-Dupont'])
  })

  it('a formula receives the settings’ args (checkName with args.filter)', () => {
    const ds = dataClassExamples()
    const checkName = (lastname: unknown, exclude: string) => !String(lastname).includes(exclude)
    const settings = { args: { filter: '-' } }
    const es = ds.Student.query((s, args) => checkName(s.get('lastname'), args.filter), settings)
    expect(es.extract('lastname')).toEqual(['Martin'])
    settings.args.filter = '*'
    expect(
      ds.Student.query((s, args) => checkName(s.get('lastname'), args.filter), settings).length,
    ).toBe(3)
  })

  it('a result that is not a boolean counts as false; allowFormulas false refuses the formula (1278)', () => {
    const ds = dataClassExamples()
    expect(ds.Student.query(() => 'yes').length).toBe(0)
    expect(ds.Student.query(() => 1).length).toBe(0)
    const refused = thrown(() => ds.Student.query(() => true, { allowFormulas: false }))
    expect([refused.errCode, refused.message]).toEqual([
      1278,
      'Formula not allowed in this member method (query)',
    ])
    // A text has no formula to refuse; args and allowFormulas are settings there too.
    expect(ds.Student.query('nationality = :1', 'French', { allowFormulas: false }).length).toBe(2)
    expect(ds.Student.query('nationality = French', { args: { x: 1 } }).length).toBe(2)
  })

  it('neither a text nor a formula: 1626', () => {
    const ds = dataClassExamples()
    expect(thrown(() => ds.Student.query(null as never)).errCode).toBe(1626)
  })

  it('types the formula’s entity and args by the model', () => {
    const ds = dataClassExamples()
    ds.Employee.query(
      function (e, args) {
        expectTypeOf(this).toEqualTypeOf(e)
        expectTypeOf(e.get('salary')).toEqualTypeOf<number | null>()
        expectTypeOf(args).toEqualTypeOf<{ min: number }>()
        return (e.get('salary') ?? 0) > args.min
      },
      { args: { min: 50000 } },
    )
    // @ts-expect-error: Employee has no attribute `salry`
    expect(thrown(() => ds.Employee.query((e) => e.get('salry') === 1)).errCode).toBe(1500)
  })

  it('query text: values, named placeholders and settings as the page shows them', () => {
    const ds = dataClassExamples()
    expect(keysOf(ds.Employee.query('type = :1 and lastName = :2', 'Intern', '@ar@'))).toEqual([
      167,
    ])
    const sel = ds.Employee.query(
      'salary < :1 and employer.name = :2 or employer.revenues > :3',
      50000,
      'Lima West Kilo',
      10_000_000,
      {
        queryPath: true,
        queryPlan: true,
      },
    )
    expect(keysOf(sel)).toEqual([167, 1720])
    expect(sel.queryPlan).toBeDefined()
    expect(sel.queryPath).toBeDefined()
  })
})
