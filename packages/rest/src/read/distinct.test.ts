import { createDatastore, type DataFile, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { jsonGetter } from './get.fixture.js'

// Qodly's $distinct examples (Users, Employee salaries, address.city), and what folding decides.
const model: ModelJson = {
  dataClasses: [
    {
      name: 'Users',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'Name', type: 'string' },
        { name: 'secret', type: 'string', exposed: false },
        { name: 'employer', kind: 'relatedEntity', path: 'Employee' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'salary', type: 'number' },
        { name: 'hired', type: 'date', indexed: true },
        { name: 'address', type: 'object' },
      ],
    },
    {
      name: 'Code',
      defaultTopSize: 100,
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'n', type: 'long' },
      ],
    },
  ],
}

const data: DataFile = {
  Users: [
    { ID: 1, Name: 'John', secret: 'a' },
    { ID: 2, Name: 'James', secret: 'b' },
    { ID: 3, Name: 'Harry', secret: 'a' },
    { ID: 4, Name: 'JOHN' },
    { ID: 5, Name: null },
    { ID: 6, Name: 'james' },
  ],
  Employee: [
    {
      ID: 1,
      lastName: 'smith',
      salary: 60000,
      hired: '2020-01-01',
      address: { city: 'New York' },
    },
    {
      ID: 2,
      lastName: 'Smith',
      salary: 50000,
      hired: '2019-05-05',
      address: { city: 'Los Angeles' },
    },
    { ID: 3, lastName: 'Élie', salary: 70000, hired: null, address: { city: 'Chicago' } },
    { ID: 4, lastName: 'elie', salary: 60000, hired: '2020-01-01', address: { city: 'new york' } },
    { ID: 5, lastName: null, salary: null, address: null },
  ],
  // 150 distinct values: more than the page size of entities (defaultTopSize 100).
  Code: Array.from({ length: 300 }, (_, i) => ({ ID: i + 1, n: i % 150 })),
}

const rest = createRestHandler(createDatastore(model, { data }))

const { get, error } = jsonGetter(rest)

describe('$distinct=true', () => {
  it("Qodly's examples: $filter, then $skip and $top on the list of values", async () => {
    const r = await get('/rest/Users/Name?$filter="Name=J@"&$distinct=true')
    expect(r.status).toBe(200)
    expect(r.json).toEqual(['James', 'John'])
    expect(
      (await get('/rest/Users/Name?$filter="Name=J*"&$distinct=true&$skip=1&$top=1')).json,
    ).toEqual(['John'])
    expect((await get('/rest/Employee/salary?$distinct=true')).json).toEqual([50000, 60000, 70000])
    expect((await get('/rest/Employee/address.city?$distinct=true')).json).toEqual([
      'Chicago',
      'Los Angeles',
      'New York',
    ])
  })

  it('texts that differ only by case or accents are one value, spelled as the first entity', async () => {
    // John (1) before JOHN (4), James (2) before james (6); nulls left out; ascending.
    expect((await get('/rest/Users/Name?$distinct=true')).json).toEqual(['Harry', 'James', 'John'])
    // The same through a sorted index (lastName is indexed) and through a filtered scan.
    expect((await get('/rest/Employee/lastName?$distinct=true')).json).toEqual(['Élie', 'smith'])
    expect((await get('/rest/Employee/lastName?$filter="ID>1"&$distinct=true')).json).toEqual([
      'Élie',
      'Smith',
    ])
  })

  it("in $attributes (Qodly's form)", async () => {
    expect((await get('/rest/Users?$attributes=Name&$distinct=true')).json).toEqual([
      'Harry',
      'James',
      'John',
    ])
  })

  it('dates as reads write them', async () => {
    expect((await get('/rest/Employee/hired?$distinct=true')).json).toEqual([
      '!!2019-05-05!!',
      '!!2020-01-01!!',
    ])
  })

  it('without $top every distinct value is sent, not a page of 100', async () => {
    const all = (await get('/rest/Code/n?$distinct=true')).json as number[]
    expect(all).toHaveLength(150)
    expect(all.slice(0, 3)).toEqual([0, 1, 2])
    expect((await get('/rest/Code/n?$distinct=true&$top=2&$skip=148')).json).toEqual([148, 149])
    expect((await get('/rest/Code/n?$distinct=true&$limit=3')).json).toEqual([0, 1, 2])
    expect((await get('/rest/Code/n?$distinct=true&$top=0')).json).toEqual([])
    expect((await get('/rest/Code/n?$distinct=true&$skip=500')).json).toEqual([])
  })

  it('an empty selection: an empty list', async () => {
    expect((await get('/rest/Users/Name?$filter="ID>100"&$distinct=true')).json).toEqual([])
  })

  it.each([
    ['/rest/Users?$distinct=true', 400, 1816],
    ['/rest/Users/Name,ID?$distinct=true', 400, 9050],
    ['/rest/Users?$attributes=Name,ID&$distinct=true', 400, 9050],
    ['/rest/Users/employer?$distinct=true', 400, 9050],
    ['/rest/Employee/address?$distinct=true', 400, 9050],
    ['/rest/Users/secret?$distinct=true', 404, 1500],
    ['/rest/Users?$attributes=secret&$distinct=true', 404, 1500],
    ['/rest/Users/nope?$distinct=true', 404, 1500],
    ['/rest/Users/Name?$distinct=maybe', 400, 1806],
  ])('%s → %i %i', async (path, status, errCode) => {
    expect(await error(path)).toEqual({ status, errCode })
  })
})
