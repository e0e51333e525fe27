import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import type {
  AliasAttributeDef,
  CalculatedAttributeDef,
  RelatedEntitiesAttributeDef,
  RelatedEntityAttributeDef,
  StorageAttributeDef,
} from './definitions.js'
import { loadModel } from './load-model.js'
import type { LoadModelOptions } from './model-draft.js'
import { VALUE_TYPES, type AttributeJson, type ModelJson } from './model-json.js'

const company = (): ModelJson => ({
  __NAME: 'company',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'manager', kind: 'relatedEntity', type: 'Employee' },
        { name: 'reports', kind: 'relatedEntities', path: 'manager' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
        { name: 'companyName', kind: 'alias', path: 'employer.name' },
      ],
    },
  ],
})

/** A model of one dataclass `Thing` with an `ID` key and the given extra attributes. */
const thing = (...attributes: unknown[]): unknown => ({
  dataClasses: [{ name: 'Thing', attributes: [{ name: 'ID', type: 'long' }, ...attributes] }],
})

function modelError(model: unknown, options?: LoadModelOptions): DatastoreError {
  try {
    loadModel(model, options)
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw e
  }
  throw new Error('expected loadModel to throw')
}

const attr = <T>(model: ReturnType<typeof loadModel>, dc: string, name: string): T =>
  model.byName.get(dc)!.attributesByName.get(name) as T

