import {
  createDatastore,
  currentCall,
  defineFunctions,
  EntityDraft,
  EntitySelection,
  ManualClock,
  singleton,
  type Entity,
  type ModelJson,
  OutgoingMessage,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { manualSchedule } from '../schedule.fixture.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'

// A small model; the functions cover every kind, every result shape and every failure.
const model = (): ModelJson => ({
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'salary', type: 'number' },
        { name: 'secret', type: 'string', exposed: false },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
      ],
    },
  ],
})

const data = () => ({
  Company: [
    { ID: 1, name: 'Acme' },
    { ID: 2, name: 'Globex' },
  ],
  Employee: [
    { ID: 1, lastName: 'Lovelace', salary: 5000, employerID: 1 },
    { ID: 2, lastName: 'Turing', salary: 6000, employerID: 1 },
    { ID: 3, lastName: 'Hopper', salary: 7000, employerID: 2 },
  ],
})

let release: (() => void) | undefined
let fail: ((error: unknown) => void) | undefined
let counted = 0
const functions = defineFunctions({
  dataStore: {
    appName: {
      exposed: true,
      onHTTPGet: true,
      call() {
        return this.name
      },
    },
    postOnly: {
      exposed: true,
      call() {
        return 'posted'
      },
    },
    hidden: {
      call() {
        return 'never over REST'
      },
    },
    authentify: {
      exposed: true,
      params: ['object'],
      call(credentials: { name?: string; password?: string }) {
        if (credentials?.password !== 'secret') return 'Wrong name or password'
        currentCall()!.logIn({ name: credentials.name ?? '?' })
        return 'Authentication successful'
      },
    },
    report: {
      exposed: true,
      onHTTPGet: true,
      params: ['string'],
      call(name: string) {
        return new OutgoingMessage()
          .setBody(`name;salary\nLovelace;5000\n`)
          .setHeader('Content-Type', 'text/csv')
          .setHeader('Content-Disposition', `attachment; filename="${name}.csv"`)
      },
    },
    shapes: {
      exposed: true,
      onHTTPGet: true,
      call() {
        return {
          when: new Date(Date.UTC(2024, 0, 2)),
          tags: new Set(['a', 'b']),
          map: new Map([['k', 1]]),
          nothing: undefined,
          nan: Number.NaN,
        }
      },
    },
    huge: { exposed: true, call: () => 10n },
    later: {
      exposed: true,
      async call(value: string) {
        await new Promise<void>((resolve) => (release = resolve))
        return `later ${value}`
      },
    },
    count: {
      exposed: true,
      onHTTPGet: true,
      call(...args: unknown[]) {
        counted++
        return args.length
      },
    },
    stuck: { exposed: true, onHTTPGet: true, call: () => new Promise(() => {}) },
    failsLater: {
      exposed: true,
      call: () => new Promise((_, reject) => (fail = reject)),
    },
    fails: {
      exposed: true,
      call() {
        throw new Error("cannot open '/srv/app/prices.json'")
      },
    },
    fails4D: {
      exposed: true,
      call() {
        throw { errCode: 42, message: 'Out of stock', componentSignature: 'shop' }
      },
    },
  },
  dataClasses: {
    Employee: {
      dataClass: {
        highEarners: {
          exposed: true,
          onHTTPGet: true,
          params: ['number'],
          call(min: number) {
            return this.query('salary >= :1 order by salary desc', min)
          },
        },
        byName: {
          exposed: true,
          params: ['string'],
          call(name: string) {
            return this.query('lastName = :1', name).at(0)
          },
        },
        pushData: {
          exposed: true,
          params: [{ entity: 'Employee' }],
          call(e: Entity | EntityDraft) {
            return e instanceof EntityDraft ? e.saveOrFail() : e
          },
        },
        unsaved: { exposed: true, call: (e: unknown) => e },
        unsavedInside: { exposed: true, call: (e: unknown) => ({ e }) },
        describeArg: {
          exposed: true,
          call(arg: unknown) {
            if (arg instanceof EntitySelection) return `selection of ${arg.length}`
            if (arg instanceof EntityDraft)
              return `draft ${arg.isNew() ? 'new' : 'of'} ${JSON.stringify(arg.changes)}`
            return `entity ${(arg as Entity).key}`
          },
        },
        both: { exposed: true, call: () => 'dataclass' },
      },
      entity: {
        raise: {
          exposed: true,
          params: ['number'],
          call(pct: number) {
            return this.edit({
              salary: (this.get('salary') as number) * (1 + pct / 100),
            }).saveOrFail()
          },
        },
        label: {
          exposed: true,
          onHTTPGet: true,
          call() {
            return `${this.get('lastName')} #${this.key}`
          },
        },
        privateThing: { call: () => 1 },
      },
      entitySelection: {
        payroll: {
          exposed: true,
          onHTTPGet: true,
          call() {
            return this.sum('salary')
          },
        },
        names: {
          exposed: true,
          call() {
            return this.toArray().map((e) => e.get('lastName'))
          },
        },
        both: { exposed: true, call: () => 'selection' },
      },
    },
  },
  singletons: {
    Counter: singleton(() => ({ hits: 0 }), {
      hit: {
        exposed: true,
        onHTTPGet: true,
        call() {
          return ++this.hits
        },
      },
      reset: {
        call() {
          this.hits = 0
        },
      },
    }),
    Internal: { functions: { nothing: { call: () => 0 } } },
  },
})

