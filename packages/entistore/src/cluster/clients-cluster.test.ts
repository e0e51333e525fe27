/**
 * Issue 48: the flows of the two real clients of the 4D lineage, locks included, run against
 * `entistore serve --workers 3 --postgres --redis`, as HTTP requests written the way each client
 * writes them (neither client library is a dependency):
 * - the 4D REST client: `$filter` and `$orderby` wrapped in double quotes with `\u0022` inside,
 *   other parameters form-encoded (`%24top=10`, `+` for a space, `%24lock=true`), keys raw in the
 *   path (`(3)` and `[3]`), `Content-Type: application/json` on every request, `{}` on empty POSTs,
 *   its session cookie sent back every time, the entity set's id read from the last segment of
 *   `__ENTITYSET`;
 * - `wakanda-client` 3.1.0: the requests rest/src/clients/wakanda.test.ts sends in process.
 *
 * Every request goes on a fresh connection, so that node:cluster hands a client's consecutive
 * requests to different workers. Each is also sent to an in-process reference (the same model,
 * data, functions and users, one handler), each client keeping a cookie for each side: the
 * cluster's status and `__ERROR` codes must be the reference's, and what the reply says is
 * checked besides.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDatastore, type DataFile } from '@entistore/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandler } from '../../../rest/src/handler.js'
import { json, send } from '../../../rest/src/node/conformance.fixture.js'
import { startCli, stopChildren, type CliProcess } from '../persist/cli-process.fixture.js'
import { usersAuthenticate } from '../serve/users.js'
import { postgresSkip, startPostgres, type PostgresServer } from './postgres-server.fixture.js'
import { redisMissing, startRedis, type RedisServer } from './redis-server.fixture.js'
import { ORCHARD_MODEL as MODEL, orchardData } from '../../../rest/src/clients/orchard.fixture.js'

const skip = postgresSkip ?? redisMissing()

// The orchard of wakanda.test.ts (orchard.fixture.ts) and two more trees, one named with a quote;
// its functions are written as a module the CLI loads.
const base = orchardData()
const DATA: DataFile = {
  ...base,
  Tree: [
    ...base['Tree']!,
    { ID: 4, species: 'Say "Yew"', age: 30, farmID: 2 },
    { ID: 5, species: 'Birch', age: 15, farmID: 2 },
  ],
}
// The functions module, as source: plain JavaScript, one object (load-functions.ts takes a plain
// object as the definitions), evaluated here too for the reference.
const FUNCTIONS = `export default {
  dataClasses: {
    Tree: {
      entitySelection: {
        oldOnes: {
          exposed: true,
          params: ['number'],
          call(min) {
            return this.toArray()
              .filter((t) => t.get('age') >= min)
              .map((t) => t.get('species'))
          },
        },
        hiddenOnes: { call: () => 'never over REST' },
      },
      computed: {
        label: { get: (tree) => tree.get('species') + ' (' + tree.get('age') + ')' },
      },
    },
  },
}
`
const USERS = { ada: { password: 'secret' }, bob: { password: 'hunter2' } }

type Json = Record<string, any>

interface Reply {
  readonly status: number
  readonly text: string
  readonly json: Json
  readonly errCodes: number[]
  /** The reference's reply to the same request. */
  readonly reference: Json
}

const errCodes = (body: Json): number[] =>
  Array.isArray(body?.__ERROR) ? (body.__ERROR as Json[]).map((e) => e.errCode as number) : []

const parse = (text: string): Json => {
  try {
    return JSON.parse(text) as Json
  } catch {
    return {}
  }
}

// A session cookie as a client keeps it: the name=value part of its Set-Cookie.
const sessionCookie = (setCookie: readonly string[]): string | undefined =>
  setCookie.map((c) => c.split(';')[0]!).find((c) => c.startsWith('4DSID'))

/**
 * One client: each request sent to the cluster on a fresh connection and to the reference, each
 * side with its own session cookie, entity set ids and generated keys (`{set:name}` in a target
 * stands for the id named so on each side, see `alias`). The statuses and `__ERROR` codes agree.
 */
class Client {
  private cookie: { cluster?: string; reference?: string } = {}
  private readonly sets = new Map<string, { cluster: string; reference: string }>()

  constructor(
    private readonly url: () => string,
    private readonly reference: () => RestHandler,
    /** The Content-Type of its requests, by method (none when undefined). */
    private readonly contentType: (method: 'GET' | 'POST') => string | undefined,
  ) {}