describe('loadModel defaults', () => {
  const schema = loadModel(company())
  const companyDc = schema.byName.get('Company')!
  const employee = schema.byName.get('Employee')!

  it('takes the application name from __NAME, then options.name, then "entistore"', () => {
    expect(schema.name).toBe('company')
    expect(loadModel({ dataClasses: company().dataClasses }, { name: 'app' }).name).toBe('app')
    expect(loadModel({ dataClasses: company().dataClasses }).name).toBe('entistore')
  })

  it('fills the dataclass defaults: className, collectionName, tableNumber, scope, exposed, defaultTopSize', () => {
    expect(companyDc).toMatchObject({
      name: 'Company',
      className: 'Company',
      collectionName: 'CompanySelection',
      tableNumber: 1,
      scope: 'public',
      exposed: true,
      defaultTopSize: 100,
      extraProperties: undefined,
    })
    expect(employee.tableNumber).toBe(2)
    expect(employee.collectionName).toBe('EmployeeSelection')
  })

  it('keeps the dataclass fields the model gives', () => {
    const s = loadModel({
      dataClasses: [
        {
          name: 'Thing',
          className: 'ThingClass',
          collectionName: 'Things',
          tableNumber: 42,
          scope: 'private',
          exposed: false,
          uuid: 'ABC',
          defaultTopSize: 20,
          extraProperties: { panelColor: 'red' },
          attributes: [{ name: 'ID', type: 'long' }],
        },
      ],
    })
    expect(s.dataClasses[0]).toMatchObject({
      className: 'ThingClass',
      collectionName: 'Things',
      tableNumber: 42,
      scope: 'private',
      exposed: false,
      uuid: 'ABC',
      defaultTopSize: 20,
      extraProperties: { panelColor: 'red' },
    })
  })

  it('fills the attribute defaults: kind storage, scope public, exposed, not read-only', () => {
    expect(attr<StorageAttributeDef>(schema, 'Employee', 'lastName')).toMatchObject({
      kind: 'storage',
      type: 'string',
      scope: 'public',
      exposed: true,
      readOnly: false,
      indexed: false,
      indexKind: 'auto',
      unique: false,
      notNull: false,
      autosequence: false,
      identifying: false,
      dateOnly: false,
      implicit: false,
    })
  })

  it('numbers fieldPos from 1 over stored and relation attributes, and leaves computed ones without', () => {
    const pos = (name: string) => attr<StorageAttributeDef>(schema, 'Employee', name).fieldPos
    expect([pos('ID'), pos('lastName'), pos('employerID'), pos('employer')]).toEqual([1, 2, 3, 4])
    expect(pos('fullName')).toBeUndefined()
    expect(pos('companyName')).toBeUndefined()
    const s = loadModel(
      thing({ name: 'a', type: 'string', fieldPos: 9 }, { name: 'b', type: 'string' }),
    )
    expect(attr<StorageAttributeDef>(s, 'Thing', 'a').fieldPos).toBe(9)
    expect(attr<StorageAttributeDef>(s, 'Thing', 'b').fieldPos).toBe(3)
  })

  it('derives stable 32-hex-digit uuids from the names, equal across two loads', () => {
    const again = loadModel(company())
    expect(companyDc.uuid).toMatch(/^[0-9A-F]{32}$/)
    expect(again.byName.get('Company')!.uuid).toBe(companyDc.uuid)
    const uuids = (s: typeof schema) =>
      s.dataClasses.flatMap((d) => d.attributes.map((a) => a.uuid))
    expect(uuids(again)).toEqual(uuids(schema))
    // Different names give different ids: the uuid identifies the attribute, not just the model.
    expect(employee.uuid).not.toBe(companyDc.uuid)
    expect(attr<StorageAttributeDef>(schema, 'Employee', 'ID').uuid).not.toBe(
      attr<StorageAttributeDef>(schema, 'Company', 'ID').uuid,
    )
    expect(new Set(uuids(schema)).size).toBe(uuids(schema).length)
  })

  it('keeps an explicit attribute uuid', () => {
    const s = loadModel(thing({ name: 'a', type: 'string', uuid: 'MINE' }))
    expect(attr<StorageAttributeDef>(s, 'Thing', 'a').uuid).toBe('MINE')
  })

  it('makes calculated and alias attributes read-only unless the model says otherwise', () => {
    expect(attr<CalculatedAttributeDef>(schema, 'Employee', 'fullName').readOnly).toBe(true)
    expect(attr<AliasAttributeDef>(schema, 'Employee', 'companyName').readOnly).toBe(true)
    const s = loadModel(thing({ name: 'c', kind: 'calculated', type: 'long', readOnly: false }))
    expect(attr<CalculatedAttributeDef>(s, 'Thing', 'c').readOnly).toBe(false)
  })

  it('makes date attributes date-only unless dateOnly is false', () => {
    const s = loadModel(
      thing(
        { name: 'd', type: 'date' },
        { name: 't', type: 'date', dateOnly: false },
        { name: 's', type: 'string', dateOnly: true },
      ),
    )
    expect(attr<StorageAttributeDef>(s, 'Thing', 'd').dateOnly).toBe(true)
    expect(attr<StorageAttributeDef>(s, 'Thing', 't').dateOnly).toBe(false)
    // dateOnly means nothing for other types.
    expect(attr<StorageAttributeDef>(s, 'Thing', 's').dateOnly).toBe(false)
  })

  it('gives a string attribute its maxLength and any storage attribute never_null, as read', () => {
    const s = loadModel(
      thing(
        { name: 'code', type: 'string', maxLength: 8, never_null: true },
        { name: 'plain', type: 'string' },
      ),
    )
    const code = attr<StorageAttributeDef>(s, 'Thing', 'code')
    expect([code.maxLength, code.neverNull, code.extra]).toEqual([8, true, {}])
    const plain = attr<StorageAttributeDef>(s, 'Thing', 'plain')
    expect([plain.maxLength, plain.neverNull]).toEqual([undefined, undefined])
  })

  it('keeps catalog fields it does not interpret as extra, on attributes and dataclasses', () => {
    const s = loadModel({
      dataClasses: [
        {
          name: 'Thing',
          dataURI: '/rest/Thing',
          panel: 3,
          attributes: [{ name: 'ID', type: 'long', defaultFormat: '###', multiLine: false }],
        },
      ],
    })
    const dc = s.dataClasses[0]!
    expect(dc.extra).toEqual({ panel: 3 })
    expect(dc.key.extra).toEqual({ defaultFormat: '###', multiLine: false })
  })

  it('freezes the whole schema', () => {
    expect(Object.isFrozen(schema)).toBe(true)
    expect(Object.isFrozen(schema.dataClasses)).toBe(true)
    expect(Object.isFrozen(employee)).toBe(true)
    expect(Object.isFrozen(employee.attributes)).toBe(true)
    expect(employee.attributes.every((a) => Object.isFrozen(a))).toBe(true)
  })

  it('keeps the methods, frozen copies', () => {
    const methods = [{ name: 'hire', applyTo: 'dataClass' }]
    const s = loadModel({ ...company(), methods })
    expect(s.methods).toEqual(methods)
    expect(Object.isFrozen(s.methods[0])).toBe(true)
    methods[0]!.name = 'fire'
    expect(s.methods[0]!.name).toBe('hire')
    expect(loadModel(company()).methods).toEqual([])
  })

  it('accepts names in any alphabet and with underscores', () => {
    const s = loadModel({
      dataClasses: [
        {
          name: 'Société',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: '_prénom_2', type: 'string' },
          ],
        },
      ],
    })
    expect(s.byName.get('Société')!.attributesByName.has('_prénom_2')).toBe(true)
  })
})

describe('loadModel primary keys', () => {
  it('takes key[0].name first', () => {
    const s = loadModel({
      dataClasses: [
        {
          name: 'T',
          key: [{ name: 'code' }],
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'code', type: 'string' },
          ],
        },
      ],
    })
    expect(s.dataClasses[0]!.key.name).toBe('code')
  })

  it('falls back to the attribute marked identifying, then to an attribute named ID', () => {
    const identifying = loadModel({
      dataClasses: [
        {
          name: 'T',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'ref', type: 'uuid', identifying: true },
          ],
        },
      ],
    })
    expect(identifying.dataClasses[0]!.key.name).toBe('ref')
    expect(loadModel(thing()).byName.get('Thing')!.key.name).toBe('ID')
  })

  it('makes the key identifying, unique and not null whatever the model says', () => {
    const s = loadModel({
      dataClasses: [
        { name: 'T', attributes: [{ name: 'ID', type: 'long', unique: false, not_null: false }] },
      ],
    })
    const key = s.dataClasses[0]!.key
    expect(key).toMatchObject({ identifying: true, unique: true, notNull: true })
    // The key in the attribute list is the same fixed object, not the model's original.
    expect(s.dataClasses[0]!.attributes[0]).toBe(key)
    expect(s.dataClasses[0]!.attributesByName.get('ID')).toBe(key)
  })

  it.each(['long', 'long64', 'word', 'byte', 'string', 'uuid'])('accepts a %s key', (type) => {
    const s = loadModel({ dataClasses: [{ name: 'T', attributes: [{ name: 'ID', type }] }] })
    expect(s.dataClasses[0]!.key.type).toBe(type)
  })
})

