/**
 * The OpenAPI description of a model with every attribute type and every kind of function:
 * valid OpenAPI 3.1 by the specification's own schemas, and true of the handler's real replies
 * (each reply below is checked against the description with Ajv, JSON Schema 2020-12).
 */
import {
  createDatastore,
  defineFunctions,
  ManualClock,
  singleton,
  type DataFile,
  type ModelJson,
} from '@entistore/core'
import { beforeAll, describe, expect, it } from 'vitest'
import { createRestHandler, openApiDocument, type RestHandler } from '../index.js'
import { ResponseCheck, validateOpenApi } from './response-check.fixture.js'

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const storage = (name: string, type: string, more: object = {}) => ({
  name,
  kind: 'storage',
  type,
  ...more,
})

/** One attribute of every type, relations both ways, calculated, alias, and what is hidden. */
const MODEL = {
  __NAME: 'everything',
  dataClasses: [
    {
      name: 'Thing',
      attributes: [
        storage('ID', 'long', { identifying: true, autosequence: true, unique: true }),
        storage('flag', 'bool'),
        storage('tiny', 'byte'),
        storage('small', 'word'),
        storage('big', 'long64'),
        storage('amount', 'number'),
        storage('spent', 'duration'),
        storage('label', 'string', { unique: true, not_null: true }),
        storage('code', 'uuid'),
        storage('day', 'date'),
        storage('at', 'date', { dateOnly: false }),
        storage('extra', 'object'),
        storage('embedding', 'object', { classID: '4D.Vector' }),
        storage('photo', 'image'),
        storage('file', 'blob'),
        storage('ownerCode', 'string'),
        {
          name: 'owner',
          kind: 'relatedEntity',
          type: 'Owner',
          path: 'Owner',
          foreignKey: 'ownerCode',
        },
        storage('secret', 'string', { exposed: false }),
        { name: 'vault', kind: 'relatedEntity', type: 'Vault', path: 'Vault' },
        { name: 'double', kind: 'calculated', type: 'number' },
        { name: 'ownerName', kind: 'alias', type: 'string', path: 'owner.name' },
        { name: 'ownerSince', kind: 'alias', type: 'date', path: 'owner.since' },
      ],
      key: [{ name: 'ID' }],
    },
    {
      name: 'Owner',
      attributes: [
        storage('code', 'string', { identifying: true }),
        storage('name', 'string'),
        storage('since', 'date'),
        {
          name: 'things',
          kind: 'relatedEntities',
          type: 'ThingSelection',
          path: 'owner',
          reversePath: true,
        },
      ],
      key: [{ name: 'code' }],
      methods: [{ name: 'legacy', applyTo: 'dataClass', exposed: true }],
    },
    {
      name: 'Vault',
      exposed: false,
      attributes: [storage('ID', 'long', { identifying: true })],
      key: [{ name: 'ID' }],
    },
  ],
} as unknown as ModelJson

const DATA = {
  Owner: [{ code: 'A', name: 'Ann', since: '2001-02-03' }],
  Thing: [
    {
      ID: 1,
      flag: true,
      tiny: -5,
      small: 300,
      big: 9007199254740000,
      amount: 1.5,
      spent: 3_600_000,
      label: 'one',
      code: '0123456789ABCDEF0123456789ABCDEF',
      day: '2020-01-02',
      at: '2020-01-02T03:04:05.000Z',
      extra: { city: 'Lyon', tags: ['a'] },
      embedding: [0.5, 0.25],
      photo: { $base64: PNG, type: 'image/png' },
      file: { $base64: 'AAEC', type: 'application/octet-stream' },
      ownerCode: 'A',
      secret: 's',
    },
    { ID: 2, label: 'two' },
  ],
} as unknown as DataFile

