// ORDA's property access (issue 51), written from 4D's pages: `entity.attributeName` (EntityClass),
// `entitySelection.attributeName` (EntitySelectionClass: "a projection of values"),
// `dataClass.attributeName` (DataClassClass: the attribute object). Types are checked by
// `npm run typecheck` (expectTypeOf, the expected-error directives), values by running.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { ModelTypesOf } from '../../schema/typed-model.js'
import { createDatastore } from './datastore.js'
import { Entity } from './entity.js'
import { EntityDraft } from './entity-draft.js'
import { EntitySelection } from './entity-selection.js'
import { OWN_FIELDS } from './object-classes.js'
import { DATA_CLASS_FIELDS } from './data-class-properties.js'
import { thrown } from '../../errors/thrown.fixture.js'

const model = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'city', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', type: 'EmployeeSelection', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number' },
        // Names an Entity, a draft or a selection already has as a member: read with get().
        { name: 'key', type: 'string' },
        { name: 'length', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'employerCity', kind: 'alias', path: 'employer.city' },
      ],
    },
  ],
} as const satisfies ModelJson

type Model = ModelTypesOf<typeof model>

const company = () =>
  createDatastore(model, {
    clock: new ManualClock('2024-01-01T00:00:00Z'),
    data: {
      Company: [
        { ID: 1, name: 'Acme', city: 'Paris' },
        { ID: 2, name: 'Globex', city: 'Lyon' },
        { ID: 3, name: 'Initech', city: null },
      ],
      Employee: [
        { ID: 1, lastName: 'Smith', salary: 5000, key: 'k1', length: 3, employer: 1 },
        { ID: 2, lastName: 'Jones', salary: 6000, key: 'k2', length: 4, employer: 1 },
        { ID: 3, lastName: 'Brown', salary: null, employer: 2 },
        { ID: 4, lastName: null, salary: 4000 },
      ],
    },
  })

describe('entity.attributeName', () => {
  it('reads every kind of attribute, relations and aliases too, typed by the model', () => {
    const ds = company()
    const smith = ds.Employee.get(1)!
    // 4D: $emp.lastName; $emp.employer.name
    expect(smith.lastName).toBe('Smith')
    expect(smith.salary).toBe(5000)
    expect(smith.employer?.name).toBe('Acme')
    expect(smith.employerCity).toBe('Paris')
    expect(ds.Company.get(1)!.staff.lastName).toEqual(['Smith', 'Jones'])
    expect(ds.Employee.get(4)!.employer).toBeNull()
    expectTypeOf(smith.lastName).toEqualTypeOf<string | null>()
    expectTypeOf(smith.employer).toEqualTypeOf<Entity<Model, 'Company'> | null>()
    expectTypeOf(smith.employerCity).toEqualTypeOf<string | null>()
    expectTypeOf(ds.Company.get(1)!.staff).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    // @ts-expect-error: not an attribute of Employee
    void smith.salry
  })

  it('is the same value get() reads, with the same permissions (no property of its own)', () => {
    const ds = company()
    const smith = ds.Employee.get(1)!
    for (const name of ['lastName', 'salary', 'employerCity'] as const)
      expect(smith[name]).toEqual(smith.get(name))
    // The stored entity is still frozen with only its own fields: the properties are its class's.
    expect(Object.keys(smith).sort()).toEqual([...OWN_FIELDS.entity].sort())
    expect(Object.isFrozen(smith)).toBe(true)
    expect(smith).toBeInstanceOf(Entity)
    expect(smith.constructor.name).toBe('EmployeeEntity')
  })

  it('leaves to get() an attribute named as a member (key, length): the member wins', () => {
    const ds = company()
    const smith = ds.Employee.get(1)!
    expect(smith.key).toBe(1)
    expect(smith.get('key')).toBe('k1')
    expect(ds.Employee.all().length).toBe(4)
    expect(ds.Employee.all().extract('length')).toEqual([3, 4])
    expectTypeOf(smith.key).toEqualTypeOf<import('../../store/entity-record.js').KeyValue>()
  })

  it('refuses a write with a line that names the draft to write through (9161)', () => {
    const ds = company()
    const smith = ds.Employee.get(1)!
    const error = thrown(() => {
      // @ts-expect-error: an entity's attributes only read
      smith.salary = 7000
    })
    expect(error).toMatchObject({ errCode: 9161 })
    expect(String(error.message)).toBe(
      '"Employee.salary" cannot be set on an entity: an entity is a saved version that every ' +
        'reader shares; change it through a draft: entity.edit({ salary: … }).save()',
    )
    expect(ds.Employee.get(1)!.salary).toBe(5000)
  })
})

