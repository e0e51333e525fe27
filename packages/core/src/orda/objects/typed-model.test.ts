// Typed models: the types are checked by `tsc -p tsconfig.check.json` (expectTypeOf and the
// expected-error directives fail the type check when a type drifts), the values by running the tests: each
// type claim is paired with what the engine really returns.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import { defineModel, type BuiltModel } from '../../schema/model-builder.js'
import type {
  Computed,
  ModelTypesOf,
  ObjectValue,
  RelatedEntities,
  RelatedEntity,
} from '../../schema/typed-model.js'
import type { BinaryValue } from '../../values/binary.js'
import { createDatastore, type Datastore } from './datastore.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { EntitySelection } from './entity-selection.js'
import type { ReloadResult } from './entity-draft.js'
import type { LockResult } from '../writes/locks.js'
import type { ReloadedLock } from './entity.js'
import type { WriteResult } from '../../txn/save-status.js'
import type { KeyValue } from '../../store/entity-record.js'

/** The company model as a JSON literal kept `as const`, so its types can be inferred. */
const model = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', not_null: true },
        { name: 'founded', type: 'date' },
        { name: 'logo', type: 'image' },
        { name: 'staff', kind: 'relatedEntities', type: 'EmployeeSelection', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      key: [{ name: 'code' }],
      attributes: [
        { name: 'code', kind: 'storage', type: 'uuid' },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number' },
        { name: 'active', type: 'bool' },
        { name: 'pause', type: 'duration' },
        { name: 'extra', type: 'object' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'manager', kind: 'relatedEntity', type: 'Employee' },
        // No type: the target is the dataclass whose `manager` points back here.
        { name: 'reports', kind: 'relatedEntities', path: 'manager' },
        { name: 'label', kind: 'calculated', type: 'string' },
        { name: 'employerName', kind: 'alias', path: 'employer.name' },
        { name: 'boss', kind: 'alias', path: 'manager' },
      ],
    },
  ],
} as const satisfies ModelJson

type Model = ModelTypesOf<typeof model>

const UUID = 'A0EEBC999C0B4EF8BB6D6BB9BD380A11'
const PNG = {
  $base64:
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
}

const typed = () =>
  createDatastore(model, {
    clock: new ManualClock('2024-01-01T00:00:00Z'),
    calculated: { Employee: { label: (e) => `${String(e.get('lastName'))}!` } },
    data: {
      Company: [{ ID: 1, name: 'Acme', founded: '1999-12-31', logo: PNG }],
      Employee: [
        { code: UUID, lastName: 'Lovelace', salary: 5000, active: true, pause: '00:15:00' },
        {
          code: '11111111-1111-1111-1111-111111111111',
          lastName: 'Turing',
          employer: 1,
          manager: UUID,
          extra: { level: 2 },
        },
      ],
    },
  })

describe('types inferred from a JSON model written as const', () => {
  it('maps each value type to what the engine stores, null unless key or not_null', () => {
    expectTypeOf<Model['Company']['ID']>().toEqualTypeOf<number>()
    expectTypeOf<Model['Company']['name']>().toEqualTypeOf<string>()
    expectTypeOf<Model['Company']['founded']>().toEqualTypeOf<string | null>()
    expectTypeOf<Model['Company']['logo']>().toEqualTypeOf<BinaryValue | null>()
    expectTypeOf<Model['Employee']['code']>().toEqualTypeOf<string>()
    expectTypeOf<Model['Employee']['active']>().toEqualTypeOf<boolean | null>()
    expectTypeOf<Model['Employee']['pause']>().toEqualTypeOf<number | null>()
    expectTypeOf<Model['Employee']['extra']>().toEqualTypeOf<ObjectValue | null>()

    const ds = typed()
    const acme = ds.Company.getOrFail(1)
    const ada = ds.Employee.getOrFail(UUID)
    expect(acme.get('founded')).toBe('1999-12-31')
    expect(acme.get('logo')).toMatchObject({ kind: 'binary', type: 'image/png' })
    expect(ada.get('code')).toBe(UUID)
    expect(ada.get('active')).toBe(true)
    expect(ada.get('pause')).toBe(15 * 60 * 1000)
    expect(ada.get('extra')).toBeNull()
    expect(ds.Employee.get('11111111111111111111111111111111')?.get('extra')).toEqual({ level: 2 })
  })

  it('resolves relations, calculated and alias attributes', () => {
    expectTypeOf<Model['Employee']['employer']>().toEqualTypeOf<RelatedEntity<'Company'>>()
    expectTypeOf<Model['Employee']['manager']>().toEqualTypeOf<RelatedEntity<'Employee'>>()
    expectTypeOf<Model['Company']['staff']>().toEqualTypeOf<RelatedEntities<'Employee'>>()
    expectTypeOf<Model['Employee']['reports']>().toEqualTypeOf<RelatedEntities<'Employee'>>()
    expectTypeOf<Model['Employee']['label']>().toEqualTypeOf<Computed<string | null>>()
    expectTypeOf<Model['Employee']['employerName']>().toEqualTypeOf<Computed<string | null>>()
    expectTypeOf<Model['Employee']['boss']>().toEqualTypeOf<Computed<RelatedEntity<'Employee'>>>()

    const ds = typed()
    const alan = ds.Employee.query('lastName = :1', 'Turing').at(0)!
    const employer = alan.get('employer')
    expectTypeOf(employer).toEqualTypeOf<Entity<Model, 'Company'> | null>()
    expect(employer?.get('name')).toBe('Acme')
    const staff = ds.Company.getOrFail(1).get('staff')
    expectTypeOf(staff).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    expect(staff.toArray().map((e) => e.get('lastName'))).toEqual(['Turing'])
    expectTypeOf(alan.get('label')).toEqualTypeOf<string | null>()
    expect(alan.get('label')).toBe('Turing!')
    expectTypeOf(alan.get('employerName')).toEqualTypeOf<string | null>()
    expect(alan.get('employerName')).toBe('Acme')
    expectTypeOf(alan.get('boss')).toEqualTypeOf<Entity<Model, 'Employee'> | null>()
    expect(alan.get('boss')?.get('lastName')).toBe('Lovelace')
  })
})

