import { describe, expect, it } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { ManualClock } from '../clock/clock.js'
import { DatastoreError } from '../errors/datastore-error.js'
import type { DataClassJson, ModelJson } from '../schema/model-json.js'
import { encodeBase64, type BinaryValue } from '../values/binary.js'
import { createDatastore, type DatastoreWith } from '../orda/objects/datastore.js'
import type { DataFile } from './load-data.js'
import type { Entity } from '../orda/objects/entity.js'

const model = (): ModelJson => ({
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
        { name: 'lastName', type: 'string', not_null: true },
        { name: 'salary', type: 'number' },
        { name: 'rank', type: 'long' },
        { name: 'birthday', type: 'date' },
        { name: 'hiredAt', type: 'date', dateOnly: false },
        { name: 'photo', type: 'image' },
        { name: 'info', type: 'object' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'manager', kind: 'relatedEntity', type: 'Employee' },
        { name: 'badge', kind: 'relatedEntity', type: 'Badge' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
        { name: 'companyName', kind: 'alias', path: 'employer.name' },
      ],
    },
    {
      name: 'Badge',
      attributes: [
        { name: 'ID', type: 'uuid' },
        { name: 'label', type: 'string' },
      ],
    },
  ],
})

type Company = DatastoreWith<'Company' | 'Employee' | 'Badge'>

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
const UUID = 'A0EEBC999C0B4EF8BB6D6BB9BD380A11'

function fresh(options: { newUuid?: () => string; clock?: ManualClock } = {}): Company {
  return createDatastore(model(), {
    clock: new ManualClock('2024-01-01T00:00:00Z'),
    ...options,
  }) as Company
}

/** Everything a load may change: counts, global stamp, and every entity's key, stamp, time and values. */
function snapshot(ds: Company) {
  return {
    globalStamp: ds.globalStamp,
    classes: ds.dataClasses.map((dc) => ({
      name: dc.name,
      length: dc.length,
      entities: dc
        .all()
        .toArray()
        .map((e) => ({
          key: e.getKey(),
          stamp: e.getStamp(),
          time: e.getTimestamp(),
          values: { ...e.record.values },
        })),
    })),
  }
}

