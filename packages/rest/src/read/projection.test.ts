import { createDatastore, ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler } from '../handler.js'

const setup = () => {
  const data = writeData()
  const ds = createDatastore(writeModel(), {
    data: {
      ...data,
      Employee: data.Employee!.map((e, i) => ({
        ...e,
        extra: { level: i, city: `C${i}`, tags: ['a'] },
      })),
    },
    clock: new ManualClock(Date.UTC(2026, 0, 2)),
  })
  const rest = createRestHandler(ds)
  const get = async (path: string) => {
    const res = await rest.request(path)
    return { status: res.status, json: (await res.json()) as any }
  }
  return { ds, get }
}

const HEAD = ['__KEY', '__TIMESTAMP', '__STAMP']

describe('$attributes and the path form', () => {
  it('writes only the attributes named, after the key, timestamp and stamp', async () => {
    const { get } = setup()
    const one = (await get('/rest/Employee(1)?$attributes=lastName,salary')).json
    expect(Object.keys(one)).toEqual([
      '__entityModel',
      '__DATACLASS',
      ...HEAD,
      'lastName',
      'salary',
    ])
    const path = (await get('/rest/Employee(1)/lastName,salary')).json
    expect(path).toEqual(one)
    const page = (await get('/rest/Employee/salary?$filter="salary>5500"&$orderby="salary desc"'))
      .json
    expect(page.__COUNT).toBe(2)
    expect(page.__ENTITIES.map((e: any) => Object.keys(e))).toEqual([
      [...HEAD, 'salary'],
      [...HEAD, 'salary'],
    ])
    expect(page.__ENTITIES.map((e: any) => e.salary)).toEqual([7000, 6000])
    expect((await get('/rest/Employee(1)?$attributes=*')).json).toEqual(
      (await get('/rest/Employee(1)')).json,
    )
  })

  it('follows relations: deferred, .*, .name, and to-many embedded', async () => {
    const { get } = setup()
    const deferred = (await get('/rest/Employee(1)?$attributes=employer')).json
    expect(deferred.employer).toEqual({ __deferred: { uri: '/rest/Company[1]', __KEY: '1' } })
    const named = (await get('/rest/Employee(1)?$attributes=employer.name')).json
    expect(named.employer).toEqual({
      __KEY: '1',
      __TIMESTAMP: '2026-01-02T00:00:00.000Z',
      __STAMP: 1,
      name: 'Acme',
    })
    const all = (await get('/rest/Employee(1)?$attributes=employer.*')).json
    expect(Object.keys(all.employer)).toEqual([...HEAD, 'ID', 'name', 'code', 'staff'])
    expect(all.employer.staff).toEqual({
      __deferred: { uri: '/rest/Company[1]/staff?$expand=staff' },
    })
    const staff = (await get('/rest/Company(1)?$attributes=staff.lastName')).json
    expect(staff.staff).toMatchObject({
      __ENTITYSET: '/rest/Company[1]/staff?$expand=staff',
      __COUNT: 2,
      __SENT: 2,
      __FIRST: 0,
      __ENTITIES: [
        { __KEY: '1', lastName: 'Lovelace' },
        { __KEY: '2', lastName: 'Turing' },
      ],
    })
    expect(Object.keys(staff.staff.__ENTITIES[0])).toEqual([...HEAD, 'lastName'])
    const deep = (await get('/rest/Company(1)?$attributes=staff.employer.code')).json
    expect(deep.staff.__ENTITIES[0].employer).toMatchObject({ __KEY: '1', code: 'AC' })
  })

  it('prunes object attributes to the properties named', async () => {
    const { get } = setup()
    const r = (await get('/rest/Employee(2)?$attributes=extra.city,extra.tags')).json
    expect(r.extra).toEqual({ city: 'C1', tags: ['a'] })
    const list = (await get('/rest/Employee?$attributes=extra.level&$asArray=true')).json
    expect(list.map((e: any) => e.extra)).toEqual([{ level: 0 }, { level: 1 }, { level: 2 }])
  })

  it('refuses unknown and hidden names with 1500 then 1804 (1805 for $expand)', async () => {
    const { get } = setup()
    for (const path of [
      '/rest/Employee(1)?$attributes=nope',
      '/rest/Employee(1)?$attributes=secret',
      '/rest/Employee?$attributes=employer.nope',
      '/rest/Employee?$attributes=lastName.x',
    ]) {
      const r = await get(path)
      expect([r.status, r.json.__ERROR.map((e: any) => e.errCode)], path).toEqual([
        404,
        [1500, 1804],
      ])
    }
    const e = await get('/rest/Employee?$expand=nope')
    expect([e.status, e.json.__ERROR.map((x: any) => x.errCode)]).toEqual([404, [1500, 1805]])
    const both = await get('/rest/Employee/lastName?$attributes=salary')
    expect(both.status).toBe(400)
  })
})

