import {
  createDatastore,
  datastoreError,
  ManualClock,
  type DataFile,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { withCalculated } from './calculated.fixture.js'
import { createRestHandler, type RestHandler, type RestHandlerOptions } from './handler.js'

// ---- A small fixed model: relations both ways, an implicit foreign key, an alias, a calculated
// attribute, dates (day only and date-time), an image, a BLOB, a uuid key, a string key, a hidden
// attribute and a hidden dataclass. Uuids are given so the expected catalog stays readable.

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const START = Date.UTC(2024, 2, 15, 9, 30)
const START_ISO = '2024-03-15T09:30:00.000Z'
const APOLLO = '6F9619FF8B86D011B42D00C04FC964FF'
const MINUTE = 60_000

const model = (): ModelJson => ({
  __NAME: 'shop',
  methods: [
    {
      name: 'authentify',
      applyTo: 'dataStore',
      scope: 'public',
      from: 'remoteServer',
      allowedOnHTTPGET: false,
      exposed: true,
    },
    { name: 'internalOnly', applyTo: 'dataStore', exposed: false },
  ],
  dataClasses: [
    {
      name: 'Company',
      uuid: 'U-Company',
      defaultTopSize: 20,
      extraProperties: { panelColor: '#4A7EBB' },
      attributes: [
        { name: 'ID', uuid: 'U-Company-ID', type: 'long', autosequence: true },
        { name: 'name', uuid: 'U-Company-name', type: 'string', indexed: true },
        { name: 'founded', uuid: 'U-Company-founded', type: 'date' },
        { name: 'logo', uuid: 'U-Company-logo', type: 'image' },
        { name: 'brochure', uuid: 'U-Company-brochure', type: 'blob' },
        { name: 'secret', uuid: 'U-Company-secret', type: 'string', exposed: false },
        { name: 'staff', uuid: 'U-Company-staff', kind: 'relatedEntities', path: 'employer' },
      ],
      key: [{ name: 'ID' }],
    },
    {
      name: 'Employee',
      uuid: 'U-Employee',
      attributes: [
        { name: 'ID', uuid: 'U-Employee-ID', type: 'long', autosequence: true },
        { name: 'lastName', uuid: 'U-Employee-lastName', type: 'string' },
        { name: 'birthDate', uuid: 'U-Employee-birthDate', type: 'date' },
        { name: 'hiredAt', uuid: 'U-Employee-hiredAt', type: 'date', dateOnly: false },
        { name: 'employerID', uuid: 'U-Employee-employerID', type: 'long' },
        {
          name: 'employer',
          uuid: 'U-Employee-employer',
          kind: 'relatedEntity',
          path: 'Company',
          foreignKey: 'employerID',
        },
        { name: 'manager', uuid: 'U-Employee-manager', kind: 'relatedEntity', path: 'Employee' },
        { name: 'reports', uuid: 'U-Employee-reports', kind: 'relatedEntities', path: 'manager' },
        {
          name: 'employerName',
          uuid: 'U-Employee-employerName',
          kind: 'alias',
          path: 'employer.name',
        },
        { name: 'shout', uuid: 'U-Employee-shout', kind: 'calculated', type: 'string' },
      ],
    },
    {
      name: 'Project',
      uuid: 'U-Project',
      attributes: [
        { name: 'ID', uuid: 'U-Project-ID', type: 'uuid' },
        { name: 'title', uuid: 'U-Project-title', type: 'string' },
        { name: 'tag', uuid: 'U-Project-tag', kind: 'relatedEntity', path: 'Tag' },
      ],
    },
    {
      name: 'Tag',
      uuid: 'U-Tag',
      attributes: [
        { name: 'code', uuid: 'U-Tag-code', type: 'string' },
        { name: 'label', uuid: 'U-Tag-label', type: 'string' },
      ],
      key: [{ name: 'code' }],
    },
    { name: 'Audit', exposed: false, attributes: [{ name: 'ID', type: 'long' }] },
  ],
})

// 25 companies (above Company's defaultTopSize of 20), 120 employees (above the default 100).
const data = (): DataFile =>
  ({
    Company: [
      {
        name: 'Acme',
        founded: '1980-12-07',
        logo: { $base64: PNG, type: 'image/png' },
        brochure: { $base64: 'AAEC', type: 'application/pdf' },
        secret: 'hidden',
      },
      ...Array.from({ length: 24 }, (_, i) => ({ name: `Company ${i + 2}` })),
    ],
    Employee: [
      {
        lastName: 'Smith',
        birthDate: '1970-05-01',
        hiredAt: '2020-02-03T04:05:06.789Z',
        employerID: 1,
      },
      { lastName: 'Jones', employerID: 1, manager: 1 },
      { lastName: 'Smith', employerID: 2 },
      ...Array.from({ length: 117 }, (_, i) => ({
        lastName: `E${i + 4}`,
        employerID: (i % 25) + 1,
      })),
    ],
    Project: [
      { ID: APOLLO, title: 'Apollo', tag: 'a b/c' },
      { title: 'Gemini', tag: { __KEY: 'abc' } },
    ],
    Tag: [
      { code: 'abc', label: 'ABC' },
      { code: 'a b/c', label: 'odd' },
    ],
    Audit: [{ ID: 1 }],
  }) as unknown as DataFile

function setup(options: RestHandlerOptions = {}) {
  const clock = new ManualClock(START)
  let sessions = 0
  let uuids = 0
  const ds = createDatastore(model(), {
    data: data(),
    clock,
    newUuid: () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`,
    sessions: { newId: () => `SESSION${++sessions}` },
    calculated: { Employee: { shout: (e) => String(e.get('lastName')).toUpperCase() } },
  })
  return { ds, clock, rest: createRestHandler(ds, options) }
}

async function get(rest: RestHandler, path: string, init?: RequestInit) {
  const res = await rest.request(path, init)
  return { res, status: res.status, text: await res.text() }
}

/**
 * The response must be an error with this status and errCode, its body exactly
 * `{"__ERROR": [{message, componentSignature, errCode}]}` with the keys in that order.
 */
async function expectError(
  rest: RestHandler,
  path: string,
  status: number,
  errCode: number,
  message?: string | RegExp,
  init?: RequestInit,
): Promise<string> {
  const { res, text } = await get(rest, path, init)
  expect({ path, status: res.status }).toEqual({ path, status })
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
  const body = JSON.parse(text) as { __ERROR: Record<string, unknown>[] }
  expect(Object.keys(body)).toEqual(['__ERROR'])
  expect(body.__ERROR.length).toBeGreaterThan(0)
  for (const e of body.__ERROR) {
    expect(Object.keys(e)).toEqual(['message', 'componentSignature', 'errCode'])
    expect(typeof e.message).toBe('string')
    expect(typeof e.errCode).toBe('number')
  }
  expect(body.__ERROR[0]!.errCode).toBe(errCode)
  expect(body.__ERROR[0]!.componentSignature).toBe(errCode >= 9000 ? 'enti' : 'dbmg')
  const first = body.__ERROR[0]!.message as string
  if (typeof message === 'string') expect(first).toBe(message)
  else if (message) expect(first).toMatch(message)
  return first
}

const GENERIC_500 = 'Internal error: the server could not answer this request'

const envelope = (uniqId: string, dataClasses: unknown[]) => ({
  __UNIQID: uniqId,
  __BASEID: null,
  __NAME: 'shop',
  properties: { supportJSONEntityKey: true },
  methods: [
    {
      name: 'authentify',
      applyTo: 'dataStore',
      scope: 'public',
      from: 'remoteServer',
      allowedOnHTTPGET: false,
      exposed: true,
    },
  ],
  dataClasses,
})

// ---- The detailed catalog objects, written out in the wire's key order ----

const common = (dc: string, name: string) => ({
  scope: 'public',
  exposed: true,
  uuid: `U-${dc}-${name}`,
})

const companyDetail = {
  name: 'Company',
  className: 'Company',
  collectionName: 'CompanySelection',
  tableNumber: 1,
  scope: 'public',
  exposed: true,
  uuid: 'U-Company',
  dataURI: '/rest/Company',
  defaultTopSize: 20,
  extraProperties: { panelColor: '#4A7EBB' },
  attributes: [
    {
      name: 'ID',
      kind: 'storage',
      fieldPos: 1,
      ...common('Company', 'ID'),
      unique: true,
      not_null: true,
      autosequence: true,
      type: 'long',
      identifying: true,
    },
    {
      name: 'name',
      kind: 'storage',
      fieldPos: 2,
      ...common('Company', 'name'),
      indexed: true,
      type: 'string',
    },
    {
      name: 'founded',
      kind: 'storage',
      fieldPos: 3,
      ...common('Company', 'founded'),
      type: 'date',
    },
    { name: 'logo', kind: 'storage', fieldPos: 4, ...common('Company', 'logo'), type: 'image' },
    {
      name: 'brochure',
      kind: 'storage',
      fieldPos: 5,
      ...common('Company', 'brochure'),
      type: 'blob',
    },
    // `secret` (fieldPos 6) is not exposed: absent.
    {
      name: 'staff',
      kind: 'relatedEntities',
      fieldPos: 7,
      ...common('Company', 'staff'),
      type: 'EmployeeSelection',
      reversePath: true,
      path: 'employer',
    },
  ],
  key: [{ name: 'ID' }],
}

const employeeDetail = {
  name: 'Employee',
  className: 'Employee',
  collectionName: 'EmployeeSelection',
  tableNumber: 2,
  scope: 'public',
  exposed: true,
  uuid: 'U-Employee',
  dataURI: '/rest/Employee',
  // defaultTopSize 100 is the default: not shown.
  attributes: [
    {
      name: 'ID',
      kind: 'storage',
      fieldPos: 1,
      ...common('Employee', 'ID'),
      unique: true,
      not_null: true,
      autosequence: true,
      type: 'long',
      identifying: true,
    },
    {
      name: 'lastName',
      kind: 'storage',
      fieldPos: 2,
      ...common('Employee', 'lastName'),
      type: 'string',
    },
    {
      name: 'birthDate',
      kind: 'storage',
      fieldPos: 3,
      ...common('Employee', 'birthDate'),
      type: 'date',
    },
    {
      name: 'hiredAt',
      kind: 'storage',
      fieldPos: 4,
      ...common('Employee', 'hiredAt'),
      type: 'date',
      // Shown only when false: a saved catalog then loads back with the time of day kept.
      dateOnly: false,
    },
    {
      name: 'employerID',
      kind: 'storage',
      fieldPos: 5,
      ...common('Employee', 'employerID'),
      type: 'long',
    },
    {
      name: 'employer',
      kind: 'relatedEntity',
      fieldPos: 6,
      ...common('Employee', 'employer'),
      type: 'Company',
      path: 'Company',
      foreignKey: 'employerID',
    },
    // The implicit key slot of `manager` is no real attribute: no foreignKey shown.
    {
      name: 'manager',
      kind: 'relatedEntity',
      fieldPos: 7,
      ...common('Employee', 'manager'),
      type: 'Employee',
      path: 'Employee',
    },
    {
      name: 'reports',
      kind: 'relatedEntities',
      fieldPos: 8,
      ...common('Employee', 'reports'),
      type: 'EmployeeSelection',
      reversePath: true,
      path: 'manager',
    },
    {
      name: 'employerName',
      kind: 'alias',
      ...common('Employee', 'employerName'),
      type: 'string',
      path: 'employer.name',
      readOnly: true,
    },
    {
      name: 'shout',
      kind: 'calculated',
      ...common('Employee', 'shout'),
      type: 'string',
      readOnly: true,
    },
  ],
  key: [{ name: 'ID' }],
}

const projectDetail = {
  name: 'Project',
  className: 'Project',
  collectionName: 'ProjectSelection',
  tableNumber: 3,
  scope: 'public',
  exposed: true,
  uuid: 'U-Project',
  dataURI: '/rest/Project',
  attributes: [
    {
      name: 'ID',
      kind: 'storage',
      fieldPos: 1,
      ...common('Project', 'ID'),
      unique: true,
      not_null: true,
      type: 'uuid',
      identifying: true,
    },
    { name: 'title', kind: 'storage', fieldPos: 2, ...common('Project', 'title'), type: 'string' },
    {
      name: 'tag',
      kind: 'relatedEntity',
      fieldPos: 3,
      ...common('Project', 'tag'),
      type: 'Tag',
      path: 'Tag',
    },
  ],
  key: [{ name: 'ID' }],
}

const tagDetail = {
  name: 'Tag',
  className: 'Tag',
  collectionName: 'TagSelection',
  tableNumber: 4,
  scope: 'public',
  exposed: true,
  uuid: 'U-Tag',
  dataURI: '/rest/Tag',
  attributes: [
    {
      name: 'code',
      kind: 'storage',
      fieldPos: 1,
      ...common('Tag', 'code'),
      unique: true,
      not_null: true,
      type: 'string',
      identifying: true,
    },
    { name: 'label', kind: 'storage', fieldPos: 2, ...common('Tag', 'label'), type: 'string' },
  ],
  key: [{ name: 'code' }],
}

// ---- The read forms of a few entities ----

const employer1 = { __deferred: { uri: '/rest/Company[1]', __KEY: '1' } }
const manager1 = { __deferred: { uri: '/rest/Employee[1]', __KEY: '1' } }

const employee1Attributes = {
  ID: 1,
  lastName: 'Smith',
  birthDate: '!!1970-05-01!!',
  hiredAt: '2020-02-03T04:05:06.789Z',
  employerID: 1,
  employer: employer1,
  manager: null,
  reports: { __deferred: { uri: '/rest/Employee[1]/reports?$expand=reports' } },
  employerName: 'Acme',
  shout: 'SMITH',
}

const employee1 = {
  __entityModel: 'Employee',
  __DATACLASS: 'Employee',
  __KEY: '1',
  __TIMESTAMP: START_ISO,
  __STAMP: 1,
  ...employee1Attributes,
}

const memberEmployee = (id: number, lastName: string, employerID: number, manager: unknown) => ({
  __KEY: String(id),
  __TIMESTAMP: START_ISO,
  __STAMP: 1,
  ID: id,
  lastName,
  birthDate: null,
  hiredAt: null,
  employerID,
  employer: { __deferred: { uri: `/rest/Company[${employerID}]`, __KEY: String(employerID) } },
  manager,
  reports: { __deferred: { uri: `/rest/Employee[${id}]/reports?$expand=reports` } },
  employerName: employerID === 1 ? 'Acme' : `Company ${employerID}`,
  shout: lastName.toUpperCase(),
})

const company1 = {
  __entityModel: 'Company',
  __DATACLASS: 'Company',
  __KEY: '1',
  __TIMESTAMP: START_ISO,
  __STAMP: 1,
  ID: 1,
  name: 'Acme',
  founded: '!!1980-12-07!!',
  logo: {
    __deferred: {
      uri: '/rest/Company[1]/logo?$imageformat=best&$version=1&$expand=logo',
      image: true,
    },
  },
  brochure: {
    __deferred: { uri: '/rest/Company[1]/brochure?$binary=true&$version=1&$expand=brochure' },
  },
  // `secret` is not exposed: absent.
  staff: { __deferred: { uri: '/rest/Company[1]/staff?$expand=staff' } },
}

const apollo = {
  __entityModel: 'Project',
  __DATACLASS: 'Project',
  __KEY: APOLLO,
  __TIMESTAMP: START_ISO,
  __STAMP: 1,
  ID: APOLLO,
  title: 'Apollo',
  tag: { __deferred: { uri: '/rest/Tag[a%20b%2Fc]', __KEY: 'a b/c' } },
}

describe('the catalog', () => {
  it('lists the exposed dataclasses with their two URIs in the short catalog', async () => {
    const { rest } = setup()
    const { status, text } = await get(rest, '/rest/$catalog')
    expect(status).toBe(200)
    const short = (name: string) => ({
      name,
      uri: `/rest/$catalog/${name}`,
      dataURI: `/rest/${name}`,
    })
    expect(text).toBe(
      JSON.stringify(
        envelope('SESSION1', [short('Company'), short('Employee'), short('Project'), short('Tag')]),
      ),
    )
  })

  it('details every exposed dataclass, attributes and key in $catalog/$all', async () => {
    const { rest } = setup()
    const { status, text } = await get(rest, '/rest/$catalog/$all')
    expect(status).toBe(200)
    expect(text).toBe(
      JSON.stringify(
        envelope('SESSION1', [companyDetail, employeeDetail, projectDetail, tagDetail]),
      ),
    )
  })

  it('answers $catalog/{dataClass} with the bare detailed dataclass, as the real server does', async () => {
    const { rest } = setup()
    expect((await get(rest, '/rest/$catalog/Company')).text).toBe(JSON.stringify(companyDetail))
    expect((await get(rest, '/rest/$catalog/Employee')).text).toBe(JSON.stringify(employeeDetail))
    expect((await get(rest, '/rest/$catalog/Project?$metadata=full')).text).toBe(
      JSON.stringify(projectDetail),
    )
    expect((await get(rest, '/rest/$catalog/$all?$metadata=full')).status).toBe(200)
  })

  it('never shows the hidden dataclass, the hidden attribute or the hidden method', async () => {
    const { rest } = setup()
    for (const path of ['/rest/$catalog', '/rest/$catalog/$all', '/rest/$catalog/Company']) {
      const { text } = await get(rest, path)
      expect(text).not.toContain('Audit')
      expect(text).not.toContain('secret')
      expect(text).not.toContain('internalOnly')
    }
    await expectError(
      rest,
      '/rest/$catalog/Audit',
      404,
      1800,
      'The "Audit" dataclass cannot be found',
    )
  })

  it('refuses an unknown dataclass and a third segment', async () => {
    const { rest } = setup()
    await expectError(
      rest,
      '/rest/$catalog/Nope',
      404,
      1800,
      'The "Nope" dataclass cannot be found',
    )
    await expectError(rest, '/rest/$catalog/Company/ID', 400, 1806, /at most one more segment/)
  })
})

describe('entity selections', () => {
  it('answers the envelope with its keys in the wire order', async () => {
    const { rest } = setup()
    const { status, text } = await get(rest, '/rest/Employee?$top=2&$skip=1')
    expect(status).toBe(200)
    expect(text).toBe(
      JSON.stringify({
        __DATACLASS: 'Employee',
        __entityModel: 'Employee',
        __GlobalStamp: 0,
        __COUNT: 120,
        __FIRST: 1,
        __ENTITIES: [memberEmployee(2, 'Jones', 1, manager1), memberEmployee(3, 'Smith', 2, null)],
        __SENT: 2,
      }),
    )
  })

  it('sends the first 100 entities in key order when the dataclass sets no defaultTopSize', async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Employee')).text)
    expect(body.__COUNT).toBe(120)
    expect(body.__SENT).toBe(100)
    expect(body.__ENTITIES.map((e: { ID: number }) => e.ID)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    )
  })

  it("uses the model's defaultTopSize as the page size without $top", async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Company')).text)
    expect([body.__COUNT, body.__FIRST, body.__SENT]).toEqual([25, 0, 20])
    const more = JSON.parse((await get(rest, '/rest/Company?$skip=20')).text)
    expect(more.__ENTITIES.map((e: { ID: number }) => e.ID)).toEqual([21, 22, 23, 24, 25])
  })

  it('lets $top go beyond the default page size', async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Employee?$top=1000')).text)
    expect([body.__COUNT, body.__SENT]).toEqual([120, 120])
  })

  it('answers $skip past the end with no entities, __FIRST = $skip and the full count', async () => {
    const { rest } = setup()
    const { status, text } = await get(rest, '/rest/Employee?$skip=500&$top=3')
    expect(status).toBe(200)
    expect(text).toBe(
      JSON.stringify({
        __DATACLASS: 'Employee',
        __entityModel: 'Employee',
        __GlobalStamp: 0,
        __COUNT: 120,
        __FIRST: 500,
        __ENTITIES: [],
        __SENT: 0,
      }),
    )
  })

  it('answers $top=0 with no entities and the full count', async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Employee?$top=0&$skip=3')).text)
    expect(body).toMatchObject({ __COUNT: 120, __FIRST: 3, __ENTITIES: [], __SENT: 0 })
  })

  it('reads $limit as $top, and $top wins when both are given in either order', async () => {
    const { rest } = setup()
    const sent = async (q: string) =>
      JSON.parse((await get(rest, `/rest/Employee?${q}`)).text).__SENT
    expect(await sent('$limit=3')).toBe(3)
    expect(await sent('$limit=3&$top=2')).toBe(2)
    expect(await sent('$top=2&$limit=3')).toBe(2)
    expect(await sent('$top=2&$top=4')).toBe(4)
  })

  it('accepts $skip up to the largest safe integer', async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Employee?$skip=9007199254740991')).text)
    expect(body).toMatchObject({ __FIRST: 9007199254740991, __SENT: 0 })
  })

  it.each([
    ['$top=-1', '$top', '-1'],
    ['$top=abc', '$top', 'abc'],
    ['$top=1.5', '$top', '1.5'],
    ['$top=1e3', '$top', '1e3'],
    ['$top=0x10', '$top', '0x10'],
    ['$top=', '$top', ''],
    ['$top=99999999999999999999', '$top', '99999999999999999999'],
    ['$limit=-5', '$limit', '-5'],
    ['$skip=-1', '$skip', '-1'],
    ['$skip=two', '$skip', 'two'],
    ['$skip=0.5', '$skip', '0.5'],
    ['$skip=9007199254740992', '$skip', '9007199254740992'],
  ])('refuses %s with 400 1806 naming the parameter and the value', async (query, name, value) => {
    const { rest } = setup()
    await expectError(
      rest,
      `/rest/Employee?${query}`,
      400,
      1806,
      `Invalid value "${value}" for ${name}: expected a non-negative integer`,
    )
  })

  it('answers a $top past the selection with the whole selection; maxTop is an opt-in cap', async () => {
    const { rest } = setup()
    const all = JSON.parse((await get(rest, '/rest/Employee?$top=1000000000')).text)
    expect(all.__SENT).toBe(all.__COUNT)
    await expectError(rest, '/rest/Employee?$top=99999999999999999999', 400, 1806)
    const small = setup({ maxTop: 10 }).rest
    await expectError(
      small,
      '/rest/Employee?$limit=11',
      400,
      9011,
      '$limit=11 exceeds the limit of 10',
    )
    expect(JSON.parse((await get(small, '/rest/Employee?$top=10')).text).__SENT).toBe(10)
  })

  it('reads form-encoded names and quoted values', async () => {
    const { rest } = setup()
    const first = async (q: string) => {
      const body = JSON.parse((await get(rest, `/rest/Employee?${q}`)).text)
      return [body.__FIRST, body.__SENT]
    }
    expect(await first('%24top=2')).toEqual([0, 2])
    expect(await first('$top=%222%22')).toEqual([0, 2])
    expect(await first('$top=\'2\'&$skip="1"')).toEqual([1, 2])
    expect(await first('%24TOP=2&%24Skip=%221%22')).toEqual([1, 2])
    expect(await first('$top=%202%20')).toEqual([0, 2])
  })

  it('ignores parameters without a $, such as cache busters', async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Employee?_=1700000000&$top=1&foo')).text)
    expect(body.__SENT).toBe(1)
  })

  it('reads a query string written as a path segment', async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Employee/$top=2&$skip=1')).text)
    expect([body.__FIRST, body.__SENT]).toEqual([1, 2])
  })

  it('answers $asArray=true with a bare array: typed keys, no relations', async () => {
    const { rest } = setup()
    const { status, text } = await get(rest, '/rest/Employee?$top=2&$asArray=true')
    expect(status).toBe(200)
    expect(text).toBe(
      JSON.stringify([
        {
          __KEY: 1,
          __STAMP: 1,
          ID: 1,
          lastName: 'Smith',
          birthDate: '!!1970-05-01!!',
          hiredAt: '2020-02-03T04:05:06.789Z',
          employerID: 1,
          employerName: 'Acme',
          shout: 'SMITH',
        },
        {
          __KEY: 2,
          __STAMP: 1,
          ID: 2,
          lastName: 'Jones',
          birthDate: null,
          hiredAt: null,
          employerID: 1,
          employerName: 'Acme',
          shout: 'JONES',
        },
      ]),
    )
    const projects = await get(rest, `/rest/Project?$asArray=true&$skip=1`)
    expect(projects.text).toBe(
      JSON.stringify([{ __KEY: APOLLO, __STAMP: 1, ID: APOLLO, title: 'Apollo' }]),
    )
  })

  it('reads $asArray as a boolean', async () => {
    const { rest } = setup()
    const isArray = async (q: string) =>
      Array.isArray(JSON.parse((await get(rest, `/rest/Tag?${q}`)).text))
    expect(await isArray('$asArray')).toBe(true)
    expect(await isArray('$asArray=1')).toBe(true)
    expect(await isArray('$asArray=TRUE')).toBe(true)
    expect(await isArray('$asArray=false')).toBe(false)
    expect(await isArray('$asArray=0')).toBe(false)
    await expectError(
      rest,
      '/rest/Tag?$asArray=yes',
      400,
      1806,
      'Invalid value "yes" for $asArray: expected true or false',
    )
  })

  it('answers __GlobalStamp 0 after loading data', async () => {
    const { rest } = setup()
    for (const dc of ['Company', 'Employee', 'Project', 'Tag'])
      expect(JSON.parse((await get(rest, `/rest/${dc}?$top=0`)).text).__GlobalStamp).toBe(0)
  })

  it('writes string keys with URL-significant characters percent-encoded in URIs', async () => {
    const { rest } = setup()
    const body = JSON.parse((await get(rest, '/rest/Project')).text)
    expect(body.__ENTITIES.map((e: { tag: unknown }) => e.tag)).toEqual([
      { __deferred: { uri: '/rest/Tag[abc]', __KEY: 'abc' } },
      { __deferred: { uri: '/rest/Tag[a%20b%2Fc]', __KEY: 'a b/c' } },
    ])
    // The URI leads back to the entity.
    const tag = JSON.parse((await get(rest, '/rest/Tag[a%20b%2Fc]')).text)
    expect([tag.__KEY, tag.label]).toEqual(['a b/c', 'odd'])
  })
})

describe('single entities', () => {
  it('answers (key) and [key] with the same entity, keys in the wire order', async () => {
    const { rest } = setup()
    const expected = JSON.stringify(employee1)
    for (const path of ['/rest/Employee(1)', '/rest/Employee[1]', '/rest/Employee(%201%20)']) {
      const { status, text } = await get(rest, path)
      expect({ path, status }).toEqual({ path, status: 200 })
      expect(text).toBe(expected)
    }
  })

  it('accepts a quoted key, in double or single quotes', async () => {
    const { rest } = setup()
    const expected = JSON.stringify({
      __entityModel: 'Tag',
      __DATACLASS: 'Tag',
      __KEY: 'abc',
      __TIMESTAMP: START_ISO,
      __STAMP: 1,
      code: 'abc',
      label: 'ABC',
    })
    for (const path of [
      '/rest/Tag("abc")',
      "/rest/Tag('abc')",
      '/rest/Tag(%22abc%22)',
      '/rest/Tag["abc"]',
      '/rest/Tag(abc)',
    ]) {
      const { status, text } = await get(rest, path)
      expect({ path, status }).toEqual({ path, status: 200 })
      expect(text).toBe(expected)
    }
    expect((await get(rest, '/rest/Employee("1")')).text).toBe(JSON.stringify(employee1))
  })

  it('finds a uuid key in any spelling', async () => {
    const { rest } = setup()
    for (const key of [
      APOLLO,
      APOLLO.toLowerCase(),
      '6f9619ff-8b86-d011-b42d-00c04fc964ff',
      '6F9619FF-8B86-D011-B42D-00C04FC964FF',
    ]) {
      for (const path of [`/rest/Project(${key})`, `/rest/Project[${key}]`]) {
        const { status, text } = await get(rest, path)
        expect({ path, status }).toEqual({ path, status: 200 })
        expect(text).toBe(JSON.stringify(apollo))
      }
    }
  })

  it('shows relations in the deferred form with [key] URIs', async () => {
    const { rest } = setup()
    const jones = JSON.parse((await get(rest, '/rest/Employee(2)')).text)
    expect(jones.employer).toEqual(employer1)
    expect(jones.manager).toEqual(manager1)
    expect(jones.reports).toEqual({
      __deferred: { uri: '/rest/Employee[2]/reports?$expand=reports' },
    })
  })

  it('shows pictures and BLOBs in the deferred form, hidden attributes not at all', async () => {
    const { rest } = setup()
    expect((await get(rest, '/rest/Company(1)')).text).toBe(JSON.stringify(company1))
    const plain = JSON.parse((await get(rest, '/rest/Company(2)')).text)
    expect([plain.founded, plain.logo, plain.brochure]).toEqual([null, null, null])
  })

  it('writes an alias of a date-only attribute as the attribute itself is written', async () => {
    const ds = createDatastore(
      {
        dataClasses: [
          {
            name: 'Company',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'founded', type: 'date' },
              { name: 'checked', type: 'date', dateOnly: false },
            ],
          },
          {
            name: 'Employee',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'employer', kind: 'relatedEntity', path: 'Company' },
              { name: 'employerFounded', kind: 'alias', path: 'employer.founded' },
              { name: 'employerChecked', kind: 'alias', path: 'employer.checked' },
            ],
          },
        ],
      },
      {
        data: {
          Company: [{ ID: 1, founded: '1980-12-07', checked: '2020-01-02T03:04:05.000Z' }],
          Employee: [{ ID: 1, employer: 1 }, { ID: 2 }],
        } as unknown as DataFile,
      },
    )
    const rest = createRestHandler(ds)
    const one = JSON.parse((await get(rest, '/rest/Employee(1)')).text)
    expect([one.employerFounded, one.employerChecked]).toEqual([
      '!!1980-12-07!!',
      '2020-01-02T03:04:05.000Z',
    ])
    const none = JSON.parse((await get(rest, '/rest/Employee(2)')).text)
    expect([none.employerFounded, none.employerChecked]).toEqual([null, null])
    const plain = JSON.parse((await get(rest, '/rest/Employee?$asArray=true&$top=1')).text)
    expect(plain[0].employerFounded).toBe('!!1980-12-07!!')
  })

  it('writes __TIMESTAMP as the clock time of the load, whatever the clock says later', async () => {
    const { rest, clock } = setup()
    clock.advance(5 * MINUTE)
    const body = JSON.parse((await get(rest, '/rest/Employee(3)')).text)
    expect(body.__TIMESTAMP).toBe(new Date(START).toISOString())
    expect(body.__STAMP).toBe(1)
  })

  it('finds an entity by attribute value, the first in key order when several match', async () => {
    const { rest } = setup()
    expect((await get(rest, '/rest/Employee:lastName(Smith)')).text).toBe(JSON.stringify(employee1))
    const jones = JSON.parse((await get(rest, '/rest/Employee:lastName("Jones")')).text)
    expect(jones.ID).toBe(2)
    const byDate = JSON.parse((await get(rest, '/rest/Employee:birthDate(1970-05-01)')).text)
    expect(byDate.ID).toBe(1)
    expect(JSON.parse((await get(rest, '/rest/Tag:label(odd)')).text).__KEY).toBe('a b/c')
  })

  it('refuses an attribute lookup that matches nothing or names no visible storage attribute', async () => {
    const { rest } = setup()
    await expectError(
      rest,
      '/rest/Employee:lastName(Nobody)',
      404,
      1542,
      'Cannot find entity with "lastName(Nobody)" key in the "Employee" dataclass',
    )
    const notFound = (a: string, dc: string) =>
      `The "${a}" attribute cannot be found in The "${dc}" dataclass`
    await expectError(rest, '/rest/Employee:nope(1)', 404, 1500, notFound('nope', 'Employee'))
    await expectError(
      rest,
      '/rest/Company:secret(hidden)',
      404,
      1500,
      notFound('secret', 'Company'),
    )
    await expectError(
      rest,
      '/rest/Employee:employer(1)',
      404,
      1500,
      notFound('employer', 'Employee'),
    )
    await expectError(rest, '/rest/Employee:ID(abc)', 400, 1570)
  })
})

describe('errors', () => {
  it('answers an unknown or hidden dataclass with 404 1800, suggesting close shown names', async () => {
    const { rest } = setup()
    await expectError(rest, '/rest/Nope', 404, 1800, 'The "Nope" dataclass cannot be found')
    await expectError(
      rest,
      '/rest/employee',
      404,
      1800,
      'The "employee" dataclass cannot be found (did you mean "Employee"?)',
    )
    await expectError(rest, '/rest/Audit', 404, 1800, 'The "Audit" dataclass cannot be found')
    // A hidden dataclass is never suggested: its name would be told.
    await expectError(rest, '/rest/Audi', 404, 1800, 'The "Audi" dataclass cannot be found')
    await expectError(rest, '/rest/Audit(1)', 404, 1800)
    await expectError(rest, '/rest/Nope(1)', 404, 1800)
  })

  it("ends an unknown name's message with the close names the client may see, code and status as before", async () => {
    const { rest } = setup()
    const unknown = (a: string, dc: string, meant?: string) =>
      `The "${a}" attribute cannot be found in The "${dc}" dataclass${meant ? ` (did you mean ${meant}?)` : ''}`
    const lastName = '"lastName"'
    await expectError(
      rest,
      "/rest/Employee?$filter=lastNme='x'",
      404,
      1500,
      unknown('lastNme', 'Employee', lastName),
    )
    await expectError(
      rest,
      "/rest/Employee?$filter=employer.nme='x'",
      404,
      1500,
      unknown('nme', 'Company', '"name"'),
    )
    await expectError(
      rest,
      '/rest/Employee?$orderby=birthdate desc',
      400,
      1810,
      'Wrong list of attributes to order by "birthdate": "birthdate" is not an attribute of Employee (did you mean "birthDate"?)',
    )
    await expectError(
      rest,
      '/rest/Employee?$attributes=lastname',
      404,
      1500,
      unknown('lastname', 'Employee', lastName),
    )
    await expectError(
      rest,
      '/rest/Employee?$expand=employr',
      404,
      1500,
      unknown('employr', 'Employee', '"employer"'),
    )
    await expectError(
      rest,
      '/rest/Employee/hiredat?$compute=max',
      404,
      1500,
      unknown('hiredat', 'Employee', '"hiredAt"'),
    )
    await expectError(
      rest,
      '/rest/Employee/lastNam?$distinct=true',
      404,
      1500,
      unknown('lastNam', 'Employee', lastName),
    )
    await expectError(
      rest,
      '/rest/Employee(1)/lastNme',
      404,
      1500,
      unknown('lastNme', 'Employee', lastName),
    )
    const write = await get(rest, '/rest/Employee?$method=update', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ __KEY: '1', lastNme: 'x' }),
    })
    expect(write.res.status).toBe(400)
    expect((JSON.parse(write.text) as { __ERROR: unknown[] }).__ERROR[0]).toEqual({
      message: unknown('lastNme', 'Employee', lastName),
      componentSignature: 'dbmg',
      errCode: 1500,
    })
    // Up to three, closest first; none when nothing is close; never a hidden name (`secret`).
    await expectError(
      rest,
      '/rest/Employee?$filter=employerI=1',
      404,
      1500,
      unknown('employerI', 'Employee', '"employerID" or "employer"'),
    )
    await expectError(rest, '/rest/Employee?$filter=wage>1', 404, 1500, unknown('wage', 'Employee'))
    await expectError(
      rest,
      "/rest/Company?$filter=secrt='x'",
      404,
      1500,
      unknown('secrt', 'Company'),
    )
    await expectError(
      rest,
      '/rest/Company?$attributes=secrets',
      404,
      1500,
      unknown('secrets', 'Company'),
    )
  })

  it('answers an unknown key with 404 1542', async () => {
    const { rest } = setup()
    await expectError(
      rest,
      '/rest/Employee(999)',
      404,
      1542,
      'Cannot find entity with "999" key in the "Employee" dataclass',
    )
    await expectError(rest, '/rest/Employee(-1)', 404, 1542)
    await expectError(rest, '/rest/Tag(ABC)', 404, 1542)
    await expectError(rest, '/rest/Project(00000000000000000000000000000000)', 404, 1542)
  })

  it('answers a key that cannot be of the key type with 400 1541', async () => {
    const { rest } = setup()
    await expectError(
      rest,
      '/rest/Employee(abc)',
      400,
      1541,
      /^The key "abc" is not valid for the "Employee" dataclass: /,
    )
    await expectError(rest, '/rest/Employee(1.5)', 400, 1541)
    await expectError(rest, '/rest/Employee(99999999999)', 400, 1541, /out of range/)
    await expectError(rest, '/rest/Employee(1)(2)', 400, 1541)
    await expectError(rest, '/rest/Project(not-a-uuid)', 400, 1541)
  })

  it('answers an unknown $keyword with 400 1811 and a known missing one with 501 9010', async () => {
    const { rest } = setup()
    await expectError(
      rest,
      '/rest/Employee?$nope=1',
      400,
      1811,
      'Unknown REST query keyword "$nope"',
    )
    await expectError(rest, '/rest/Employee?$rawPict=html', 400, 1806, /\$rawPict/)
    // Path resources are not query keywords.
    await expectError(rest, '/rest/Employee?$catalog', 400, 1811)
    await expectError(rest, '/rest/Employee?$entityset=X', 400, 1811)
  })

  it.each([
    ['/rest', 'expected a dataclass or $catalog after /rest'],
    ['/rest/', 'expected a dataclass or $catalog after /rest'],
    ['/rest/Employee()', 'the key between the brackets is empty'],
    ['/rest/Employee[]', 'the key between the brackets is empty'],
    ['/rest/Employee("")', 'the key between the brackets is empty'],
    ['/rest/Employee(1', '"Employee(1" is not a dataclass name'],
    ['/rest/Employee(1]', '"Employee(1]" is not a dataclass name'],
    ['/rest/1Employee', '"1Employee" is not a dataclass name'],
    ['/rest/Emp%20loyee', '"Emp loyee" is not a dataclass name'],
    ['/rest/%zz', '"%zz" is not a dataclass name'],
    ['/rest/Employee/$entityset', '$entityset must follow a dataclass'],
    ['/rest/Employee/ID/lastName', 'unexpected segment "lastName"'],
    ['/rest/Employee/,', 'an empty list of attributes'],
  ])('answers the malformed URL %s with 400 1806', async (path, why) => {
    const { rest } = setup()
    const message = await expectError(rest, path, 400, 1806)
    expect(message).toContain(why)
  })

  it('answers broken percent-encoding with 400 1806', async () => {
    const { rest } = setup()
    await expectError(rest, '/rest/Employee?$top=%E0%A4', 400, 1806, /not valid percent-encoded/)
    await expectError(rest, '/rest/%C3%28', 400, 1806, /not valid percent-encoded/)
  })

  it('answers a path outside the interface with 404 9031', async () => {
    const { rest } = setup()
    for (const path of [
      '/rest/$nothing',
      '/',
      '/restaurant',
      '/api/rest/Employee',
      '//x/rest/Tag',
    ]) {
      const pathname = new URL(`http://h${path}`).pathname
      await expectError(rest, path, 404, 9031, `Nothing is served at "${pathname}"`)
    }
  })

  it('refuses a POST that names no write ($method) and one on the catalog', async () => {
    const { rest } = setup()
    const init = { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }
    await expectError(
      rest,
      '/rest/Employee(1)',
      400,
      1813,
      'The REST method "(none)" cannot be applied to a POST on Employee: add $method=update, insert or delete',
      init,
    )
    await expectError(rest, '/rest/$catalog', 405, 9032, undefined, init)
    await expectError(rest, '/rest/Employee?$method=entityset', 501, 9010, undefined, init)
  })

  it('answers methods the interface does not use with 405 and an Allow header', async () => {
    const { rest } = setup()
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const init = { method, body: '{}', headers: { 'content-type': 'application/json' } }
      await expectError(
        rest,
        '/rest/Employee(1)',
        405,
        9032,
        `The ${method} method is not used by the REST interface (it answers GET, HEAD, POST)`,
        init,
      )
      expect((await rest.request('/rest/Employee(1)', init)).headers.get('allow')).toBe(
        'GET, HEAD, POST',
      )
    }
  })

  it('answers OPTIONS (a CORS preflight) with 204, the allowed methods and no session', async () => {
    const { rest } = setup()
    const res = await rest.request('/rest/Employee', { method: 'OPTIONS' })
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(await res.text()).toBe('')
  })

  it('reports entity sets as not found', async () => {
    const { rest } = setup()
    await expectError(
      rest,
      '/rest/Employee/$entityset/ABC',
      404,
      1802,
      'The "ABC" entity set cannot be found',
    )
  })

  it('answers an unknown or hidden attribute in the path with 404 1500, not 501', async () => {
    const { rest } = setup()
    await expectError(
      rest,
      '/rest/Employee/nope',
      404,
      1500,
      'The "nope" attribute cannot be found in The "Employee" dataclass',
    )
    await expectError(rest, '/rest/Employee/lastName,nope', 404, 1500)
    await expectError(rest, '/rest/Company(1)/secret', 404, 1500)
  })

  it('answers __proto__ and other Object.prototype names anywhere with a clean 4xx', async () => {
    const { rest } = setup()
    await expectError(rest, '/rest/__proto__', 404, 1800)
    await expectError(rest, '/rest/constructor', 404, 1800)
    await expectError(rest, '/rest/toString(1)', 404, 1800)
    await expectError(rest, '/rest/$catalog/__proto__', 404, 1800)
    await expectError(rest, '/rest/$catalog/hasOwnProperty', 404, 1800)
    await expectError(rest, '/rest/Employee(__proto__)', 400, 1541)
    await expectError(rest, '/rest/Tag(__proto__)', 404, 1542)
    await expectError(rest, '/rest/Tag(constructor)', 404, 1542)
    await expectError(rest, '/rest/Employee:__proto__(1)', 404, 1500)
    await expectError(rest, '/rest/Employee:constructor(1)', 404, 1500)
    await expectError(rest, '/rest/Employee/__proto__', 404, 1500)
    await expectError(rest, '/rest/Employee/constructor', 404, 1500)
    await expectError(rest, '/rest/Employee?$__proto__=1', 400, 1811)
    await expectError(rest, '/rest/Employee?$constructor=1', 400, 1811)
    // Without a `$` it is not a parameter at all.
    expect((await get(rest, '/rest/Tag?__proto__=1&constructor=2')).status).toBe(200)
  })

  it('reports a failing calculated attribute as a 500 9099 to onInternalError', async () => {
    const seen: unknown[] = []
    const ds = withCalculated(
      () => {
        throw new Error('boom')
      },
      { type: 'string' },
    )
    const rest = createRestHandler(ds, { onInternalError: (e) => seen.push(e) })
    await expectError(rest, '/rest/T(1)', 500, 9099, GENERIC_500)
    expect(seen).toHaveLength(1)
    expect((seen[0] as Error).message).toBe('boom')
    // Client errors are not reported.
    await expectError(rest, '/rest/T(2)', 404, 1542)
    expect(seen).toHaveLength(1)
  })

  it('reports every 5xx to onServerError with its request and status, only 500s to onInternalError', async () => {
    const internal: unknown[] = []
    const server: { message: string; line: string | undefined; status: number }[] = []
    const ds = withCalculated(
      () => {
        throw new Error('boom')
      },
      { type: 'string' },
    )
    const rest = createRestHandler(ds, {
      onInternalError: (e) => internal.push(e),
      onServerError: (e, request, status) =>
        server.push({
          message: (e as Error).message,
          line: request && `${request.method} ${request.path}?${request.query}`,
          status,
        }),
    })
    await expectError(rest, '/rest/T(1)?$top=1', 500, 9099, GENERIC_500)
    await expectError(rest, '/rest/T(2)', 404, 1542)
    const unavailable = rest.refuse(datastoreError('SharedStateUnavailable', ['Redis', 'down']))
    expect(unavailable.status).toBe(503)
    expect(server).toEqual([
      { message: 'boom', line: 'GET /rest/T(1)?$top=1', status: 500 },
      { message: expect.stringContaining('Redis'), line: undefined, status: 503 },
    ])
    expect(internal).toHaveLength(1)
  })

  it('never shows the text of an internal error: a stack overflow is reported, not sent', async () => {
    const seen: { error: unknown; path: string | undefined }[] = []
    const deep = (n: number): number => deep(n + 1) + 1
    const ds = withCalculated(() => deep(0))
    const rest = createRestHandler(ds, {
      onInternalError: (error, request) => seen.push({ error, path: request?.path }),
    })
    for (const path of ['/rest/T(1)', '/rest/T', '/rest/T?$asArray=true']) {
      const { status, text } = await get(rest, path)
      expect(status).toBe(500)
      expect(text).not.toMatch(/call stack|Maximum|RangeError|deep/)
      expect(JSON.parse(text).__ERROR[0].message).toBe(GENERIC_500)
    }
    expect(seen.map((s) => s.path)).toEqual(['/rest/T(1)', '/rest/T', '/rest/T'])
    expect((seen[0]!.error as Error).message).toMatch(/Maximum call stack size exceeded/)
  })
})