describe('loadData', () => {
  it('loads every row and reports the count by dataclass', () => {
    const ds = fresh()
    const report = ds.loadData({
      Company: [{ ID: 1, name: 'Acme' }],
      Employee: [
        { ID: 1, lastName: 'Lovelace', employer: 1 },
        { ID: 2, lastName: 'Turing' },
      ],
    })
    expect(report).toEqual({ Company: 1, Employee: 2 })
    expect(ds.Employee.length).toBe(2)
    expect(ds.Employee.getOrFail(1).get('companyName')).toBe('Acme')
  })

  it('tells commit listeners of every row as an insert, whose record is made when read', () => {
    const ds = fresh()
    const seen: { op: string; table: string; key: unknown; values: unknown; same: boolean }[] = []
    ds.onCommit((changes, info) => {
      for (const c of changes) {
        if (c.op !== 'insert' || info.kind !== 'load') continue
        seen.push({
          op: c.op,
          table: c.table.def.name,
          key: c.record.key,
          values: { ...c.record.values },
          same: c.record === c.record,
        })
      }
    })
    ds.loadData({ Company: [{ name: 'Acme' }, { ID: 7, name: 'Initech' }] })
    expect(seen).toEqual([
      { op: 'insert', table: 'Company', key: 1, values: { ID: 1, name: 'Acme' }, same: true },
      { op: 'insert', table: 'Company', key: 7, values: { ID: 7, name: 'Initech' }, same: true },
    ])
    // What the listener read was made for it: the table still holds the rows in columns, and a
    // read gets an entity with the same values.
    expect({ ...ds.Company.getOrFail(7).record.values }).toEqual({ ID: 7, name: 'Initech' })
    expect(ds.Company.create({ name: 'Next' }).getKey()).toBe(8)
  })

  it('tells a listener registered with loadRows: false that a load happened, listing no row', () => {
    const ds = fresh()
    const told: [string, number][] = []
    ds.onCommit((changes, info) => told.push([info.kind, changes.length]), { loadRows: false })
    ds.loadData({ Company: [{ name: 'Acme' }, { name: 'Initech' }] })
    ds.Company.create({ name: 'Next' })
    expect(told).toEqual([
      ['load', 0],
      ['write', 1],
    ])
  })

  it('refuses a unique value given twice in one file, compared as queries compare, at the second row', () => {
    const unique = () =>
      createDatastore({
        dataClasses: [
          {
            name: 'Tag',
            attributes: [
              { name: 'ID', type: 'long', autosequence: true },
              { name: 'code', type: 'string', unique: true },
              { name: 'rank', type: 'long', unique: true },
            ],
          },
        ],
      })
    const refused = (rows: object[]) => {
      const ds = unique()
      const e = thrown(() => ds.loadData({ Tag: rows }))
      expect(ds.dataClass('Tag').length).toBe(0)
      return [e.errCode, (e.details as { location?: string }).location]
    }
    expect(refused([{ code: 'C1' }, { code: 'x' }, { code: 'c1' }])).toEqual([9040, 'Tag[2].code'])
    expect(refused([{ code: 'Élan' }, { code: 'ELAN' }])).toEqual([9040, 'Tag[1].code'])
    expect(refused([{ code: 'ELAN' }, { code: 'élan' }])).toEqual([9040, 'Tag[1].code'])
    expect(refused([{ rank: 1 }, { rank: 2 }, { rank: 1 }])).toEqual([9040, 'Tag[2].rank'])
    // Nulls never conflict; distinct values of 2,000 rows go in.
    const ds = unique()
    ds.loadData({
      Tag: [
        { code: null },
        { code: null },
        ...Array.from({ length: 2000 }, (_, i) => ({ code: `C${i}`, rank: i })),
      ],
    })
    expect(ds.dataClass('Tag').length).toBe(2002)
    expect(() => ds.loadData({ Tag: [{ code: 'c1999' }] })).toThrow(/already used/)
  })

  it('tells its progress: every 16,384 rows, then the commit, then done', () => {
    const ds = fresh()
    const heard: unknown[] = []
    const companies = Array.from({ length: 40_000 }, (_, i) => ({ ID: i + 1, name: `C${i}` }))
    ds.loadData(
      { Company: companies, Employee: [{ ID: 1, lastName: 'Lovelace', employer: 1 }] },
      { onProgress: (p) => heard.push(p) },
    )
    const total = 40_001
    expect(heard).toEqual([
      { phase: 'rows', rows: 16_384, total },
      { phase: 'rows', rows: 32_768, total },
      { phase: 'commit', rows: total, total },
      { phase: 'done', rows: total, total },
    ])
    // A refused file stops before its commit: no commit or done is heard.
    const refused: unknown[] = []
    expect(() =>
      fresh().loadData({ Company: [{ ID: 'x' }] }, { onProgress: (p) => refused.push(p) }),
    ).toThrow()
    expect(refused).toEqual([])
  })

  it('accepts an empty data file and empty row lists', () => {
    const ds = fresh()
    expect(ds.loadData({})).toEqual({})
    expect(ds.loadData({ Company: [] })).toEqual({ Company: 0 })
    expect(ds.Company.length).toBe(0)
  })

  it('fills missing attributes with null', () => {
    const ds = fresh()
    ds.loadData({ Employee: [{ lastName: 'x' }] })
    const e = ds.Employee.getOrFail(1)
    expect([
      e.get('salary'),
      e.get('birthday'),
      e.get('photo'),
      e.get('info'),
      e.get('employer'),
    ]).toEqual([null, null, null, null, null])
  })

  it('gives new entities stamp 1 and the clock time', () => {
    const clock = new ManualClock('2024-06-01T08:00:00Z')
    const ds = fresh({ clock })
    ds.loadData({ Company: [{ name: 'Acme' }] })
    const acme = ds.Company.getOrFail(1)
    expect(acme.getStamp()).toBe(1)
    expect(acme.getTimestamp()).toBe(clock.now())
  })
})

