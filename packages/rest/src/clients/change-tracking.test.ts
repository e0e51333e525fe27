/**
 * Issue 50: 4D's data change tracking over REST, as a sync client uses it (4D docs, "ORDA / Using
 * the Global Stamp"; 4D for iOS and Android reload only what changed): the modified entities are
 * `$filter="__GlobalStamp > :1"`, the deleted ones the `__DeletedRecords` rows with `__Stamp > :1`
 * of their table, the stamp to keep is the envelope's `__GlobalStamp` (or `getGlobalStamp()`).
 */
import {
  createDatastore,
  defineFunctions,
  globalStampFunctions,
  type FunctionsDef,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'salary', type: 'number' },
        // As a catalog saved from a 4D server with tracking on shows it.
        { name: '__GlobalStamp', kind: 'storage', type: 'long64', indexed: true },
      ],
    },
    {
      name: 'Secret',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: '__GlobalStamp', type: 'long64' },
      ],
    },
  ],
}

function setup(roles?: object, functions?: FunctionsDef) {
  const ds = createDatastore(model, {
    data: {
      Employee: [
        { ID: 1, name: 'Ann', salary: 5000 },
        { ID: 2, name: 'Bob', salary: 4000 },
        { ID: 3, name: 'Cy', salary: 3000 },
      ],
      Secret: [{ ID: 1 }, { ID: 2 }],
    },
    ...(roles ? { roles: roles as never } : {}),
    ...(functions ? { functions } : {}),
  })
  const rest = createRestHandler(ds)
  const send = async (path: string, body?: unknown) => {
    const res = await rest.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await res.json()) as any
    return { status: res.status, json, errCode: json?.__ERROR?.[0]?.errCode as number | undefined }
  }
  return { ds, send }
}

const names = (json: any): string[] => json.__ENTITIES.map((e: any) => e.name).sort()