describe('loadModel relations', () => {
  const schema = loadModel(company())

  it('resolves a relatedEntity target from path, else from type', () => {
    expect(attr<RelatedEntityAttributeDef>(schema, 'Employee', 'employer')).toMatchObject({
      kind: 'relatedEntity',
      type: 'Company',
      target: 'Company',
    })
    expect(attr<RelatedEntityAttributeDef>(schema, 'Employee', 'manager').target).toBe('Employee')
  })

  it('uses the storage attribute <relation>ID as foreignKey when the model names none', () => {
    expect(attr<RelatedEntityAttributeDef>(schema, 'Employee', 'employer').foreignKey).toBe(
      'employerID',
    )
  })

  it('uses an explicit foreignKey over the <relation>ID convention', () => {
    const s = loadModel({
      dataClasses: [
        { name: 'Company', attributes: [{ name: 'ID', type: 'long' }] },
        {
          name: 'Employee',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'employerID', type: 'long' },
            { name: 'firm', type: 'long' },
            {
              name: 'employer',
              kind: 'relatedEntity',
              path: 'Company',
              foreignKey: 'firm',
              inverseName: 'staff',
            },
          ],
        },
      ],
    })
    expect(attr<RelatedEntityAttributeDef>(s, 'Employee', 'employer')).toMatchObject({
      foreignKey: 'firm',
      inverseName: 'staff',
    })
  })

  it('adds an implicit hidden slot named after the relation when there is no foreignKey', () => {
    const employee = schema.byName.get('Employee')!
    const manager = attr<RelatedEntityAttributeDef>(schema, 'Employee', 'manager')
    expect(manager.foreignKey).toBe('manager')
    expect(manager.foreignKeyAttribute).toMatchObject({
      name: 'manager',
      kind: 'storage',
      type: 'long', // the type of the target's key
      exposed: false,
      implicit: true,
      fieldPos: undefined,
    })
    expect(manager.foreignKeyAttribute.uuid).not.toBe(manager.uuid)
    // The slot is stored, but it is not an attribute of the model: it appears only in `storage`.
    expect(employee.storage).toContain(manager.foreignKeyAttribute)
    expect(employee.attributes).not.toContain(manager.foreignKeyAttribute)
    expect(employee.attributesByName.get('manager')).toBe(manager)
  })

  it('points foreignKeyAttribute at the storage attribute an explicit foreign key names', () => {
    const employee = schema.byName.get('Employee')!
    const employer = attr<RelatedEntityAttributeDef>(schema, 'Employee', 'employer')
    expect(employer.foreignKeyAttribute).toBe(employee.attributesByName.get('employerID'))
  })

  it('lists every stored slot in storage: the storage attributes in model order, then implicit slots', () => {
    const employee = schema.byName.get('Employee')!
    expect(employee.storage.map((a) => a.name)).toEqual(['ID', 'lastName', 'employerID', 'manager'])
    expect(employee.storage.map((a) => a.implicit)).toEqual([false, false, false, true])
  })

  it('gives the implicit slot the type of the target key', () => {
    const s = loadModel({
      dataClasses: [
        { name: 'Country', attributes: [{ name: 'code', type: 'string', identifying: true }] },
        {
          name: 'City',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'country', kind: 'relatedEntity', path: 'Country' },
          ],
        },
      ],
    })
    expect(attr<RelatedEntityAttributeDef>(s, 'City', 'country').foreignKeyAttribute.type).toBe(
      'string',
    )
  })

  it('resolves relatedEntities to the dataclass holding the inverse relatedEntity', () => {
    expect(attr<RelatedEntitiesAttributeDef>(schema, 'Company', 'staff')).toMatchObject({
      kind: 'relatedEntities',
      target: 'Employee',
      inverse: 'employer',
      type: 'EmployeeSelection',
    })
    expect(attr<RelatedEntitiesAttributeDef>(schema, 'Employee', 'reports')).toMatchObject({
      target: 'Employee',
      inverse: 'manager',
    })
  })

  it('uses the type <Class>Selection to choose between two dataclasses with the same inverse name', () => {
    const s = loadModel({
      dataClasses: [
        {
          name: 'Company',
          attributes: [
            { name: 'ID', type: 'long' },
            {
              name: 'staff',
              kind: 'relatedEntities',
              path: 'employer',
              type: 'ContractorSelection',
            },
          ],
        },
        {
          name: 'Employee',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'employer', kind: 'relatedEntity', path: 'Company' },
          ],
        },
        {
          name: 'Contractor',
          collectionName: 'Contractors',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'employer', kind: 'relatedEntity', path: 'Company' },
          ],
        },
      ],
    })
    expect(attr<RelatedEntitiesAttributeDef>(s, 'Company', 'staff').target).toBe('Contractor')
  })

  it('lets a relation point forward to a dataclass defined later', () => {
    const s = loadModel({
      dataClasses: [
        {
          name: 'Employee',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'employer', kind: 'relatedEntity', path: 'Company' },
          ],
        },
        { name: 'Company', attributes: [{ name: 'ID', type: 'long' }] },
      ],
    })
    expect(attr<RelatedEntityAttributeDef>(s, 'Employee', 'employer').target).toBe('Company')
  })

  it('accepts a uuid key held in a string foreignKey and a long key held in a number foreignKey', () => {
    const s = loadModel({
      dataClasses: [
        { name: 'A', attributes: [{ name: 'ID', type: 'uuid' }] },
        { name: 'B', attributes: [{ name: 'ID', type: 'long' }] },
        {
          name: 'C',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'aID', type: 'string' },
            { name: 'bID', type: 'number' },
            { name: 'a', kind: 'relatedEntity', path: 'A' },
            { name: 'b', kind: 'relatedEntity', path: 'B' },
          ],
        },
      ],
    })
    expect(attr<RelatedEntityAttributeDef>(s, 'C', 'a').foreignKey).toBe('aID')
    expect(attr<RelatedEntityAttributeDef>(s, 'C', 'b').foreignKey).toBe('bID')
  })
})

