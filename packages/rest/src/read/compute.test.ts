import { createDatastore, type DataFile, type ModelJson } from '@entistore/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { jsonGetter } from './get.fixture.js'

// The real server's documented example: four salaries summing to 335000 (4D's $compute page).
const model: ModelJson = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'founded', type: 'date' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'firstName', type: 'string', indexed: true },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'bonus', type: 'long' },
        { name: 'hired', type: 'date' },
        { name: 'lastLogin', type: 'date', dateOnly: false },
        { name: 'remote', type: 'bool' },
        { name: 'extra', type: 'object' },
        { name: 'photo', type: 'image' },
        { name: 'secret', type: 'number', exposed: false },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'yearly', kind: 'calculated', type: 'number' },
        { name: 'company', kind: 'alias', path: 'employer.name' },
        { name: 'employerFounded', kind: 'alias', path: 'employer.founded' },
        { name: 'assistant', kind: 'relatedEntity', path: 'Secretary' },
      ],
    },
    { name: 'Secretary', exposed: false, attributes: [{ name: 'ID', type: 'long' }] },
  ],
}

const data: DataFile = {
  Company: [
    { ID: 1, name: 'Acme', founded: '1990-07-04' },
    { ID: 2, name: 'Globex', founded: '1985-01-15' },
  ],
  Employee: [
    {
      ID: 1,
      firstName: 'Victor',
      salary: 70000,
      bonus: 10,
      hired: '2020-03-01',
      lastLogin: '2026-01-02T09:30:00.000Z',
      remote: true,
      extra: { level: 20 },
      secret: 1,
      employerID: 1,
    },
    {
      ID: 2,
      firstName: 'anne',
      salary: 99000,
      bonus: null,
      hired: '2018-11-20',
      lastLogin: null,
      remote: false,
      extra: { level: 25 },
      secret: 2,
      employerID: 2,
    },
    {
      ID: 3,
      firstName: 'Anne',
      salary: 80000,
      bonus: 5,
      hired: null,
      lastLogin: '2025-12-31T23:00:00.000Z',
      remote: null,
      extra: { level: 'high' },
      employerID: 1,
    },
    { ID: 4, firstName: 'Bob', salary: 86000, bonus: 1, hired: '2021-06-30', extra: null },
    { ID: 5, firstName: null, salary: null, bonus: null },
  ],
}

const rest = createRestHandler(
  createDatastore(model, {
    data,
    calculated: {
      Employee: {
        yearly: (e) => {
          const s = e.get('salary')
          return typeof s === 'number' ? 12 * s : null
        },
      },
    },
  }),
)

const { get, error } = jsonGetter(rest)