describe('HTTP details', () => {
  it('answers HEAD with the status and headers of GET and no body', async () => {
    const { rest } = setup()
    const ok = await get(rest, '/rest/Employee(1)', { method: 'HEAD' })
    expect([ok.status, ok.text]).toEqual([200, ''])
    expect(ok.res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const missing = await get(rest, '/rest/Employee(999)', { method: 'HEAD' })
    expect([missing.status, missing.text]).toEqual([404, ''])
  })

  it('ignores a Content-Type: application/json header on a GET', async () => {
    const { rest } = setup()
    const { status, text } = await get(rest, '/rest/Employee(1)', {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    })
    expect(status).toBe(200)
    expect(text).toBe(JSON.stringify(employee1))
  })

  it('serves below another basePath, writing it into every URI', async () => {
    const { rest } = setup({ basePath: '/api/v1/' })
    const emp = JSON.parse((await get(rest, '/api/v1/Employee(2)')).text)
    expect(emp.employer.__deferred.uri).toBe('/api/v1/Company[1]')
    expect(emp.reports.__deferred.uri).toBe('/api/v1/Employee[2]/reports?$expand=reports')
    const cat = JSON.parse((await get(rest, '/api/v1/$catalog')).text)
    expect(cat.dataClasses[0]).toEqual({
      name: 'Company',
      uri: '/api/v1/$catalog/Company',
      dataURI: '/api/v1/Company',
    })
    await expectError(rest, '/rest/$catalog', 404, 9031)
  })

  it('never answers a malformed request with a 5xx', async () => {
    const { rest } = setup()
    const paths = [
      '/rest/Employee(1)/x/y',
      '/rest/Employee:(1)',
      '/rest/Employee:lastName',
      '/rest/:x(1)',
      '/rest/(1)',
      '/rest/[1]',
      '/rest/Employee((1))',
      '/rest/Employee[[1]]',
      '/rest/Employee(\'1")',
      '/rest/Employee?$top=%',
      '/rest/Employee?$top=%%%',
      '/rest/Employee?=&&=&$=',
      '/rest/Employee?$',
      '/rest/%00',
      '/rest/Employee(%00)',
      '/rest/Tag(%00)',
      '/rest/Tag(%F0%9F%98%80)',
      '/rest/\u00e9l\u00e8ve',
      '/rest/$catalog/$all/x',
      '/rest/$catalog/$catalog',
      '/rest/$catalog/%24all',
      '/rest/Employee/$entityset/x/y',
    ]
    for (const path of paths) {
      const res = await rest.request(path)
      const body = JSON.parse(await res.text())
      expect({ path, status: res.status < 500 }).toEqual({ path, status: true })
      if (res.status >= 400) expect(Object.keys(body)).toEqual(['__ERROR'])
    }
  })
})

describe('sessions', () => {
  const cookie = (id: string) => ({ headers: { cookie: `4DSID_shop=${id}` } })
  const uniqId = async (rest: RestHandler, init?: RequestInit) => {
    const res = await rest.request('/rest/$catalog', init)
    return { id: JSON.parse(await res.text()).__UNIQID, setCookie: res.headers.get('set-cookie') }
  }

  it('opens a session on the first request and sets the 4DSID_<app> cookie', async () => {
    const { rest } = setup()
    expect(await uniqId(rest)).toEqual({
      id: 'SESSION1',
      setCookie: '4DSID_shop=SESSION1; Path=/; HttpOnly; SameSite=Strict',
    })
  })

  it('keeps the session when the cookie comes back, without setting it again', async () => {
    const { rest } = setup()
    await uniqId(rest)
    expect(await uniqId(rest, cookie('SESSION1'))).toEqual({ id: 'SESSION1', setCookie: null })
    expect(await uniqId(rest, { headers: { cookie: 'a=b; 4DSID_shop="SESSION1"; c=d' } })).toEqual({
      id: 'SESSION1',
      setCookie: null,
    })
  })

  it('sets the cookie on error answers too', async () => {
    const { rest } = setup()
    const res = await rest.request('/rest/Nope')
    expect(res.status).toBe(404)
    expect(res.headers.get('set-cookie')).toBe(
      '4DSID_shop=SESSION1; Path=/; HttpOnly; SameSite=Strict',
    )
  })

  it('ends a session after 60 minutes without a request, measured on the datastore clock', async () => {
    const { rest, clock } = setup()
    await uniqId(rest)
    clock.advance(59 * MINUTE)
    expect(await uniqId(rest, cookie('SESSION1'))).toEqual({ id: 'SESSION1', setCookie: null })
    // Each request restarts the 60 minutes.
    clock.advance(59 * MINUTE)
    expect((await uniqId(rest, cookie('SESSION1'))).id).toBe('SESSION1')
    clock.advance(60 * MINUTE)
    expect(await uniqId(rest, cookie('SESSION1'))).toEqual({
      id: 'SESSION2',
      setCookie: '4DSID_shop=SESSION2; Path=/; HttpOnly; SameSite=Strict',
    })
  })

  it('opens a new session for an unknown session id', async () => {
    const { rest } = setup()
    expect((await uniqId(rest, cookie('FORGED'))).id).toBe('SESSION1')
  })

  it('resumes the session named by the $4DSID parameter, in any case and quoted', async () => {
    const { rest } = setup()
    await uniqId(rest)
    for (const q of ['$4DSID=SESSION1', '$4dsid=SESSION1', '$4DSID=%22SESSION1%22']) {
      const res = await rest.request(`/rest/Tag?$top=0&${q}`)
      expect({ q, status: res.status, setCookie: res.headers.get('set-cookie') }).toEqual({
        q,
        status: 200,
        setCookie: null,
      })
    }
    const cat = await rest.request('/rest/$catalog?$4DSID=SESSION1')
    expect(JSON.parse(await cat.text()).__UNIQID).toBe('SESSION1')
    const inPath = await rest.request('/rest/$catalog/$4DSID=SESSION1')
    expect(JSON.parse(await inPath.text()).__UNIQID).toBe('SESSION1')
  })

  it('prefers the cookie over the $4DSID parameter', async () => {
    const { rest } = setup()
    await uniqId(rest)
    await uniqId(rest)
    expect((await uniqId(rest, cookie('SESSION2'))).id).toBe('SESSION2')
    const res = await rest.request('/rest/$catalog?$4DSID=SESSION1', cookie('SESSION2'))
    expect(JSON.parse(await res.text()).__UNIQID).toBe('SESSION2')
  })

  it('names the cookie after the application, replacing characters a cookie name cannot hold', async () => {
    const ds = createDatastore(
      {
        __NAME: 'my shop;v2',
        dataClasses: [{ name: 'T', attributes: [{ name: 'ID', type: 'long' }] }],
      },
      { sessions: { newId: () => 'X' } },
    )
    const res = await createRestHandler(ds).request('/rest/$catalog')
    expect(res.headers.get('set-cookie')).toBe(
      '4DSID_my_shop_v2=X; Path=/; HttpOnly; SameSite=Strict',
    )
    const named = await createRestHandler(ds, { sessionCookieName: 'sid' }).request('/rest/T')
    expect(named.headers.get('set-cookie')).toBe('sid=X; Path=/; HttpOnly; SameSite=Strict')
    // SameSite=Strict and HttpOnly are 4D's; each flag is an option.
    const lax = createRestHandler(ds, { sessionCookieSameSite: 'Lax', sessionCookieSecure: true })
    expect((await lax.request('/rest/T')).headers.get('set-cookie')).toBe(
      '4DSID_my_shop_v2=X; Path=/; HttpOnly; Secure; SameSite=Lax',
    )
    const open = createRestHandler(ds, { sessionCookieHttpOnly: false })
    expect((await open.request('/rest/T')).headers.get('set-cookie')).toBe(
      '4DSID_my_shop_v2=X; Path=/; SameSite=Strict',
    )
    expect(() => createRestHandler(ds, { sessionCookieSameSite: 'strict' as never })).toThrow(
      /Strict, Lax or None/,
    )
  })
})