  async request(
    method: 'GET' | 'POST',
    target: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const on = (
      side: 'cluster' | 'reference',
    ): { target: string; headers: Record<string, string> } => ({
      target: target.replace(/\{set:(\w+)\}/g, (_, name: string) => this.sets.get(name)![side]),
      headers: {
        ...this.typeHeader(method),
        ...headers,
        ...(this.cookie[side] ? { cookie: this.cookie[side] } : {}),
      },
    })
    const c = on('cluster')
    const answer = await send(this.url(), {
      method,
      target: c.target,
      headers: c.headers,
      body: text,
    })
    const clusterCookie = sessionCookie(
      ([] as string[]).concat(
        (answer.headers['set-cookie'] as string | string[] | undefined) ?? [],
      ),
    )
    if (clusterCookie) this.cookie.cluster = clusterCookie
    const r = on('reference')
    const res = await this.reference().request(r.target, {
      method,
      headers: r.headers,
      body: text,
    })
    const referenceCookie = sessionCookie(res.headers.getSetCookie())
    if (referenceCookie) this.cookie.reference = referenceCookie
    const refText = await res.text()
    const clusterText = answer.body.toString('utf8')
    const reply: Reply = {
      status: answer.status,
      text: clusterText,
      json: parse(clusterText),
      errCodes: errCodes(parse(clusterText)),
      reference: parse(refText),
    }
    expect(
      { status: reply.status, errCodes: reply.errCodes },
      `${method} ${target}: the cluster answered ${clusterText}, the reference ${refText}`,
    ).toEqual({ status: res.status, errCodes: errCodes(parse(refText)) })
    return reply
  }

  private typeHeader(method: 'GET' | 'POST'): Record<string, string> {
    const type = this.contentType(method)
    return type === undefined ? {} : { 'content-type': type }
  }

  /** Makes `{set:name}` stand for these ids (a generated key, say) on each side. */
  alias(name: string, cluster: string, reference: string): void {
    this.sets.set(name, { cluster, reference })
  }

  get(target: string, headers?: Record<string, string>): Promise<Reply> {
    return this.request('GET', target, undefined, headers)
  }

  post(target: string, body: unknown, headers?: Record<string, string>): Promise<Reply> {
    return this.request('POST', target, body, headers)
  }

  /**
   * Makes `name` the set a reply's `__ENTITYSET` names on the cluster, the last segment of its
   * URL as the 4D client takes it; the reference's from its reply to the same request.
   */
  async keepSet(name: string, target: string, body?: unknown): Promise<Reply> {
    const reply = await this.request(body === undefined ? 'GET' : 'POST', target, body)
    const clusterSet = String(reply.json.__ENTITYSET ?? '')
    const referenceSet = String(reply.reference.__ENTITYSET ?? '')
    expect(clusterSet, reply.text).toMatch(/\/\$entityset\/[^/]+$/)
    expect(referenceSet).toMatch(/\/\$entityset\/[^/]+$/)
    this.alias(name, clusterSet.split('/').pop()!, referenceSet.split('/').pop()!)
    return reply
  }
}

const keys = (reply: Reply): string[] =>
  ((reply.json.__ENTITIES ?? []) as Json[]).map((e) => e.__KEY as string)

// A `$filter` or `$orderby` as the 4D client writes it: in double quotes, a quote inside as
// \u0022, spaces as `+`, the rest percent-encoded.
const quoted = (text: string): string =>
  encodeURIComponent(`"${text}"`)
    .replace(/%20/g, '+')
    .replace(/%5Cu0022/gi, '\\u0022')