const FUNCTIONS = defineFunctions({
  dataStore: {
    hello: {
      exposed: true,
      onHTTPGet: true,
      params: ['string'],
      call: (name: string) => `hello ${name}`,
    },
    hidden: { call: () => 'never over REST' },
  },
  dataClasses: {
    Thing: {
      dataClass: {
        echo: {
          exposed: true,
          params: ['string', 'number', 'integer', 'boolean', 'date', 'object', 'array', 'any'],
          call: (...args: unknown[]) => args.length,
        },
        first: {
          exposed: true,
          call() {
            return this.all().first()
          },
        },
      },
      entity: {
        adopt: {
          exposed: true,
          params: [{ entity: 'Owner' }],
          call() {
            return this
          },
        },
      },
      entitySelection: {
        howMany: {
          exposed: true,
          onHTTPGet: true,
          call() {
            return this.length
          },
        },
        same: {
          exposed: true,
          params: [{ selection: 'Thing' }],
          call(other: unknown) {
            return other
          },
        },
      },
    },
  },
  singletons: {
    Counter: singleton(() => ({ n: 0 }), {
      next: {
        exposed: true,
        call() {
          return ++this.n
        },
      },
    }),
  },
})

const everything = () =>
  createDatastore(MODEL, {
    data: structuredClone(DATA),
    clock: new ManualClock(Date.UTC(2024, 0, 1)),
    calculated: { Thing: { double: (e) => ((e.get('amount') as number | null) ?? 0) * 2 } },
    functions: FUNCTIONS,
  })

let rest: RestHandler
let doc: ReturnType<typeof openApiDocument>
let check: ResponseCheck

beforeAll(async () => {
  const ds = everything()
  rest = createRestHandler(ds)
  doc = JSON.parse(await (await rest.request('/rest/$openapi')).text())
  check = new ResponseCheck(doc)
})

/** A request's status and JSON body. */
async function call(
  path: string,
  init?: RequestInit,
  to = rest,
): Promise<{ status: number; body: unknown }> {
  const res = await to.request(path, init)
  return { status: res.status, body: await res.json() }
}
const post = (
  path: string,
  body?: unknown,
  to = rest,
): Promise<{ status: number; body: unknown }> =>
  call(
    path,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    to,
  )

const schemas = () => (doc.components as { schemas: Record<string, any> }).schemas
const paths = () => doc.paths as Record<string, Record<string, any>>

