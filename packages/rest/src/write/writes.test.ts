import { createDatastore, ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler } from '../handler.js'

// The core's write fixture: the same model and data the core's write tests use.
const model = writeModel()
const data = writeData()

const fresh = () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 10))
  const ds = createDatastore(model, { data, clock })
  const rest = createRestHandler(ds)
  const post = async (path: string, body?: unknown, type = 'application/json') => {
    const res = await rest.request(path, {
      method: 'POST',
      headers: { 'content-type': type },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, text, json: JSON.parse(text) as Record<string, any> }
  }
  const get = async (path: string) =>
    (await rest.request(path)).json() as Promise<Record<string, any>>
  return { ds, clock, rest, post, get, Employee: ds.dataClass('Employee') }
}

describe('$method=update', () => {
  it('creates an entity and answers it in the real server’s key order', async () => {
    const { post, ds } = fresh()
    const r = await post('/rest/Employee?$method=update', {
      lastName: 'Curie',
      salary: 4500,
      employer: { __KEY: '2' },
    })
    expect(r.status).toBe(200)
    expect(Object.keys(r.json).slice(0, 5)).toEqual([
      '__STATUS',
      '__KEY',
      '__STAMP',
      'uri',
      '__TIMESTAMP',
    ])
    expect(r.json).toMatchObject({
      __STATUS: { success: true },
      __KEY: '4',
      __STAMP: 1,
      uri: '/rest/Employee[4]',
      __TIMESTAMP: '!!2026-01-02!!',
      ID: 4,
      lastName: 'Curie',
      salary: 4500,
      employer: { __deferred: { uri: '/rest/Company[2]', __KEY: '2' } },
      companyName: 'Globex',
    })
    expect(r.json).not.toHaveProperty('secret')
    expect(ds.globalStamp).toBe(1)
  })

  it('updates with __KEY and __STAMP; without __STAMP the write is not checked', async () => {
    const { post, get } = fresh()
    const a = await post('/rest/Employee?$method=update', { __KEY: '1', __STAMP: 1, salary: 5100 })
    expect(a.json).toMatchObject({
      __STATUS: { success: true },
      __KEY: '1',
      __STAMP: 2,
      salary: 5100,
      lastName: 'Lovelace',
    })
    const b = await post('/rest/Employee?$method=update', { __KEY: '1', salary: 5200 })
    expect(b.json.__STAMP).toBe(3)
    expect((await get('/rest/Employee(1)')).salary).toBe(5200)
    expect((await get('/rest/Employee?$filter="salary=5200"')).__COUNT).toBe(1)
  })

  it('refuses a stale stamp with the stored entity, status 2 and the real server’s error stack', async () => {
    const { post, get } = fresh()
    await post('/rest/Employee?$method=update', { __KEY: '2', salary: 1 })
    const r = await post('/rest/Employee?$method=update', { __KEY: '2', __STAMP: 1, salary: 2 })
    expect(r.status).toBe(409)
    expect(Object.keys(r.json).slice(0, 4)).toEqual(['__STATUS', '__KEY', '__STAMP', '__TIMESTAMP'])
    expect(Object.keys(r.json).at(-1)).toBe('__ERROR')
    expect(r.json.__STATUS).toEqual({ status: 2, statusText: 'Stamp has changed', success: false })
    expect(r.json.__STAMP).toBe(2)
    expect(r.json.salary).toBe(1)
    expect(r.json.__ERROR.map((e: { errCode: number }) => e.errCode)).toEqual([1263, 1046, 1517])
    expect(r.json.__ERROR[0].message).toBe(
      'Given stamp does not match current one for record# 1 of table Employee',
    )
    expect((await get('/rest/Employee(2)')).salary).toBe(1)
  })

  it('answers an unknown key with 1542 alone (404)', async () => {
    const { post } = fresh()
    const r = await post('/rest/Employee?$method=update', { __KEY: '98712764', salary: 1 })
    expect(r.status).toBe(404)
    expect(r.json).toEqual({
      __ERROR: [
        {
          message: 'Cannot find entity with "98712764" key in the "Employee" dataclass',
          componentSignature: 'dbmg',
          errCode: 1542,
        },
      ],
    })
  })

  it('saves the valid items of an array and reports each failing one', async () => {
    const { post, ds } = fresh()
    const r = await post('/rest/Employee?$method=update', [
      { __KEY: '1', __STAMP: 1, salary: 1 },
      { lastName: 'Bad', salary: 'lots' },
      { __KEY: '77', salary: 1 },
      { lastName: 'Good' },
      { __KEY: '2', __STAMP: 9, salary: 1 },
    ])
    expect(r.status).toBe(200)
    const [a, b, c, d, e] = r.json.__ENTITIES
    expect(a).toMatchObject({ __STATUS: { success: true }, __KEY: '1', __STAMP: 2 })
    expect(b.__STATUS).toEqual({ status: 4, statusText: 'Other error', success: false })
    expect(b.__ERROR.map((x: { errCode: number }) => x.errCode)).toEqual([1570, 1534])
    expect(c).toMatchObject({ __KEY: '77', __STATUS: { status: 5 } })
    expect(d).toMatchObject({ __STATUS: { success: true }, __KEY: '4', lastName: 'Good' })
    expect(e).toMatchObject({ __STATUS: { status: 2 }, __KEY: '2', __STAMP: 1, salary: 6000 })
    expect(ds.globalStamp).toBe(2)
  })

  it('$atomic: one failing item cancels the batch, and the next read shows the old values', async () => {
    const { post, get, ds } = fresh()
    for (const flag of ['$atomic=true', '$atOnce=true']) {
      const r = await post(`/rest/Employee?$method=update&${flag}`, [
        { __KEY: '1', salary: 45000 },
        { lastName: 'New', email: 'new@x' },
        { __KEY: '201', salary: 99000 },
      ])
      expect(r.status).toBe(404)
      expect(r.json.__ERROR.map((x: { errCode: number }) => x.errCode)).toEqual([1542, 9041])
      expect(r.json.__ERROR[1].message).toMatch(/action 3 of 3 failed/)
    }
    expect((await get('/rest/Employee(1)')).salary).toBe(5000)
    expect((await get('/rest/Employee')).__COUNT).toBe(3)
    expect(ds.globalStamp).toBe(0)
    const ok = await post('/rest/Employee?$atomic=true', [
      { __KEY: '1', salary: 1 },
      { lastName: 'New' },
    ])
    expect(ok.status).toBe(200)
    expect(ok.json.__ENTITIES.map((e: { __KEY: string }) => e.__KEY)).toEqual(['1', '4'])
  })

  it('$method=insert creates only', async () => {
    const { post } = fresh()
    expect(
      (
        await post('/rest/Employee?$method=insert&$atOnce=true', [
          { lastName: 'A' },
          { lastName: 'B' },
        ])
      ).status,
    ).toBe(200)
    const r = await post('/rest/Employee?$method=insert', [
      { lastName: 'A' },
      { __KEY: '1', lastName: 'B' },
    ])
    expect([r.status, r.json.__ERROR[0].errCode]).toEqual([400, 9030])
  })

  it('refuses hidden, unknown and read-only attributes, and ignores what a read echoes', async () => {
    const { post, get } = fresh()
    const read = await get('/rest/Employee(1)')
    const echoed = await post('/rest/Employee?$method=update', { ...read, salary: 1 })
    expect(echoed.json).toMatchObject({ __STATUS: { success: true }, __STAMP: 2, salary: 1 })
    for (const [body, code] of [
      [{ __KEY: '1', secret: 'x' }, 1500],
      [{ __KEY: '1', nope: 'x' }, 1500],
      [{ __KEY: '1', companyName: 'x' }, 1516],
      [{ __KEY: '1', ID: 9 }, 1516],
      [{ __KEY: '1', __STAMP: 'two' }, 9030],
      [{ __KEY: 'abc' }, 1541],
    ] as const) {
      const r = await post('/rest/Employee?$method=update', body)
      expect([r.status, r.json.__ERROR[0].errCode], JSON.stringify(body)).toEqual([400, code])
    }
    expect((await get('/rest/Employee(1)')).__STAMP).toBe(2)
  })
})