describe('$expand', () => {
  it('writes the relation out, alone and with $attributes', async () => {
    const { get } = setup()
    const one = (await get('/rest/Employee(3)?$expand=employer')).json
    expect(one.lastName).toBe('Hopper')
    expect(one.employer).toMatchObject({ __KEY: '2', name: 'Globex', code: 'GX' })
    const company = (await get('/rest/Company(1)?$expand=staff')).json
    expect(company.name).toBe('Acme')
    expect(company.staff.__COUNT).toBe(2)
    expect(company.staff.__ENTITIES[1]).toMatchObject({ lastName: 'Turing', salary: 6000 })
    const withAttrs = (await get('/rest/Company(1)?$attributes=name&$expand=staff')).json
    expect(Object.keys(withAttrs)).toEqual([
      '__entityModel',
      '__DATACLASS',
      ...HEAD,
      'name',
      'staff',
    ])
  })
})

describe('relation navigation', () => {
  it('answers every deferred URI the server writes', async () => {
    const { get } = setup()
    const uris = new Set<string>()
    for (const path of ['/rest/Employee', '/rest/Company']) {
      const { json } = await get(path)
      for (const e of json.__ENTITIES)
        for (const v of Object.values(e)) {
          const uri = (v as any)?.__deferred?.uri
          if (uri) uris.add(uri)
        }
    }
    expect(uris.size).toBeGreaterThan(3)
    for (const uri of uris) expect((await get(uri)).status, uri).toBe(200)
  })

  it('follows a relatedEntity to the entity and relatedEntities to a selection', async () => {
    const { get } = setup()
    const employer = (await get('/rest/Employee[3]/employer?$expand=employer')).json
    expect(employer).toMatchObject({ __entityModel: 'Company', __KEY: '2', name: 'Globex' })
    expect((await get('/rest/Employee(3)/employer')).json).toEqual(employer)
    const staff = (await get('/rest/Company[1]/staff?$expand=staff')).json
    expect(staff).toMatchObject({ __DATACLASS: 'Employee', __COUNT: 2, __SENT: 2 })
    const filtered = (
      await get(
        '/rest/Company(1)/staff?$filter="salary>5500"&$orderby="salary desc"&$attributes=lastName',
      )
    ).json
    expect(filtered.__COUNT).toBe(1)
    expect(filtered.__ENTITIES).toEqual([
      { __KEY: '2', __TIMESTAMP: '2026-01-02T00:00:00.000Z', __STAMP: 1, lastName: 'Turing' },
    ])
    const paged = (await get('/rest/Company(1)/staff?$orderby="lastName"&$skip=1&$top=1')).json
    expect([paged.__FIRST, paged.__SENT, paged.__ENTITIES[0].lastName]).toEqual([1, 1, 'Turing'])
    const asArray = (await get('/rest/Company(1)/staff?$asArray=true')).json
    expect(asArray.map((e: any) => e.__KEY)).toEqual([1, 2])
  })

  it('answers null for an empty relatedEntity and 404 for an unknown key', async () => {
    const { get, ds } = setup()
    ds.dataClass('Employee').create({ ID: 9, lastName: 'Alone' })
    expect((await get('/rest/Employee(9)/employer')).json).toBeNull()
    expect((await get('/rest/Employee(99)/employer')).status).toBe(404)
  })
})

describe('a relation to a hidden dataclass', () => {
  it('is not shown, followed, expanded or named anywhere', async () => {
    const ds = createDatastore(
      {
        __NAME: 'x',
        dataClasses: [
          {
            name: 'Doc',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'auditID', type: 'long' },
              { name: 'audit', kind: 'relatedEntity', path: 'Audit', foreignKey: 'auditID' },
            ],
          },
          {
            name: 'Audit',
            exposed: false,
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'note', type: 'string' },
              { name: 'docs', kind: 'relatedEntities', path: 'audit' },
            ],
          },
        ],
      },
      { data: { Audit: [{ ID: 1, note: 'secret note' }], Doc: [{ ID: 1, auditID: 1 }] } },
    )
    const rest = createRestHandler(ds)
    const text = async (path: string) => {
      const res = await rest.request(path)
      return { status: res.status, text: await res.text() }
    }
    for (const path of [
      '/rest/Doc',
      '/rest/Doc(1)',
      '/rest/$catalog/Doc',
      '/rest/$catalog/$all',
      '/rest/Doc?$format=looker',
    ]) {
      const r = await text(path)
      expect(r.status, path).toBe(200)
      expect(r.text, path).not.toMatch(/Audit|secret|"audit"/)
    }
    for (const path of [
      '/rest/Doc(1)/audit',
      '/rest/Doc(1)?$expand=audit',
      '/rest/Doc?$attributes=audit.note',
    ]) {
      const r = await text(path)
      expect([r.status, JSON.parse(r.text).__ERROR[0].errCode], path).toEqual([404, 1500])
      expect(r.text).not.toContain('secret')
    }
  })
})