const setup = (options: RestHandlerOptions = {}) => {
  const ds = createDatastore(model(), {
    data: data(),
    clock: new ManualClock(Date.UTC(2024, 2, 15)),
    functions,
  })
  const rest = createRestHandler(ds, options)
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await rest.request(path, init)
    const text = await res.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: res.status, headers: res.headers, text, json: json as Record<string, any> }
  }
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  return { ds, rest, call, post }
}

const errors = (json: Record<string, any>) =>
  (json.__ERROR as { errCode: number }[]).map((e) => e.errCode)

describe('the catalog lists exactly the exposed functions', () => {
  it('$catalog: the datastore functions and the singletons that have an exposed function', async () => {
    const { call } = setup()
    const { json } = await call('/rest/$catalog')
    expect(Object.keys(json)).toEqual([
      '__UNIQID',
      '__BASEID',
      '__NAME',
      'properties',
      'methods',
      'singletons',
      'dataClasses',
    ])
    expect(json.methods.map((m: { name: string }) => m.name)).toEqual([
      'appName',
      'postOnly',
      'authentify',
      'report',
      'shapes',
      'huge',
      'later',
      'count',
      'stuck',
      'failsLater',
      'fails',
      'fails4D',
    ])
    expect(json.methods[0]).toEqual({
      name: 'appName',
      applyTo: 'dataStore',
      scope: 'public',
      from: 'remoteServer',
      allowedOnHTTPGET: true,
      exposed: true,
    })
    expect(json.singletons).toEqual([
      { name: 'Counter', methods: [{ name: 'hit', allowedOnHTTPGET: true, exposed: true }] },
    ])
  })

  it('$catalog/$all and $catalog/{dataClass}: each dataclass its functions, with applyTo', async () => {
    const { call } = setup()
    const all = (await call('/rest/$catalog/$all')).json
    expect(all.singletons).toHaveLength(1)
    const employee = all.dataClasses[1]
    expect(Object.keys(employee).slice(-3)).toEqual(['attributes', 'methods', 'key'])
    expect(
      employee.methods.map((m: { name: string; applyTo: string }) => [m.name, m.applyTo]),
    ).toEqual([
      ['highEarners', 'dataClass'],
      ['byName', 'dataClass'],
      ['pushData', 'dataClass'],
      ['unsaved', 'dataClass'],
      ['unsavedInside', 'dataClass'],
      ['describeArg', 'dataClass'],
      ['both', 'dataClass'],
      ['raise', 'entity'],
      ['label', 'entity'],
      ['payroll', 'entityCollection'],
      ['names', 'entityCollection'],
      ['both', 'entityCollection'],
    ])
    expect('methods' in all.dataClasses[0]).toBe(false)
    const one = (await call('/rest/$catalog/Employee')).json
    expect(one.methods).toEqual(employee.methods)
    expect('singletons' in one).toBe(false)
  })

  it('has no singletons section when no singleton has an exposed function', async () => {
    const ds = createDatastore(model(), {
      functions: { singletons: { S: { functions: { f: { call: () => 1 } } } } },
    })
    const json = (await (await createRestHandler(ds).request('/rest/$catalog')).json()) as Record<
      string,
      unknown
    >
    expect('singletons' in json).toBe(false)
    expect(json.methods).toEqual([])
  })
})