describe('$method=delete', () => {
  it('deletes by key, by $filter and by a body of keys, each answering ok', async () => {
    const { post, get, ds } = fresh()
    expect((await post('/rest/Employee(1)?$method=delete', {})).json).toEqual({ ok: true })
    expect((await post('/rest/Employee?$filter="salary>6500"&$method=delete')).json).toEqual({
      ok: true,
    })
    expect((await get('/rest/Employee')).__COUNT).toBe(1)
    const r = await post('/rest/Employee(1)?$method=delete', {})
    expect([r.status, r.json.__ERROR[0].errCode]).toEqual([404, 1542])
    expect(
      (await post('/rest/Company?$method=delete&$atomic=true', [{ __KEY: '1' }, { __KEY: '2' }]))
        .json,
    ).toEqual({ ok: true })
    expect(ds.dataClass('Company').length).toBe(0)
  })

  it('$atomic delete: a missing key cancels all', async () => {
    const { post, ds } = fresh()
    const r = await post('/rest/Employee?$method=delete&$atomic=true', [
      { __KEY: '1' },
      { __KEY: '200' },
    ])
    expect([r.status, r.json.__ERROR.map((e: { errCode: number }) => e.errCode)]).toEqual([
      404,
      [1542, 9041],
    ])
    expect(ds.dataClass('Employee').length).toBe(3)
  })

  it('refuses a delete that names no entity, and any write through GET', async () => {
    const { post, rest, ds } = fresh()
    const r = await post('/rest/Employee?$method=delete', {})
    expect([r.status, r.json.__ERROR[0].errCode]).toEqual([400, 1813])
    const g = await rest.request('/rest/Employee(1)?$method=delete')
    expect(g.status).toBe(400)
    expect(ds.dataClass('Employee').length).toBe(3)
  })
})

