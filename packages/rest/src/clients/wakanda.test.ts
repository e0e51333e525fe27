/**
 * Issue 32: Wakanda's dialect, as `wakanda-client` 3.1.0 (Wakanda's JavaScript client, whose REST
 * interface 4D inherited) sends it. One test per client behaviour; docs/compat.md lists each.
 */
import { createDatastore, defineFunctions, ManualClock, type Datastore } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandler } from '../handler.js'
import { ORCHARD_MODEL as model, orchardData as data } from './orchard.fixture.js'

const functions = defineFunctions({
  dataClasses: {
    Tree: {
      entitySelection: {
        oldOnes: {
          exposed: true,
          params: ['number'],
          call(min: number) {
            return this.toArray()
              .filter((t) => (t.get('age') as number) >= min)
              .map((t) => t.get('species'))
          },
        },
        hiddenOnes: { call: () => 'never over REST' },
      },
    },
  },
})

function setup(users = false): { ds: Datastore; rest: RestHandler } {
  const ds = createDatastore(model, {
    data: data(),
    clock: new ManualClock(Date.UTC(2024, 2, 15)),
    functions,
    calculated: {
      Tree: { label: (tree) => `${String(tree.get('species'))} (${String(tree.get('age'))})` },
    },
  })
  const rest = createRestHandler(
    ds,
    users
      ? {
          authenticate: ({ user, password }) =>
            user === 'ada' && password === 'secret' ? { name: 'ada' } : null,
        }
      : {},
  )
  return { ds, rest }
}

type Json = Record<string, any>