describe('calls, their parameters and results', () => {
  it('a datastore function: POST, and GET when it is onHTTPGet', async () => {
    const { call, post } = setup()
    expect((await post('/rest/$catalog/postOnly')).json).toEqual({ result: 'posted' })
    expect((await post('/rest/$catalog/appName', {})).json).toEqual({ result: 'shop' })
    expect((await call('/rest/$catalog/appName')).json).toEqual({ result: 'shop' })
    // The catalog of a dataclass is still there.
    expect((await call('/rest/$catalog/Employee')).json.name).toBe('Employee')
  })

  it('a dataclass function returning a selection: the envelope, $top and $attributes applied', async () => {
    const { post, call } = setup()
    const r = await post('/rest/Employee/highEarners?$top=1&$attributes=lastName', [5500])
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ __DATACLASS: 'Employee', __COUNT: 2, __SENT: 1 })
    expect(r.json.__ENTITIES).toEqual([
      { __KEY: '3', __TIMESTAMP: expect.any(String), __STAMP: 1, lastName: 'Hopper' },
    ])
    const get = await call("/rest/Employee/highEarners?$params='[6500]'")
    expect(get.json.__COUNT).toBe(1)
  })

  it('$method=entityset keeps a selection result as a set, which reads back', async () => {
    const { post, call } = setup()
    const r = await post('/rest/Employee/highEarners?$method=entityset', [5500])
    expect(Object.keys(r.json)[0]).toBe('__ENTITYSET')
    const id = (r.json.__ENTITYSET as string).split('/').pop()
    expect((await call(`/rest/Employee/$entityset/${id}`)).json.__COUNT).toBe(2)
    // Other results ignore it (clients add it to every call).
    expect((await post('/rest/$catalog/postOnly?$method=entityset')).json).toEqual({
      result: 'posted',
    })
  })

  it('an entity result in its wire form; an entity function with `this` the entity', async () => {
    const { post, call } = setup()
    const found = await post('/rest/Employee/byName', ['Turing'])
    expect(found.json).toMatchObject({
      __entityModel: 'Employee',
      __DATACLASS: 'Employee',
      __KEY: '2',
      __STAMP: 1,
      lastName: 'Turing',
    })
    expect('secret' in found.json).toBe(false)
    const raised = await post('/rest/Employee(1)/raise', [10])
    expect(raised.json).toMatchObject({ __KEY: '1', __STAMP: 2, salary: 5500 })
    expect((await call('/rest/Employee(2)/label')).json).toEqual({ result: 'Turing #2' })
    expect((await call('/rest/Employee[3]/label')).json).toEqual({ result: 'Hopper #3' })
    expect((await call('/rest/Employee:lastName(Hopper)/label')).json).toEqual({
      result: 'Hopper #3',
    })
  })

  it('a selection function on every entity, on $filter/$orderby, and on an entity set (both URL orders)', async () => {
    const { post, call } = setup()
    expect((await post('/rest/Employee/payroll')).json).toEqual({ result: 18000 })
    expect((await post('/rest/Employee/payroll?$filter="salary<6500"')).json).toEqual({
      result: 11000,
    })
    expect((await post('/rest/Employee/names?$orderby="salary desc"')).json).toEqual({
      result: ['Hopper', 'Turing', 'Lovelace'],
    })
    // 4D's own example: the function, then `$entityset/` with no id, then the query.
    expect(
      (await post('/rest/Employee/names/$entityset/?$filter="lastName=T@"&$orderby="lastName"'))
        .json,
    ).toEqual({ result: ['Turing'] })
    const set = (await call('/rest/Employee?$filter="salary>5500"&$method=entityset')).json
    const id = (set.__ENTITYSET as string).split('/').pop()
    expect((await post(`/rest/Employee/payroll/$entityset/${id}`)).json).toEqual({ result: 13000 })
    expect((await post(`/rest/Employee/$entityset/${id}/payroll`)).json).toEqual({ result: 13000 })
    expect((await call(`/rest/Employee/$entityset/${id}/payroll`)).json).toEqual({ result: 13000 })
    // A name both classes have: the selection's, as on the real server.
    expect((await post('/rest/Employee/both')).json).toEqual({ result: 'selection' })
  })

  it('a singleton function: POST and GET, its state kept between calls', async () => {
    const { post, call } = setup()
    expect((await post('/rest/$singleton/Counter/hit')).json).toEqual({ result: 1 })
    expect((await call('/rest/$singleton/Counter/hit')).json).toEqual({ result: 2 })
  })

  it('entity and entity-selection parameters in the real forms', async () => {
    const { post, call, ds } = setup()
    const arg = (p: unknown) => post('/rest/Employee/describeArg', [p])
    expect((await arg({ __DATACLASS: 'Employee', __ENTITY: true, __KEY: 2 })).json).toEqual({
      result: 'entity 2',
    })
    expect(
      (await arg({ __DATACLASS: 'Employee', __ENTITY: true, __KEY: '2', lastName: 'T' })).json,
    ).toEqual({ result: 'draft of {"lastName":"T"}' })
    expect((await arg({ __DATACLASS: 'Employee', __ENTITY: true, lastName: 'New' })).json).toEqual({
      result: 'draft new {"lastName":"New"}',
    })
    const set = (await call('/rest/Company?$method=entityset')).json
    const id = (set.__ENTITYSET as string).split('/').pop()
    expect((await arg({ __DATASET: id, __ENTITIES: true })).json).toEqual({
      result: 'selection of 2',
    })
    // Created through the function, which saves the draft (4D's pushData example).
    const pushed = await post('/rest/Employee/pushData', [
      { __DATACLASS: 'Employee', __ENTITY: true, lastName: 'Brown', employer: { __KEY: 2 } },
    ])
    expect(pushed.json).toMatchObject({ __KEY: '4', __STAMP: 1, lastName: 'Brown' })
    expect(ds.dataClass('Employee').get(4)!.get('employerID')).toBe(2)
    // On GET too, in $params.
    const q = encodeURIComponent(
      JSON.stringify([{ __DATACLASS: 'Employee', __ENTITY: true, __KEY: 1 }]),
    )
    expect((await call(`/rest/Employee/highEarners?$params=${q}`)).status).toBe(400)
  })

  it('answers an entity returned unsaved as a save would leave it: a new one without key nor time', async () => {
    const { post } = setup()
    const fresh = { __DATACLASS: 'Employee', __ENTITY: true, lastName: 'Brown' }
    const made = (await post('/rest/Employee/unsaved', [fresh])).json
    expect(made).toMatchObject({ __DATACLASS: 'Employee', __STAMP: 0, lastName: 'Brown' })
    expect(made).not.toHaveProperty('__KEY')
    expect(made).not.toHaveProperty('__TIMESTAMP')
    const changed = { __DATACLASS: 'Employee', __ENTITY: true, __KEY: 1, salary: 1 }
    expect((await post('/rest/Employee/unsaved', [changed])).json).toMatchObject({
      __KEY: '1',
      __STAMP: 1,
      lastName: 'Lovelace',
      salary: 1,
    })
    const inside = (await post('/rest/Employee/unsavedInside', [changed])).json
    expect(inside).toMatchObject({ result: { e: { __KEY: '1', salary: 1 } } })
    // Nothing was saved.
    expect(
      (await post('/rest/Employee/unsaved', [{ ...changed, salary: undefined }])).json,
    ).toMatchObject({ salary: 5000 })
  })

  it('a body of {} or {"params": [...]} is read as parameters; any other non-array is refused', async () => {
    const { post } = setup()
    expect((await post('/rest/Employee/highEarners', { params: [6500] })).json.__COUNT).toBe(1)
    expect((await post('/rest/$catalog/appName', {})).json).toEqual({ result: 'shop' })
    const bad = await post('/rest/Employee/highEarners', 'text')
    expect([bad.status, errors(bad.json)]).toEqual([400, [9030]])
  })

  it('writes other results as {"result": …}: dates, sets, maps, NaN', async () => {
    const { call } = setup()
    expect((await call('/rest/$catalog/shapes')).json).toEqual({
      result: { when: '2024-01-02T00:00:00.000Z', tags: ['a', 'b'], map: { k: 1 }, nan: null },
    })
  })

  it('an OutgoingMessage is sent as it is: status, type, headers, bytes', async () => {
    const { call } = setup()
    const r = await call('/rest/$catalog/report?$params=\'["staff"]\'')
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/csv')
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="staff.csv"')
    expect(r.text).toBe('name;salary\nLovelace;5000\n')
  })

  it('answers an async function when it settles', async () => {
    const { post } = setup()
    const pending = post('/rest/$catalog/later', ['x'])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(release).toBeTypeOf('function')
    release!()
    expect((await pending).json).toEqual({ result: 'later x' })
  })
})

