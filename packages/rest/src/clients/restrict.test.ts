/**
 * Issue 32: a dataclass's `restrict` event (4D 20 R5) over REST: the trees of the farms a
 * session's user may see, and nothing else, whichever way a request reads them.
 */
import {
  createDatastore,
  defineFunctions,
  sessionUser,
  type DataFile,
  type ModelJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Farm',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'trees', kind: 'relatedEntities', path: 'farm' },
      ],
    },
    {
      name: 'Tree',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string' },
        { name: 'age', type: 'long' },
        { name: 'farmID', type: 'long' },
        { name: 'farm', kind: 'relatedEntity', path: 'Farm', foreignKey: 'farmID' },
      ],
    },
  ],
}
const data: DataFile = {
  Farm: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Zeta' },
  ],
  Tree: [
    { ID: 1, species: 'Oak', age: 120, farmID: 1 },
    { ID: 2, species: 'Elm', age: 8, farmID: 1 },
    { ID: 3, species: 'Ash', age: 60, farmID: 2 },
  ],
}

const functions = defineFunctions({
  dataClasses: {
    Tree: {
      // A user sees the trees of the farms named in their groups; a guest sees none.
      restrict({ session }) {
        const farms = (session && sessionUser(session)?.groups?.map(Number)) ?? []
        return this.query('farmID in :1', farms)
      },
    },
  },
})

function setup() {
  const ds = createDatastore(model, { data: structuredClone(data), functions })
  const rest = createRestHandler(ds, {
    authenticate: ({ user }) => (user === 'ann' ? { name: 'ann', groups: ['1'] } : null),
  })
  let cookie: string | undefined
  const send = async (path: string, body?: unknown) => {
    const res = await rest.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie
    const json = (await res.json()) as Record<string, any>
    return { status: res.status, json, errCode: json.__ERROR?.[0]?.errCode as number | undefined }
  }
  const login = () =>
    rest
      .request('/rest/$directory/login', {
        method: 'POST',
        headers: { 'username-4D': 'ann', 'password-4D': 'x', ...(cookie ? { cookie } : {}) },
      })
      .then((res) => {
        cookie = res.headers.get('set-cookie')!.split(';')[0]
      })
  return { ds, send, login }
}

const keys = (json: Record<string, any>): string[] =>
  (json.__ENTITIES as { __KEY: string }[]).map((e) => e.__KEY)

describe('a restrict event over REST', () => {
  it('narrows queries, counts, keys, relations, $compute, $distinct and entity sets', async () => {
    const { send, login } = setup()
    expect((await send('/rest/Tree')).json.__COUNT).toBe(0)
    await login()
    const all = await send('/rest/Tree')
    expect(all.json.__COUNT).toBe(2)
    expect(keys(all.json)).toEqual(['1', '2'])
    expect(keys((await send('/rest/Tree?$filter="age>1"')).json)).toEqual(['1', '2'])
    expect(await send('/rest/Tree(3)')).toMatchObject({ status: 404, errCode: 1542 })
    expect((await send('/rest/Tree(1)')).json.species).toBe('Oak')
    expect((await send('/rest/Farm(2)/trees')).json.__COUNT).toBe(0)
    expect((await send('/rest/Tree/age?$compute=sum')).json).toBe(128)
    expect((await send('/rest/Tree/species?$distinct=true')).json).toEqual(['Elm', 'Oak'])
    const set = await send('/rest/Tree?$method=entityset')
    const id = String(set.json.__ENTITYSET).split('/').at(-1)
    expect((await send(`/rest/Tree/$entityset/${id}`)).json.__COUNT).toBe(2)
  })

  it('refuses an update or a delete of an entity outside it, as a missing one', async () => {
    const { ds, send, login } = setup()
    await login()
    expect(await send('/rest/Tree?$method=update', { __KEY: '3', age: 61 })).toMatchObject({
      status: 404,
      errCode: 1542,
    })
    expect(await send('/rest/Tree(3)?$method=delete', {})).toMatchObject({ status: 404 })
    // From TypeScript without a session the restrict sees a guest: count the stored rows.
    expect(ds.dataClass('Tree').length).toBe(3)
    expect((await send('/rest/Tree?$method=update', { __KEY: '1', age: 121 })).status).toBe(200)
  })
})
