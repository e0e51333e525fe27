/**
 * The test fixture: `startFixture` on a real socket (the company example's files), `createFixture`
 * in-process (objects), and what `reset` puts back and clears: data, next keys, the global stamp,
 * entity sets, sessions (kept on request); the class functions it keeps. Errors in files name the
 * file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatastoreError, defineFunctions, ManualClock, type ModelJson } from '@entistore/core'
import {
  BINARY_MODEL,
  binaryData,
  servedBinaries,
  someBytes,
  storedBinaries,
} from './persist/binaries.fixture.js'
import { createFixture, startFixture, type ServedFixture } from './fixture.js'
import { FileError } from './files/file-error.js'

const company = (name: string): string =>
  fileURLToPath(new URL(`../../../examples/company/${name}`, import.meta.url))
const JSON_BODY = { 'content-type': 'application/json' }

const MODEL: ModelJson = {
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}
const DATA = {
  Item: [
    { ID: 1, name: 'pen' },
    { ID: 2, name: 'ink' },
  ],
}

describe('startFixture (files, a real socket)', () => {
  let fx: ServedFixture
  beforeAll(async () => {
    fx = await startFixture({ model: company('model.json'), data: company('data.json') })
  })
  afterAll(() => fx.close())

  it('serves on 127.0.0.1 and a free port', async () => {
    expect(fx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(fx.port).toBeGreaterThan(0)
    const reply = await fetch(`${fx.url}/rest/Employee(1)?$attributes=firstName`)
    expect(reply.status).toBe(200)
    expect(await reply.json()).toMatchObject({ __KEY: '1', firstName: 'Greta' })
  })

  it('reset puts back what requests changed, keys and stamps included', async () => {
    const post = (body: unknown) =>
      fetch(`${fx.url}/rest/Employee?$method=update`, {
        method: 'POST',
        headers: JSON_BODY,
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ __KEY: string; __STAMP: number }>)
    const created = await post({ lastName: 'Curie', salary: 4500 })
    expect(created.__KEY).toBe('361')
    const updated = await post({ __KEY: '1', __STAMP: 1, salary: 1 })
    expect(updated.__STAMP).toBe(2)
    await fetch(`${fx.url}/rest/Employee(2)?$method=delete`, { method: 'POST' })
    expect(fx.ds.globalStamp).toBe(3)

    fx.reset()
    expect(fx.ds.globalStamp).toBe(0)
    const one = await fetch(`${fx.url}/rest/Employee(1)?$attributes=salary`).then((r) => r.json())
    expect(one).toMatchObject({ __STAMP: 1, salary: 55000 })
    expect((await fetch(`${fx.url}/rest/Employee(2)`)).status).toBe(200)
    expect((await fetch(`${fx.url}/rest/Employee(361)`)).status).toBe(404)
    // The next create gets the key the first one got.
    expect((await post({ lastName: 'Curie' })).__KEY).toBe('361')
  })

  it('close can be called twice', async () => {
    const other = await startFixture({ model: company('model.json') })
    await other.close()
    await other.close()
    await expect(fetch(`${other.url}/rest/$catalog`)).rejects.toThrow()
  })
})

describe('createFixture (objects, in-process)', () => {
  it('answers requests without a socket, and reset restores the data', async () => {
    const fx = await createFixture({ model: MODEL, data: DATA })
    const created = await fx.request('/rest/Item?$method=update', {
      method: 'POST',
      headers: JSON_BODY,
      body: JSON.stringify({ name: 'nib' }),
    })
    expect(await created.json()).toMatchObject({ __KEY: '3', name: 'nib' })
    const all = () =>
      fx
        .fetch(new Request('http://localhost/rest/Item?$attributes=name'))
        .then((r) => r.json() as Promise<{ __COUNT: number }>)
    expect((await all()).__COUNT).toBe(3)
    fx.reset()
    expect((await all()).__COUNT).toBe(2)
    expect(fx.ds.dataClass('Item').create({ name: 'again' }).key).toBe(3)
    // The handler is the one a server would use.
    expect(fx.rest.respond).toBeTypeOf('function')
  })

  it('reset drops entity sets and closes sessions, unless keepSessions', async () => {
    const fx = await createFixture({ model: MODEL, data: DATA })
    const kept = await fx
      .request('/rest/Item?$method=entityset')
      .then((r) => r.json() as Promise<{ __ENTITYSET: string }>)
    expect((await fx.request(kept.__ENTITYSET)).status).toBe(200)
    const login = await fx.request('/rest/$directory/login', {
      method: 'POST',
      headers: { 'username-4D': 'ada', 'password-4D': 'x' },
    })
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!
    const sessionId = cookie.split('=')[1]!
    expect(fx.ds.sessions.peek(sessionId)).toBeDefined()

    fx.reset({ keepSessions: true })
    expect(fx.ds.sessions.peek(sessionId)).toBeDefined()
    expect((await fx.request(kept.__ENTITYSET)).status).toBe(404)

    fx.reset()
    expect(fx.ds.sessions.peek(sessionId)).toBeUndefined()
    expect(fx.ds.sessions.size).toBe(0)
  })

  it('passes the clock through', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 9))
    const fx = await createFixture({ model: MODEL, data: DATA, clock })
    expect(fx.ds.clock).toBe(clock)
    clock.advance(60_000)
    fx.ds.dataClass('Item').update(1, { name: 'PEN' })
    const read = await fx.request('/rest/Item(1)').then((r) => r.json())
    expect(read).toMatchObject({ __TIMESTAMP: '2026-01-05T09:01:00.000Z' })
    fx.reset()
    // Reset does not move the clock; the data comes back with its load time.
    expect(clock.now()).toBe(Date.UTC(2026, 0, 5, 9, 1))
    const back = await fx.request('/rest/Item(1)').then((r) => r.json())
    expect(back).toMatchObject({ __TIMESTAMP: '2026-01-05T09:00:00.000Z', name: 'pen' })
  })

  it('mixes a model file with data given as an object, and the other way round', async () => {
    const a = await createFixture({
      model: company('model.json'),
      data: { Company: [{ ID: 1, name: 'Solo' }] },
    })
    expect(a.ds.dataClass('Company').all().length).toBe(1)
    const model = (await import(company('model.json'), { with: { type: 'json' } })).default
    const b = await createFixture({ model: model as ModelJson, data: company('data.json') })
    expect(b.ds.dataClass('Employee').all().length).toBe(360)
  })
})

describe('reset of pictures and BLOBs', () => {
  it('reset puts back the pictures and BLOBs as loaded: bytes, types and versions', async () => {
    const fx = await startFixture({ model: BINARY_MODEL, data: binaryData() })
    try {
      const stored = storedBinaries(fx.ds)
      const served = await servedBinaries(fx.url)
      const update = (body: unknown) =>
        fetch(`${fx.url}/rest/Doc?$method=update`, {
          method: 'POST',
          headers: JSON_BODY,
          body: JSON.stringify(body),
        }).then((r) => r.status)
      const png = someBytes(20, [0x89, 0x50, 0x4e, 0x47])
      expect(
        await update({
          __KEY: 1,
          __STAMP: 1,
          picture: { $base64: Buffer.from(png).toString('base64') },
        }),
      ).toBe(200)
      expect(await update({ __KEY: 2, __STAMP: 1, file: null })).toBe(200)
      expect(storedBinaries(fx.ds)).not.toEqual(stored)

      fx.reset()
      expect(storedBinaries(fx.ds)).toEqual(stored)
      expect(await servedBinaries(fx.url)).toEqual(served)
    } finally {
      await fx.close()
    }
  })
})

describe('fixtures with class functions', () => {
  const post = (
    fx: { request: (p: string, i?: RequestInit) => Promise<Response> },
    path: string,
    body?: unknown,
  ) =>
    fx
      .request(path, { method: 'POST', headers: JSON_BODY, body: JSON.stringify(body ?? []) })
      .then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, any> }))

  it('loads a functions module by its path, and reset keeps the functions while it restores the data and the singletons', async () => {
    const fx = await createFixture({
      model: company('model.json'),
      data: company('data.json'),
      functions: company('functions.js'),
    })
    const raised = await post(fx, '/rest/Employee(1)/raise?$attributes=salary', [10])
    expect(raised).toMatchObject({ status: 200, json: { __KEY: '1', __STAMP: 2, salary: 60500 } })
    expect((await post(fx, '/rest/$singleton/Stats/status')).json).toEqual({ result: { calls: 2 } })

    fx.reset()
    expect(fx.ds.dataClass('Employee').get(1)!.get('salary')).toBe(55000)
    const again = await post(fx, '/rest/Employee(1)/raise?$attributes=salary', [10])
    expect(again.json).toMatchObject({ __STAMP: 2, salary: 60500 })
    expect(fx.ds.functions.find('entity', 'Employee', 'raise')?.exposed).toBe(true)
    // Singletons are made again after a reset: the state counts from this test's first call.
    expect((await post(fx, '/rest/$singleton/Stats/status')).json).toEqual({ result: { calls: 2 } })
  })

  it('takes the definitions themselves, on a socket too', async () => {
    const functions = defineFunctions({
      dataClasses: {
        Item: {
          entitySelection: {
            names: {
              exposed: true,
              onHTTPGet: true,
              call() {
                return this.toArray().map((e) => e.get('name'))
              },
            },
          },
        },
      },
    })
    const fx = await startFixture({ model: MODEL, data: DATA, functions })
    try {
      const reply = await fetch(`${fx.url}/rest/Item/names`)
      expect(await reply.json()).toEqual({ result: ['pen', 'ink'] })
    } finally {
      await fx.close()
    }
  })

  it('hands a model given as an object to a module that exports a function, and names a refused module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'entistore-fixture-functions-'))
    try {
      const factory = join(dir, 'factory.mjs')
      writeFileSync(
        factory,
        'export default ({ model }) => ({ dataStore: { modelName: { exposed: true, call: () => model.__NAME } } })\n',
      )
      const fx = await createFixture({ model: MODEL, functions: factory })
      expect((await post(fx, '/rest/$catalog/modelName')).json).toEqual({ result: 'shop' })

      const refused = join(dir, 'refused.mjs')
      writeFileSync(refused, 'export default { dataStore: { f: { call: 1 } } }\n')
      for (const model of [MODEL, company('model.json')]) {
        const error = await createFixture({ model, functions: refused }).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(FileError)
        expect((error as FileError).file).toBe(refused)
        expect((error as FileError).message).toBe(
          `${refused}: Invalid functions: functions.dataStore.f: "call" must be a function`,
        )
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('fixture errors', () => {
  it('names the missing or bad file', async () => {
    await expect(createFixture({ model: company('nope.json') })).rejects.toThrow(FileError)
    await expect(createFixture({ model: company('nope.json') })).rejects.toThrow(/nope\.json/)
    // A data file that does not fit an object model: the data file is named.
    const error = await createFixture({ model: MODEL, data: company('data.json') }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(FileError)
    expect((error as FileError).file).toBe(company('data.json'))
  })

  it('refuses bad data given as an object with the datastore’s own error', async () => {
    const bad = { Item: [{ ID: 'x' }] }
    await expect(createFixture({ model: MODEL, data: bad })).rejects.toSatisfy(DatastoreError.is)
  })

  it('refuses a missing model', async () => {
    await expect(createFixture({} as never)).rejects.toThrow(/model.*required/)
  })
})