describe('draft.attributeName', () => {
  it('reads and sets as get() and set() do, then saves (4D: $emp.salary:=...; $emp.save())', () => {
    const ds = company()
    const draft = ds.Employee.get(1)!.edit()
    draft.salary = 5500
    draft.employer = ds.Company.get(2)
    expect(draft.salary).toBe(5500)
    expect(draft.touchedAttributes()).toEqual(['salary', 'employer'])
    expect(draft.save()).toEqual({ success: true })
    expect(ds.Employee.get(1)!.salary).toBe(5500)
    expect(ds.Employee.get(1)!.employer?.name).toBe('Globex')
    const fresh = ds.Employee.new()
    fresh.lastName = 'Doe'
    expect(fresh.saveOrFail().lastName).toBe('Doe')
    expect(fresh).toBeInstanceOf(EntityDraft)
    expectTypeOf(ds.Employee.get(1)!.edit().salary).toEqualTypeOf<number | null>()
    // @ts-expect-error: an alias is computed on read, never written
    draft.employerCity = 'Rome'
  })

  it('refuses at save a computed attribute set through its property, as set() is (1516)', () => {
    const ds = company()
    const draft = ds.Employee.get(1)!.edit() as EntityDraft
    ;(draft as unknown as Record<string, unknown>)['employerCity'] = 'Rome'
    expect(thrown(() => draft.saveOrFail())).toMatchObject({ errCode: 1516 })
  })
})

describe('entitySelection.attributeName', () => {
  it('projects a storage attribute as the collection of its values, nulls left out', () => {
    const ds = company()
    // 4D: $lastNames:=ds.Employee.all().lastName
    expect(ds.Employee.all().lastName).toEqual(['Smith', 'Jones', 'Brown'])
    expect(ds.Employee.all().orderBy('salary desc').salary).toEqual([6000, 5000, 4000])
    expect(ds.Employee.all().lastName).toEqual(ds.Employee.all().extract('lastName'))
    expectTypeOf(ds.Employee.all().lastName).toEqualTypeOf<string[]>()
  })

  it('projects a relation as the selection it reaches, each entity once', () => {
    const ds = company()
    // 4D: $companies:=ds.Employee.all().employer (duplicates removed)
    const companies = ds.Employee.all().employer
    expect(companies).toBeInstanceOf(EntitySelection)
    expect(companies.extract('name')).toEqual(['Acme', 'Globex'])
    expect(companies.name).toEqual(['Acme', 'Globex'])
    // 1→N: every employee of the companies, once each.
    expect(ds.Company.all().staff.lastName.sort()).toEqual(['Brown', 'Jones', 'Smith'])
    expectTypeOf(companies).toEqualTypeOf<EntitySelection<Model, 'Company'>>()
    expectTypeOf(ds.Company.all().staff).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
  })

  it('refuses a write (9161)', () => {
    const ds = company()
    const all = ds.Employee.all() as unknown as Record<string, unknown>
    expect(thrown(() => (all['lastName'] = []))).toMatchObject({ errCode: 9161 })
  })
})

describe('dataClass.attributeName', () => {
  it("is 4D's attribute object, as attributeInfo(name) gives it", () => {
    const ds = company()
    // 4D: ds.Employee.lastName.kind → "storage"
    expect(ds.Employee.lastName).toEqual(ds.Employee.attributeInfo('lastName'))
    expect(ds.Employee.lastName).toMatchObject({
      name: 'lastName',
      kind: 'storage',
      type: 'string',
    })
    expect(ds.Employee.employer).toMatchObject({
      kind: 'relatedEntity',
      relatedDataClass: 'Company',
    })
    // `name` is the dataclass's own member.
    expect(ds.Company.name).toBe('Company')
    expect(
      thrown(() => ((ds.Employee as unknown as Record<string, unknown>)['salary'] = 1)),
    ).toMatchObject({
      errCode: 9161,
    })
  })
})

describe('the objects', () => {
  it('have of their own only the fields their accessors leave alone', () => {
    const ds = company()
    const sorted = (xs: readonly string[]) => [...xs].sort()
    expect(sorted(Object.keys(ds.Employee.get(1)!))).toEqual(sorted(OWN_FIELDS.entity))
    expect(sorted(Object.keys(ds.Employee.get(1)!.edit()))).toEqual(sorted(OWN_FIELDS.draft))
    expect(sorted(Object.keys(ds.Employee.all()))).toEqual(sorted(OWN_FIELDS.selection))
    expect(sorted(Object.keys(ds.Employee))).toEqual(sorted(DATA_CLASS_FIELDS))
    expect(ds.Employee.constructor.name).toBe('EmployeeDataClass')
  })
})

describe('the untyped API', () => {
  it('has the same properties at run time; its types leave them to get()', () => {
    const ds = createDatastore(model as ModelJson, { data: { Company: [{ ID: 1, name: 'Acme' }] } })
    const acme = ds.dataClass('Company').get(1)!
    expect((acme as unknown as Record<string, unknown>)['name']).toBe('Acme')
    // @ts-expect-error: no attribute properties in the untyped model's types
    void acme.name
    expect(acme.get('name')).toBe('Acme')
  })
})