describe('a typed datastore', () => {
  it('types ds.dataClass(name) and ds.Name alike, and get(key)?.get(attribute)', () => {
    const ds = typed()
    expectTypeOf(ds.Company).toEqualTypeOf<DataClass<Model, 'Company'>>()
    expectTypeOf(ds.dataClass('Company')).toEqualTypeOf<DataClass<Model, 'Company'>>()
    const salary = ds.dataClass('Employee').get(UUID)?.get('salary')
    expectTypeOf(salary).toEqualTypeOf<number | null | undefined>()
    expect(salary).toBe(5000)
    // @ts-expect-error a misspelled attribute does not compile (and throws AttributeNotFound, 1500)
    expect(() => ds.Employee.get(UUID)?.get('salry')).toThrow(/salry/)
    // @ts-expect-error nor does a misspelled dataclass (DataClassNotFound, 1800)
    expect(() => ds.dataClass('Employe')).toThrow(/Employe/)
  })

  it('types what prepare() and run() find like query()', () => {
    const ds = typed()
    const byName = ds.Employee.prepare('lastName = :1')
    const found = byName.first('Lovelace')
    expectTypeOf(found).toEqualTypeOf<Entity<Model, 'Employee'> | null>()
    expect(found?.get('salary')).toBe(5000)
    expectTypeOf(byName.select('Turing')).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    const { selection } = ds.Employee.run('salary > :1', { params: [1000] })
    expectTypeOf(selection).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    expect([...selection].map((e) => e.get('lastName'))).toEqual(['Lovelace'])
  })

  it('iterates the live entities of a selection, typed, with no null to check', () => {
    const ds = typed()
    const all = ds.Employee.all()
    ds.Employee.drop(UUID)
    const names: (string | null)[] = []
    for (const e of all) {
      expectTypeOf(e).toEqualTypeOf<Entity<Model, 'Employee'>>()
      names.push(e.get('lastName'))
    }
    expect(names).toEqual(['Turing'])
    expect(all.length).toBe(2)
    expectTypeOf(all.at(0)).toEqualTypeOf<Entity<Model, 'Employee'> | null | undefined>()
    expect(all.members().map((e) => e?.get('lastName') ?? null)).toEqual(['Turing', null])
  })

  it("types the members of 4D's EntitySelection class: first, last, query, extract, add", () => {
    const ds = typed()
    const sel = ds.Employee.all()
    expectTypeOf(sel.first()).toEqualTypeOf<Entity<Model, 'Employee'> | null>()
    expectTypeOf(sel.last()).toEqualTypeOf<Entity<Model, 'Employee'> | null>()
    expectTypeOf(sel.slice(0, 1)).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    expectTypeOf(sel.query('salary > :1', 1)).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    expectTypeOf(
      sel
        .orderBy([{ propertyPath: 'salary' }])
        .first()
        ?.get('salary'),
    ).toEqualTypeOf<number | null | undefined>()
    expectTypeOf(sel.extract('lastName')).toEqualTypeOf<string[]>()
    expectTypeOf(sel.extract('employer')).toEqualTypeOf<Entity<Model, 'Company'>[]>()
    expectTypeOf(sel.getDataClass()).toEqualTypeOf<DataClass<Model, 'Employee'>>()
    const picked = ds.Employee.newSelection().add(sel.first())
    expectTypeOf(picked).toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    // @ts-expect-error an entity of another dataclass is not added (and throws 1587)
    expect(() => picked.add(ds.Company.get(1))).toThrow(/incompatible/)
    // @ts-expect-error nor is an attribute of another dataclass extracted
    expect(sel.extract('name')).toEqual([])
    expect(sel.extract('lastName')).toEqual(['Turing', 'Lovelace'])
    expect(picked.first()?.get('lastName')).toBe('Turing')
    expect(
      sel
        .orderByFormula((e) => e.get('salary'))
        .last()
        ?.get('salary'),
    ).toBe(5000)
  })

  it('takes typed values on writes and refuses attributes computed on read', () => {
    const ds = typed()
    const acme = ds.Company.getOrFail(1)
    const e = ds.Employee.create({ lastName: 'Hopper', salary: 6000, employer: acme })
    expect(e.get('employer')?.get('name')).toBe('Acme')
    const raised = e.edit({ salary: 6500 }).set('employer', 1).saveOrFail()
    expectTypeOf(raised).toEqualTypeOf<Entity<Model, 'Employee'>>()
    expect(raised.get('salary')).toBe(6500)
    expect(ds.Employee.update(e.key, { active: false }).get('active')).toBe(false)
    // @ts-expect-error a calculated attribute cannot be written (AttributeReadOnly, 1516)
    expect(() => ds.Employee.create({ label: 'x' })).toThrow(/label/)
    // @ts-expect-error a value of the wrong type does not compile
    expect(() => ds.Employee.create({ salary: 'lots' })).toThrow()
    // @ts-expect-error the name is not_null
    expect(() => ds.Company.create({ name: null })).toThrow()
    const draft = ds.Employee.new({ lastName: 'New' })
    expectTypeOf(draft.get('lastName')).toEqualTypeOf<string | null>()
    expect(draft.saveOrFail().get('lastName')).toBe('New')
  })

  it("types the members of 4D's Entity class on an entity and its draft", () => {
    const ds = typed()
    const ada = ds.Employee.getOrFail(UUID)
    // toObject: storage values with their types, a relatedEntity as { __KEY }, nothing computed.
    const object = ada.toObject()
    expectTypeOf(object.salary).toEqualTypeOf<number | null>()
    expectTypeOf(object.employer).toEqualTypeOf<{ __KEY: KeyValue } | null>()
    expectTypeOf<keyof typeof object>().toEqualTypeOf<
      'code' | 'lastName' | 'salary' | 'active' | 'pause' | 'extra' | 'employer' | 'manager'
    >()
    expect(object).toMatchObject({ code: UUID, salary: 5000, employer: null })
    expectTypeOf(ada.toObject('lastName')).toEqualTypeOf<Partial<typeof object>>()
    expectTypeOf(ada.edit().toObject()).toEqualTypeOf<typeof object>()
    // Names of the dataclass's attributes.
    const draft = ada.edit({ salary: 1 })
    expectTypeOf(draft.touchedAttributes()).toEqualTypeOf<(keyof Model['Employee'])[]>()
    expect(draft.touchedAttributes()).toEqual(['salary'])
    const [difference] = ada.diff(draft)
    expectTypeOf(difference!.attributeName).toEqualTypeOf<keyof Model['Employee']>()
    expect(difference).toEqual({ attributeName: 'salary', value: 5000, otherValue: 1 })
    // The entities they lead to are of the dataclass.
    const sel = ds.Employee.all()
    const first = sel.memberAt(0)!
    expectTypeOf(sel.memberAt(0)).toEqualTypeOf<Entity<Model, 'Employee'> | null | undefined>()
    expectTypeOf(first.next()).toEqualTypeOf<Entity<Model, 'Employee'> | null>()
    expectTypeOf(first.getSelection()).toEqualTypeOf<EntitySelection<Model, 'Employee'> | null>()
    expectTypeOf(first.clone()).toEqualTypeOf<Entity<Model, 'Employee'>>()
    expectTypeOf(first.getDataClass()).toEqualTypeOf<DataClass<Model, 'Employee'>>()
    expect(first.next()?.get('lastName')).toBe('Lovelace')
    const reloaded = first.reload()
    expectTypeOf(reloaded).toEqualTypeOf<ReloadResult<Entity<Model, 'Employee'>>>()
    expect(reloaded.success && reloaded.entity.get('lastName')).toBe('Turing')
    const locked = first.lock({ reload: true })
    expectTypeOf(locked).toEqualTypeOf<ReloadedLock<Entity<Model, 'Employee'>> | LockResult>()
    expect(locked).toMatchObject({ success: true, wasReloaded: false })
    // Saves and drops answer 4D's status objects; the throwing forms keep the entity's type.
    expectTypeOf(draft.save()).toEqualTypeOf<WriteResult>()
    expectTypeOf(draft.saveOrFail).returns.toEqualTypeOf<Entity<Model, 'Employee'>>()
    expectTypeOf(ada.drop).returns.toEqualTypeOf<WriteResult>()
    expectTypeOf(sel.drop).returns.toEqualTypeOf<EntitySelection<Model, 'Employee'>>()
    expectTypeOf(sel.dropOrFail).returns.toEqualTypeOf<number>()
    expectTypeOf(ada.getKey({ asString: true })).toEqualTypeOf<string>()
    expectTypeOf(ds.Employee.new().getKey({ asString: true })).toEqualTypeOf<string | null>()
    // @ts-expect-error diff compares entities of one dataclass (and throws 1587)
    expect(() => ada.diff(ds.Company.getOrFail(1))).toThrow(/incompatible/)
    // A typed entity is still an Entity for the untyped API.
    expectTypeOf(first).toMatchTypeOf<Entity>()
  })

  it('is still a Datastore: code written for the untyped API takes it', () => {
    const ds = typed()
    const untyped = (d: Datastore) => d.dataClass('Company').get(1)?.get('name')
    const count = (dc: DataClass) => dc.length
    const key = (e: Entity | null) => e?.getKey()
    expect(untyped(ds)).toBe('Acme')
    expect(count(ds.Employee)).toBe(2)
    expect(key(ds.Company.get(1))).toBe(1)
  })
})

