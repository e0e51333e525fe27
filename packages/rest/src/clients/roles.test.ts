/**
 * Issue 32: a real 4D project's `roles.json` (4D 20+ and Qodly's format), checked request by
 * request: three privileges (one including another), a role, permissions on the datastore, a
 * dataclass, an attribute and functions, a promotion, `restrictedByDefault`; privileges from a
 * users login and from `authentify` calling `setPrivileges`; the embedder's `authorize` hook on
 * top (both must allow).
 */
import {
  createDatastore,
  currentCall,
  defineFunctions,
  ManualClock,
  type DataFile,
  type ModelJson,
  type RolesJson,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandler } from '../handler.js'

const model: ModelJson = {
  __NAME: 'orchard',
  dataClasses: [
    {
      name: 'Farm',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'secretNote', type: 'string' },
      ],
    },
    {
      name: 'Tree',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string' },
      ],
    },
    {
      name: 'Price',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string' },
        { name: 'amount', type: 'number' },
      ],
    },
  ],
}

const data = (): DataFile => ({
  Farm: [{ ID: 1, name: 'Acme Farms', secretNote: 'buys cheap' }],
  Tree: [
    { ID: 1, species: 'Oak' },
    { ID: 2, species: 'Elm' },
  ],
  Price: [
    { ID: 1, species: 'Oak', amount: 120 },
    { ID: 2, species: 'Elm', amount: 80 },
  ],
})

/** In 4D's format, as 4D 21 writes it (tabs and key order aside). */
const roles: RolesJson = {
  privileges: [
    { privilege: 'reader', includes: [] },
    { privilege: 'editor', includes: ['reader'] },
    { privilege: 'pricing', includes: [] },
  ],
  roles: [{ role: 'Manager', privileges: ['editor', 'pricing'] }],
  permissions: {
    allowed: [
      {
        applyTo: 'ds',
        type: 'datastore',
        read: ['reader'],
        create: ['editor'],
        update: ['editor'],
        drop: ['editor'],
        execute: ['reader'],
      },
      { applyTo: 'Price', type: 'dataclass', read: ['pricing'], update: ['pricing'] },
      { applyTo: 'Farm.secretNote', type: 'attribute', read: ['editor'] },
      { applyTo: 'Tree.prices', type: 'method', execute: ['reader'], promote: ['pricing'] },
      { applyTo: 'Tree.pricesUnpromoted', type: 'method', execute: ['reader'] },
    ],
  },
  restrictedByDefault: true,
  forceLogin: false,
}

let sawPricing: boolean | undefined
const functions = defineFunctions({
  dataStore: {
    authentify: {
      exposed: true,
      params: ['object'],
      call(who: { name: string; privileges: string }) {
        currentCall()!.setPrivileges({ privileges: who.privileges, userName: who.name })
        return 'ok'
      },
    },
  },
  dataClasses: {
    Tree: {
      dataClass: {
        // The Prices of the trees' species: needs `pricing`, which only the promotion gives.
        prices: {
          exposed: true,
          call() {
            sawPricing = currentCall()!.hasPrivilege('pricing')
            return this.datastore.dataClass('Price').all()
          },
        },
        pricesUnpromoted: {
          exposed: true,
          call() {
            sawPricing = currentCall()!.hasPrivilege('pricing')
            return this.datastore.dataClass('Price').all()
          },
        },
      },
    },
  },
})

function setup(): RestHandler {
  const ds = createDatastore(model, {
    data: data(),
    clock: new ManualClock(Date.UTC(2024, 2, 15)),
    functions,
    roles,
  })
  return createRestHandler(ds, {
    authenticate: ({ user, password }) =>
      user === 'meg' && password === 'secret' ? { name: 'meg', roles: ['Manager'] } : null,
    // The embedder's own rule, on top of the file: nobody drops a Tree.
    authorize: (_session, action, target) => !(action === 'delete' && target.dataClass === 'Tree'),
  })
}

type Json = Record<string, any>