describe('$compute=$all', () => {
  it('on a number: count, sum, average, min, max, in that order (the path form)', async () => {
    const r = await get('/rest/Employee/salary?$compute=$all')
    expect(r.status).toBe(200)
    expect(r.json).toEqual({
      salary: { count: 4, sum: 335000, average: 83750, min: 70000, max: 99000 },
    })
    expect(Object.keys((r.json as { salary: object }).salary)).toEqual([
      'count',
      'sum',
      'average',
      'min',
      'max',
    ])
  })

  it("names the attribute in $attributes as Qodly's clients do", async () => {
    expect((await get('/rest/Employee?$attributes=salary&$compute=$all')).json).toEqual({
      salary: { count: 4, sum: 335000, average: 83750, min: 70000, max: 99000 },
    })
    expect((await get('/rest/Employee/?$attributes=bonus&$compute=$all')).json).toEqual({
      bonus: { count: 3, sum: 16, average: 16 / 3, min: 1, max: 10 },
    })
  })

  it('on a text: count, min and max, compared without case (the first spelling given)', async () => {
    expect((await get('/rest/Employee/firstName?$compute=$all')).json).toEqual({
      firstName: { count: 4, min: 'anne', max: 'Victor' },
    })
  })

  it('on dates: min and max as ISO 8601 date-times, a date-only one at midnight UTC', async () => {
    // The spec: "min and max of dates are ISO 8601 date-times", though a read writes `!!…!!`.
    expect((await get('/rest/Employee/hired?$compute=$all')).json).toEqual({
      hired: { count: 3, min: '2018-11-20T00:00:00.000Z', max: '2021-06-30T00:00:00.000Z' },
    })
    expect((await get('/rest/Employee?$attributes=lastLogin&$compute=$all')).json).toEqual({
      lastLogin: { count: 2, min: '2025-12-31T23:00:00.000Z', max: '2026-01-02T09:30:00.000Z' },
    })
    expect((await get('/rest/Employee/hired?$compute=min')).text).toBe('"2018-11-20T00:00:00.000Z"')
    expect((await get('/rest/Employee/hired?$compute=MAX')).text).toBe('"2021-06-30T00:00:00.000Z"')
    expect((await get('/rest/Employee/lastLogin?$compute=max')).text).toBe(
      '"2026-01-02T09:30:00.000Z"',
    )
  })

  it('on an alias of a date-only attribute: min and max as date-times too', async () => {
    expect((await get('/rest/Employee/employerFounded?$compute=$all')).json).toEqual({
      employerFounded: {
        count: 3,
        min: '1985-01-15T00:00:00.000Z',
        max: '1990-07-04T00:00:00.000Z',
      },
    })
    expect((await get('/rest/Employee/employerFounded?$compute=min')).text).toBe(
      '"1985-01-15T00:00:00.000Z"',
    )
    // $distinct is not an aggregate: its values stay as reads write them.
    expect((await get('/rest/Employee/employerFounded?$distinct=true')).json).toEqual([
      '!!1985-01-15!!',
      '!!1990-07-04!!',
    ])
  })

  it('on dates of an empty selection: min and max null', async () => {
    expect((await get('/rest/Employee/hired?$filter="ID<0"&$compute=$all')).json).toEqual({
      hired: { count: 0, min: null, max: null },
    })
  })

  it('on booleans, calculated and alias attributes', async () => {
    expect((await get('/rest/Employee/remote?$compute=$all')).json).toEqual({
      remote: { count: 2, min: false, max: true },
    })
    expect((await get('/rest/Employee/yearly?$compute=sum')).text).toBe(String(12 * 335000))
    expect((await get('/rest/Employee/company?$compute=$all')).json).toEqual({
      company: { count: 3, min: 'Acme', max: 'Globex' },
    })
  })
})

describe('$compute with one keyword: the bare value', () => {
  it.each([
    ['sum', '335000'],
    ['average', '83750'],
    ['min', '70000'],
    ['max', '99000'],
    ['count', '4'],
    ['SUM', '335000'],
  ])('%s', async (keyword, text) => {
    const r = await get(`/rest/Employee/salary?$compute=${keyword}`)
    expect(r.status).toBe(200)
    expect(r.text).toBe(text)
    expect((await get(`/rest/Employee?$attributes=salary&$compute=${keyword}`)).text).toBe(text)
  })

  it('count counts the non-null values of the attribute', async () => {
    expect((await get('/rest/Employee/bonus?$compute=count')).text).toBe('3')
    expect((await get('/rest/Employee/firstName?$compute=count')).text).toBe('4')
    expect((await get('/rest/Employee/firstName?$compute=min')).text).toBe('"anne"')
  })

  it('after $filter; $top, $skip and $orderby change nothing', async () => {
    const f = '$filter="salary>75000"'
    expect((await get(`/rest/Employee/salary?${f}&$compute=sum`)).text).toBe('265000')
    expect((await get(`/rest/Employee/salary?${f}&$compute=$all`)).json).toEqual({
      salary: { count: 3, sum: 265000, average: 265000 / 3, min: 80000, max: 99000 },
    })
    expect(
      (await get(`/rest/Employee/salary?${f}&$top=1&$skip=1&$orderby=salary&$compute=sum`)).text,
    ).toBe('265000')
    expect(
      (
        await get(
          '/rest/Employee/salary?$filter="firstName=:1"&$params=\'["anne"]\'&$compute=count',
        )
      ).text,
    ).toBe('2')
  })

  it('a property of an object attribute: numbers summed, other values counted', async () => {
    expect((await get('/rest/Employee/extra.level?$compute=sum')).text).toBe('45')
    expect((await get('/rest/Employee/extra.level?$compute=count')).text).toBe('3')
    expect((await get('/rest/Employee?$attributes=extra.level&$compute=$all')).json).toEqual({
      'extra.level': { count: 3, sum: 45, average: 22.5, min: 'high', max: 'high' },
    })
    expect((await get('/rest/Employee/extra.nothing?$compute=$all')).json).toEqual({
      'extra.nothing': { count: 0, sum: 0, average: null, min: null, max: null },
    })
  })

  it('an empty selection: count and sum 0, average, min and max null', async () => {
    const none = '$filter="salary>1000000"'
    expect((await get(`/rest/Employee/salary?${none}&$compute=$all`)).json).toEqual({
      salary: { count: 0, sum: 0, average: null, min: null, max: null },
    })
    expect((await get(`/rest/Employee/salary?${none}&$compute=sum`)).text).toBe('0')
    expect((await get(`/rest/Employee/salary?${none}&$compute=average`)).text).toBe('null')
    expect((await get(`/rest/Employee/firstName?${none}&$compute=max`)).text).toBe('null')
    expect((await get(`/rest/Employee/firstName?${none}&$compute=$all`)).json).toEqual({
      firstName: { count: 0, min: null, max: null },
    })
  })
})

