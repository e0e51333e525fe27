// Entity members that read or fill an entity as an object (toObject, fromObject, diff), each
// written from the examples of 4D's page API/EntityClass (4D 21 R4), section in the test's title.
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { KeyValue } from '../../store/entity-record.js'
import { entityPage, type EmployeeAttributeName } from '../objects/entity-class.fixture.js'

// Greg Wahl (413) as 4D's example 1 shows him, dates as Entistore stores them (text) and no photo.
const greg = {
  ID: 413,
  firstName: 'Greg',
  lastName: 'Wahl',
  salary: 0,
  birthDate: '1963-02-01',
  woman: false,
  managerID: 412,
  employerID: 20,
  photo: null,
  extra: null,
  employer: { __KEY: 20 },
  manager: { __KEY: 412 },
}
const report = (
  ID: number,
  firstName: string,
  lastName: string,
  salary: number,
  birthDate: string,
  woman: boolean,
) => ({
  ID,
  firstName,
  lastName,
  salary,
  birthDate,
  woman,
  managerID: 413,
  employerID: 20,
  photo: null,
  extra: null,
  employer: { __KEY: 20 },
  manager: { __KEY: 413 },
})

describe('entity.toObject() (4D API/EntityClass)', () => {
  it('example 1: no filter, storage attributes and each relatedEntity as {__KEY}; "" and "*" alike', () => {
    const ds = entityPage()
    const employeeSelected = ds.Employee.get(413)!
    const object = employeeSelected.toObject()
    expect(object).toEqual(greg)
    // Storage attributes in model order, then the relations; no relatedEntities.
    expect(Object.keys(object)).toEqual(Object.keys(greg))
    expectTypeOf(object.salary).toEqualTypeOf<number | null>()
    expectTypeOf(object.employer).toEqualTypeOf<{ __KEY: KeyValue } | null>()
    expect(employeeSelected.toObject('')).toEqual(greg)
    expect(employeeSelected.toObject('*')).toEqual(greg)
  })

  it('example 2: dk with primary key + dk with stamp add __KEY and __STAMP first', () => {
    const ds = entityPage()
    const object = ds.Employee.get(413)!.toObject('', { withKey: true, withStamp: true })
    expect(object).toEqual({ __KEY: 413, __STAMP: 1, ...greg })
    expect(Object.keys(object).slice(0, 3)).toEqual(['__KEY', '__STAMP', 'ID'])
  })

  it('example 3: "directReports.*" expands every related entity', () => {
    const ds = entityPage()
    expect(ds.Employee.get(413)!.toObject('directReports.*')).toEqual({
      directReports: [
        report(418, 'Lorena', 'Boothe', 44800, '1970-10-02', true),
        report(419, 'Drew', 'Caudill', 41000, '2030-01-12', false),
        report(420, 'Nathan', 'Gomes', 46300, '2010-05-29', false),
      ],
    })
  })

  it('example 4: "firstName, directReports.lastName" picks some properties of relatedEntities', () => {
    const ds = entityPage()
    expect(ds.Employee.get(413)!.toObject('firstName, directReports.lastName')).toEqual({
      firstName: 'Greg',
      directReports: [{ lastName: 'Boothe' }, { lastName: 'Caudill' }, { lastName: 'Gomes' }],
    })
  })

  it('example 5: a collection filter; a relatedEntity named alone in its simple form', () => {
    const ds = entityPage()
    const coll = ['firstName', 'employer']
    expect(ds.Employee.get(413)!.toObject(coll)).toEqual({
      firstName: 'Greg',
      employer: { __KEY: 20 },
    })
  })

  it('example 6: "employer.*" extracts every attribute of the relatedEntity', () => {
    const ds = entityPage()
    expect(ds.Employee.get(413)!.toObject('employer.*')).toEqual({
      employer: {
        ID: 20,
        name: 'India Astral Secretary',
        creationDate: '1984-08-25',
        revenues: 12000000,
        extra: null,
      },
    })
  })

  it('example 7: some properties of a relatedEntity', () => {
    const ds = entityPage()
    const col = ['employer.name', 'employer.revenues']
    expect(ds.Employee.get(413)!.toObject(col)).toEqual({
      employer: { name: 'India Astral Secretary', revenues: 12000000 },
    })
  })

  it('on a draft: the values it would save, a relation set by key read as that entity', () => {
    const ds = entityPage()
    const draft = ds.Employee.get(413)!.edit({ salary: 500, employer: 21 })
    expect(draft.toObject('salary, employer, employer.name')).toEqual({
      salary: 500,
      employer: { name: 'Astral Lotus' },
    })
    expect(draft.toObject('employer')).toEqual({ employer: { __KEY: 21 } })
    expect(
      ds.Employee.new({ lastName: 'New' }).toObject('ID, lastName', { withKey: true }),
    ).toEqual({ __KEY: null, ID: null, lastName: 'New' })
  })
})

