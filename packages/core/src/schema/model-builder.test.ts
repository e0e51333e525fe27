import { describe, expect, expectTypeOf, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import type { Entity } from '../orda/objects/entity.js'
import type {
  CalculatedAttributeDef,
  RelatedEntitiesAttributeDef,
  RelatedEntityAttributeDef,
} from './definitions.js'
import { loadModel } from './load-model.js'
import { defineModel } from './model-builder.js'
import type { AttributeJson } from './model-json.js'

const fullName = (e: Entity) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`

const shop = () =>
  defineModel('shop')
    .dataClass('Company', (c) =>
      c
        .key('ID', 'long', { autosequence: true })
        .storage('name', 'string', { indexed: true, indexKind: 'hash' })
        .relatedEntities('staff', 'Employee', 'employer'),
    )
    .dataClass(
      'Employee',
      (e) =>
        e
          .key('ID', 'long')
          .storage('firstName', 'string')
          .storage('lastName', 'string', { not_null: true })
          .relatedEntity('employer', 'Company', { inverseName: 'staff' })
          .calculated('fullName', 'string', fullName)
          .alias('companyName', 'employer.name')
          .alias('companyID', 'employer.ID', 'long'),
      { collectionName: 'Staff', defaultTopSize: 20 },
    )

describe('defineModel', () => {
  it('names the model "entistore" unless told otherwise', () => {
    expect(defineModel().toJSON()).toEqual({ __NAME: 'entistore', dataClasses: [] })
    expect(defineModel('shop').toJSON().__NAME).toBe('shop')
  })

  it('writes the catalog shape a model file holds', () => {
    const json = shop().toJSON()
    expect(json.dataClasses.map((d) => d.name)).toEqual(['Company', 'Employee'])
    expect(json.dataClasses[0]).toEqual({
      name: 'Company',
      key: [{ name: 'ID' }],
      attributes: [
        { name: 'ID', kind: 'storage', type: 'long', autosequence: true, identifying: true },
        { name: 'name', kind: 'storage', type: 'string', indexed: true, indexKind: 'hash' },
        {
          name: 'staff',
          kind: 'relatedEntities',
          type: 'EmployeeSelection',
          path: 'employer',
          reversePath: true,
        },
      ],
    })
    expect(json.dataClasses[1]).toMatchObject({
      name: 'Employee',
      collectionName: 'Staff',
      defaultTopSize: 20,
    })
    expect(json.dataClasses[1]!.attributes.slice(3)).toEqual([
      {
        name: 'employer',
        kind: 'relatedEntity',
        type: 'Company',
        path: 'Company',
        inverseName: 'staff',
      },
      { name: 'fullName', kind: 'calculated', type: 'string', readOnly: true },
      { name: 'companyName', kind: 'alias', path: 'employer.name', readOnly: true },
      { name: 'companyID', kind: 'alias', path: 'employer.ID', readOnly: true, type: 'long' },
    ])
  })

  it('produces JSON that survives a JSON round trip and loads', () => {
    const json = JSON.parse(JSON.stringify(shop().toJSON())) as unknown
    const schema = loadModel(json)
    expect(schema.name).toBe('shop')
    const staff = schema.byName
      .get('Company')!
      .attributesByName.get('staff') as RelatedEntitiesAttributeDef
    expect(staff.target).toBe('Employee')
  })

  it('keeps the calculated functions beside the JSON, by dataclass and attribute', () => {
    expect(shop().calculated).toEqual({ Company: {}, Employee: { fullName } })
  })

  it('is immutable: adding a dataclass returns a new model and leaves the old one as it was', () => {
    const base = defineModel('m').dataClass('A', (c) => c.key('ID', 'long'))
    const more = base.dataClass('B', (c) => c.key('ID', 'string'))
    expect(more).not.toBe(base)
    expect(base.toJSON().dataClasses.map((d) => d.name)).toEqual(['A'])
    expect(more.toJSON().dataClasses.map((d) => d.name)).toEqual(['A', 'B'])
  })

  it('hands out copies: editing toJSON() output does not change the model', () => {
    const model = shop()
    const json = model.toJSON()
    ;(json.dataClasses[0]!.attributes as AttributeJson[]).pop()
    json.dataClasses[0]!.name = 'Changed'
    expect(model.toJSON().dataClasses[0]!.name).toBe('Company')
    expect(model.toJSON().dataClasses[0]!.attributes).toHaveLength(3)
  })

  it('makes the key identifying even when its options say otherwise', () => {
    const json = defineModel()
      .dataClass('A', (c) => c.key('code', 'string', { identifying: false } as never))
      .toJSON()
    expect(json.dataClasses[0]!.attributes[0]).toMatchObject({ name: 'code', identifying: true })
  })

  it('passes a foreignKey option through to the relation', () => {
    const schema = loadModel(
      defineModel()
        .dataClass('Company', (c) => c.key('ID', 'long'))
        .dataClass('Employee', (e) =>
          e
            .key('ID', 'long')
            .storage('firm', 'long')
            .relatedEntity('employer', 'Company', { foreignKey: 'firm' }),
        )
        .toJSON(),
    )
    const employer = schema.byName
      .get('Employee')!
      .attributesByName.get('employer') as RelatedEntityAttributeDef
    expect(employer.foreignKey).toBe('firm')
  })
})

describe('createDatastore with a built model', () => {
  it('makes each dataclass a property and computes the builder calculated attributes', () => {
    const ds = createDatastore(shop(), {
      data: {
        Company: [{ ID: 1, name: 'Acme' }],
        Employee: [{ ID: 7, firstName: 'Ada', lastName: 'Lovelace', employer: 1 }],
      },
    })
    expect(ds.Company.length).toBe(1)
    const ada = ds.Employee.getOrFail(7)
    expect(ada.get('fullName')).toBe('Ada Lovelace')
    expect(ada.get('companyName')).toBe('Acme')
    expect(ada.get('companyID')).toBe(1)
    expect(ds.name).toBe('shop')
  })

  it('lets options.calculated add to and override the builder functions', () => {
    const upper = (e: Entity) => String(e.get('lastName')).toUpperCase()
    const model = shop().dataClass('Extra', (x) =>
      x.key('ID', 'long').calculated('twice', 'long', (e) => Number(e.get('ID')) * 2),
    )
    const ds = createDatastore(model, { calculated: { Employee: { fullName: upper } } })
    const fn = (dc: 'Employee' | 'Extra', name: string) =>
      (ds.dataClass(dc).attribute(name) as CalculatedAttributeDef).compute
    expect(fn('Employee', 'fullName')).toBe(upper)
    // The dataclasses the options do not mention keep their builder functions.
    expect(fn('Extra', 'twice')).toBeTypeOf('function')
  })

  it('takes a computed attribute’s functions: with a set it is writable, typed and in the catalog', () => {
    const model = defineModel().dataClass('P', (p) =>
      p
        .key('ID', 'long')
        .storage('first', 'string')
        .storage('last', 'string')
        .calculated('full', 'string', {
          get() {
            return `${String(this.get('first'))} ${String(this.get('last'))}`
          },
          set(value) {
            const [first, last] = String(value).split(' ')
            return { first, last }
          },
          query: (e) => ({ query: 'first = :1', parameters: [String(e.value).split(' ')[0]] }),
          orderBy: () => 'last',
        })
        .calculated('initials', 'string', { get: (e) => String(e.get('first')).slice(0, 1) }),
    )
    expect(model.toJSON().dataClasses[0]!.attributes.slice(3)).toEqual([
      { name: 'full', kind: 'calculated', type: 'string', readOnly: false },
      { name: 'initials', kind: 'calculated', type: 'string', readOnly: true },
    ])
    const ds = createDatastore(model, { data: { P: [{ ID: 1, first: 'Ada', last: 'Byron' }] } })
    // With a set the attribute is an ordinary one for the types: read and written.
    expectTypeOf(ds.P.getOrFail(1).get('full')).toEqualTypeOf<string | null>()
    const saved = ds.P.update(1, { full: 'Ada Lovelace' })
    expect([saved.get('first'), saved.get('last'), saved.get('full')]).toEqual([
      'Ada',
      'Lovelace',
      'Ada Lovelace',
    ])
    expect(ds.P.query('full = :1', 'Ada Anything').length).toBe(1)
    // Without one it stays computed: never written.
    // @ts-expect-error initials is read-only
    expect(() => ds.P.update(1, { initials: 'X' })).toThrow(/cannot be written/)
    expect(ds.P.getOrFail(1).get('initials')).toBe('A')
  })
})