describe('loadModel alias and calculated attributes', () => {
  it('splits an alias path and takes the type of its last step', () => {
    const schema = loadModel(company())
    expect(attr<AliasAttributeDef>(schema, 'Employee', 'companyName')).toMatchObject({
      kind: 'alias',
      path: ['employer', 'name'],
      type: 'string',
    })
  })

  it('types an alias ending on a relation with the relation type, and keeps an explicit type', () => {
    const base = company()
    ;(base.dataClasses[1]!.attributes as AttributeJson[]).push(
      { name: 'boss', kind: 'alias', path: 'manager' },
      { name: 'colleagues', kind: 'alias', path: 'employer.staff' },
      { name: 'bossName', kind: 'alias', path: 'manager.lastName', type: 'string' },
      { name: 'bossFullName', kind: 'alias', path: 'manager.fullName' },
    )
    const s = loadModel(base)
    expect(attr<AliasAttributeDef>(s, 'Employee', 'boss').type).toBe('Employee')
    // A to-many step is allowed at the end, and gives the alias the selection type of its target.
    expect(attr<AliasAttributeDef>(s, 'Employee', 'colleagues')).toMatchObject({
      path: ['employer', 'staff'],
      type: 'EmployeeSelection',
    })
    expect(attr<AliasAttributeDef>(s, 'Employee', 'bossName').type).toBe('string')
    expect(attr<AliasAttributeDef>(s, 'Employee', 'bossFullName').type).toBe('string')
  })

  it('attaches the calculated function given in the options, and none when there is none', () => {
    const fullName = () => 'x'
    const schema = loadModel(company(), { calculated: { Employee: { fullName } } })
    expect(attr<CalculatedAttributeDef>(schema, 'Employee', 'fullName').compute).toBe(fullName)
    expect(
      attr<CalculatedAttributeDef>(loadModel(company()), 'Employee', 'fullName').compute,
    ).toBeUndefined()
  })

  it('does not take a calculated function from Object.prototype', () => {
    // The options are plain objects: a name like toString must not find Object.prototype.toString.
    const s = loadModel(thing({ name: 'toString', kind: 'calculated', type: 'string' }), {
      calculated: { Thing: {} },
    })
    expect(attr<CalculatedAttributeDef>(s, 'Thing', 'toString').compute).toBeUndefined()
    const named = loadModel(
      {
        dataClasses: [
          {
            name: 'constructor',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'name', kind: 'calculated', type: 'string' },
            ],
          },
        ],
      },
      { calculated: {} },
    )
    expect(attr<CalculatedAttributeDef>(named, 'constructor', 'name').compute).toBeUndefined()
  })

  it('takes the functions of a computed attribute, its get called with the entity as this too', () => {
    const set = () => ({})
    const query = () => null
    const orderBy = () => null
    const schema = loadModel(company(), {
      calculated: {
        Employee: {
          fullName: {
            get() {
              return `${String(this.get('firstName'))}!`
            },
            set,
            query,
            orderBy,
          },
        },
      },
    })
    const def = attr<CalculatedAttributeDef>(schema, 'Employee', 'fullName')
    expect(def).toMatchObject({ set, query, orderBy, readOnly: false })
    const entity = { get: (name: string) => (name === 'firstName' ? 'Ann' : null) }
    expect(def.compute!(entity as never)).toBe('Ann!')
    // Either style: the entity is also the argument.
    const arg = loadModel(company(), {
      calculated: { Employee: { fullName: { get: (e) => `${String(e.get('firstName'))}?` } } },
    })
    expect(
      attr<CalculatedAttributeDef>(arg, 'Employee', 'fullName').compute!(entity as never),
    ).toBe('Ann?')
  })

  it('makes a computed attribute writable when it has a set, unless the model says readOnly', () => {
    const fns = { get: () => 'x', set: () => ({}) }
    const noSet = loadModel(company(), {
      calculated: { Employee: { fullName: { get: () => 'x' } } },
    })
    expect(attr<CalculatedAttributeDef>(noSet, 'Employee', 'fullName').readOnly).toBe(true)
    expect(attr<CalculatedAttributeDef>(noSet, 'Employee', 'fullName').set).toBeUndefined()
    const withSet = loadModel(company(), { calculated: { Employee: { fullName: fns } } })
    expect(attr<CalculatedAttributeDef>(withSet, 'Employee', 'fullName').readOnly).toBe(false)
    const explicit = loadModel(
      thing({ name: 'c', kind: 'calculated', type: 'string', readOnly: true }),
      { calculated: { Thing: { c: fns } } },
    )
    expect(attr<CalculatedAttributeDef>(explicit, 'Thing', 'c').readOnly).toBe(true)
    // Functions without get: the attribute reads null (no getter), its other functions are kept.
    const noGet = loadModel(company(), { calculated: { Employee: { fullName: { set: fns.set } } } })
    expect(attr<CalculatedAttributeDef>(noGet, 'Employee', 'fullName')).toMatchObject({
      compute: undefined,
      set: fns.set,
    })
  })
})