async function send(
  rest: RestHandler,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Json; cookie: string | undefined }> {
  const res = await rest.request(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return {
    status: res.status,
    json: JSON.parse(text) as Json,
    cookie: res.headers.get('set-cookie')?.split(';')[0],
  }
}

describe("wakanda-client's dialect", () => {
  it('reads the catalog of several dataclasses at once (getCatalog(["Farm", "Tree"]))', async () => {
    const { rest } = setup()
    const r = await send(rest, '/rest/$catalog/Tree,Farm')
    expect(r.status).toBe(200)
    const names = (r.json.dataClasses as Json[]).map((d) => d.name)
    expect(names).toEqual(['Tree', 'Farm'])
    const tree = (r.json.dataClasses as Json[])[0]!
    const all = (await send(rest, '/rest/$catalog/$all')).json.dataClasses as Json[]
    expect(tree).toEqual(all.find((d) => d.name === 'Tree'))
    expect((tree.attributes as Json[]).map((a) => a.name)).toContain('label')
    // One name is still 4D's bare dataclass object.
    expect((await send(rest, '/rest/$catalog/Farm')).json.name).toBe('Farm')
    expect((await send(rest, '/rest/$catalog/Farm,Barn')).status).toBe(404)
  })

  it('creates an entity whose unset autosequence key it sends as null (entity.save())', async () => {
    const { ds, rest } = setup()
    const r = await send(rest, '/rest/Tree?$method=update', {
      ID: null,
      species: 'Fir',
      age: 3,
      farm: '2',
    })
    expect(r.status).toBe(200)
    expect(r.json.__KEY).toBe('4')
    expect(r.json.ID).toBe(4)
    expect(ds.dataClass('Tree').get(4)?.get('species')).toBe('Fir')
    // A generated uuid key the same way; and from TypeScript too.
    const visit = await send(rest, '/rest/Visit?$method=update', { ID: null, note: 'spring' })
    expect(visit.status).toBe(200)
    expect(visit.json.__KEY).toMatch(/^[0-9A-F]{32}$/)
    expect(ds.dataClass('Tree').create({ ID: null, species: 'Yew' }).getKey()).toBe(5)
    // A key that nothing would generate stays refused when null, and an update cannot null it.
    expect((await send(rest, '/rest/Tree?$method=update', { __KEY: '1', ID: null })).status).toBe(
      400,
    )
  })

  it('recomputes an entity without saving it (entity.recompute(): $refresh=true)', async () => {
    const { ds, rest } = setup()
    const trees = ds.dataClass('Tree')
    const before = trees.get(2)!
    const r = await send(rest, '/rest/Tree?$method=update&$refresh=true', {
      __KEY: '2',
      __STAMP: before.getStamp(),
      age: 9,
    })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      __entityModel: 'Tree',
      __KEY: '2',
      __STAMP: before.getStamp(),
      age: 9,
      label: 'Elm (9)',
    })
    expect(trees.get(2)).toBe(before)
    // A new entity: its computations, stamp 0, and nothing made (the next create gets key 4).
    const fresh = await send(rest, '/rest/Tree?$method=update&$refresh=true', {
      ID: null,
      species: 'Fir',
      age: 1,
    })
    expect(fresh.status).toBe(200)
    expect(fresh.json).toMatchObject({ __STAMP: 0, species: 'Fir', label: 'Fir (1)' })
    expect(trees.length).toBe(3)
    expect(trees.create({ species: 'Fir' }).getKey()).toBe(4)
    // A refused save answers as an update does; an array is refused.
    const wrong = await send(rest, '/rest/Tree?$method=update&$refresh=true', {
      __KEY: '2',
      age: 'old',
    })
    expect(wrong.status).toBe(400)
    expect(wrong.json.__ERROR[0].errCode).toBe(1570)
    expect(
      (await send(rest, '/rest/Tree?$method=update&$refresh=true', [{ species: 'Fir' }])).status,
    ).toBe(400)
  })

  it('calls a selection function on a related collection ($method=subentityset&$emMethod)', async () => {
    const { rest } = setup()
    const path = '/rest/Farm(1)/trees?$expand=trees&$method=subentityset&$emMethod=oldOnes'
    const r = await send(rest, path, [50])
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ result: ['Oak'] })
    expect((await send(rest, path.replace('oldOnes', 'hiddenOnes'), [])).status).toBe(404)
    expect((await send(rest, '/rest/Farm?$emMethod=oldOnes', [])).status).toBe(400)
    expect(
      (await send(rest, '/rest/Tree(1)/farm?$method=subentityset&$emMethod=oldOnes', [])).status,
    ).toBe(400)
  })

  it('updates an entity POSTed to its own URL without $method (clearing a picture)', async () => {
    const { ds, rest } = setup()
    const farm = ds.dataClass('Farm').get(1)!
    expect(farm.get('logo')).not.toBeNull()
    const r = await send(rest, '/rest/Farm(1)', {
      __KEY: '1',
      __STAMP: farm.getStamp(),
      logo: null,
    })
    expect(r.status).toBe(200)
    expect(r.json.__STAMP).toBe(farm.getStamp() + 1)
    expect(ds.dataClass('Farm').get(1)!.get('logo')).toBeNull()
    // The stamp is checked as for any update; another key, or none, is refused as before.
    expect((await send(rest, '/rest/Farm(1)', { __KEY: '1', __STAMP: 1, name: 'x' })).status).toBe(
      409,
    )
    expect(
      (await send(rest, '/rest/Farm(1)', { __KEY: '2', name: 'x' })).json.__ERROR[0].errCode,
    ).toBe(1813)
    expect((await send(rest, '/rest/Farm(1)', { name: 'x' })).json.__ERROR[0].errCode).toBe(1813)
  })

  it('logs in with a JSON array body (directory.login(user, password, duration))', async () => {
    const { rest } = setup(true)
    const refused = await send(rest, '/rest/$directory/login', ['ada', 'wrong', 3600])
    expect(refused.status).toBe(401)
    const login = await send(rest, '/rest/$directory/login', ['ada', 'secret', 7200])
    expect(login.status).toBe(200)
    expect(login.json).toEqual({ result: true })
    const me = await send(rest, '/rest/$directory/currentUser', undefined, {
      cookie: login.cookie!,
    })
    expect(me.json.result.userName).toBe('ada')
    // Its timeout in seconds: 7,200 s; 600 s is raised to the hour, as session-4D-length is.
    const lifeTime = async (cookie: string) =>
      ((await send(rest, '/rest/$info', undefined, { cookie })).json.sessionInfo as Json[]).find(
        (x) => x.userName === 'ada',
      )?.lifeTime
    expect(await lifeTime(login.cookie!)).toBe(7200)
    const short = await send(rest, '/rest/$directory/login', ['ada', 'secret', 600])
    expect(await lifeTime(short.cookie!)).toBe(3600)
    expect((await send(rest, '/rest/$directory/login', ['ada', 'secret'])).status).toBe(200)
    expect((await send(rest, '/rest/$directory/login', ['ada', 'secret', null])).status).toBe(200)
    const bad = await send(rest, '/rest/$directory/login', ['ada', 'secret', 'soon'])
    expect(bad.status).toBe(400)
    expect((await send(rest, '/rest/$directory/login', ['ada', 'secret', -5])).status).toBe(400)
  })
})
