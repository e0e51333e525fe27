import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { ManualClock } from '../../clock/clock.js'
import { DatastoreError } from '../../errors/datastore-error.js'
import { loadModel } from '../../schema/load-model.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { Change } from '../../store/changes.js'
import { createDatastore, Datastore } from './datastore.js'
import type { Entity } from './entity.js'

const model = (): ModelJson => ({
  __NAME: 'company',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstName', type: 'string' },
        { name: 'lastName', type: 'string' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
      ],
    },
    { name: 'Badge', attributes: [{ name: 'ID', type: 'uuid' }] },
  ],
})

type Names = 'Company' | 'Employee' | 'Badge'

const data = {
  Company: [{ ID: 1, name: 'Acme' }],
  Employee: [
    { ID: 3, firstName: 'Ada', lastName: 'Lovelace', employer: 1 },
    { ID: 5, firstName: 'Alan', lastName: 'Turing' },
  ],
}

describe('createDatastore', () => {
  it('makes each dataclass a property of the datastore', () => {
    const ds = createDatastore<Names>(model())
    expect(ds.Employee).toBe(ds.dataClass('Employee'))
    expect(ds.Employee.name).toBe('Employee')
    expect(Object.getOwnPropertyDescriptor(ds, 'Badge')).toMatchObject({
      enumerable: true,
      writable: false,
    })
  })

  it('lists the dataclasses in model order and takes the name from the model', () => {
    const ds = createDatastore<Names>(model())
    expect(ds.dataClasses.map((d) => d.name)).toEqual(['Company', 'Employee', 'Badge'])
    expect(ds.name).toBe('company')
    expect(createDatastore<Names>({ dataClasses: model().dataClasses }, { name: 'app' }).name).toBe(
      'app',
    )
  })

  it("does not let a dataclass hide one of the datastore's own members", () => {
    const m: ModelJson = {
      dataClasses: ['name', 'schema', 'commit', 'dataClass', 'toString'].map((name) => ({
        name,
        attributes: [{ name: 'ID', type: 'long' }],
      })),
    }
    const ds = createDatastore(m, { name: 'app' })
    expect(ds.name).toBe('app')
    expect(typeof ds.commit).toBe('function')
    expect(typeof ds.dataClass).toBe('function')
    expect(typeof ds.toString).toBe('function')
    expect(ds.schema.byName.size).toBe(5)
    // They stay reachable by name.
    expect(ds.dataClass('name').name).toBe('name')
    expect(ds.dataClass('toString').name).toBe('toString')
  })

  it('accepts an already loaded schema and shares it', () => {
    const schema = loadModel(model())
    const a = createDatastore<Names>(schema)
    const b = createDatastore<Names>(schema)
    expect(a.schema).toBe(schema)
    expect(b.Employee.def).toBe(a.Employee.def)
    // The data of two datastores is separate, though.
    a.loadData({ Company: [{ name: 'Acme' }] })
    expect(b.Company.length).toBe(0)
  })

  it('loads options.data at construction', () => {
    const ds = createDatastore<Names>(model(), { data })
    expect(ds.Employee.length).toBe(2)
    expect(ds.Company.getOrFail(1).get('name')).toBe('Acme')
  })

  it('throws at construction when options.data is bad', () => {
    const e = thrown(() => createDatastore<Names>(model(), { data: { Company: [{ ID: 'x' }] } }))
    expect(e.errCode).toBe(1570)
  })

  it('computes calculated attributes with the functions given in the options', () => {
    const ds = createDatastore<Names>(model(), {
      data,
      calculated: {
        Employee: {
          fullName: (e: Entity) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`,
        },
      },
    })
    expect(ds.Employee.getOrFail(3).get('fullName')).toBe('Ada Lovelace')
  })
})

describe('Datastore.dataClass', () => {
  it('throws DataClassNotFound (1800) for an unknown name', () => {
    const ds = createDatastore<Names>(model())
    const e = thrown(() => ds.dataClass('Nope'))
    expect(e.errCode).toBe(1800)
    expect(e.message).toBe('The "Nope" dataclass cannot be found')
    expect(ds.findDataClass('Nope')).toBeUndefined()
  })

  it('is case-sensitive', () => {
    const ds = createDatastore<Names>(model())
    expect(thrown(() => ds.dataClass('employee')).errCode).toBe(1800)
  })

  it('does not find Object.prototype members', () => {
    const ds = createDatastore<Names>(model())
    expect(ds.findDataClass('constructor')).toBeUndefined()
    expect(ds.findDataClass('__proto__')).toBeUndefined()
  })
})

describe('DataClass.get', () => {
  const ds = createDatastore<Names>(model(), { data })

  it('coerces a key given as text to the key type', () => {
    const byNumber = ds.Employee.get(3)
    expect(byNumber?.get('lastName')).toBe('Lovelace')
    expect(ds.Employee.get('3')).toBe(byNumber)
    expect(ds.Employee.get(' 3 ')).toBe(byNumber)
    expect(ds.Employee.get('3')!.getKey()).toBe(3)
  })

  it('gives null for a valid key that matches no entity', () => {
    expect(ds.Employee.get('99')).toBeNull()
    expect(ds.Employee.get(99)).toBeNull()
    expect(ds.Employee.get(-0)).toBeNull()
  })

  it('answers a stored-form key and its spellings alike, and refuses a fraction found or not', () => {
    expect(ds.Employee.get(3.0)).toBe(ds.Employee.get('3'))
    expect(thrown(() => ds.Employee.get(3.5)).errCode).toBe(1541)
    expect(thrown(() => ds.Employee.get(Number.NaN)).errCode).toBe(1541)
  })

  it('throws InvalidKey (1541) for a key that cannot be of the key type', () => {
    const e = thrown(() => ds.Employee.get('abc'))
    expect(e.errCode).toBe(1541)
    expect(e.message).toBe('The key "abc" is not valid for the "Employee" dataclass: not a number')
    expect(thrown(() => ds.Employee.get('3.5')).message).toBe(
      'The key "3.5" is not valid for the "Employee" dataclass: not an integer',
    )
    expect(thrown(() => ds.Employee.get(null)).message).toBe(
      'The key "null" is not valid for the "Employee" dataclass: a key cannot be null',
    )
    expect(thrown(() => ds.Badge.get('xyz')).errCode).toBe(1541)
  })

  it('throws EntityNotFound (1542) from getOrFail', () => {
    const e = thrown(() => ds.Employee.getOrFail('99'))
    expect(e.errCode).toBe(1542)
    expect(e.message).toBe('Cannot find entity with "99" key in the "Employee" dataclass')
    expect(ds.Employee.getOrFail('5').get('firstName')).toBe('Alan')
  })

  it('finds a uuid key under any of its spellings', () => {
    const d = createDatastore<Names>(model(), {
      data: { Badge: [{ ID: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' }] },
    })
    const badge = d.Badge.getOrFail('{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}')
    expect(badge.getKey()).toBe('A0EEBC999C0B4EF8BB6D6BB9BD380A11')
    expect(d.Badge.get('a0eebc999c0b4ef8bb6d6bb9bd380a11')).toBe(badge)
  })

  it('names an unknown attribute with AttributeNotFound (1500)', () => {
    const e = thrown(() => ds.Employee.attribute('nope'))
    expect(e.errCode).toBe(1500)
    expect(e.message).toBe('The "nope" attribute cannot be found in The "Employee" dataclass')
  })
})

describe('the global stamp and commits', () => {
  it('does not move the global stamp when loading data', () => {
    const ds = createDatastore<Names>(model(), { data })
    expect(ds.globalStamp).toBe(0)
    ds.loadData({ Company: [{ name: 'Globex' }] })
    expect(ds.globalStamp).toBe(0)
  })

  it('moves the global stamp by one per change of a modifying commit', () => {
    const ds = createDatastore<Names>(model(), { data })
    const table = ds.Employee.table
    const before = table.record(table.rowIdOf(3)!)!
    const after = Object.freeze({ ...before, stamp: 2 })
    ds.commit([{ op: 'update', table, before, after }])
    expect(ds.globalStamp).toBe(1)
    ds.commit([{ op: 'delete', table, before: after }])
    expect(ds.globalStamp).toBe(2)
    expect(ds.Employee.get(3)).toBeNull()
  })

  it('tells commit listeners about every commit, loads included, until they unsubscribe', () => {
    const ds = createDatastore<Names>(model())
    const seen: (readonly Change[])[] = []
    const off = ds.onCommit((changes) => seen.push(changes))
    ds.loadData(data)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.map((c) => [c.op, c.table.def.name])).toEqual([
      ['insert', 'Company'],
      ['insert', 'Employee'],
      ['insert', 'Employee'],
    ])
    off()
    off() // unsubscribing twice is harmless
    ds.loadData({ Company: [{ name: 'Globex' }] })
    expect(seen).toHaveLength(1)
  })

  it('calls listeners in the order they subscribed, after the data has changed', () => {
    const ds = createDatastore<Names>(model())
    const order: string[] = []
    ds.onCommit(() => order.push(`first saw ${ds.Company.length}`))
    ds.onCommit(() => order.push(`second saw ${ds.Company.length}`))
    ds.loadData({ Company: [{ name: 'Acme' }] })
    expect(order).toEqual(['first saw 1', 'second saw 1'])
  })

  it('does not call listeners when a load fails', () => {
    const ds = createDatastore<Names>(model())
    let calls = 0
    ds.onCommit(() => calls++)
    expect(() => ds.loadData({ Company: [{ name: 'Acme' }, { ID: 'bad' }] })).toThrow(
      DatastoreError,
    )
    expect(calls).toBe(0)
  })
})

describe('time, ids and sessions', () => {
  it('stamps loaded entities with the time of the injected clock', () => {
    const clock = new ManualClock('2024-05-01T12:00:00Z')
    const ds = createDatastore<Names>(model(), { clock, data })
    expect(ds.clock).toBe(clock)
    expect(ds.Employee.getOrFail(3).getTimestamp()).toBe(Date.UTC(2024, 4, 1, 12))
    clock.advance(60_000)
    ds.loadData({ Company: [{ name: 'Globex' }] })
    expect(ds.Company.getOrFail(2).getTimestamp()).toBe(Date.UTC(2024, 4, 1, 12, 1))
    expect(ds.Company.getOrFail(1).getTimestamp()).toBe(Date.UTC(2024, 4, 1, 12))
  })

  it('generates uuid keys with crypto.randomUUID by default, stored in 4D form', () => {
    const ds = createDatastore<Names>(model(), { data: { Badge: [{}, {}] } })
    const keys = ds.Badge.all()
      .toArray()
      .map((b) => b.getKey())
    expect(keys).toHaveLength(2)
    for (const k of keys) expect(k).toMatch(/^[0-9A-F]{32}$/)
    expect(keys[0]).not.toBe(keys[1])
  })

  it('runs its sessions on its clock, with the session options', () => {
    const clock = new ManualClock()
    const ds = createDatastore<Names>(model(), { clock, sessions: { inactivityTimeout: 1000 } })
    const s = ds.sessions.open()
    expect(s.createdAt).toBe(clock.now())
    clock.advance(1000)
    expect(ds.sessions.peek(s.id)).toBeUndefined()
  })

  it('can be built without createDatastore, without dataclass properties', () => {
    const ds = new Datastore(loadModel(model()))
    expect(ds.dataClass('Employee').length).toBe(0)
    expect('Employee' in ds).toBe(false)
  })
})