describe('the OpenAPI description of a model', () => {
  it('is valid OpenAPI 3.1 by the specification schemas', async () => {
    const result = await validateOpenApi(doc)
    expect(result.errors).toBeUndefined()
    expect(result).toMatchObject({ valid: true, version: '3.1' })
  })

  it("is the generator's document, the same for every request", async () => {
    expect(doc).toEqual(openApiDocument(everything(), { sessionCookieName: '4DSID_everything' }))
    expect(await (await rest.request('/rest/$openapi')).text()).toBe(JSON.stringify(doc))
  })

  it('carries only the components something references, and servers (linters ask for both)', () => {
    const refs = new Set(JSON.stringify(doc).match(/"#\/components\/[^"]+"/g))
    const components = doc.components as Record<string, Record<string, unknown>>
    for (const kind of ['schemas', 'parameters', 'responses'])
      for (const name of Object.keys(components[kind]!))
        expect(refs, `${kind}/${name}`).toContain(`"#/components/${kind}/${name}"`)
    expect(Object.keys(components.responses!)).not.toContain('error500')
    expect(doc.servers).toEqual([{ url: '/' }])
  })

  it('shows what the model exposes and nothing else', () => {
    expect(Object.keys(schemas()).filter((n) => !n.startsWith('rest.'))).toEqual([
      ...[
        'Thing',
        'Thing.selection',
        'Thing.related',
        'Thing.plain',
        'Thing.input',
        'Thing.written',
      ],
      ...[
        'Owner',
        'Owner.selection',
        // No relatedEntities attribute reads Owners: no `Owner.related`.
        'Owner.plain',
        'Owner.input',
        'Owner.written',
      ],
    ])
    const thing = Object.keys(schemas().Thing.properties)
    expect(thing).not.toContain('secret')
    expect(thing).not.toContain('vault')
    expect(thing).toContain('ownerSince')
    expect(Object.keys(paths()).some((p) => p.includes('Vault') || p.includes('hidden'))).toBe(
      false,
    )
    // Every kind of function, at its URL, GET only for onHTTPGet.
    expect(Object.keys(paths()['/rest/$catalog/hello']!)).toEqual(['post', 'get'])
    expect(Object.keys(paths()['/rest/Thing/echo']!)).toEqual(['post'])
    expect(paths()['/rest/Thing({key})/adopt']).toBeDefined()
    expect(paths()['/rest/Thing/$entityset/{entitySetId}/howMany']).toBeDefined()
    expect(paths()['/rest/$singleton/Counter/next']).toBeDefined()
    // Declared by the model without code: there, and said to answer 501.
    expect(paths()['/rest/Owner/legacy']!.post.responses['501']).toBeDefined()
    const ids = Object.values(paths()).flatMap((item) =>
      Object.values(item).map((op) => op.operationId as string),
    )
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('declares each parameter once per operation (Redocly operation-parameters-unique)', () => {
    const shared = (doc.components as { parameters: Record<string, { name: string; in: string }> })
      .parameters
    const resolve = (p: { $ref?: string; name?: string; in?: string }) =>
      p.$ref ? shared[p.$ref.slice('#/components/parameters/'.length)]! : p
    const repeated: string[] = []
    for (const [path, item] of Object.entries(paths()))
      for (const [method, op] of Object.entries(item)) {
        const seen = new Set<string>()
        for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map(resolve)) {
          const id = `${p.in} ${p.name}`
          if (seen.has(id)) repeated.push(`${method.toUpperCase()} ${path}: ${id}`)
          seen.add(id)
        }
      }
    expect(repeated).toEqual([])
    // The one `$params` of a GET selection function: its arguments, and the filter's values.
    const get = paths()['/rest/Thing/howMany']!.get.parameters.map(resolve)
    expect(get.filter((p: { name: string }) => p.name === '$params')).toHaveLength(1)
  })

  it('gives each value type its JSON form', () => {
    const p = schemas().Thing.properties
    expect(p.ID).toMatchObject({ type: 'integer', format: 'int32' })
    expect(p.tiny).toMatchObject({ type: ['integer', 'null'], minimum: -128, maximum: 127 })
    expect(p.big).toMatchObject({ format: 'int64' })
    expect(p.day.pattern).toBe('^!!\\d{4}-\\d{2}-\\d{2}!!$')
    expect(p.at).toMatchObject({ type: ['string', 'null'], format: 'date-time' })
    expect(p.ownerSince.pattern).toBe(p.day.pattern)
    expect(p.photo.anyOf[0]).toEqual({ $ref: '#/components/schemas/rest.DeferredImage' })
    expect(p.file.anyOf[0]).toEqual({ $ref: '#/components/schemas/rest.DeferredBlob' })
    expect(p.embedding.anyOf ?? p.embedding).toBeDefined()
    expect(schemas().Owner.properties.things.anyOf).toEqual([
      { $ref: '#/components/schemas/rest.DeferredSelection' },
      { $ref: '#/components/schemas/Thing.related' },
    ])
    expect(paths()['/rest/Owner({key})']!.get.parameters[0].schema).toEqual({ type: 'string' })
  })
})

describe('the handler answers as its description says', () => {
  const reads: readonly [string, string][] = [
    ['/rest/Thing({key})', '/rest/Thing(1)'],
    ['/rest/Thing({key})', '/rest/Thing(2)'],
    ['/rest/Thing({key})', '/rest/Thing(1)?$expand=owner'],
    ['/rest/Thing({key})', '/rest/Thing(1)?$attributes=owner.*,extra.city'],
    ['/rest/Thing({key})', '/rest/Thing(1)?$lock=true'],
    ['/rest/Thing', '/rest/Thing'],
    ['/rest/Thing', '/rest/Thing?$filter="amount>1"&$orderby=label&$top=1&$queryplan=true'],
    ['/rest/Thing', '/rest/Thing?$asArray=true'],
    ['/rest/Thing', '/rest/Thing?$format=looker'],
    ['/rest/Thing', '/rest/Thing?$method=entityset'],
    ['/rest/Thing:{attribute}({value})', '/rest/Thing:label(one)'],
    ['/rest/Thing/{attribute}', '/rest/Thing/amount?$compute=$all'],
    ['/rest/Thing/{attribute}', '/rest/Thing/amount?$compute=sum'],
    ['/rest/Thing/{attribute}', '/rest/Thing/label?$distinct=true'],
    ['/rest/Thing({key})/owner', '/rest/Thing(1)/owner'],
    ['/rest/Thing({key})/owner', '/rest/Thing(2)/owner'],
    ['/rest/Owner({key})', "/rest/Owner('A')?$expand=things"],
    ['/rest/Owner({key})/things', "/rest/Owner('A')/things"],
    ['/rest/$catalog', '/rest/$catalog'],
    ['/rest/$catalog/$all', '/rest/$catalog/$all'],
    ['/rest/$catalog/{dataClass}', '/rest/$catalog/Thing'],
    ['/rest/$directory/currentUser', '/rest/$directory/currentUser'],
  ]
  it.each(reads)('GET %s: %s', async (path, url) => {
    const { status, body } = await call(url)
    expect(status).toBe(200)
    expect(check.reply(path, 'get', status, body)).toEqual([])
  })

  it('reads an entity set and answers its errors as described', async () => {
    const made = await call('/rest/Thing?$method=entityset')
    const id = String((made.body as { __ENTITYSET: string }).__ENTITYSET)
      .split('/')
      .pop()
    const set = await call(`/rest/Thing/$entityset/${id}`)
    expect(check.reply('/rest/Thing/$entityset/{entitySetId}', 'get', 200, set.body)).toEqual([])
    const gone = await call('/rest/Thing/$entityset/NOPE')
    expect(gone.status).toBe(404)
    expect(check.reply('/rest/Thing/$entityset/{entitySetId}', 'get', 404, gone.body)).toEqual([])
    const missing = await call('/rest/Thing(99)')
    expect(missing.status).toBe(404)
    expect(check.reply('/rest/Thing({key})', 'get', 404, missing.body)).toEqual([])
  })

  it('takes the writes it describes and answers them as described', async () => {
    const one = { __KEY: '1', __STAMP: 1, amount: 2, day: '!!2021-01-01!!', owner: { __KEY: 'A' } }
    const created = { label: 'three', spent: '01:00:00', photo: { $base64: PNG }, owner: 'A' }
    expect(check.request('/rest/Thing', 'post', one)).toEqual([])
    expect(check.request('/rest/Thing', 'post', [created])).toEqual([])
    expect(check.request('/rest/Thing', 'post', { nope: 1 })).not.toEqual([])
    // Its own data: the reads above hold a lock on Thing(1).
    const to = createRestHandler(everything())
    const saved = await post('/rest/Thing?$method=update', one, to)
    expect(saved.status).toBe(200)
    expect(check.reply('/rest/Thing', 'post', 200, saved.body)).toEqual([])
    const batch = await post('/rest/Thing?$method=update', [created, { label: 'one' }], to)
    expect(check.reply('/rest/Thing', 'post', 200, batch.body)).toEqual([])
    const stale = await post('/rest/Thing?$method=update', one, to)
    expect(stale.status).toBe(409)
    expect(check.reply('/rest/Thing', 'post', 409, stale.body)).toEqual([])
    const deleted = await post('/rest/Thing(2)?$method=delete', undefined, to)
    expect(check.reply('/rest/Thing({key})', 'post', 200, deleted.body)).toEqual([])
  })

  it('calls each kind of function with the arguments it describes', async () => {
    const args = ['a', 1.5, 2, true, '2020-01-01', {}, [], null]
    expect(check.request('/rest/Thing/echo', 'post', args)).toEqual([])
    // What the server refuses, the description refuses too: a ninth argument, a wrong type.
    expect(check.request('/rest/Thing/echo', 'post', [...args, 9])).not.toEqual([])
    expect((await post('/rest/Thing/echo', [...args, 9])).status).toBe(400)
    expect(check.request('/rest/Thing/echo', 'post', [1])).not.toEqual([])
    expect((await post('/rest/Thing/echo', [1])).status).toBe(400)
    const owner = [{ __DATACLASS: 'Owner', __ENTITY: true, __KEY: 'A' }]
    expect(check.request('/rest/Thing({key})/adopt', 'post', owner)).toEqual([])
    const calls: readonly [string, string, unknown][] = [
      ['/rest/$catalog/hello', '/rest/$catalog/hello', ['you']],
      ['/rest/Thing/echo', '/rest/Thing/echo', args],
      ['/rest/Thing/first', '/rest/Thing/first', []],
      ['/rest/Thing({key})/adopt', '/rest/Thing(1)/adopt', owner],
      ['/rest/Thing/howMany', '/rest/Thing/howMany?$filter="amount>0"', []],
      ['/rest/$singleton/Counter/next', '/rest/$singleton/Counter/next', []],
    ]
    for (const [path, url, body] of calls) {
      const { status, body: reply } = await post(url, body)
      expect([url, status]).toEqual([url, 200])
      expect(check.reply(path, 'post', status, reply)).toEqual([])
    }
    const notYet = await post('/rest/Owner/legacy', [])
    expect(notYet.status).toBe(501)
    expect(check.reply('/rest/Owner/legacy', 'post', 501, notYet.body)).toEqual([])
  })

  it('catches a reply the description does not allow', () => {
    const wrong = { __KEY: '1', __STAMP: 1, day: '2020-01-02' }
    expect(check.reply('/rest/Thing({key})', 'get', 200, wrong)).not.toEqual([])
    expect(check.schema('Thing', { __KEY: '1', __STAMP: 1, secret: 's' })).not.toEqual([])
  })
})

describe('GET /rest/$openapi', () => {
  it('is read-only, under the base path, and served before a forced login', async () => {
    expect((await rest.request('/rest/$openapi', { method: 'POST' })).status).toBe(405)
    expect((await rest.request('/rest/$openapi/more')).status).toBe(400)
    const api = createRestHandler(everything(), {
      basePath: '/api',
      forceLogin: true,
      authenticate: () => null,
    })
    const res = await api.request('/api/$openapi')
    expect(res.status).toBe(200)
    const served = (await res.json()) as { paths: Record<string, unknown> }
    expect(Object.keys(served.paths).every((p) => p.startsWith('/api/'))).toBe(true)
    expect((await api.request('/api/Thing')).status).toBe(401)
  })

  it('shows what the session may describe and execute when permissions apply', async () => {
    const api = createRestHandler(everything(), {
      authorize: (_session, action, { dataClass, function: fn }) =>
        dataClass !== 'Owner' && !(action === 'execute' && fn === 'echo'),
    })
    const served = (await (await api.request('/rest/$openapi')).json()) as typeof doc
    const names = Object.keys((served.components as { schemas: object }).schemas)
    expect(names).not.toContain('Owner')
    expect(names).toContain('Thing')
    expect(Object.keys((served.components as any).schemas.Thing.properties)).not.toContain('owner')
    expect(Object.keys(served.paths as object)).not.toContain('/rest/Thing/echo')
    expect((await validateOpenApi(served)).valid).toBe(true)
  })
})
