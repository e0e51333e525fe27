/**
 * Binding through the public query API: the errors a query can raise (unknown attributes, values
 * that cannot be converted, misused operators, missing placeholders) and the conversions 4D makes
 * (numeric text, dates, uuid spellings, booleans).
 */
import { describe, expect, it } from 'vitest'
import { thrown } from '../errors/thrown.fixture.js'
import { DatastoreError } from '../errors/datastore-error.js'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore } from '../orda/objects/datastore.js'
import type { EntitySelection } from '../orda/objects/entity-selection.js'

const model = (indexed: boolean): ModelJson => ({
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        // A text key: relation comparisons must treat it as the other text comparisons do.
        { name: 'ID', type: 'string' },
        { name: 'name', type: 'string', indexed },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastName', type: 'string', indexed },
        { name: 'salary', type: 'number', indexed },
        { name: 'age', type: 'long', indexed },
        { name: 'hired', type: 'date', indexed },
        { name: 'lastSeen', type: 'date', dateOnly: false, indexed },
        { name: 'badge', type: 'uuid', indexed },
        { name: 'active', type: 'bool', indexed },
        { name: 'extra', type: 'object' },
        { name: 'secret', type: 'string', exposed: false },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
      ],
    },
  ],
})

const data = {
  Company: [
    { ID: 'ACME', name: 'Acme' },
    { ID: 'Globex', name: 'Globex' },
  ],
  Employee: [
    {
      ID: 1,
      lastName: 'Smith',
      salary: 20,
      age: 20,
      hired: '2020-01-31',
      lastSeen: '2020-01-31T00:00:00Z',
      badge: '0f8fad5b-d9cb-469f-a165-70867728950e',
      active: true,
      extra: { flag: true, level: 3 },
      secret: 's',
      employer: 'ACME',
    },
    {
      ID: 2,
      lastName: 'Élodie',
      salary: 20.5,
      age: 33,
      hired: '2021-06-01',
      lastSeen: '2020-01-31T12:30:00Z',
      badge: '7C9E6679-7425-40DE-944B-E07FC1F90AE7',
      active: false,
      extra: null,
      employer: 'Globex',
    },
    { ID: 3, lastName: null, salary: null, age: null, active: null, employer: null },
  ],
}

const stores = [
  { name: 'unindexed', ds: createDatastore(model(false), { data }) },
  { name: 'indexed', ds: createDatastore(model(true), { data }) },
]
const ds = stores[1]!.ds

const keys = (s: EntitySelection): unknown[] => s.toArray().map((e) => e.getKey())

/** The keys a query selects, the same on both datastores. */
function found(text: string, ...params: unknown[]): unknown[] {
  const [a, b] = stores.map(({ ds }) => keys(ds.dataClass('Employee').query(text, ...params)))
  expect(b, `indexed and unindexed disagree on ${text}`).toEqual(a)
  return a!
}

const fails = (text: string, ...params: unknown[]): DatastoreError =>
  thrown(() => ds.dataClass('Employee').query(text, ...params))

