/**
 * `$lock` and the writes it guards, between two HTTP sessions (two cookie jars), one test per row
 * of the spec's entity-lock table, and the lock's end with its session (time travel).
 */
import { createDatastore, ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler } from '../handler.js'

const HOUR = 3_600_000

type Json = Record<string, any>

const fresh = () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 2, 10))
  const ds = createDatastore(writeModel(), { data: writeData(), clock })
  const rest = createRestHandler(ds)
  /** A client with its own cookie jar: the `4DSID_shop` cookie the server set on its first reply. */
  const client = (userAgent = 'test-agent') => {
    let cookie: string | undefined
    const send = async (path: string, init: RequestInit = {}) => {
      const headers: Record<string, string> = {
        'user-agent': userAgent,
        ...(init.headers as Record<string, string> | undefined),
      }
      if (cookie) headers.cookie = cookie
      const res = await rest.request(path, { ...init, headers })
      const set = res.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]
      const text = await res.text()
      return { status: res.status, json: JSON.parse(text) as Json }
    }
    return {
      get: (path: string) => send(path),
      post: (path: string, body?: unknown) =>
        send(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      get session() {
        return cookie?.split('=')[1]
      },
    }
  }
  return { ds, clock, client, Employee: ds.dataClass('Employee') }
}

const LOCKED = { result: true, __STATUS: { success: true } }
const alreadyLocked = (recordNumber: number, userAgent = 'A-agent') => ({
  result: false,
  __STATUS: {
    status: 3,
    statusText: 'Already locked',
    lockKind: 7,
    lockKindText: 'Locked by session',
    lockInfo: { host: 'localhost', recordNumber, userAgent },
  },
})