describe('change tracking over REST', () => {
  it('an incremental sync: entities changed since a stamp, and the deleted rows since it', async () => {
    const { send } = setup()
    // The first pull: every entity, and the stamp to keep from the envelope.
    const first = await send('/rest/Employee')
    expect(first.json.__COUNT).toBe(3)
    const kept = first.json.__GlobalStamp as number
    expect(kept).toBe(0)
    expect(first.json.__ENTITIES[0].__GlobalStamp).toBe(0)

    // Changes made by others.
    await send('/rest/Employee?$method=update', { __KEY: '1', salary: 5100 })
    const made = await send('/rest/Employee?$method=update', { name: 'Dee', salary: 1 })
    expect(made.json.__GlobalStamp).toBe(2)
    expect((await send('/rest/Employee(2)?$method=delete', {})).status).toBe(200)

    // The sync, as 4D's page writes it.
    const changed = await send(`/rest/Employee?$filter="__GlobalStamp>${kept}"`)
    expect(names(changed.json)).toEqual(['Ann', 'Dee'])
    expect(changed.json.__GlobalStamp).toBe(4)
    const deleted = await send(
      `/rest/__DeletedRecords?$filter="__Stamp>:1 AND __TableName=:2"&$params='[${kept},"Employee"]'`,
    )
    expect(deleted.status).toBe(200)
    expect(deleted.json.__ENTITIES).toMatchObject([
      { __PrimaryKey: '2', __Stamp: 3, __TableName: 'Employee', __TableNumber: 1 },
    ])
    // Nothing since the new stamp.
    const again = await send(`/rest/Employee?$filter="__GlobalStamp>4"`)
    expect(again.json.__COUNT).toBe(0)
    // Sorted by stamp, most recent first.
    const recent = await send('/rest/Employee?$orderby="__GlobalStamp desc"&$top=1')
    expect(recent.json.__ENTITIES[0].name).toBe('Dee')
  })

  it('the catalog shows the stamp attribute and __DeletedRecords', async () => {
    const { send } = setup()
    const catalog = await send('/rest/$catalog/$all')
    const byName = new Map<string, any>(catalog.json.dataClasses.map((d: any) => [d.name, d]))
    expect([...byName.keys()]).toEqual(['Employee', 'Secret', '__DeletedRecords'])
    expect(
      byName.get('Employee').attributes.find((a: any) => a.name === '__GlobalStamp'),
    ).toMatchObject({ kind: 'storage', type: 'long64', indexed: true, readOnly: true })
  })

  it('a project that exposes the stamp functions gets them over REST, under execute', async () => {
    const exposed = defineFunctions({ dataStore: { ...globalStampFunctions } })
    const { send } = setup(undefined, exposed)
    const catalog = await send('/rest/$catalog')
    expect(catalog.json.methods.map((m: any) => m.name)).toEqual([
      'getGlobalStamp',
      'setGlobalStamp',
    ])
    expect((await send('/rest/$catalog/getGlobalStamp')).json).toEqual({ result: 0 })
    expect((await send('/rest/$catalog/setGlobalStamp', [1000])).status).toBe(200)
    expect((await send('/rest/$catalog/getGlobalStamp', [])).json).toEqual({ result: 1000 })
    const bad = await send('/rest/$catalog/setGlobalStamp', [-5])
    expect(bad.status).toBe(400)
    expect(bad.json.__ERROR).toBeDefined()
    const made = await send('/rest/Employee?$method=update', { name: 'Eve' })
    expect(made.json.__GlobalStamp).toBe(1001)
    // Only the one a project exposes, and only for the sessions its roles file lets execute it.
    const reading = setup(
      {
        privileges: [{ privilege: 'ops', includes: [] }],
        roles: [],
        permissions: {
          allowed: [
            { applyTo: 'ds', type: 'datastore', read: ['guest'], execute: ['guest'] },
            { applyTo: 'ds.setGlobalStamp', type: 'method', execute: ['ops'] },
          ],
        },
      },
      exposed,
    )
    expect((await reading.send('/rest/$catalog/getGlobalStamp')).json).toEqual({ result: 0 })
    expect((await reading.send('/rest/$catalog/setGlobalStamp', [5])).status).toBe(403)
    expect(reading.ds.getGlobalStamp()).toBe(0)
  })

  it('a reader with execute on the datastore cannot set the stamp back: the built-ins are not REST functions', async () => {
    // The project's own function that is not exposed: what the built-ins must answer.
    const hidden = defineFunctions({ dataStore: { hidden: { call: () => 1 } } })
    const { ds, send } = setup(
      {
        privileges: [],
        roles: [],
        permissions: {
          allowed: [{ applyTo: 'ds', type: 'datastore', read: ['guest'], execute: ['guest'] }],
        },
      },
      hidden,
    )
    ds.dataClass('Employee').get(1)!.edit({ name: 'Ann B' }).saveOrFail()
    const before = ds.getGlobalStamp()
    expect(before).toBe(1)
    const set = await send('/rest/$catalog/setGlobalStamp', [0])
    expect(set).toMatchObject({ status: 404, errCode: 1573 })
    expect(ds.getGlobalStamp()).toBe(before)
    expect((await send('/rest/$catalog/hidden', [0])).errCode).toBe(1573)
    // Not listed, and not readable either (a GET names a dataclass's catalog, 1800, as for any
    // name): the envelope's __GlobalStamp is the stamp to keep.
    expect((await send('/rest/$catalog')).json.methods ?? []).toEqual([])
    expect((await send('/rest/$catalog/getGlobalStamp', [])).errCode).toBe(1573)
    const read = await send('/rest/$catalog/getGlobalStamp')
    expect(read).toMatchObject({ status: 404, errCode: 1800 })
    expect((await send('/rest/$catalog/hidden')).errCode).toBe(1800)
    expect((await send('/rest/Employee?$top=0')).json.__GlobalStamp).toBe(before)
  })

  it('the stamp cannot be written, but an entity saved back as it was read is accepted', async () => {
    const { send } = setup()
    const refused = await send('/rest/Employee?$method=update', { __KEY: '1', __GlobalStamp: 77 })
    expect(refused).toMatchObject({ status: 400, errCode: 1516 })
    const read = (await send('/rest/Employee(1)')).json
    const saved = await send('/rest/Employee?$method=update', {
      __KEY: read.__KEY,
      __STAMP: read.__STAMP,
      name: 'Ann B',
      salary: read.salary,
      __GlobalStamp: read.__GlobalStamp,
    })
    expect(saved.status).toBe(200)
    expect(saved.json.__GlobalStamp).toBe(1)
  })

  it('a batch, atomic or not, answers the stamps its commit wrote', async () => {
    const { send } = setup()
    const atomic = await send('/rest/Employee?$method=update&$atomic=true', [
      { name: 'A' },
      { __KEY: '1', salary: 1 },
    ])
    expect(atomic.json.__ENTITIES.map((e: any) => e.__GlobalStamp)).toEqual([1, 2])
    const one = await send('/rest/Employee?$method=update', [{ name: 'B' }, { name: 'C' }])
    expect(one.json.__ENTITIES.map((e: any) => e.__GlobalStamp)).toEqual([3, 4])
  })

  it('a session that may not read a dataclass sees none of its deleted rows', async () => {
    const { ds, send } = setup({
      privileges: [{ privilege: 'hr', includes: [] }],
      roles: [],
      permissions: {
        allowed: [
          { applyTo: 'Employee', type: 'dataclass', read: ['guest'] },
          { applyTo: '__DeletedRecords', type: 'dataclass', read: ['guest'] },
          { applyTo: 'Secret', type: 'dataclass', read: ['hr'] },
        ],
      },
    })
    ds.dataClass('Secret').get(1)!.dropOrFail()
    ds.dataClass('Employee').get(3)!.dropOrFail()
    const rows = await send('/rest/__DeletedRecords')
    expect(rows.status).toBe(200)
    expect(rows.json.__ENTITIES.map((e: any) => e.__TableName)).toEqual(['Employee'])
    expect((await send('/rest/__DeletedRecords?$filter="__TableName=Secret"')).json.__COUNT).toBe(0)
  })
})