describe('draft.fromObject() (4D API/EntityClass)', () => {
  it('example: relations given by their key attribute (managerID, employerID)', () => {
    const ds = entityPage()
    const o = {
      firstName: 'Mary',
      lastName: 'Smith',
      salary: 36500,
      birthDate: '1958-10-27T00:00:00.000Z',
      woman: true,
      managerID: 411, // relatedEntity given with PK
      employerID: 20, // relatedEntity given with PK
    }
    const entity = ds.Employee.new()
    entity.fromObject(o)
    expect(entity.save()).toEqual({ success: true })
    const saved = entity.base!
    expect(saved.get('birthDate')).toBe('1958-10-27')
    expect(saved.get('manager')?.get('lastName')).toBe('Manning')
    expect(saved.get('employer')?.get('name')).toBe('India Astral Secretary')
    expect(saved.getKey()).toBe(1002) // the autosequence
  })

  it('example: a related entity given as an object with __KEY (as text too)', () => {
    const ds = entityPage()
    const entity = ds.Employee.new().fromObject({
      firstName: 'Marie',
      lastName: 'Lechat',
      salary: 68400,
      birthDate: '1971-09-03T00:00:00.000Z',
      woman: false,
      employer: { __KEY: '21' },
      manager: { __KEY: '411' },
    })
    expect(entity.touchedAttributes()).toEqual([
      'firstName',
      'lastName',
      'salary',
      'birthDate',
      'woman',
      'employer',
      'employerID',
      'manager',
      'managerID',
    ])
    expect(entity.save()).toEqual({ success: true })
    expect(entity.base!.get('employer')?.getKey()).toBe(21)
    expect(entity.base!.get('managerID')).toBe(411)
  })

  it('ignores unknown properties, values that cannot be converted, and missing related entities', () => {
    const ds = entityPage()
    const entity = ds.Employee.new().fromObject({
      lastName: 'Kept',
      nickname: 'not an attribute',
      salary: 'not a number',
      woman: 'true', // converted
      employer: { __KEY: 999 }, // no such company
      managerID: 999, // no such employee
      directReports: [], // a relatedEntities attribute
    })
    expect(entity.touchedAttributes()).toEqual(['lastName', 'woman'])
    expect(entity.saveOrFail().get('woman')).toBe(true)
  })

  it('takes __KEY or the key attribute for a new entity; null leaves it to the autosequence', () => {
    const ds = entityPage()
    expect(ds.Employee.new().fromObject({ __KEY: 5000, lastName: 'A' }).saveOrFail().getKey()).toBe(
      5000,
    )
    expect(ds.Employee.new().fromObject({ ID: null, lastName: 'B' }).saveOrFail().getKey()).toBe(
      5001,
    )
    // An existing entity keeps its key (a key never changes).
    const draft = ds.Employee.get(413)!.edit().fromObject({ ID: 9, __KEY: 10, lastName: 'W' })
    expect(draft.touchedAttributes()).toEqual(['lastName'])
  })

  it("getDataClass()'s example: duplicating any entity through toObject and fromObject", () => {
    const ds = entityPage()
    const entity = ds.Employee.get(413)!
    const entityNew = entity.getDataClass().new() // create a new entity in the parent dataclass
    entityNew.fromObject(entity.toObject()) // get all attributes
    entityNew.fromObject({ ID: null }) // reset the primary key
    const status = entityNew.save() // save the duplicated entity
    expect(status).toEqual({ success: true })
    const copy = entityNew.base!
    expect(copy.getKey()).toBe(1002)
    expect({ ...copy.toObject(), ID: 413 }).toEqual(greg)
  })
})