describe('$lock between two sessions (the spec’s entity-lock table)', () => {
  it('unlocked → locked: result true, __STATUS.success true; locking again is fine', async () => {
    const { client, ds } = fresh()
    const a = client('A-agent')
    expect(await a.get('/rest/Employee(1)?$lock=true')).toEqual({ status: 200, json: LOCKED })
    expect(await a.get('/rest/Employee(1)/?$lock=true')).toEqual({ status: 200, json: LOCKED })
    expect(ds.locks.holder('Employee', 1)?.owner).toMatchObject({ id: a.session, kind: 'session' })
  })

  it('locked → unlocked by the same session: result true', async () => {
    const { client, ds } = fresh()
    const a = client()
    await a.get('/rest/Employee(1)?$lock=true')
    expect(await a.get('/rest/Employee(1)?$lock=false')).toEqual({ status: 200, json: LOCKED })
    expect(ds.locks.size).toBe(0)
    // unlocking what nobody holds: unlocked already
    expect((await a.get('/rest/Employee(1)?$lock=false')).json).toEqual(LOCKED)
  })

  it('locked, another session locks: result false, status 3 with lockKind and lockInfo', async () => {
    const { client, Employee } = fresh()
    const a = client('A-agent')
    const b = client('B-agent')
    await a.get('/rest/Employee(2)?$lock=true')
    expect(await b.get('/rest/Employee(2)?$lock=true')).toEqual({
      status: 200,
      json: alreadyLocked(Employee.get(2)!.rowId),
    })
  })

  it('locked: another session’s unlock, update and delete are refused, the holder’s pass', async () => {
    const { client, Employee } = fresh()
    const a = client('A-agent')
    const b = client('B-agent')
    await a.get('/rest/Employee(2)?$lock=true')
    const rowId = Employee.get(2)!.rowId
    expect((await b.get('/rest/Employee(2)?$lock=false')).json).toEqual(alreadyLocked(rowId))

    const update = await b.post('/rest/Employee?$method=update', { __KEY: '2', salary: 1 })
    expect(update.status).toBe(409)
    expect(update.json.__STATUS).toEqual({
      ...alreadyLocked(rowId).__STATUS,
      success: false,
    })
    expect(update.json.__ERROR[0]).toMatchObject({ errCode: 9070, componentSignature: 'enti' })
    expect(update.json.salary).toBe(6000)

    const del = await b.post('/rest/Employee(2)?$method=delete')
    expect(del.status).toBe(409)
    expect(del.json.__ERROR[0].errCode).toBe(9070)
    const byFilter = await b.post('/rest/Employee?$method=delete&$filter="ID>0"')
    expect(byFilter.status).toBe(409)
    const set = (await b.get('/rest/Employee?$method=entityset')).json.__ENTITYSET as string
    const bySet = await b.post(`${set.replace(/^.*\/rest/, '/rest')}?$method=delete`)
    expect([bySet.status, bySet.json.__ERROR[0].errCode]).toEqual([409, 9070])
    expect(Employee.length).toBe(3)
    expect(Object.keys(update.json).slice(0, 3)).toEqual(['__STATUS', '__KEY', '__STAMP'])
    expect(Object.keys(update.json).at(-1)).toBe('__ERROR')

    // in an array each item on its own: the locked one refused, the others saved
    const many = await b.post('/rest/Employee?$method=update', [
      { __KEY: '1', salary: 11 },
      { __KEY: '2', salary: 12 },
    ])
    expect(many.status).toBe(200)
    expect(many.json.__ENTITIES[0].__STATUS).toEqual({ success: true })
    expect(many.json.__ENTITIES[1].__STATUS).toMatchObject({ status: 3, success: false })
    const keys = await b.post('/rest/Employee?$method=delete', [{ __KEY: '2' }])
    expect(keys.json.__ENTITIES[0].__STATUS).toMatchObject({ status: 3, success: false })

    // with $atomic the whole batch is cancelled
    const atomic = await b.post('/rest/Employee?$method=update&$atomic=true', [
      { __KEY: '1', salary: 21 },
      { __KEY: '2', salary: 22 },
    ])
    expect(atomic.status).toBe(409)
    expect(atomic.json.__ERROR.map((e: Json) => e.errCode)).toEqual([9070, 1517, 9041])
    expect(Employee.get(1)!.get('salary')).toBe(11)
    const atomicDelete = await b.post('/rest/Employee?$method=delete&$atomic=true', [
      { __KEY: '1' },
      { __KEY: '2' },
    ])
    expect(atomicDelete.status).toBe(409)
    expect(Employee.length).toBe(3)

    // the holder writes, and its lock stays until it unlocks
    const own = await a.post('/rest/Employee?$method=update', { __KEY: '2', salary: 99 })
    expect(own.json).toMatchObject({ __STATUS: { success: true }, salary: 99 })
    expect((await b.get('/rest/Employee(2)?$lock=true')).json.result).toBe(false)
    expect((await a.get('/rest/Employee(2)?$lock=false')).json).toEqual(LOCKED)
    expect((await b.post('/rest/Employee(2)?$method=delete')).json).toEqual({ ok: true })
  })

  it('locked, the session’s inactivity timeout: unlocked, without any sweep first', async () => {
    const { client, clock, ds } = fresh()
    const a = client()
    const b = client()
    await a.get('/rest/Employee(3)?$lock=true')
    clock.advance(HOUR - 1)
    expect((await b.get('/rest/Employee(3)?$lock=true')).json.result).toBe(false)
    clock.advance(1) // a: 60 minutes without a request
    expect(ds.locks.size).toBe(1) // nobody swept a yet
    const r = await b.post('/rest/Employee?$method=update', { __KEY: '3', salary: 1 })
    expect(r.json.__STATUS).toEqual({ success: true })
    expect(ds.locks.size).toBe(0)
    expect((await b.get('/rest/Employee(3)?$lock=true')).json).toEqual(LOCKED)
    // a comes back: a new session, which the lock of b now refuses
    expect((await a.get('/rest/Employee(3)?$lock=true')).json.result).toBe(false)
  })

  it('a session kept alive keeps its lock past an hour', async () => {
    const { client, clock } = fresh()
    const a = client()
    const b = client()
    await a.get('/rest/Employee(3)?$lock=true')
    for (let i = 0; i < 3; i++) {
      clock.advance(HOUR - 1)
      await a.get('/rest/$catalog')
    }
    expect((await b.get('/rest/Employee(3)?$lock=true')).json.result).toBe(false)
  })

  it('the TS API (a process) and HTTP sessions follow the same rules', async () => {
    const { client, Employee } = fresh()
    const a = client('A-agent')
    Employee.get(1)!.lock()
    const refused = await a.get('/rest/Employee(1)?$lock=true')
    expect(refused.json.__STATUS).toMatchObject({ status: 3, lockKindText: 'Locked by record' })
    expect((await a.post('/rest/Employee(1)?$method=delete')).status).toBe(409)
    Employee.get(1)!.unlock()
    await a.get('/rest/Employee(1)?$lock=true')
    expect(Employee.get(1)!.lock()).toMatchObject({ success: false, status: 3 })
    expect(() => Employee.update(1, { salary: 1 })).toThrow(/locked by another session/)
  })

  it('answers status 5 for an entity that does not exist, deleted or never there', async () => {
    const { client } = fresh()
    const a = client()
    const gone = {
      status: 200,
      json: { result: false, __STATUS: { status: 5, statusText: 'Entity does not exist' } },
    }
    expect(await a.get('/rest/Employee(99)?$lock=true')).toEqual(gone)
    expect(await a.get('/rest/Employee(99)?$lock=false')).toEqual(gone)
    await a.post('/rest/Employee(3)?$method=delete')
    expect(await a.get('/rest/Employee(3)?$lock=true')).toEqual(gone)
    expect(await a.get('/rest/Employee:email(nobody)?$lock=true')).toEqual(gone)
    expect((await a.get('/rest/Employee:email(ada@acme)?$lock=true')).json).toEqual(LOCKED)
  })

  it('refuses $lock on a selection, a bad value, an unknown dataclass or key', async () => {
    const { client } = fresh()
    const a = client()
    const sel = await a.get('/rest/Employee?$lock=true')
    expect([sel.status, sel.json.__ERROR[0].errCode]).toEqual([400, 1806])
    const bad = await a.get('/rest/Employee(1)?$lock=maybe')
    expect([bad.status, bad.json.__ERROR[0].errCode]).toEqual([400, 1806])
    expect((await a.get('/rest/Nope(1)?$lock=true')).status).toBe(404)
    expect((await a.get('/rest/Employee(x)?$lock=true')).status).toBe(400)
  })
})