describe('loadData keys', () => {
  it('numbers autosequence keys from 1', () => {
    const ds = fresh()
    ds.loadData({ Company: [{ name: 'a' }, { name: 'b' }] })
    expect(
      ds.Company.all()
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([1, 2])
  })

  it('continues autosequence keys after explicit keys, in the same file and in later loads', () => {
    const ds = fresh()
    ds.loadData({
      Company: [
        { ID: 5, name: 'five' },
        { name: 'six' },
        { ID: 3, name: 'three' },
        { name: 'seven' },
      ],
    })
    expect(
      ds.Company.all()
        .toArray()
        .map((e) => [e.getKey(), e.get('name')]),
    ).toEqual([
      [3, 'three'],
      [5, 'five'],
      [6, 'six'],
      [7, 'seven'],
    ])
    ds.loadData({ Company: [{ ID: 20 }] })
    ds.loadData({ Company: [{ name: 'next' }] })
    expect(ds.Company.getOrFail(21).get('name')).toBe('next')
  })

  it('continues after keys given as text', () => {
    const ds = fresh()
    ds.loadData({ Company: [{ ID: '8' }, {}] })
    expect(
      ds.Company.all()
        .toArray()
        .map((e) => e.getKey()),
    ).toEqual([8, 9])
  })

  it('generates uuid keys with the injected newUuid, in 4D form', () => {
    const ids = ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12']
    const ds = fresh({ newUuid: () => ids.shift()! })
    ds.loadData({ Badge: [{ label: 'one' }, { label: 'two' }] })
    expect(ds.Badge.getOrFail(UUID).get('label')).toBe('one')
    expect(ds.Badge.getOrFail('B0EEBC999C0B4EF8BB6D6BB9BD380A12').get('label')).toBe('two')
    expect(ids).toEqual([])
  })

  it('does not call newUuid for a uuid key that is given', () => {
    const ds = fresh({
      newUuid: () => {
        throw new Error('not expected')
      },
    })
    ds.loadData({ Badge: [{ ID: UUID }] })
    expect(ds.Badge.length).toBe(1)
  })

  it.each([
    ['lowercase', 'a0eebc999c0b4ef8bb6d6bb9bd380a11'],
    ['dashes', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'],
    ['braces, dashes and lowercase', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'],
  ])('normalises a uuid key written with %s', (_, written) => {
    const ds = fresh()
    ds.loadData({ Badge: [{ ID: written }] })
    expect(ds.Badge.all().at(0)!.getKey()).toBe(UUID)
    expect(ds.Badge.get(written)).not.toBeNull()
  })

  it('takes __KEY as the primary key, as text or as an object', () => {
    const ds = fresh()
    ds.loadData({
      Company: [
        { __KEY: '7', name: 'seven' },
        { __KEY: { ID: 9 }, name: 'nine' },
      ],
    })
    expect(ds.Company.getOrFail(7).get('name')).toBe('seven')
    expect(ds.Company.getOrFail(9).get('name')).toBe('nine')
  })

  it('accepts __KEY together with the same key value', () => {
    const ds = fresh()
    ds.loadData({ Company: [{ __KEY: '7', ID: 7 }] })
    expect(ds.Company.length).toBe(1)
  })

  it('keeps __STAMP and __TIMESTAMP from the row', () => {
    const ds = fresh()
    ds.loadData({ Company: [{ ID: 1, __STAMP: 12, __TIMESTAMP: '2020-05-06T07:08:09.010Z' }] })
    const acme = ds.Company.getOrFail(1)
    expect(acme.getStamp()).toBe(12)
    expect(acme.getTimestamp()).toBe(Date.UTC(2020, 4, 6, 7, 8, 9, 10))
    expect(ds.globalStamp).toBe(0)
  })
})

describe('loadData relations', () => {
  const load = (employer: unknown) => {
    const ds = fresh()
    ds.loadData({
      Company: [{ ID: 1, name: 'Acme' }],
      Employee: [{ ID: 1, lastName: 'x', employer }],
    })
    return ds.Employee.getOrFail(1)
  }
  const employerName = (e: Entity) => (e.get('employer') as Entity | null)?.get('name')

  it.each([
    ['a key', 1],
    ['a key as text', '1'],
    ['{__KEY}', { __KEY: 1 }],
    ['{__KEY} as text', { __KEY: '1' }],
    ['the deferred form of a REST read', { __deferred: { uri: '/rest/Company(1)', __KEY: '1' } }],
  ])('takes a relation given as %s', (_, employer) => {
    const e = load(employer)
    expect(employerName(e)).toBe('Acme')
    expect(e.get('employerID')).toBe(1)
  })

  it('takes null as no related entity', () => {
    expect(load(null).get('employer')).toBeNull()
    expect(load({ __KEY: null }).get('employer')).toBeNull()
  })

  it('takes a relation given through its foreignKey attribute', () => {
    const ds = fresh()
    ds.loadData({
      Company: [{ ID: 1, name: 'Acme' }],
      Employee: [{ ID: 1, lastName: 'x', employerID: 1 }],
    })
    expect(employerName(ds.Employee.getOrFail(1))).toBe('Acme')
  })

  it('accepts the relation and its foreignKey given together with the same key', () => {
    const ds = fresh()
    ds.loadData({
      Company: [{ ID: 1 }],
      Employee: [{ ID: 1, lastName: 'x', employer: 1, employerID: '1' }],
    })
    expect(ds.Employee.getOrFail(1).get('employerID')).toBe(1)
  })

  it('takes a relation to a row further down the file, or in a dataclass listed later', () => {
    const ds = fresh()
    ds.loadData({
      Employee: [
        { ID: 1, lastName: 'a', manager: 2, employer: 1 },
        { ID: 2, lastName: 'b' },
      ],
      Company: [{ ID: 1, name: 'Acme' }],
    })
    expect((ds.Employee.getOrFail(1).get('manager') as Entity).getKey()).toBe(2)
    expect(employerName(ds.Employee.getOrFail(1))).toBe('Acme')
  })

  it('takes a relation to an entity loaded by an earlier load', () => {
    const ds = fresh()
    ds.loadData({ Company: [{ ID: 1, name: 'Acme' }] })
    ds.loadData({ Employee: [{ ID: 1, lastName: 'x', employer: 1 }] })
    expect(employerName(ds.Employee.getOrFail(1))).toBe('Acme')
  })

  it('takes a relation to a uuid key in any spelling', () => {
    const ds = fresh()
    ds.loadData({
      Badge: [{ ID: UUID, label: 'gold' }],
      Employee: [
        { ID: 1, lastName: 'x', badge: { __KEY: '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}' } },
      ],
    })
    expect((ds.Employee.getOrFail(1).get('badge') as Entity).get('label')).toBe('gold')
  })

  it('skips computed attributes given in the deferred form of a REST read', () => {
    const ds = fresh()
    ds.loadData({
      Company: [{ ID: 1, staff: { __deferred: { uri: '/rest/Company(1)/staff?$expand=staff' } } }],
      Employee: [{ ID: 1, lastName: 'x', companyName: { __deferred: {} } }],
    })
    expect(ds.Company.length).toBe(1)
    expect(ds.Employee.length).toBe(1)
  })
})

describe('loadData values', () => {
  const one = (row: Record<string, unknown>) => {
    const ds = fresh()
    ds.loadData({ Employee: [{ ID: 1, lastName: 'x', ...row }] })
    return ds.Employee.getOrFail(1)
  }

  it.each([
    ['2024-03-05', '2024-03-05'],
    ['!!2024-03-05!!', '2024-03-05'],
    ['5!3!2024', '2024-03-05'],
    ['2024-03-05T23:30:00-05:00', '2024-03-05'],
  ])('stores the date %j as %j', (written, stored) => {
    expect(one({ birthday: written }).get('birthday')).toBe(stored)
  })

  it('stores a date-time attribute in UTC', () => {
    expect(one({ hiredAt: '2024-03-05T23:30:00-05:00' }).get('hiredAt')).toBe(
      '2024-03-06T04:30:00.000Z',
    )
    expect(one({ hiredAt: '2024-03-05' }).get('hiredAt')).toBe('2024-03-05T00:00:00.000Z')
  })

  it('stores a picture with the type sniffed from its bytes', () => {
    const photo = one({ photo: { $base64: encodeBase64(PNG) } }).get('photo') as BinaryValue
    expect(photo.type).toBe('image/png')
    expect(photo.bytes).toEqual(PNG)
  })

  it("keeps a picture's version from the file, 1 when none is given", () => {
    const photo = (row: Record<string, unknown>) => one(row).get('photo') as BinaryValue
    expect(photo({ photo: { $base64: encodeBase64(PNG), version: 7 } })).toMatchObject({
      bytes: PNG,
      type: 'image/png',
      version: 7,
    })
    expect(photo({ photo: { $base64: encodeBase64(PNG) } }).version).toBe(1)
  })

  it('stores a frozen deep copy of an object value', () => {
    const info = { tags: ['a'], address: { city: 'Paris' } }
    const stored = one({ info }).get('info') as typeof info
    info.address.city = 'Lyon'
    info.tags.push('b')
    expect(stored).toEqual({ tags: ['a'], address: { city: 'Paris' } })
    expect(Object.isFrozen(stored.address)).toBe(true)
  })

  it('keeps a "__proto__" key of an object value as a plain key without polluting prototypes', () => {
    const data = JSON.parse(
      '{"Employee": [{"ID": 1, "lastName": "x", "info": {"__proto__": {"isAdmin": true}}}]}',
    ) as DataFile
    const ds = fresh()
    ds.loadData(data)
    const info = ds.Employee.getOrFail(1).get('info') as Record<string, unknown>
    expect(Object.keys(info)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(info)).toBe(Object.prototype)
    expect((info as { isAdmin?: unknown }).isAdmin).toBeUndefined()
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined()
  })

  it('stores every storage attribute as an own property, in model order, frozen', () => {
    const e = one({ salary: 10 })
    const storage = e.dataClass.def.storage.map((a) => a.name)
    expect(Object.keys(e.record.values)).toEqual(storage)
    expect(Object.isFrozen(e.record.values)).toBe(true)
  })

  it('reads attributes named like Object.prototype members as their own values', () => {
    const ds = createDatastore({
      dataClasses: [
        {
          name: 'Odd',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'toString', type: 'string' },
            { name: 'constructor', type: 'long' },
          ],
        },
      ],
    })
    ds.loadData({ Odd: [{ ID: 1 }, { ID: 2, toString: 'x', constructor: 3 }] })
    const [a, b] = ds.dataClass('Odd').all().toArray()
    expect([a!.get('toString'), a!.get('constructor')]).toEqual([null, null])
    expect([b!.get('toString'), b!.get('constructor')]).toEqual(['x', 3])
    expect(ds.dataClass('Odd').query('constructor = 3').length).toBe(1)
  })

  // The reader skips the own-property check for rows whose prototype has nothing enumerable.
  it('reads own properties only, whatever a row inherits enumerably', () => {
    const model = {
      dataClasses: [
        {
          name: 'Row',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'label', type: 'string' },
          ],
        },
      ],
    }
    const inherits = Object.assign(Object.create({ label: 'inherited' }), { ID: 1 }) as object
    const ds = createDatastore(model)
    ds.loadData({
      Row: [inherits, { ID: 2, label: 'own' }, Object.assign(Object.create(null), { ID: 3 })],
    })
    expect(
      ds
        .dataClass('Row')
        .all()
        .toArray()
        .map((e) => e.get('label')),
    ).toEqual([null, 'own', null])
    // Object.prototype itself given an enumerable property (a polluted page): still not read.
    const proto = Object.prototype as Record<string, unknown>
    proto.label = 'polluted'
    try {
      const polluted = createDatastore(model)
      polluted.loadData({ Row: [{ ID: 1 }, { ID: 2, label: 'own' }] })
      expect(
        polluted
          .dataClass('Row')
          .all()
          .toArray()
          .map((e) => e.get('label')),
      ).toEqual([null, 'own'])
    } finally {
      delete proto.label
    }
  })
})