describe('errors, each a 4xx with __ERROR', () => {
  it('an unknown or unexposed function: 1500 then 1804 on a dataclass, 1573 on the datastore, 9105 for a singleton', async () => {
    const { post } = setup()
    for (const path of ['/rest/Employee/nope', '/rest/Employee(1)/privateThing']) {
      const r = await post(path)
      expect([r.status, errors(r.json)]).toEqual([404, [1500, 1804]])
    }
    expect(errors((await post('/rest/Employee/privateThing')).json)).toEqual([1500, 1804])
    const ds = await post('/rest/$catalog/hidden')
    expect([ds.status, errors(ds.json)]).toEqual([404, [1573]])
    expect(errors((await post('/rest/$singleton/Counter/reset')).json)).toEqual([1573])
    expect(errors((await post('/rest/$singleton/Internal/nothing')).json)).toEqual([9105])
    expect(errors((await post('/rest/$singleton/Nope/x')).json)).toEqual([9105])
  })

  it('GET of a function not declared onHTTPGet: 405 with Allow: POST', async () => {
    const { call } = setup()
    for (const path of [
      '/rest/$catalog/postOnly',
      '/rest/Employee/byName',
      '/rest/Employee(1)/raise',
      '/rest/Employee/names',
    ]) {
      const r = await call(path)
      expect([r.status, r.headers.get('allow'), errors(r.json)]).toEqual([405, 'POST', [9102]])
    }
  })

  it('a parameter of the wrong type: 400 9101; an unknown entity or set: 404', async () => {
    const { post } = setup()
    const r = await post('/rest/Employee/highEarners', ['a lot'])
    expect([r.status, r.json.__ERROR[0]]).toEqual([
      400,
      {
        message:
          'Invalid parameters for the function "Employee.highEarners": parameter 1 must be a number, not "a lot"',
        componentSignature: 'enti',
        errCode: 9101,
      },
    ])
    const missing = await post('/rest/Employee/describeArg', [
      { __DATACLASS: 'Employee', __ENTITY: true, __KEY: 99 },
    ])
    expect([missing.status, errors(missing.json)]).toEqual([404, [1542]])
    const unknownAttr = await post('/rest/Employee/describeArg', [
      { __DATACLASS: 'Employee', __ENTITY: true, secret: 'x' },
    ])
    expect([unknownAttr.status, errors(unknownAttr.json)]).toEqual([400, [1500]])
    const set = await post('/rest/Employee/describeArg', [{ __DATASET: 'NOPE', __ENTITIES: true }])
    expect([set.status, errors(set.json)]).toEqual([404, [1802]])
    expect(errors((await post('/rest/Employee(99)/raise', [1])).json)).toEqual([1542])
  })

  it('a function that throws: 422 with its message, no stack and no path; a 4D-style throw keeps its code', async () => {
    const { post } = setup()
    const r = await post('/rest/$catalog/fails')
    expect(r.status).toBe(422)
    expect(r.json).toEqual({
      __ERROR: [{ message: "cannot open '…'", componentSignature: 'enti', errCode: 9100 }],
    })
    expect(r.text).not.toMatch(/srv|at .*\(/)
    expect((await post('/rest/$catalog/fails4D')).json.__ERROR).toEqual([
      { message: 'Out of stock', componentSignature: 'shop', errCode: 42 },
    ])
    const huge = await post('/rest/$catalog/huge')
    expect([huge.status, errors(huge.json)]).toEqual([422, [9100]])
    expect(huge.json.__ERROR[0].message).toContain('BigInt')
  })

  it('$filter and $orderby on a function that is not of a selection, and other $methods: 400', async () => {
    const { post } = setup()
    expect(errors((await post('/rest/Employee/highEarners?$filter="ID=1"', [1])).json)).toEqual([
      1806,
    ])
    expect(errors((await post('/rest/$catalog/postOnly?$orderby="x"')).json)).toEqual([1806])
    expect(errors((await post('/rest/Employee(1)/raise?$method=update', [1])).json)).toEqual([1813])
  })

  it('permission to execute, asked through authorize: 403 1561', async () => {
    const asked: unknown[] = []
    const { post, call } = setup({
      authorize: (_s, action, target) => {
        if (action === 'execute') asked.push(target)
        return !(
          action === 'execute' &&
          (target.function === 'raise' ||
            target.function === 'appName' ||
            target.singleton === 'Counter')
        )
      },
    })
    const r = await post('/rest/Employee(1)/raise', [1])
    expect([r.status, r.json.__ERROR[0]]).toEqual([
      403,
      {
        message: 'No permission to execute method raise in dataClass Employee',
        componentSignature: 'dbmg',
        errCode: 1561,
      },
    ])
    expect((await call('/rest/$catalog/appName')).json.__ERROR[0].message).toBe(
      'No permission to execute method appName in the datastore',
    )
    expect((await post('/rest/$singleton/Counter/hit')).json.__ERROR[0].message).toBe(
      'No permission to execute method hit in singleton Counter',
    )
    expect((await post('/rest/Employee/payroll')).json).toEqual({ result: 18000 })
    expect(asked).toContainEqual({ dataClass: 'Employee' })
    expect(asked).toContainEqual({ dataClass: 'Employee', function: 'raise', applyTo: 'entity' })
    expect(asked).toContainEqual({ dataClass: '', function: 'appName', applyTo: 'dataStore' })
    expect(asked).toContainEqual({
      dataClass: '',
      singleton: 'Counter',
      function: 'hit',
      applyTo: 'singleton',
    })
  })
})

describe('the limits of a call', () => {
  it('refuses more arguments than maxFunctionArguments (1000) with 400 9011, before the function runs', async () => {
    const { post, call } = setup()
    counted = 0
    expect((await post('/rest/$catalog/count', new Array(1000).fill(0))).json).toEqual({
      result: 1000,
    })
    for (const [count, r] of [
      [500_000, await post('/rest/$catalog/count', new Array(500_000).fill(0))],
      [1001, await post('/rest/$catalog/count', { params: new Array(1001).fill(0) })],
      [1001, await call(`/rest/$catalog/count?$params=${JSON.stringify(new Array(1001).fill(0))}`)],
    ] as const)
      expect([r.status, r.json.__ERROR]).toEqual([
        400,
        [
          {
            message: `${count} arguments to the function "count" exceeds the limit of 1000`,
            componentSignature: 'enti',
            errCode: 9011,
          },
        ],
      ])
    expect(counted).toBe(1)
    // Entity parameters are not looked up either: the count is refused first.
    const entities = new Array(1001).fill({ __DATACLASS: 'Employee', __ENTITY: true, __KEY: 99 })
    expect(errors((await post('/rest/Employee/describeArg', entities)).json)).toEqual([9011])
  })

  it('takes another maxFunctionArguments, Infinity for none', async () => {
    const two = setup({ maxFunctionArguments: 2 })
    expect((await two.post('/rest/$catalog/count', [1, 2])).json).toEqual({ result: 2 })
    expect((await two.post('/rest/$catalog/count', [1, 2, 3])).json.__ERROR[0].message).toBe(
      '3 arguments to the function "count" exceeds the limit of 2',
    )
    const none = setup({ maxFunctionArguments: Infinity })
    expect((await none.post('/rest/$catalog/count', new Array(5000).fill(0))).json).toEqual({
      result: 5000,
    })
    expect(() => setup({ maxFunctionArguments: -1 })).toThrow(RangeError)
  })

  it('answers an async function that has not settled at functionTimeoutMs with 504 9106', async () => {
    const timers = manualSchedule()
    const reported: [string, number][] = []
    const { call } = setup({
      schedule: timers.schedule,
      onServerError: (e, request, status) => reported.push([(e as Error).name, status]),
      onInternalError: () => reported.push(['internal', 500]),
    })
    const answer = call('/rest/$catalog/stuck')
    await timers.until(1)
    expect(timers.pending).toEqual([30_000])
    expect(timers.fireAll()).toBe(1)
    const r = await answer
    expect([r.status, r.json]).toEqual([
      504,
      {
        __ERROR: [
          {
            message:
              'The function "stuck" did not answer within 30000 ms, the time limit of a call: its result, if it comes later, will not be sent',
            componentSignature: 'enti',
            errCode: 9106,
          },
        ],
      },
    ])
    // Logged as a 5xx, not as a bug.
    expect(reported).toEqual([['FunctionTimedOut', 504]])
  })

  it('ignores what a function does after its time limit, a rejection included', async () => {
    const timers = manualSchedule()
    const { post } = setup({ schedule: timers.schedule, functionTimeoutMs: 5 })
    const answer = post('/rest/$catalog/later', ['x'])
    const failing = post('/rest/$catalog/failsLater')
    await timers.until(2)
    expect(timers.pending).toEqual([5, 5])
    timers.fireAll()
    expect([(await answer).status, (await failing).status]).toEqual([504, 504])
    // Settled late: nothing changes, nothing is left unhandled (vitest fails a run that has one).
    release!()
    fail!(new Error('too late'))
    await new Promise((resolve) => setTimeout(resolve, 0))
  })

  it('cancels the timer of a function that settles in time; 0 is no limit', async () => {
    const timers = manualSchedule()
    const { post } = setup({ schedule: timers.schedule })
    const answer = post('/rest/$catalog/later', ['y'])
    await timers.until(1)
    release!()
    expect((await answer).json).toEqual({ result: 'later y' })
    expect(timers.pending).toEqual([])
    const none = setup({ schedule: timers.schedule, functionTimeoutMs: 0 })
    const unbounded = none.post('/rest/$catalog/later', ['z'])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(timers.pending).toEqual([])
    release!()
    expect((await unbounded).json).toEqual({ result: 'later z' })
    expect(() => setup({ functionTimeoutMs: Number.NaN })).toThrow(RangeError)
  })
})

describe('$catalog/authentify, the login of 4D’s force login mode', () => {
  it('lets a guest call only authentify; the function logs the session in', async () => {
    const { post, call } = setup({ forceLogin: true })
    const first = await call('/rest/$catalog')
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!
    const as = { cookie }
    expect((await post('/rest/Employee/payroll', undefined, as)).status).toBe(401)
    expect((await post('/rest/$catalog/postOnly', undefined, as)).status).toBe(401)
    expect(
      (await post('/rest/$catalog/authentify', [{ name: 'Henry', password: 'no' }], as)).json,
    ).toEqual({
      result: 'Wrong name or password',
    })
    expect((await post('/rest/Employee/payroll', undefined, as)).status).toBe(401)
    const login = await post(
      '/rest/$catalog/authentify',
      [{ name: 'Henry', password: 'secret' }],
      as,
    )
    expect(login.json).toEqual({ result: 'Authentication successful' })
    // The session is renewed by the login: a new cookie, and the one before it is dead.
    const renewed = { cookie: login.headers.get('set-cookie')!.split(';')[0]! }
    expect(renewed.cookie).not.toBe(cookie)
    expect((await post('/rest/Employee/payroll', undefined, renewed)).json).toEqual({
      result: 18000,
    })
    expect((await call('/rest/$directory/currentUser', { headers: renewed })).json).toEqual({
      result: { userName: 'Henry', fullName: 'Henry', ID: 'Henry' },
    })
    expect((await post('/rest/Employee/payroll', undefined, as)).status).toBe(401)
  })

  it('needs authenticate or an exposed authentify function for forceLogin', () => {
    const ds = createDatastore(model())
    expect(() => createRestHandler(ds, { forceLogin: true })).toThrow(/authentify/)
  })
})