describe('entity.diff() (4D API/EntityClass)', () => {
  it('example 1: a clone against the changed entity, all attributes or some', () => {
    const ds = entityPage()
    const employee = ds.Employee.query('ID=1001').first()!
    const clone = employee.clone()
    const changed = employee.edit()
    changed.set('firstName', 'MARIE')
    changed.set('lastName', 'SOPHIE')
    changed.set('salary', 500)
    const diff1 = clone.diff(changed) // all differences are returned
    const diff2 = clone.diff(changed, ['firstName', 'lastName'])
    expect(diff1).toEqual([
      { attributeName: 'firstName', value: 'Natasha', otherValue: 'MARIE' },
      { attributeName: 'lastName', value: 'Locke', otherValue: 'SOPHIE' },
      { attributeName: 'salary', value: 66600, otherValue: 500 },
    ])
    expect(diff2).toEqual(diff1.slice(0, 2))
    expectTypeOf(diff1[0]!.attributeName).toEqualTypeOf<EmployeeAttributeName>()
  })

  it('example 2: two drafts of one entity; a changed relation gives its key attribute and itself', () => {
    const ds = entityPage()
    const e1 = ds.Employee.get(636)!.edit()
    const e2 = ds.Employee.get(636)!.edit()
    e1.set('firstName', `${e1.get('firstName')} update`)
    e1.set('lastName', `${e1.get('lastName')} update`)
    const c = ds.Company.get(117)!
    e1.set('employer', c)
    e2.set('salary', 100)
    const vCompareResult1 = e1.diff(e2)
    const vCompareResult2 = e1.diff(e2, ['firstName', 'lastName'])
    const vCompareResult3 = e1.diff(e2, e1.touchedAttributes())
    const employer = {
      attributeName: 'employer',
      value: ds.Company.get(117),
      otherValue: ds.Company.get(118),
    }
    expect(vCompareResult1).toEqual([
      { attributeName: 'firstName', value: 'Karla update', otherValue: 'Karla' },
      { attributeName: 'lastName', value: 'Marrero update', otherValue: 'Marrero' },
      { attributeName: 'salary', value: 33500, otherValue: 100 },
      { attributeName: 'employerID', value: 117, otherValue: 118 },
      employer,
    ])
    expect(vCompareResult2).toEqual(vCompareResult1.slice(0, 2))
    expect(vCompareResult3).toEqual([
      vCompareResult1[0],
      vCompareResult1[1],
      vCompareResult1[3],
      employer,
    ])
  })

  it('is empty for equal entities (objects compared by content); null or another dataclass is refused', () => {
    const ds = entityPage()
    const a = ds.Employee.get(413)!
    expect(a.diff(a.clone())).toEqual([])
    const withExtra = a.edit({ extra: { level: 2, tags: ['x'] } }).saveOrFail()
    expect(withExtra.diff(withExtra.edit({ extra: { tags: ['x'], level: 2 } }))).toEqual([])
    expect(withExtra.diff(withExtra.edit({ extra: { level: 3, tags: ['x'] } }))).toEqual([
      {
        attributeName: 'extra',
        value: { level: 2, tags: ['x'] },
        otherValue: { level: 3, tags: ['x'] },
      },
    ])
    expect(() => a.diff(null as never)).toThrow(expect.objectContaining({ errCode: 1806 }))
    expect(() => a.diff(ds.Company.get(20) as never)).toThrow(
      expect.objectContaining({ errCode: 1587 }),
    )
  })
})