describe('loadData rejects bad data, naming where, and loads nothing', () => {
  const base: DataFile = {
    Company: [{ ID: 1, name: 'Acme' }],
    Employee: [{ ID: 1, lastName: 'Lovelace', employer: 1 }],
  }
  const cases: { what: string; data: unknown; errCode: number; message: string }[] = [
    {
      what: 'data that is not an object',
      data: [],
      errCode: 9021,
      message:
        'Invalid data: data: expected an object of the form { "<DataClass>": [ {...}, ... ] }',
    },
    {
      what: 'an unknown dataclass',
      data: { Nope: [] },
      errCode: 9021,
      message: 'Invalid data: "Nope": there is no dataclass "Nope" in the model',
    },
    {
      // JSON.parse makes "__proto__" an own key; it must not reach Object.prototype or a dataclass.
      what: 'a "__proto__" dataclass',
      data: JSON.parse('{"__proto__": [{"ID": 1}]}'),
      errCode: 9021,
      message: 'Invalid data: "__proto__": there is no dataclass "__proto__" in the model',
    },
    {
      what: 'rows that are not an array',
      data: { Company: { ID: 1 } },
      errCode: 9021,
      message: 'Invalid data: Company: expected an array of rows',
    },
    {
      what: 'a row that is not an object',
      data: { Company: [{ ID: 2 }, 'row'] },
      errCode: 9021,
      message: 'Invalid data: Company[1]: expected an object',
    },
    {
      what: 'an unknown attribute',
      data: {
        Employee: [
          { ID: 2, lastName: 'x' },
          { ID: 3, lastName: 'y', nope: 1 },
        ],
      },
      errCode: 9021,
      message: 'Invalid data: Employee[1].nope: "nope" is not an attribute of Employee',
    },
    {
      what: 'a mistyped attribute',
      data: { Employee: [{ ID: 2, lastNmae: 'x' }] },
      errCode: 9021,
      message:
        'Invalid data: Employee[0].lastNmae: "lastNmae" is not an attribute of Employee (did you mean "lastName"?)',
    },
    {
      what: 'an Object.prototype member as attribute',
      data: { Employee: [{ ID: 2, lastName: 'x', constructor: 1 }] },
      errCode: 9021,
      message:
        'Invalid data: Employee[0].constructor: "constructor" is not an attribute of Employee',
    },
    {
      what: 'a calculated attribute with a value',
      data: { Employee: [{ ID: 2, lastName: 'x', fullName: 'A B' }] },
      errCode: 9021,
      message:
        'Invalid data: Employee[0].fullName: "fullName" is a calculated attribute: it is computed and cannot be loaded',
    },
    {
      what: 'an alias attribute with a value',
      data: { Employee: [{ ID: 2, lastName: 'x', companyName: 'Acme' }] },
      errCode: 9021,
      message:
        'Invalid data: Employee[0].companyName: "companyName" is a alias attribute: it is computed and cannot be loaded',
    },
    {
      what: 'a relatedEntities attribute with a value',
      data: { Company: [{ ID: 2, staff: [1] }] },
      errCode: 9021,
      message:
        'Invalid data: Company[0].staff: "staff" is a relatedEntities attribute: it is computed and cannot be loaded',
    },
    {
      what: 'a value of the wrong type',
      data: {
        Employee: [
          { ID: 2, lastName: 'x' },
          { ID: 3, lastName: 'y', salary: 'lots' },
        ],
      },
      errCode: 1570,
      message:
        'Employee[1].salary: The value "lots" is not valid for the "salary" attribute (number) of the "Employee" dataclass: not a number',
    },
    {
      what: 'a long out of range',
      data: { Employee: [{ ID: 2, lastName: 'x', rank: 2147483648 }] },
      errCode: 1570,
      message:
        'Employee[0].rank: The value 2147483648 is not valid for the "rank" attribute (long) of the "Employee" dataclass: out of range for long (-2147483648 to 2147483647)',
    },
    {
      what: 'null for a not-null attribute',
      data: { Employee: [{ ID: 2, lastName: null }] },
      errCode: 1570,
      message:
        'Employee[0].lastName: The value null is not valid for the "lastName" attribute (string) of the "Employee" dataclass: the attribute does not accept null',
    },
    {
      what: 'a missing not-null attribute',
      data: { Employee: [{ ID: 2, lastName: 'x' }, { ID: 3 }] },
      errCode: 1570,
      message:
        'Employee[1].lastName: The value null is not valid for the "lastName" attribute (string) of the "Employee" dataclass: the attribute does not accept null',
    },
    {
      what: 'an invalid date',
      data: { Employee: [{ ID: 2, lastName: 'x', birthday: '2023-02-30' }] },
      errCode: 1570,
      message:
        'Employee[0].birthday: The value "2023-02-30" is not valid for the "birthday" attribute (date) of the "Employee" dataclass: not a date (YYYY-MM-DD or ISO 8601)',
    },
    {
      what: 'bad base64',
      data: { Employee: [{ ID: 2, lastName: 'x', photo: { $base64: '@@@' } }] },
      errCode: 1570,
      message:
        'Employee[0].photo: The value an object is not valid for the "photo" attribute (image) of the "Employee" dataclass: "$base64" is not valid base64',
    },
    {
      what: 'a picture of unknown format without a type',
      data: { Employee: [{ ID: 2, lastName: 'x', photo: { $base64: 'AQID' } }] },
      errCode: 1570,
      message:
        'Employee[0].photo: The value an object is not valid for the "photo" attribute (image) of the "Employee" dataclass: unknown image format: give its "type"',
    },
    ...[0, -1, 1.5, '2', null].map((version) => ({
      what: `a picture version of ${JSON.stringify(version)}`,
      data: { Employee: [{ ID: 2, lastName: 'x', photo: { $base64: 'iVBORw==', version } }] },
      errCode: 1570,
      message:
        'Employee[0].photo: The value an object is not valid for the "photo" attribute (image) of the "Employee" dataclass: "version" must be a positive integer',
    })),
    {
      what: 'a bad uuid key',
      data: { Badge: [{ ID: 'not-a-uuid' }] },
      errCode: 1570,
      message:
        'Badge[0].ID: The value "not-a-uuid" is not valid for the "ID" attribute (uuid) of the "Badge" dataclass: not a uuid (32 hex digits)',
    },
    {
      what: 'a key already in the file',
      data: {
        Employee: [
          { ID: 2, lastName: 'x' },
          { ID: 2, lastName: 'y' },
        ],
      },
      errCode: 1545,
      message: 'Employee[1].ID: The key "2" is not unique in the "Employee" dataclass',
    },
    {
      what: 'a key already in the datastore',
      data: { Company: [{ ID: 1, name: 'Again' }] },
      errCode: 1545,
      message: 'Company[0].ID: The key "1" is not unique in the "Company" dataclass',
    },
    {
      what: 'an explicit key colliding with a generated one',
      data: { Company: [{ name: 'gets 2' }, { ID: 2 }] },
      errCode: 1545,
      message: 'Company[1].ID: The key "2" is not unique in the "Company" dataclass',
    },
    {
      what: 'a uuid key already in the file under another spelling',
      data: { Badge: [{ ID: UUID }, { ID: '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}' }] },
      errCode: 1545,
      message: `Badge[1].ID: The key "${UUID}" is not unique in the "Badge" dataclass`,
    },
    {
      what: '__KEY conflicting with the key attribute',
      data: { Company: [{ __KEY: 5, ID: 6 }] },
      errCode: 9021,
      message: 'Invalid data: Company[0].ID: conflicts with the value given for "ID"',
    },
    {
      what: 'a relation conflicting with its foreignKey',
      data: { Employee: [{ ID: 2, lastName: 'x', employerID: 1, employer: 2 }] },
      errCode: 9021,
      message:
        'Invalid data: Employee[0].employer: conflicts with the value given for "employerID"',
    },
    {
      what: 'a dangling relation key',
      data: {
        Employee: [
          { ID: 2, lastName: 'x' },
          { ID: 3, lastName: 'y', employer: 99 },
        ],
      },
      errCode: 9021,
      message: 'Invalid data: Employee[1].employer: there is no Company with the key 99',
    },
    {
      what: 'a dangling foreignKey',
      data: { Employee: [{ ID: 2, lastName: 'x', employerID: 42 }] },
      errCode: 9021,
      message: 'Invalid data: Employee[0].employerID: there is no Company with the key 42',
    },
    {
      what: 'a dangling relation in the implicit slot',
      data: { Employee: [{ ID: 2, lastName: 'x', manager: { __KEY: 77 } }] },
      errCode: 9021,
      message: 'Invalid data: Employee[0].manager: there is no Employee with the key 77',
    },
    {
      what: 'a dangling uuid relation',
      data: { Employee: [{ ID: 2, lastName: 'x', badge: UUID }] },
      errCode: 9021,
      message: `Invalid data: Employee[0].badge: there is no Badge with the key "${UUID}"`,
    },
    {
      what: 'a relation key of the wrong type',
      data: { Employee: [{ ID: 2, lastName: 'x', employer: 'Acme' }] },
      errCode: 9021,
      message: 'Invalid data: Employee[0].employer: "Acme" is not a key of Company',
    },
    {
      what: 'a relation object without __KEY',
      data: { Employee: [{ ID: 2, lastName: 'x', employer: { ID: 1 } }] },
      errCode: 9021,
      message:
        'Invalid data: Employee[0].employer: expected the related key, or an object with "__KEY"',
    },
    {
      what: 'a __STAMP of zero',
      data: { Company: [{ ID: 2, __STAMP: 0 }] },
      errCode: 9021,
      message: 'Invalid data: Company[0].__STAMP: expected a positive integer',
    },
    {
      what: 'a __STAMP as text',
      data: { Company: [{ ID: 2, __STAMP: '3' }] },
      errCode: 9021,
      message: 'Invalid data: Company[0].__STAMP: expected a positive integer',
    },
    {
      what: 'a fractional __STAMP',
      data: { Company: [{ ID: 2, __STAMP: 1.5 }] },
      errCode: 9021,
      message: 'Invalid data: Company[0].__STAMP: expected a positive integer',
    },
    {
      what: 'a bad __TIMESTAMP',
      data: { Company: [{ ID: 2, __TIMESTAMP: 'yesterday' }] },
      errCode: 9021,
      message: 'Invalid data: Company[0].__TIMESTAMP: expected an ISO 8601 date-time',
    },
  ]

  it.each(cases)('rejects $what', ({ data, errCode, message }) => {
    const ds = fresh()
    ds.loadData(base)
    const before = snapshot(ds)
    const e = thrown(() => ds.loadData(data as DataFile))
    expect(e.errCode).toBe(errCode)
    expect(e.message).toBe(message)
    expect(snapshot(ds)).toEqual(before)
  })

  it('reports the location in the error details too', () => {
    const e = thrown(() =>
      fresh().loadData({
        Employee: [
          { ID: 1, lastName: 'x' },
          { ID: 2, lastName: 'y', rank: 1.5 },
        ],
      }),
    )
    expect(e.details).toMatchObject({
      location: 'Employee[1].rank',
      attribute: 'rank',
      dataClass: 'Employee',
    })
  })

  it('keeps the InvalidKey cause of a relation key of the wrong type', () => {
    const e = thrown(() =>
      fresh().loadData({ Employee: [{ ID: 1, lastName: 'x', employer: 'Acme' }] }),
    )
    expect(e.stack4D().map((x) => x.errCode)).toEqual([9021, 1541])
  })

  it('rejects a missing key that is not autosequence with InvalidKey (1541)', () => {
    const m = model()
    ;(m.dataClasses as DataClassJson[]).push({
      name: 'Tag',
      attributes: [{ name: 'code', type: 'string', identifying: true }],
    })
    const ds = createDatastore(m)
    const e = thrown(() => ds.loadData({ Tag: [{ code: 'a' }, {}] }))
    expect(e.errCode).toBe(1541)
    expect(e.message).toBe(
      'Tag[1].code: The key "null" is not valid for the "Tag" dataclass: the primary key "code" is missing and is not autosequence',
    )
    expect(ds.dataClass('Tag').length).toBe(0)
  })

  it('does not consume autosequence numbers in a rejected load', () => {
    const ds = fresh()
    expect(() => ds.loadData({ Company: [{ name: 'a' }, { name: 'b' }, { ID: 'bad' }] })).toThrow(
      DatastoreError,
    )
    ds.loadData({ Company: [{ name: 'first' }] })
    expect(ds.Company.getOrFail(1).get('name')).toBe('first')
  })

  it('loads nothing of a file whose last row is bad, in any dataclass', () => {
    const ds = fresh()
    expect(() =>
      ds.loadData({
        Company: [{ ID: 1 }, { ID: 2 }],
        Employee: [
          { ID: 1, lastName: 'a', employer: 1 },
          { ID: 2, lastName: 'b', employer: 3 },
        ],
      }),
    ).toThrow(DatastoreError)
    expect(ds.Company.length).toBe(0)
    expect(ds.Employee.length).toBe(0)
    expect(ds.Company.all().length).toBe(0)
    expect(ds.Company.get(1)).toBeNull()
  })
})