/** A client that keeps its session cookie, as 4D's clients do. */
function client(rest: RestHandler) {
  let cookie: string | undefined
  return async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await rest.request(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'content-type': 'application/json',
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie
    const json = JSON.parse(await res.text()) as Json
    return { status: res.status, json, errCode: json.__ERROR?.[0]?.errCode as number | undefined }
  }
}

describe("a 4D project's roles.json over REST", () => {
  it('refuses a guest everything restricted, and describes the catalog', async () => {
    const send = client(setup())
    expect(await send('/rest/Farm')).toMatchObject({ status: 403, errCode: 1557 })
    expect((await send('/rest/$catalog')).status).toBe(200)
    expect((await send('/rest/$catalog/Farm')).status).toBe(200)
    expect(await send('/rest/Tree/prices', [])).toMatchObject({ status: 403, errCode: 1561 })
    expect((await send('/rest/$info/privileges')).json).toEqual({ privileges: [] })
  })

  it('gives a reader what the file lets it read, and leaves out the attribute it may not', async () => {
    const send = client(setup())
    // authentify runs for guests whatever the file says (4D's force-login function).
    const login = await send('/rest/$catalog/authentify', [{ name: 'ann', privileges: 'reader' }])
    expect(login.status).toBe(200)
    expect((await send('/rest/$info/privileges')).json).toEqual({
      privileges: [{ privilege: 'reader' }],
    })
    const farms = await send('/rest/Farm')
    expect(farms.status).toBe(200)
    expect(farms.json.__ENTITIES[0].name).toBe('Acme Farms')
    expect(farms.json.__ENTITIES[0]).not.toHaveProperty('secretNote')
    expect(await send('/rest/Farm?$attributes=secretNote')).toMatchObject({
      status: 403,
      errCode: 1607,
    })
    expect(await send('/rest/Price')).toMatchObject({ status: 403, errCode: 1557 })
    expect(await send('/rest/Farm?$method=update', { __KEY: '1', name: 'x' })).toMatchObject({
      status: 403,
      errCode: 1558,
    })
    expect(await send('/rest/Farm?$method=update', { name: 'New' })).toMatchObject({
      status: 403,
      errCode: 1559,
    })
  })

  it("promotes a function's privilege while it runs, and only then", async () => {
    const send = client(setup())
    await send('/rest/$catalog/authentify', [{ name: 'ann', privileges: 'reader' }])
    sawPricing = undefined
    const prices = await send('/rest/Tree/prices', [])
    expect(prices.status).toBe(200)
    expect(prices.json.__ENTITIES.map((p: Json) => p.amount)).toEqual([120, 80])
    expect(sawPricing).toBe(true)
    // Without the promotion the same function's reply is refused; after it, Price is closed again.
    expect(await send('/rest/Tree/pricesUnpromoted', [])).toMatchObject({
      status: 403,
      errCode: 1557,
    })
    expect(sawPricing).toBe(false)
    expect(await send('/rest/Price')).toMatchObject({ status: 403, errCode: 1557 })
    expect((await send('/rest/$info/privileges')).json.privileges).toEqual([
      { privilege: 'reader' },
    ])
  })

  it("gives a logged-in user their role's privileges and what they include", async () => {
    const send = client(setup())
    const login = await send(
      '/rest/$directory/login',
      {},
      {
        'username-4D': 'meg',
        'password-4D': 'secret',
      },
    )
    expect(login.status).toBe(200)
    expect((await send('/rest/$info/privileges')).json.privileges).toEqual([
      { privilege: 'reader' },
      { privilege: 'editor' },
      { privilege: 'pricing' },
    ])
    expect((await send('/rest/Farm')).json.__ENTITIES[0].secretNote).toBe('buys cheap')
    expect((await send('/rest/Farm?$method=update', { __KEY: '1', name: 'Acme' })).status).toBe(200)
    expect((await send('/rest/Price(1)')).json.amount).toBe(120)
    expect((await send('/rest/Farm?$method=update', { name: 'Zeta' })).status).toBe(200)
    // The embedder's hook refuses too: both must allow.
    expect(await send('/rest/Tree(1)?$method=delete', {})).toMatchObject({
      status: 403,
      errCode: 1560,
    })
    expect((await send('/rest/Farm(2)?$method=delete', {})).status).toBe(200)
  })
})