describe('binding errors', () => {
  it('reports an unknown attribute with 1500, naming the dataclass where the path fails', () => {
    expect(fails('nope = 1')).toMatchObject({ errCode: 1500, name: 'AttributeNotFound' })
    expect(fails('nope = 1').message).toContain('"Employee"')
    const inRelation = fails('employer.nope = 1')
    expect(inRelation.errCode).toBe(1500)
    expect(inRelation.message).toContain('"Company"')
    expect(thrown(() => ds.dataClass('Company').query('staff.nope = 1')).errCode).toBe(1500)
  })

  it('hides attributes that are not exposed when exposedOnly is set (the REST interface)', () => {
    expect(keys(ds.dataClass('Employee').query("secret = 's'"))).toEqual([1])
    const e = thrown(() => ds.dataClass('Employee').run("secret = 's'", { exposedOnly: true }))
    expect(e.errCode).toBe(1500)
    // The same in order by: 1810.
    const o = thrown(() =>
      ds.dataClass('Employee').run('ID > 0', { exposedOnly: true, orderBy: 'secret' }),
    )
    expect(o.errCode).toBe(1810)
  })

  it('refuses a value that cannot be converted to the attribute type with 9003', () => {
    for (const text of [
      'salary = abc',
      "age = 'x'",
      'hired = 2021-02-30',
      "hired = 'yesterday'",
      'badge = xyz',
      "active = 'yes'",
      'salary > true',
    ]) {
      expect(fails(text), text).toMatchObject({ errCode: 9003, name: 'InvalidComparison' })
    }
    expect(fails('salary = abc').message).toContain('salary =')
  })

  it('reports a placeholder without a value with 9002', () => {
    expect(fails('salary = :1')).toMatchObject({ errCode: 9002, name: 'PlaceholderOutOfRange' })
    expect(fails('salary = :1 or salary = :2', 20).errCode).toBe(9002)
    const named = thrown(() =>
      ds.dataClass('Employee').run('salary = :pay', { parameters: { other: 1 } }),
    )
    expect(named.errCode).toBe(9002)
    expect(named.message).toContain(':pay')
  })

  it('refuses operators the attribute type does not support with 9003', () => {
    for (const text of [
      'salary begin 2', // begin needs text
      "age % '20'", // so does %
      "extra = 'x'", // objects compare with null only
      'extra > 1',
      'extra.flag > true', // booleans are not ordered inside objects
      'extra.flag <= false',
      'salary > null', // null only with =, !=, ===, !==
      'lastName begin null',
      'lastName[] = 1', // [] applies to collections inside objects
      'lastName.first = 1', // a path through a scalar
      "salary = 'a@'", // wildcards are for text
    ]) {
      expect(fails(text), text).toMatchObject({ errCode: 9003 })
    }
    expect(thrown(() => ds.dataClass('Company').query('staff = 1')).errCode).toBe(9003)
  })

  it('needs a list or an array placeholder after IN', () => {
    expect(fails('lastName IN :1', 'Smith').errCode).toBe(9003)
    expect(fails('lastName IN :1', { a: 1 }).errCode).toBe(9003)
    expect(found('lastName IN :1', ['smith', 'ELODIE'])).toEqual([1, 2])
    expect(found('age IN :1', ['20', 33.0])).toEqual([1, 2])
    expect(found('age IN []')).toEqual([])
  })

  it('refuses a placeholder holding something that is not a value', () => {
    expect(fails('lastName = :1', { a: 1 }).errCode).toBe(9003)
    expect(fails('lastName = :1', ['Smith']).errCode).toBe(9003)
  })
})

describe('placeholders', () => {
  it('takes :1, :2 … from the parameters in order', () => {
    expect(found('salary >= :1 and salary < :2', 20, 20.5)).toEqual([1])
  })

  it('takes :name from querySettings.parameters', () => {
    const run = ds
      .dataClass('Employee')
      .run('lastName = :who or age = :age', { parameters: { who: 'élodie', age: 20 } })
    expect(keys(run.selection)).toEqual([1, 2])
  })

  it('takes :name.prop from a property of a named value (4D: `name = :extraInfo.name`)', () => {
    const run = ds
      .dataClass('Employee')
      .run('lastName = :extra.who', { parameters: { extra: { who: 'élodie' } } })
    expect(keys(run.selection)).toEqual([2])
    const missing = thrown(() => ds.dataClass('Employee').run('salary = :x.y', { parameters: {} }))
    expect(missing.errCode).toBe(9002)
  })

  it('takes null from a placeholder for = and !=', () => {
    expect(found('age = :1', null)).toEqual([3])
    expect(found('age != :1', null)).toEqual([1, 2])
  })
})