describe('loadModel rejects bad models with InvalidModel (9020)', () => {
  const NAME_RULE = '(letters, digits and _, not starting with a digit or __)'
  const cases: { what: string; model: unknown; options?: LoadModelOptions; message: string }[] = [
    {
      what: 'a model that is not an object',
      model: 'model',
      message: 'model: expected an object with a "dataClasses" array',
    },
    {
      what: 'a model that is an array',
      model: [],
      message: 'model: expected an object with a "dataClasses" array',
    },
    {
      what: 'a model that is null',
      model: null,
      message: 'model: expected an object with a "dataClasses" array',
    },
    {
      what: 'a model without dataClasses',
      model: {},
      message: 'model: expected a "dataClasses" array',
    },
    {
      what: 'a __NAME that is not text',
      model: { __NAME: 3, dataClasses: [] },
      message: 'model: "__NAME" must be a string, got 3',
    },
    {
      what: 'methods without names',
      model: { dataClasses: [], methods: [{ applyTo: 'x' }] },
      message: 'model: "methods" must be an array of objects with a "name"',
    },
    {
      what: 'a dataclass that is not an object',
      model: { dataClasses: [5] },
      message: 'dataClasses[0]: expected an object',
    },
    {
      what: 'a dataclass defined twice',
      model: {
        dataClasses: [
          { name: 'A', attributes: [{ name: 'ID', type: 'long' }] },
          { name: 'A', attributes: [] },
        ],
      },
      message: 'dataClasses[1]: the dataclass "A" is defined twice',
    },
    {
      what: 'a dataclass named __proto__',
      model: { dataClasses: [{ name: '__proto__', attributes: [{ name: 'ID', type: 'long' }] }] },
      message: `dataClasses[0]: the name "__proto__" is not valid ${NAME_RULE}`,
    },
    {
      what: 'a dataclass name starting with a digit',
      model: { dataClasses: [{ name: '1Company', attributes: [{ name: 'ID', type: 'long' }] }] },
      message: `dataClasses[0]: the name "1Company" is not valid ${NAME_RULE}`,
    },
    {
      what: 'a dataclass without a name',
      model: { dataClasses: [{ attributes: [{ name: 'ID', type: 'long' }] }] },
      message: `dataClasses[0]: the name undefined is not valid ${NAME_RULE}`,
    },
    {
      what: 'an attribute named __proto__',
      model: thing({ name: '__proto__', type: 'string' }),
      message: `dataclass "Thing" attributes[1]: the name "__proto__" is not valid ${NAME_RULE}`,
    },
    {
      what: 'an attribute named __KEY',
      model: thing({ name: '__KEY', type: 'string' }),
      message: `dataclass "Thing" attributes[1]: the name "__KEY" is not valid ${NAME_RULE}`,
    },
    {
      what: 'an attribute name starting with a digit',
      model: thing({ name: '2nd', type: 'string' }),
      message: `dataclass "Thing" attributes[1]: the name "2nd" is not valid ${NAME_RULE}`,
    },
    {
      what: 'an attribute name with a dash',
      model: thing({ name: 'first-name', type: 'string' }),
      message: `dataclass "Thing" attributes[1]: the name "first-name" is not valid ${NAME_RULE}`,
    },
    {
      what: 'an attribute defined twice',
      model: thing({ name: 'ID', type: 'long' }),
      message: 'dataclass "Thing" attribute "ID": the attribute is defined twice',
    },
    {
      what: 'an attribute that is not an object',
      model: thing('name'),
      message: 'dataclass "Thing" attributes[1]: expected an object',
    },
    {
      what: 'an empty attribute list',
      model: { dataClasses: [{ name: 'Thing', attributes: [] }] },
      message: 'dataclass "Thing": expected a non-empty "attributes" array',
    },
    {
      what: 'an unknown kind',
      model: thing({ name: 'x', kind: 'computed', type: 'string' }),
      message:
        'dataclass "Thing" attribute "x": unknown kind "computed" (expected one of storage, relatedEntity, relatedEntities, calculated, alias)',
    },
    {
      what: 'an unknown type',
      model: thing({ name: 'x', type: 'text' }),
      message: `dataclass "Thing" attribute "x": unknown type "text" (expected one of ${VALUE_TYPES.join(', ')})`,
    },
    {
      what: 'a storage attribute without a type',
      model: thing({ name: 'x' }),
      message: 'dataclass "Thing" attribute "x": a "type" is required',
    },
    {
      what: 'a calculated attribute without a type',
      model: thing({ name: 'x', kind: 'calculated' }),
      message: 'dataclass "Thing" attribute "x": a "type" is required',
    },
    {
      what: 'a flag that is not a boolean',
      model: thing({ name: 'x', type: 'string', exposed: 'yes' }),
      message: 'dataclass "Thing" attribute "x": "exposed" must be a boolean, got "yes"',
    },
    {
      what: 'a fieldPos that is not an integer',
      model: thing({ name: 'x', type: 'string', fieldPos: 1.5 }),
      message: 'dataclass "Thing" attribute "x": "fieldPos" must be an integer, got 1.5',
    },
    {
      what: 'a bad indexKind',
      model: thing({ name: 'x', type: 'string', indexKind: 'btree' }),
      message: 'dataclass "Thing" attribute "x": "indexKind" must be "hash", "sorted" or "auto"',
    },
    {
      what: 'autosequence on a date',
      model: thing({ name: 'x', type: 'date', autosequence: true }),
      message:
        'dataclass "Thing" attribute "x": autosequence needs a numeric, uuid or string type, not date',
    },
    {
      what: 'a negative defaultTopSize',
      model: {
        dataClasses: [
          { name: 'Thing', defaultTopSize: -1, attributes: [{ name: 'ID', type: 'long' }] },
        ],
      },
      message: 'dataclass "Thing": "defaultTopSize" must not be negative',
    },
    {
      what: 'a tableNumber that is not a number',
      model: {
        dataClasses: [
          { name: 'Thing', tableNumber: '1', attributes: [{ name: 'ID', type: 'long' }] },
        ],
      },
      message: 'dataclass "Thing": "tableNumber" must be a number, got "1"',
    },
    {
      what: 'extraProperties that are not an object',
      model: {
        dataClasses: [
          { name: 'Thing', extraProperties: [], attributes: [{ name: 'ID', type: 'long' }] },
        ],
      },
      message: 'dataclass "Thing": "extraProperties" must be an object',
    },
    {
      what: 'a dataclass without a key',
      model: { dataClasses: [{ name: 'Thing', attributes: [{ name: 'code', type: 'string' }] }] },
      message:
        'dataclass "Thing": no primary key: add "key": [{"name": …}] or mark an attribute "identifying": true',
    },
    {
      what: 'a composite key',
      model: {
        dataClasses: [
          {
            name: 'Thing',
            key: [{ name: 'a' }, { name: 'b' }],
            attributes: [
              { name: 'a', type: 'long' },
              { name: 'b', type: 'long' },
            ],
          },
        ],
      },
      message: 'dataclass "Thing": a composite key (a, b) is not supported: use one attribute',
    },
    {
      what: 'a key array of the wrong shape',
      model: {
        dataClasses: [{ name: 'Thing', key: ['ID'], attributes: [{ name: 'ID', type: 'long' }] }],
      },
      message: 'dataclass "Thing": "key" must be an array of {"name": …}',
    },
    {
      what: 'a key naming a missing attribute',
      model: {
        dataClasses: [
          { name: 'Thing', key: [{ name: 'nope' }], attributes: [{ name: 'ID', type: 'long' }] },
        ],
      },
      message: 'dataclass "Thing": the key "nope" is not a storage attribute of the dataclass',
    },
    {
      what: 'a key that is a calculated attribute',
      model: {
        dataClasses: [
          {
            name: 'Thing',
            key: [{ name: 'c' }],
            attributes: [{ name: 'c', kind: 'calculated', type: 'long' }],
          },
        ],
      },
      message: 'dataclass "Thing": the key "c" is not a storage attribute of the dataclass',
    },
    {
      what: 'a key of type number',
      model: { dataClasses: [{ name: 'Thing', attributes: [{ name: 'ID', type: 'number' }] }] },
      message:
        'dataclass "Thing" attribute "ID": a primary key must be of type long, long64, word, byte, string, uuid, not number',
    },
    {
      what: 'a key of type date',
      model: {
        dataClasses: [
          { name: 'Thing', attributes: [{ name: 'ID', type: 'date', identifying: true }] },
        ],
      },
      message:
        'dataclass "Thing" attribute "ID": a primary key must be of type long, long64, word, byte, string, uuid, not date',
    },
    {
      what: 'a relatedEntity to an unknown dataclass',
      model: thing({ name: 'owner', kind: 'relatedEntity', path: 'Person' }),
      message: 'dataclass "Thing" attribute "owner": the related dataclass "Person" does not exist',
    },
    {
      what: 'a relatedEntity to a mistyped dataclass (type, as 4D writes it)',
      model: thing({ name: 'owner', kind: 'relatedEntity', type: 'Thnig' }),
      message:
        'dataclass "Thing" attribute "owner": the related dataclass "Thnig" does not exist (did you mean "Thing"?)',
    },
    {
      what: 'a relatedEntities whose type names no selection of the dataclass it finds',
      model: {
        dataClasses: [
          {
            name: 'Thing',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'parentID', type: 'long' },
              { name: 'parent', kind: 'relatedEntity', path: 'Thing', foreignKey: 'parentID' },
              { name: 'children', kind: 'relatedEntities', path: 'parent', type: 'ThnigSelection' },
            ],
          },
        ],
      },
      message:
        'dataclass "Thing" attribute "children": the type "ThnigSelection" is not the selection of Thing, whose "parent" this relation follows (did you mean "ThingSelection"?)',
    },
    {
      what: 'a relatedEntities whose path is a mistyped relation',
      model: {
        dataClasses: [
          {
            name: 'Thing',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'parentID', type: 'long' },
              { name: 'parent', kind: 'relatedEntity', path: 'Thing', foreignKey: 'parentID' },
              { name: 'children', kind: 'relatedEntities', path: 'parnet' },
            ],
          },
        ],
      },
      message:
        'dataclass "Thing" attribute "children": no dataclass has a relatedEntity "parnet" pointing to "Thing" (did you mean "parent"?)',
    },
    {
      what: 'a relatedEntity with neither path nor type',
      model: thing({ name: 'owner', kind: 'relatedEntity' }),
      message:
        'dataclass "Thing" attribute "owner": the related dataclass undefined does not exist',
    },
    {
      what: 'a foreignKey that is not a storage attribute',
      model: thing({ name: 'parent', kind: 'relatedEntity', path: 'Thing', foreignKey: 'nope' }),
      message:
        'dataclass "Thing" attribute "parent": the foreignKey "nope" is not a storage attribute of dataclass "Thing"',
    },
    {
      what: 'a text foreignKey for a numeric key',
      model: thing(
        { name: 'parentID', type: 'string' },
        { name: 'parent', kind: 'relatedEntity', path: 'Thing' },
      ),
      message:
        'dataclass "Thing" attribute "parent": the foreignKey "parentID" (string) cannot hold keys of "Thing" (long)',
    },
    {
      what: 'a date foreignKey for a numeric key',
      model: thing(
        { name: 'parentID', type: 'date' },
        { name: 'parent', kind: 'relatedEntity', path: 'Thing' },
      ),
      message:
        'dataclass "Thing" attribute "parent": the foreignKey "parentID" (date) cannot hold keys of "Thing" (long)',
    },
    {
      what: 'a numeric foreignKey for a text key',
      model: {
        dataClasses: [
          { name: 'Country', attributes: [{ name: 'ID', type: 'string' }] },
          {
            name: 'City',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'land', type: 'long' },
              { name: 'country', kind: 'relatedEntity', path: 'Country', foreignKey: 'land' },
            ],
          },
        ],
      },
      message:
        'dataclass "City" attribute "country": the foreignKey "land" (long) cannot hold keys of "Country" (string)',
    },
    {
      // A bool or object cannot hold a text key either: only key-like types are foreign keys.
      what: 'a bool foreignKey for a text key',
      model: {
        dataClasses: [
          { name: 'Country', attributes: [{ name: 'ID', type: 'string' }] },
          {
            name: 'City',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'countryID', type: 'bool' },
              { name: 'country', kind: 'relatedEntity', path: 'Country' },
            ],
          },
        ],
      },
      message:
        'dataclass "City" attribute "country": the foreignKey "countryID" (bool) cannot hold keys of "Country" (string)',
    },
    {
      what: 'relatedEntities without a path',
      model: thing({ name: 'children', kind: 'relatedEntities' }),
      message:
        'dataclass "Thing" attribute "children": a relatedEntities attribute needs a "path" naming the inverse relatedEntity attribute',
    },
    {
      what: 'relatedEntities without an inverse',
      model: thing({ name: 'children', kind: 'relatedEntities', path: 'parent' }),
      message:
        'dataclass "Thing" attribute "children": no dataclass has a relatedEntity "parent" pointing to "Thing"',
    },
    {
      what: 'relatedEntities whose inverse points elsewhere',
      model: {
        dataClasses: [
          {
            name: 'A',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'bs', kind: 'relatedEntities', path: 'c' },
            ],
          },
          {
            name: 'B',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'c', kind: 'relatedEntity', path: 'C' },
            ],
          },
          { name: 'C', attributes: [{ name: 'ID', type: 'long' }] },
        ],
      },
      message: 'dataclass "A" attribute "bs": no dataclass has a relatedEntity "c" pointing to "A"',
    },
    {
      what: 'relatedEntities with an ambiguous inverse',
      model: {
        dataClasses: [
          {
            name: 'A',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'kids', kind: 'relatedEntities', path: 'a' },
            ],
          },
          {
            name: 'B',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'a', kind: 'relatedEntity', path: 'A' },
            ],
          },
          {
            name: 'C',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'a', kind: 'relatedEntity', path: 'A' },
            ],
          },
        ],
      },
      message:
        'dataclass "A" attribute "kids": several dataclasses have a relatedEntity "a" pointing to "A": give "type" as <Class>Selection',
    },
    {
      what: 'an alias without a path',
      model: thing({ name: 'al', kind: 'alias' }),
      message: 'dataclass "Thing" attribute "al": an alias needs a "path"',
    },
    {
      what: 'an alias with an empty path',
      model: thing({ name: 'al', kind: 'alias', path: '' }),
      message: 'dataclass "Thing" attribute "al": an alias needs a "path"',
    },
    {
      what: 'an alias naming an unknown attribute',
      model: thing(
        { name: 'parent', kind: 'relatedEntity', path: 'Thing' },
        { name: 'al', kind: 'alias', path: 'parent.nope' },
      ),
      message:
        'dataclass "Thing" attribute "al": the alias path "parent.nope" names "nope", which is not an attribute of "Thing"',
    },
    {
      what: 'an alias going through a storage attribute',
      model: thing(
        { name: 'label', type: 'string' },
        { name: 'al', kind: 'alias', path: 'label.length' },
      ),
      message:
        'dataclass "Thing" attribute "al": "label" in the alias path "label.length" is not a relation attribute',
    },
    {
      what: 'an alias going through another alias',
      model: thing(
        { name: 'label', type: 'string' },
        { name: 'a1', kind: 'alias', path: 'label' },
        { name: 'a2', kind: 'alias', path: 'a1' },
      ),
      message:
        'dataclass "Thing" attribute "a2": the alias path "a1" goes through another alias ("a1")',
    },
    {
      what: 'a calculated function that is not a function',
      model: thing({ name: 'c', kind: 'calculated', type: 'string' }),
      options: { calculated: { Thing: { c: 'not a function' as never } } },
      message:
        'dataclass "Thing" attribute "c": the calculated function must be a function, or an object of get, set, query and orderBy functions',
    },
    {
      what: 'a computed attribute whose get is not a function',
      model: thing({ name: 'c', kind: 'calculated', type: 'string' }),
      options: { calculated: { Thing: { c: { get: 'x' } as never } } },
      message:
        'dataclass "Thing" attribute "c": "get" of its functions must be a function, not "x"',
    },
    {
      what: 'a computed attribute whose query is not a function',
      model: thing({ name: 'c', kind: 'calculated', type: 'string' }),
      options: { calculated: { Thing: { c: { get: () => 1, query: 3 } as never } } },
      message:
        'dataclass "Thing" attribute "c": "query" of its functions must be a function, not number',
    },
    {
      what: 'a maxLength on an attribute that is not a string',
      model: thing({ name: 'n', type: 'long', maxLength: 3 }),
      message:
        'dataclass "Thing" attribute "n": "maxLength" must be a positive integer, on a string attribute',
    },
    {
      what: 'a maxLength of 0',
      model: thing({ name: 's', type: 'string', maxLength: 0 }),
      message:
        'dataclass "Thing" attribute "s": "maxLength" must be a positive integer, on a string attribute',
    },
    {
      what: 'a never_null that is not a boolean',
      model: thing({ name: 's', type: 'string', never_null: 'yes' }),
      message: 'dataclass "Thing" attribute "s": "never_null" must be a boolean, got "yes"',
    },
    {
      what: 'a computed attribute with a misspelt function',
      model: thing({ name: 'c', kind: 'calculated', type: 'string' }),
      options: { calculated: { Thing: { c: { get: () => 1, orderby: () => null } as never } } },
      message:
        'dataclass "Thing" attribute "c": unknown member "orderby" of its functions (expected get, set, query, orderBy)',
    },
  ]

  it.each(cases)('rejects $what', ({ model, options, message }) => {
    const err = modelError(model, options)
    expect(err.errCode).toBe(9020)
    expect(err.name).toBe('InvalidModel')
    expect(err.componentSignature).toBe('enti')
    expect(err.message).toBe(`Invalid model: ${message}`)
  })
})