describe.skipIf(skip !== undefined)('the two real clients against three workers', () => {
  let pg: PostgresServer | undefined
  let redis: RedisServer | undefined
  let cluster: CliProcess
  let folder: string
  let reference: RestHandler

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'entistore-clients-'))
    writeFileSync(join(folder, 'model.json'), JSON.stringify(MODEL))
    writeFileSync(join(folder, 'data.json'), JSON.stringify(DATA))
    writeFileSync(join(folder, 'functions.mjs'), FUNCTIONS)
    writeFileSync(join(folder, 'users.json'), JSON.stringify(USERS))
    const functions = (
      (await import(pathToFileURL(join(folder, 'functions.mjs')).href)) as { default: any }
    ).default
    reference = createRestHandler(
      createDatastore(MODEL, { data: structuredClone(DATA), functions }),
      {
        authenticate: usersAuthenticate(USERS),
        forceLogin: true,
      },
    )
    ;[pg, redis] = await Promise.all([startPostgres(), startRedis()])
    cluster = await startCli(
      [
        'serve',
        '-m',
        join(folder, 'model.json'),
        '-d',
        join(folder, 'data.json'),
        '-f',
        join(folder, 'functions.mjs'),
        '-u',
        join(folder, 'users.json'),
        '--port',
        '0',
        '--workers',
        '3',
        '--postgres',
        await pg.freshDatabase(),
        '--redis',
        redis.url,
        '--health-details',
      ],
      { ready: 'Workers: 3 processes share port' },
    )
  }, 120_000)

  afterAll(async () => {
    stopChildren()
    await Promise.all([pg?.stop(), redis?.stop()])
    if (folder) rmSync(folder, { recursive: true, force: true })
  })

  // The 4D client declares JSON on every request, GETs included.
  const fourD = (): Client =>
    new Client(
      () => cluster.url,
      () => reference,
      () => 'application/json',
    )
  // wakanda-client declares its JSON bodies a form (`request`'s `form: JSON.stringify(data)`), and
  // its GETs nothing.
  const wakanda = (): Client =>
    new Client(
      () => cluster.url,
      () => reference,
      (method) => (method === 'POST' ? 'application/x-www-form-urlencoded' : undefined),
    )

  it('spreads fresh connections over the three workers', async () => {
    const workers = new Set<number>()
    for (let i = 0; i < 12 && workers.size < 3; i++)
      workers.add(json(await send(cluster.url, { target: '/health' })).worker as number)
    expect(workers.size).toBe(3)
  })

  it('runs the 4D REST client flow', async () => {
    const a = fourD()
    // Refused before logging in (forceLogin), then logged in with 4D's headers and `{}`.
    expect((await a.get('/rest/Tree')).status).toBe(401)
    const login = await a.post(
      '/rest/$directory/login',
      {},
      {
        'username-4D': 'ada',
        'password-4D': 'secret',
      },
    )
    expect(login.json).toEqual({ result: true })
    // The catalog.
    const catalog = await a.get('/rest/$catalog')
    expect((catalog.json.dataClasses as Json[]).map((d) => d.name)).toEqual([
      'Farm',
      'Tree',
      'Visit',
    ])
    const all = await a.get('/rest/$catalog/$all')
    expect((all.json.dataClasses as Json[]).map((d) => d.name)).toEqual(['Farm', 'Tree', 'Visit'])
    // A list: quoted filter with \u0022 inside, quoted orderby, form-encoded paging, attributes, expand.
    const list = await a.get(
      `/rest/Tree?$filter=${quoted('age > 10 AND species != \\u0022Elm\\u0022')}` +
        `&$orderby=${quoted('age desc')}&%24top=3&%24skip=1&$attributes=species,age,farm` +
        `&$expand=farm`,
    )
    expect(list.status).toBe(200)
    expect(keys(list)).toEqual(['3', '4', '5'])
    expect(list.json.__COUNT).toBe(4)
    expect((list.json.__ENTITIES as Json[])[0]).toMatchObject({
      species: 'Ash',
      age: 60,
      farm: { __KEY: '2', name: 'Zeta Farms' },
    })
    // A value holding a quote, written \u0022 inside the typed quotes' escape.
    const yew = await a.get(`/rest/Tree?$filter=${quoted('species = \\u0022Say "Yew"\\u0022')}`)
    expect(keys(yew)).toEqual(['4'])
    // By key, both spellings.
    const three = await a.get('/rest/Tree(3)')
    expect(three.json).toMatchObject({ __KEY: '3', species: 'Ash', label: 'Ash (60)' })
    const bracket = await a.get('/rest/Tree[3]')
    expect(bracket.json).toMatchObject({ __KEY: '3', __STAMP: three.json.__STAMP })

    // Create, update with its stamp, a stale stamp refused.
    const created = await a.post('/rest/Tree?%24method=update', {
      species: 'Fir',
      age: 2,
      farmID: 1,
    })
    expect(created.json).toMatchObject({ __KEY: '6', species: 'Fir', __STAMP: 1 })
    const updated = await a.post('/rest/Tree?$method=update', {
      __KEY: '6',
      __STAMP: created.json.__STAMP,
      age: 3,
    })
    expect(updated.json).toMatchObject({ __KEY: '6', age: 3, __STAMP: 2 })
    const stale = await a.post('/rest/Tree?$method=update', {
      __KEY: '6',
      __STAMP: created.json.__STAMP,
      age: 4,
    })
    expect(stale.status).toBe(409)
    expect(stale.errCodes).toEqual([1263, 1046, 1517])
    expect((await a.get('/rest/Tree(6)')).json).toMatchObject({ age: 3, __STAMP: 2 })

    // Entity sets, read back through other workers by the id from `__ENTITYSET`.
    const made = await a.keepSet(
      'old',
      `/rest/Tree?$filter=${quoted('age >= 30')}&$method=entityset&%24timeout=600`,
    )
    expect(made.json.__COUNT).toBe(3)
    for (let i = 0; i < 4; i++)
      expect(keys(await a.get('/rest/Tree/$entityset/{set:old}?$orderby=' + quoted('ID')))).toEqual(
        ['1', '3', '4'],
      )
    await a.keepSet('farm2', `/rest/Tree?$filter=${quoted('farmID = 2')}&$method=entityset`)
    await a.keepSet('young', `/rest/Tree?$filter=${quoted('age < 10')}&$method=entityset`)
    const and = await a.keepSet(
      'and',
      '/rest/Tree/$entityset/{set:old}?$logicOperator=AND&$otherCollection={set:farm2}&$method=entityset',
    )
    expect(and.json.__COUNT).toBe(2)
    const or = await a.keepSet(
      'or',
      '/rest/Tree/$entityset/{set:old}?$logicOperator=OR&$otherCollection={set:young}&$method=entityset',
    )
    expect(or.json.__COUNT).toBe(5)
    const except = await a.get(
      '/rest/Tree/$entityset/{set:old}?$logicOperator=EXCEPT&$otherCollection={set:farm2}',
    )
    expect(keys(except)).toEqual(['1'])
    // Every worker lists the session's live sets in `$info`, as the one process does.
    for (let i = 0; i < 4; i++) {
      const info = await a.get('/rest/$info')
      const ids = (info.json.entitySet as Json[]).map((e) => e.id as string)
      expect(ids.length, info.text).toBe((info.reference.entitySet as Json[]).length)
      expect(ids).toContain(made.json.__ENTITYSET.split('/').pop())
    }
    const meets = await a.get(
      '/rest/Tree/$entityset/{set:old}?$logicOperator=INTERSECT&$otherCollection={set:farm2}',
    )
    expect(meets.text).toBe('true')
    const apart = await a.get(
      '/rest/Tree/$entityset/{set:old}?$logicOperator=intersect&$otherCollection={set:young}',
    )
    expect(apart.text).toBe('false')
    // A set of a relation's entities, read back through the others; a plain subentityset is not
    // implemented (9010), as in process (Wakanda's `$emMethod` form is, below).
    const trees = await a.keepSet('trees', '/rest/Farm(2)/trees?$method=entityset')
    expect(trees.json.__COUNT).toBe(3)
    expect((await a.get('/rest/Tree/$entityset/{set:trees}')).json.__COUNT).toBe(3)
    expect((await a.post('/rest/Farm(2)/trees?$method=subentityset', {})).errCodes).toEqual([9010])
    // Released through one worker, gone through all.
    expect((await a.get('/rest/Tree/$entityset/{set:old}?$method=release')).status).toBe(200)
    for (let i = 0; i < 3; i++)
      expect((await a.get('/rest/Tree/$entityset/{set:old}')).errCodes).toEqual([1802])
  })

  it('runs the wakanda-client flow', async () => {
    const w = wakanda()
    // directory.login(user, password, duration): a JSON array body.
    expect((await w.post('/rest/$directory/login', ['ada', 'wrong', 3600])).status).toBe(401)
    expect((await w.post('/rest/$directory/login', ['ada', 'secret', 7200])).json).toEqual({
      result: true,
    })
    expect((await w.get('/rest/$directory/currentUser')).json.result.userName).toBe('ada')
    const sessions = (await w.get('/rest/$info')).json.sessionInfo as Json[]
    expect(sessions.some((x) => x.userName === 'ada' && x.lifeTime === 7200)).toBe(true)
    expect((await w.post('/rest/$directory/login', ['ada', 'secret', 'soon'])).status).toBe(400)
    expect((await w.post('/rest/$directory/login', ['ada', 'secret', -5])).status).toBe(400)

    // getCatalog(["Tree", "Farm"]).
    const catalog = await w.get('/rest/$catalog/Tree,Farm')
    expect((catalog.json.dataClasses as Json[]).map((d) => d.name)).toEqual(['Tree', 'Farm'])
    const all = (await w.get('/rest/$catalog/$all')).json.dataClasses as Json[]
    expect((catalog.json.dataClasses as Json[])[0]).toEqual(all.find((d) => d.name === 'Tree'))
    expect((await w.get('/rest/$catalog/Farm')).json.name).toBe('Farm')
    expect((await w.get('/rest/$catalog/Farm,Barn')).status).toBe(404)

    // entity.save() of a new entity: the unset key sent as null; read back through the others.
    const fir = await w.post('/rest/Tree?$method=update', {
      ID: null,
      species: 'Fir',
      age: 3,
      farm: '2',
    })
    expect(fir.json).toMatchObject({ species: 'Fir', __STAMP: 1 })
    expect(fir.json.ID).toBe(Number(fir.json.__KEY))
    for (let i = 0; i < 3; i++)
      expect((await w.get(`/rest/Tree(${fir.json.__KEY as string})`)).json).toMatchObject({
        species: 'Fir',
        farmID: 2,
        label: 'Fir (3)',
      })
    const visit = await w.post('/rest/Visit?$method=update', { ID: null, note: 'spring' })
    expect(visit.json.__KEY).toMatch(/^[0-9A-F]{32}$/)
    w.alias('visit', visit.json.__KEY as string, visit.reference.__KEY as string)
    expect((await w.get(`/rest/Visit('{set:visit}')`)).json.note).toBe('spring')
    expect((await w.post('/rest/Tree?$method=update', { __KEY: '1', ID: null })).status).toBe(400)

    // entity.recompute(): $refresh=true computes without saving, on any worker.
    const birch = (await w.get('/rest/Tree(5)')).json
    const recomputed = await w.post('/rest/Tree?$method=update&$refresh=true', {
      __KEY: '5',
      __STAMP: birch.__STAMP,
      age: 16,
    })
    expect(recomputed.json).toMatchObject({
      __entityModel: 'Tree',
      __KEY: '5',
      __STAMP: birch.__STAMP,
      age: 16,
      label: 'Birch (16)',
    })
    for (let i = 0; i < 3; i++)
      expect((await w.get('/rest/Tree(5)')).json).toMatchObject({ age: 15, __STAMP: birch.__STAMP })
    const fresh = await w.post('/rest/Tree?$method=update&$refresh=true', {
      ID: null,
      species: 'Fir',
      age: 1,
    })
    expect(fresh.json).toMatchObject({ __STAMP: 0, species: 'Fir', label: 'Fir (1)' })
    // Nothing was made: the next create takes the key the recompute showed.
    const next = await w.post('/rest/Tree?$method=update', { ID: null, species: 'Yew', age: 1 })
    expect(next.json.__KEY).toBe(fresh.json.__KEY)
    const wrong = await w.post('/rest/Tree?$method=update&$refresh=true', {
      __KEY: '2',
      age: 'old',
    })
    expect(wrong.status).toBe(400)
    expect(wrong.errCodes[0]).toBe(1570)
    expect(
      (await w.post('/rest/Tree?$method=update&$refresh=true', [{ species: 'Fir' }])).status,
    ).toBe(400)

    // A selection function on a related collection ($method=subentityset&$emMethod).
    const path = '/rest/Farm(1)/trees?$expand=trees&$method=subentityset&$emMethod=oldOnes'
    expect((await w.post(path, [50])).json).toEqual({ result: ['Oak'] })
    expect((await w.post(path.replace('oldOnes', 'hiddenOnes'), [])).status).toBe(404)
    expect((await w.post('/rest/Farm?$emMethod=oldOnes', [])).status).toBe(400)
    expect(
      (await w.post('/rest/Tree(1)/farm?$method=subentityset&$emMethod=oldOnes', [])).status,
    ).toBe(400)

    // Clearing a picture: a POST to the entity's own URL, no $method; seen cleared everywhere.
    const farm = (await w.get('/rest/Farm(1)')).json
    expect(farm.logo).not.toBeNull()
    const cleared = await w.post('/rest/Farm(1)', {
      __KEY: '1',
      __STAMP: farm.__STAMP,
      logo: null,
    })
    expect(cleared.json.__STAMP).toBe((farm.__STAMP as number) + 1)
    for (let i = 0; i < 3; i++) expect((await w.get('/rest/Farm(1)')).json.logo ?? null).toBeNull()
    expect((await w.post('/rest/Farm(1)', { __KEY: '1', __STAMP: 1, name: 'x' })).status).toBe(409)
    expect((await w.post('/rest/Farm(1)', { __KEY: '2', name: 'x' })).errCodes[0]).toBe(1813)
    expect((await w.post('/rest/Farm(1)', { name: 'x' })).errCodes[0]).toBe(1813)

    // A kept selection: $method=entityset with $timeout and $savedfilter, read through the
    // others, released, remade from its saved filter under the same id.
    const filter = quoted('age >= 60')
    const kept = await w.keepSet(
      'kept',
      `/rest/Tree?$filter=${filter}&$method=entityset&$timeout=300&$savedfilter=${filter}`,
    )
    expect(kept.json.__COUNT).toBe(2)
    for (let i = 0; i < 3; i++)
      expect(keys(await w.get('/rest/Tree/$entityset/{set:kept}'))).toEqual(['1', '3'])
    expect((await w.get('/rest/Tree/$entityset/{set:kept}?$method=release')).status).toBe(200)
    expect((await w.get('/rest/Tree/$entityset/{set:kept}')).errCodes).toEqual([1802])
    const remade = await w.get(`/rest/Tree/$entityset/{set:kept}?$savedfilter=${filter}`)
    expect(keys(remade)).toEqual(['1', '3'])
    for (let i = 0; i < 3; i++)
      expect(keys(await w.get('/rest/Tree/$entityset/{set:kept}'))).toEqual(['1', '3'])
  })

  it('refuses session B a lock session A holds, however it is spelled, through every worker', async () => {
    const login = async (user: string, password: string): Promise<Client> => {
      const c = fourD()
      const r = await c.post(
        '/rest/$directory/login',
        {},
        {
          'username-4D': user,
          'password-4D': password,
        },
      )
      expect(r.json).toEqual({ result: true })
      return c
    }
    const a = await login('ada', 'secret')
    const b = await login('bob', 'hunter2')
    const locked = await a.get('/rest/Tree(2)?%24lock=true')
    expect(locked.status).toBe(200)
    expect(locked.json.result).toBe(true)
    // Again, in the literal spelling: still A's.
    expect((await a.get('/rest/Tree(2)?$lock=true')).json.result).toBe(true)
    // B, eight times each spelling, each on a fresh connection: refused every time.
    for (let i = 0; i < 8; i++) {
      for (const refused of [
        await b.get('/rest/Tree(2)?%24lock=true'),
        await b.get('/rest/Tree[2]?$lock=true'),
      ]) {
        expect(refused.status).toBe(200)
        expect(refused.json, refused.text).toMatchObject({
          result: false,
          __STATUS: { status: 3, statusText: 'Already locked', lockKindText: 'Locked by session' },
        })
      }
    }
    // B's update of the locked entity is refused; A's own goes through.
    const stamp = (await b.get('/rest/Tree(2)')).json.__STAMP as number
    for (let i = 0; i < 3; i++) {
      const update = await b.post('/rest/Tree?$method=update', {
        __KEY: '2',
        __STAMP: stamp,
        age: 9,
      })
      expect(update.status).toBe(409)
      expect(update.errCodes).toEqual([9070, 1517])
    }
    expect((await a.get('/rest/Tree(2)')).json).toMatchObject({ age: 8, __STAMP: stamp })
    // A lets go (`$lock=false`, percent-encoded too): B may lock, and then A may not.
    expect((await a.get('/rest/Tree(2)?%24lock=false')).status).toBe(200)
    const taken = await b.get('/rest/Tree(2)?%24lock=true')
    expect(taken.json.result).toBe(true)
    for (let i = 0; i < 4; i++)
      expect((await a.get('/rest/Tree(2)?$lock=true')).json.result).not.toBe(true)
    const byB = await b.post('/rest/Tree?$method=update', { __KEY: '2', __STAMP: stamp, age: 9 })
    expect(byB.json).toMatchObject({ age: 9, __STAMP: stamp + 1 })
    expect((await b.get('/rest/Tree(2)?$lock=false')).status).toBe(200)
    expect((await a.get('/rest/Tree(2)?%24lock=true')).json.result).toBe(true)
    expect((await a.get('/rest/Tree(2)?%24lock=false')).status).toBe(200)
  })
})