describe('conversions', () => {
  it('reads numeric text as a number, and accepts fractions for integers', () => {
    expect(found('salary = "20"')).toEqual([1])
    expect(found("age = '20'")).toEqual([1])
    expect(found('age = :1', '20')).toEqual([1])
    expect(found('age > 19.5')).toEqual([1, 2])
    expect(found('age = 20.5')).toEqual([])
    expect(found('ID = "3"')).toEqual([3])
  })

  it('reads a number as text for a string attribute', () => {
    const ds2 = createDatastore(model(true), {
      data: { Employee: [{ ID: 9, lastName: '42' }] },
    })
    expect(keys(ds2.dataClass('Employee').query('lastName = 42'))).toEqual([9])
  })

  it('compares dates as days for a date-only attribute, whatever the spelling', () => {
    expect(found('hired = 2020-01-31')).toEqual([1])
    expect(found("hired = '2020-01-31'")).toEqual([1])
    expect(found('hired = :1', '!!2020-01-31!!')).toEqual([1])
    expect(found('hired = :1', '31!1!2020')).toEqual([1])
    // The time of a date-time is dropped as written, not shifted by a time zone.
    expect(found('hired = :1', '2020-01-31T23:30:00Z')).toEqual([1])
    expect(found('hired = :1', new Date(Date.UTC(2020, 0, 31)))).toEqual([1])
    expect(found('hired > 2020-01-31')).toEqual([2])
    expect(found('hired < 2021-06-01')).toEqual([1])
  })

  it('compares instants for a date-time attribute', () => {
    expect(found('lastSeen = 2020-01-31')).toEqual([1]) // midnight UTC
    expect(found('lastSeen = :1', '2020-01-31T12:30:00Z')).toEqual([2])
    expect(found('lastSeen = :1', '2020-01-31T14:30:00+02:00')).toEqual([2])
    expect(found('lastSeen > 2020-01-31')).toEqual([2])
  })

  it('accepts every uuid spelling', () => {
    for (const spelling of [
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      '0F8FAD5BD9CB469FA16570867728950E',
      '{0f8fad5b-d9cb-469f-a165-70867728950e}',
      '0f8fad5bd9cb469fa16570867728950e',
    ]) {
      expect(found('badge = :1', spelling), spelling).toEqual([1])
    }
    expect(found('badge = :1', '7c9e6679742540de944be07fc1f90ae7')).toEqual([2])
    expect(found('badge IN :1', ['7C9E6679-7425-40DE-944B-E07FC1F90AE7', null])).toEqual([2, 3])
  })

  it('reads 1, 0, "true" and "false" as booleans; orders false before true', () => {
    expect(found('active = 1')).toEqual([1])
    expect(found("active = 'false'")).toEqual([2])
    expect(found('active != true')).toEqual([2])
    expect(found('active = null')).toEqual([3])
    // A bool attribute is ordered as $orderby orders it: false < true (null is not a value).
    expect(found('active < true')).toEqual([2])
    expect(found('active >= false')).toEqual([1, 2])
  })

  it('keeps text as written inside objects: no conversion, kinds must match', () => {
    expect(found('extra.level = 3')).toEqual([1])
    expect(found("extra.level = '3'")).toEqual([])
    expect(found('extra.flag = true')).toEqual([1])
    expect(found('extra.missing = null')).toEqual([1, 2, 3])
    expect(found('extra = null')).toEqual([2, 3])
  })
})

describe('relations compared by their key', () => {
  it('compares a text foreign key as text, like the key itself (index or not)', () => {
    // `employer = x` means `employer.ID = x`: both fold case, as every text comparison does.
    for (const key of ['ACME', 'acme', 'Acme']) {
      expect(found('employer = :1', key), key).toEqual(found('employer.ID = :1', key))
      expect(found('employer = :1', key), key).toEqual([1])
    }
    // The same comparison filtering a driver's rows gives the same answer.
    expect(found("lastName = 'smith' and employer = 'acme'")).toEqual([1])
    expect(found("employer != 'acme'")).toEqual([2])
    expect(found('employer = null')).toEqual([3])
    expect(found("employer IN ['globex', 'ACME']")).toEqual([1, 2])
  })

  it('orders by a text foreign key as by the related key', () => {
    // 'Beta' < 'acme' in code units, 'acme' < 'beta' folded: the order must be the folded one.
    const ds2 = createDatastore(model(false), {
      data: {
        Company: [{ ID: 'Beta' }, { ID: 'acme' }],
        Employee: [
          { ID: 1, employer: 'Beta' },
          { ID: 2, employer: 'acme' },
          { ID: 3, employer: null },
        ],
      },
    })
    const order = (by: string) => keys(ds2.dataClass('Employee').query(`order by ${by}`))
    expect(order('employer')).toEqual(order('employer.ID'))
    expect(order('employer')).toEqual([3, 2, 1])
    expect(order('employer desc')).toEqual([1, 2, 3])
  })
})