describe('hostile bodies', () => {
  it('answers each with a clear 4xx, writes nothing and pollutes no prototype', async () => {
    const { post, ds, get } = fresh()
    const deep = (n: number) => `{"__KEY":"1","extra":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`
    const cases: [string, unknown, number, number, string?][] = [
      ['/rest/Employee?$method=update', '{"lastName": ', 400, 9030],
      ['/rest/Employee?$method=update', '42', 400, 9030],
      ['/rest/Employee?$method=update', '"text"', 400, 9030],
      ['/rest/Employee?$method=update', '[1, {"lastName": "x"}]', 400, 9030],
      ['/rest/Employee?$method=update', '', 400, 9030],
      [
        '/rest/Employee?$method=update',
        'lastName=x',
        415,
        9036,
        'application/x-www-form-urlencoded',
      ],
      ['/rest/Employee?$method=update', '{"__proto__": {"polluted": 1}}', 400, 9030],
      [
        '/rest/Employee?$method=update',
        '{"extra": {"a": [{"constructor": {"prototype": {"polluted": 1}}}]}}',
        400,
        9030,
      ],
      ['/rest/Employee?$method=update', deep(10_000), 400, 9030],
      ['/rest/Nope?$method=update', '{"x": 1}', 404, 1800],
      ['/rest/Hidden?$method=update', '{"ID": 1}', 404, 1800],
      ['/rest/Employee?$method=update', JSON.stringify({ ['x'.repeat(100_000)]: 1 }), 400, 1500],
      ['/rest/Employee?$method=update', JSON.stringify({ salary: '9'.repeat(100_000) }), 400, 1570],
    ]
    for (const [path, body, status, code, type] of cases) {
      const r = await post(path, body, type)
      expect([r.status, r.json.__ERROR?.[0]?.errCode], `${String(body).slice(0, 60)}`).toEqual([
        status,
        code,
      ])
      expect(r.text.length).toBeLessThan(2000)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(ds.globalStamp).toBe(0)
    expect((await get('/rest/Employee')).__COUNT).toBe(3)
    // A long text is a valid value of a text attribute.
    const long = 'y'.repeat(100_000)
    const ok = await post('/rest/Employee?$method=update', { __KEY: '1', lastName: long })
    expect(ok.json.lastName).toBe(long)
  })

  it('refuses a body past the size limit with 413 before reading it', async () => {
    const ds = createDatastore(model, { data })
    const rest = createRestHandler(ds, { maxBodyBytes: 1000 })
    const res = await rest.request('/rest/Employee?$method=update', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lastName: 'z'.repeat(5000) }),
    })
    expect(res.status).toBe(413)
    expect(ds.globalStamp).toBe(0)
  })
})
