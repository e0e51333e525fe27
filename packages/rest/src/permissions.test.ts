/**
 * The permission matrix: each action (describe, read, create, update, delete, lock) × allowed /
 * denied × dataclass / attribute, over the handler, on the company example. A refused attribute
 * never appears in a reply, and a refused dataclass never leaks through relations, `$expand`,
 * filters or the catalog.
 */
import { readFileSync } from 'node:fs'
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler, type RestHandlerOptions } from './handler.js'
import type { PermissionAction, PermissionTarget } from './permissions.js'
import { sessionUser } from './sessions/directory.js'

type Json = Record<string, any>

const example = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../examples/company/${name}`, import.meta.url), 'utf8'))

/** `read:Company`, `read:Employee.salary`: what `authorize` refuses. */
const rule = (action: PermissionAction, t: PermissionTarget): string =>
  `${action}:${t.dataClass}${t.attribute === undefined ? '' : `.${t.attribute}`}`

function fixture(denied: readonly string[], options: RestHandlerOptions = {}) {
  const ds = createDatastore(example('model.json') as ModelJson, {
    data: example('data.json') as never,
  })
  const asked: string[] = []
  const rest = createRestHandler(ds, {
    authorize: (_session, action, target) => {
      asked.push(rule(action, target))
      return !denied.includes(rule(action, target))
    },
    ...options,
  })
  const send = async (path: string, init: RequestInit = {}) => {
    const res = await rest.request(path, init)
    const text = await res.text()
    const json = JSON.parse(text) as Json
    return { status: res.status, text, json, errCode: json?.__ERROR?.[0]?.errCode as number }
  }
  const get = (path: string) => send(path)
  const post = (path: string, body?: unknown) =>
    send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  return { ds, rest, get, post, asked }
}

const refused = (r: { status: number; errCode: number }, errCode: number) =>
  expect({ status: r.status, errCode: r.errCode }).toEqual({ status: 403, errCode })

describe('describe', () => {
  it('allowed: the catalog lists every dataclass and attribute', async () => {
    const { get } = fixture([])
    const names = (await get('/rest/$catalog')).json.dataClasses.map((d: Json) => d.name)
    expect(names).toEqual(['Company', 'Employee', 'Project'])
    const employee = await get('/rest/$catalog/Employee')
    expect(employee.json.attributes.map((a: Json) => a.name)).toContain('salary')
  })

  it('denied on a dataclass: left out of every catalog form, 1609 when named', async () => {
    const { get } = fixture(['describe:Company'])
    for (const path of ['/rest/$catalog', '/rest/$catalog/$all']) {
      const r = await get(path)
      expect(r.json.dataClasses.map((d: Json) => d.name)).toEqual(['Employee', 'Project'])
      // Nor through a relation into it: Employee's `employer` is not described.
      expect(r.text).not.toContain('Company')
    }
    refused(await get('/rest/$catalog/Company'), 1609)
  })

  it('denied on an attribute: left out of the dataclass description', async () => {
    const { get } = fixture(['describe:Employee.salary'])
    const r = await get('/rest/$catalog/Employee')
    expect(r.status).toBe(200)
    expect(r.json.attributes.map((a: Json) => a.name)).not.toContain('salary')
    expect((await get('/rest/$catalog/$all')).text).not.toContain('"salary"')
  })
})

describe('read, dataclass', () => {
  it('allowed: reads answer 200', async () => {
    const { get } = fixture([])
    expect((await get('/rest/Company(1)')).status).toBe(200)
    expect((await get('/rest/Employee(1)/employer')).json.__KEY).toBe('1')
  })

  it('denied: every read of it is 403 1557', async () => {
    const { get } = fixture(['read:Company'])
    for (const path of [
      '/rest/Company',
      '/rest/Company(1)',
      '/rest/Company:name(Acme%20Industries)',
      '/rest/Company?$method=entityset',
      '/rest/Company/name?$distinct=true',
      '/rest/Company/revenues?$compute=sum',
      '/rest/Company?$format=looker',
      '/rest/Company(1)/staff',
    ])
      refused(await get(path), 1557)
  })

  it('denied: never reached through a relation, $expand, $attributes, $filter or $orderby', async () => {
    const { get } = fixture(['read:Company'])
    for (const path of [
      '/rest/Employee(1)/employer',
      '/rest/Employee(1)?$expand=employer',
      '/rest/Employee?$expand=employer',
      '/rest/Employee?$attributes=employer.name',
      '/rest/Employee?$attributes=employer',
      '/rest/Employee?$filter="employer.name=Acme@"',
      '/rest/Employee?$orderby=employer.name',
      '/rest/Employee?$filter="ID>0 order by employer.city"',
      '/rest/Employee/employerName?$distinct=true',
      '/rest/Employee?$attributes=employerName',
    ])
      refused(await get(path), 1557)
    // The default shape leaves the relation (and the alias through it) out.
    for (const path of [
      '/rest/Employee(1)',
      '/rest/Employee?$top=3',
      '/rest/Employee?$asArray=true',
    ]) {
      const r = await get(path)
      expect(r.status).toBe(200)
      expect(r.text).not.toContain('employer"')
      expect(r.text).not.toContain('employerName')
      expect(r.text).not.toContain('/Company')
    }
  })

  it('denied: an entity set of it is refused, and $info does not list it', async () => {
    const open = fixture([])
    const made = await open.rest.request('/rest/Company?$method=entityset')
    // The session that made it asks: $info lists a session's own sets only.
    const headers = { cookie: made.headers.get('set-cookie')!.split(';')[0]! }
    const id = String(((await made.json()) as Json).__ENTITYSET)
      .split('/')
      .pop()!
    const { ds } = open
    const closed = createRestHandler(ds, {
      authorize: (_s, action, t) => !(action === 'read' && t.dataClass === 'Company'),
    })
    const res = await closed.request(`/rest/Company/$entityset/${id}`, { headers })
    expect(res.status).toBe(403)
    const info = (await (await closed.request('/rest/$info', { headers })).json()) as Json
    expect(JSON.stringify(info)).not.toContain(id)
    const shown = (await (await open.rest.request('/rest/$info', { headers })).json()) as Json
    expect(JSON.stringify(shown)).toContain(id)
  })
})

describe('read, attribute', () => {
  it('allowed: the attribute is written', async () => {
    const { get } = fixture([])
    expect((await get('/rest/Employee(1)')).json.salary).toBe(55000)
  })

  it('denied: left out of every reply, even through $expand and embedded selections', async () => {
    const { get } = fixture(['read:Employee.salary'])
    for (const path of [
      '/rest/Employee(1)',
      '/rest/Employee?$top=5',
      '/rest/Employee?$asArray=true&$top=5',
      '/rest/Employee?$format=looker&$top=5',
      '/rest/Employee?$attributes=*',
      '/rest/Company(1)?$expand=staff',
      '/rest/Company(1)?$attributes=staff.*',
      '/rest/Company(1)/staff',
      '/rest/Employee(25)/manager',
      '/rest/Employee(25)?$expand=manager',
    ]) {
      const r = await get(path)
      expect({ path, status: r.status }).toEqual({ path, status: 200 })
      expect(r.text).not.toContain('salary')
      expect(r.text).not.toContain('55000')
    }
  })

  it('denied: 1607 where a request names it', async () => {
    const { get } = fixture(['read:Employee.salary'])
    for (const path of [
      '/rest/Employee(1)/salary',
      '/rest/Employee?$attributes=salary',
      '/rest/Employee(1)?$attributes=lastName,salary',
      '/rest/Company(1)?$attributes=staff.salary',
      '/rest/Employee?$filter="salary>1000"',
      '/rest/Employee?$filter="lastName=a@ OR NOT(salary>1000)"',
      '/rest/Company?$filter="staff.salary>1000"',
      // A path given as a placeholder is checked as written out (DataClassClass.md .query(),
      // "Using placeholders": a placeholder may stand for an attributePath).
      '/rest/Employee?$filter=":1>1000"&$params=["salary"]',
      '/rest/Company?$filter="name=a@ OR :1>1000"&$params=["staff.salary"]',
      '/rest/Employee?$orderby=salary desc',
      '/rest/Employee/salary?$compute=sum',
      '/rest/Employee?$attributes=salary&$compute=$all',
      '/rest/Employee/salary?$distinct=true',
      '/rest/Employee:salary(55000)',
    ])
      refused(await get(path), 1607)
  })

  it('asks the attribute only once its dataclass is allowed', async () => {
    const { get, asked } = fixture(['read:Employee'])
    refused(await get('/rest/Employee(1)'), 1557)
    expect(asked).toEqual(['read:Employee'])
  })
})

describe('create', () => {
  it('allowed: 200', async () => {
    const { post } = fixture([])
    expect((await post('/rest/Project?$method=update', { title: 'P' })).status).toBe(200)
  })

  it('denied: 403 1559; per item in an array (status 1); the whole batch with $atomic', async () => {
    const { post, ds } = fixture(['create:Project'])
    const before = ds.dataClass('Project').all().length
    refused(await post('/rest/Project?$method=insert', { title: 'P' }), 1559)
    const id = ds.dataClass('Project').all().at(0)!.getKey()
    const mixed = await post('/rest/Project?$method=update', [
      { __KEY: id, title: 'renamed' },
      { title: 'new' },
    ])
    expect(mixed.status).toBe(200)
    expect(mixed.json.__ENTITIES[0].__STATUS).toEqual({ success: true })
    expect(mixed.json.__ENTITIES[1].__STATUS).toEqual({
      success: false,
      status: 1,
      statusText: 'Permission Error',
    })
    expect(mixed.json.__ENTITIES[1].__ERROR[0].errCode).toBe(1559)
    const atomic = await post('/rest/Project?$method=update&$atomic=true', [
      { __KEY: id, title: 'again' },
      { title: 'new' },
    ])
    refused(atomic, 1559)
    expect(ds.dataClass('Project').get(id)!.get('title')).toBe('renamed')
    expect(ds.dataClass('Project').all().length).toBe(before)
  })
})

describe('update', () => {
  it('allowed: 200', async () => {
    const { post } = fixture([])
    expect((await post('/rest/Employee?$method=update', { __KEY: 1, salary: 1 })).status).toBe(200)
  })

  it('denied on the dataclass: 403 1558, nothing changed', async () => {
    const { post, ds } = fixture(['update:Employee'])
    refused(await post('/rest/Employee?$method=update', { __KEY: 1, lastName: 'X' }), 1558)
    expect(ds.dataClass('Employee').get(1)!.get('lastName')).toBe('Silva')
  })

  it('denied on an attribute: 1608 when the body sets it, other attributes still written', async () => {
    const { post, ds } = fixture(['update:Employee.salary'])
    const r = await post('/rest/Employee?$method=update', { __KEY: 1, salary: 1 })
    refused(r, 1608)
    expect(r.json.__STATUS).toEqual({ success: false, status: 1, statusText: 'Permission Error' })
    expect(ds.dataClass('Employee').get(1)!.get('salary')).toBe(55000)
    expect((await post('/rest/Employee?$method=update', { __KEY: 1, lastName: 'Y' })).status).toBe(
      200,
    )
    // A creation is asked `create` on the attribute (4D: "create entity with a value different
    // from the default value"), not `update`.
    expect((await post('/rest/Employee?$method=insert', { lastName: 'Z', salary: 1 })).status).toBe(
      200,
    )
  })

  it('create denied on an attribute: 1608 for a creation that gives it a value, not for null', async () => {
    const { post, ds, asked } = fixture(['create:Employee.salary'])
    const before = ds.dataClass('Employee').length
    refused(await post('/rest/Employee?$method=insert', { lastName: 'Z', salary: 1 }), 1608)
    expect(ds.dataClass('Employee').length).toBe(before)
    expect(asked).toContain('create:Employee.salary')
    expect(asked).not.toContain('update:Employee.salary')
    expect(
      (await post('/rest/Employee?$method=insert', { lastName: 'Z', salary: null })).status,
    ).toBe(200)
    // An update of it is not a creation.
    expect((await post('/rest/Employee?$method=update', { __KEY: 1, salary: 2 })).status).toBe(200)
  })

  it('a write reply leaves out what the session may not read', async () => {
    const { post } = fixture(['read:Employee.salary'])
    const r = await post('/rest/Employee?$method=update', { __KEY: 1, salary: 123456 })
    expect(r.status).toBe(200)
    expect(r.text).not.toContain('salary')
    expect(r.text).not.toContain('123456')
  })
})

describe('delete', () => {
  it('allowed: ok', async () => {
    const { post } = fixture([])
    expect((await post('/rest/Employee(360)?$method=delete')).json).toEqual({ ok: true })
  })

  it('denied: 403 1560 by key, $filter, body of keys and entity set; nothing deleted', async () => {
    const open = fixture([])
    const set = await open.get('/rest/Employee?$method=entityset&$filter="ID<5"')
    const id = String(set.json.__ENTITYSET).split('/').pop()
    const ds = open.ds
    const rest = createRestHandler(ds, {
      authorize: (_s, action) => action !== 'delete',
    })
    const count = ds.dataClass('Employee').all().length
    for (const [path, body] of [
      ['/rest/Employee(1)?$method=delete', undefined],
      ['/rest/Employee?$method=delete&$filter="ID<10"', undefined],
      ['/rest/Employee?$method=delete', [{ __KEY: 1 }, { __KEY: 2 }]],
      [`/rest/Employee/$entityset/${id}?$method=delete`, undefined],
    ] as const) {
      const res = await rest.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      const json = (await res.json()) as Json
      expect({ path, status: res.status, errCode: json.__ERROR?.[0]?.errCode }).toEqual({
        path,
        status: 403,
        errCode: 1560,
      })
    }
    expect(ds.dataClass('Employee').all().length).toBe(count)
  })
})

describe('lock', () => {
  it('allowed: locks', async () => {
    const { get } = fixture([])
    expect((await get('/rest/Employee(1)?$lock=true')).json.result).toBe(true)
  })

  it('denied: $lock needs update permission (403 1558)', async () => {
    const { get, ds } = fixture(['update:Employee'])
    refused(await get('/rest/Employee(1)?$lock=true'), 1558)
    // Not locked: another session locks it.
    const other = createRestHandler(ds)
    const res = await other.request('/rest/Employee(1)?$lock=true')
    expect(((await res.json()) as Json).result).toBe(true)
  })
})

describe('who is asked', () => {
  it('authorize decides from the logged-in user; refusals are 403, forceLogin 401', async () => {
    const ds = createDatastore(example('model.json') as ModelJson, {
      data: example('data.json') as never,
    })
    const rest = createRestHandler(ds, {
      authenticate: ({ user, password }) =>
        password === 'secret' ? { name: user, groups: user === 'ada' ? ['HR'] : [] } : null,
      forceLogin: true,
      authorize: (session, action, target) =>
        target.attribute !== 'salary' || (sessionUser(session)?.groups ?? []).includes('HR'),
    })
    const login = async (user: string) => {
      const res = await rest.request('/rest/$directory/login', {
        method: 'POST',
        headers: { 'username-4D': user, 'password-4D': 'secret' },
      })
      return res.headers.get('set-cookie')!.split(';')[0]!
    }
    expect((await rest.request('/rest/Employee(1)')).status).toBe(401)
    const ada = await login('ada')
    const bob = await login('bob')
    const read = async (cookie: string, path: string) => {
      const res = await rest.request(path, { headers: { cookie } })
      return { status: res.status, json: (await res.json()) as Json }
    }
    expect((await read(ada, '/rest/Employee(1)')).json.salary).toBe(55000)
    expect((await read(bob, '/rest/Employee(1)')).json.salary).toBeUndefined()
    expect((await read(bob, '/rest/Employee?$orderby=salary')).status).toBe(403)
  })
})
