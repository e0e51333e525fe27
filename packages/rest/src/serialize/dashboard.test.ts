import { createDatastore, ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler } from '../handler.js'

const setup = () => {
  const data = writeData()
  const ds = createDatastore(writeModel(), {
    data: {
      ...data,
      Employee: data.Employee!.map((e, i) => ({ ...e, hired: `2024-03-1${i}`, extra: { n: i } })),
    },
    clock: new ManualClock(Date.UTC(2026, 0, 2)),
  })
  const rest = createRestHandler(ds)
  return async (path: string) => {
    const res = await rest.request(path)
    return { status: res.status, text: await res.text() }
  }
}

describe('$format=looker / dashboard', () => {
  it('writes schema, rows in schema order, filtersApplied, __COUNT and __FIRST', async () => {
    const get = setup()
    const { status, text } = await get(
      '/rest/Employee?$format=looker&$filter="salary>5500"&$orderby="salary"&$skip=1',
    )
    expect(status).toBe(200)
    const body = JSON.parse(text)
    expect(Object.keys(body)).toEqual(['schema', 'rows', 'filtersApplied', '__COUNT', '__FIRST'])
    expect(body.schema.map((c: { name: string }) => c.name)).toEqual([
      'ID',
      'lastName',
      'salary',
      'email',
      'hired',
      'extra',
      'employerID',
      'fullName',
      'companyName',
    ])
    expect(body.schema[2]).toEqual({
      name: 'salary',
      dataType: 'NUMBER',
      semantics: { conceptType: 'METRIC', semanticGroup: 'NUMERIC', semanticType: 'NUMBER' },
    })
    expect(body.schema[4]).toMatchObject({
      dataType: 'STRING',
      semantics: { semanticType: 'YEAR_MONTH_DAY' },
    })
    expect(body.rows).toEqual([
      { values: [3, 'Hopper', 7000, 'grace@globex', '20240312', '{"n":2}', 2, null, 'Globex'] },
    ])
    expect([body.filtersApplied, body.__COUNT, body.__FIRST]).toEqual([false, 2, 1])
    expect(
      (
        await get(
          '/rest/Employee?$format=dashboard&$filter="salary>5500"&$orderby="salary"&$skip=1',
        )
      ).text,
    ).toBe(text)
  })

  it('follows $attributes, and refuses an unknown format (1801)', async () => {
    const get = setup()
    const body = JSON.parse(
      (await get('/rest/Employee?$format=looker&$attributes=lastName,employer')).text,
    )
    expect(body.schema.map((c: { name: string }) => c.name)).toEqual(['lastName'])
    expect(body.rows[0]).toEqual({ values: ['Lovelace'] })
    expect((await get('/rest/Employee?$format=json')).status).toBe(200)
    for (const path of ['/rest/Employee?$format=xml', '/rest/Employee(1)?$format=looker']) {
      const r = await get(path)
      expect([r.status, JSON.parse(r.text).__ERROR[0].errCode], path).toEqual([400, 1801])
    }
  })
})