describe('types from elsewhere', () => {
  it('follows a defineModel builder', () => {
    const built = defineModel('shop')
      .dataClass('Company', (c) =>
        c
          .key('ID', 'long', { autosequence: true })
          .storage('name', 'string', { not_null: true })
          .relatedEntities('staff', 'Employee', 'employer'),
      )
      .dataClass('Employee', (e) =>
        e
          .key('ID', 'long', { autosequence: true })
          .storage('salary', 'number')
          .relatedEntity('employer', 'Company')
          .alias('employerName', 'employer.name', 'string'),
      )
    const ds = createDatastore(built, { data: { Company: [{ name: 'Acme' }] } })
    const e = ds.Employee.create({ salary: 10, employer: 1 })
    expectTypeOf(e.get('salary')).toEqualTypeOf<number | null>()
    expectTypeOf(e.get('employer')).toEqualTypeOf<Entity<TypesOf<typeof built>, 'Company'> | null>()
    expectTypeOf(ds.Company.getOrFail(1).get('name')).toEqualTypeOf<string>()
    expect(e.get('employerName')).toBe('Acme')
    expect(ds.Company.getOrFail(1).get('staff').length).toBe(1)
    // @ts-expect-error not an attribute of Employee
    expect(() => e.get('name')).toThrow()
  })

  it('takes the types as the type argument for a model read from a file', () => {
    interface Shop {
      Item: { ID: number; title: string | null }
    }
    const json: unknown = JSON.parse(
      '{"dataClasses":[{"name":"Item","attributes":[{"name":"ID","type":"long"},{"name":"title","type":"string"}]}]}',
    )
    const ds = createDatastore<Shop>(json as ModelJson, {
      data: { Item: [{ ID: 1, title: 'Pen' }] },
    })
    expectTypeOf(ds.Item.get(1)?.get('title')).toEqualTypeOf<string | null | undefined>()
    expect(ds.Item.get(1)?.get('title')).toBe('Pen')
  })

  it('leaves a model whose names are plain strings untyped, as before', () => {
    const wide: ModelJson = {
      dataClasses: [{ name: 'Item', attributes: [{ name: 'ID', type: 'long' }] }],
    }
    const ds = createDatastore(wide, { data: { Item: [{ ID: 1 }] } })
    const read = () => ds.dataClass('Item').get(1)?.get('anything')
    expectTypeOf(read).returns.toEqualTypeOf<unknown>()
    expect(read).toThrow(/anything/)
  })
})

// The model types a builder collected (what createDatastore reads from it).
type TypesOf<B> = B extends BuiltModel<infer M> ? M : never