describe('$compute errors', () => {
  it.each([
    // An unknown keyword: the real server's 1817.
    ['/rest/Employee/salary?$compute=median', 400, 1817],
    ['/rest/Employee/salary?$compute=', 400, 1817],
    ['/rest/Employee/salary?$compute=all', 400, 1817],
    // No attribute: Wakanda's empty_attribute_list.
    ['/rest/Employee?$compute=sum', 400, 1816],
    ['/rest/Employee?$compute=$all', 400, 1816],
    ['/rest/Employee?$compute=count', 400, 1816],
    // sum and average of what is not a number.
    ['/rest/Employee/firstName?$compute=sum', 400, 9050],
    ['/rest/Employee/hired?$compute=average', 400, 9050],
    ['/rest/Employee/remote?$compute=sum', 400, 9050],
    ['/rest/Employee/company?$compute=sum', 400, 9050],
    // One attribute only.
    ['/rest/Employee/salary,bonus?$compute=sum', 400, 9050],
    ['/rest/Employee?$attributes=salary,bonus&$compute=$all', 400, 9050],
    ['/rest/Employee?$attributes=*&$compute=$all', 400, 9050],
    // Nothing to compute on.
    ['/rest/Employee/employer?$compute=count', 400, 9050],
    ['/rest/Employee/employer.name?$compute=max', 400, 9050],
    ['/rest/Company/staff?$compute=count', 400, 9050],
    ['/rest/Employee/photo?$compute=count', 400, 9050],
    ['/rest/Employee/extra?$compute=$all', 400, 9050],
    ['/rest/Employee/salary.x?$compute=sum', 400, 9050],
    // Unknown and hidden attributes do not exist.
    ['/rest/Employee/nope?$compute=sum', 404, 1500],
    ['/rest/Employee?$attributes=nope&$compute=sum', 404, 1500],
    ['/rest/Employee/secret?$compute=sum', 404, 1500],
    ['/rest/Employee?$attributes=secret&$compute=$all', 404, 1500],
    ['/rest/Employee?$attributes=secret.x&$compute=$all', 404, 1500],
    // A relation to a hidden dataclass is hidden too.
    ['/rest/Employee?$attributes=assistant&$compute=count', 404, 1500],
    ['/rest/Nope/salary?$compute=sum', 404, 1800],
    // A bad $filter is reported as it is for any read.
    ['/rest/Employee/salary?$filter="salary>"&$compute=sum', 400, 9001],
  ])('%s → %i %i', async (path, status, errCode) => {
    expect(await error(path)).toEqual({ status, errCode })
  })

  it('never answers 5xx, whatever the keyword, path and filter (property)', async () => {
    const paths = ['salary', 'firstName', 'hired', 'lastLogin', 'remote', 'extra', 'extra.level']
    const more = ['photo', 'secret', 'employer', 'yearly', 'company', 'nope', 'salary,bonus']
    const keywords = ['$all', 'count', 'sum', 'average', 'min', 'max', 'x', '']
    const filters = ['', '$filter="salary>80000"', '$filter="ID<0"', '$filter="firstName=a@"']
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths, ...more),
        fc.constantFrom(...keywords),
        fc.constantFrom(...filters),
        fc.boolean(),
        async (path, keyword, filter, inPath) => {
          const url = inPath
            ? `/rest/Employee/${path}?$compute=${keyword}&${filter}`
            : `/rest/Employee?$attributes=${path}&$compute=${keyword}&${filter}`
          const res = await rest.request(url)
          expect(res.status, url).toBeLessThan(500)
          JSON.parse(await res.text())
        },
      ),
      { numRuns: 200 },
    )
  })
})
