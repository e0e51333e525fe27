import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import { thrown } from '../errors/thrown.fixture.js'
import type { LockOwner } from '../locks/lock-table.js'
import type { ModelJson } from '../schema/model-json.js'
import { sessionUser } from '../sessions/session-user.js'
import { writeClock, writeData, writeModel } from '../txn/writes.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import { Entity } from '../orda/objects/entity.js'
import { EntityDraft } from '../orda/objects/entity-draft.js'
import { EntitySelection } from '../orda/objects/entity-selection.js'
import { failure, maskMessage } from '../orda/functions/call-function.js'
import { callFunction } from '../orda/objects/datastore-functions.js'
import { currentCall } from '../orda/current-call/current-call.js'
import { defineFunctions, type FunctionsDef } from '../orda/objects/define-functions.js'
import { singleton } from './define.js'

const functions = defineFunctions({
  dataStore: {
    appName: {
      exposed: true,
      onHTTPGet: true,
      call() {
        return this.name
      },
    },
    secret: {
      call() {
        return 'private'
      },
    },
  },
  dataClasses: {
    Employee: {
      dataClass: {
        highEarners: {
          exposed: true,
          params: ['number'],
          call(min: number) {
            return this.query('salary >= :1', min)
          },
        },
      },
      entity: {
        raise: {
          exposed: true,
          params: ['number'],
          call(pct: number) {
            const salary = this.get('salary') as number
            return this.edit({ salary: salary * (1 + pct / 100) }).saveOrFail()
          },
        },
        later: {
          exposed: true,
          async call(salary: number) {
            await new Promise((resolve) => setTimeout(resolve, 1))
            return this.dataClass.update(this.key, { salary }).get('salary')
          },
        },
      },
      entitySelection: {
        payroll: {
          exposed: true,
          call() {
            return this.sum('salary')
          },
        },
      },
    },
  },
  singletons: {
    Counter: singleton(() => ({ hits: 0 }), {
      hit: {
        exposed: true,
        call(by = 1) {
          this.hits += by as number
          return this.hits
        },
      },
    }),
  },
})

const fresh = (defs: FunctionsDef = functions, model: ModelJson = writeModel()) =>
  createDatastore(model, { data: writeData(), clock: writeClock(), functions: defs })

describe('calling functions from TypeScript', () => {
  it('binds `this` to the datastore, dataclass, entity, selection and singleton state', () => {
    const ds = fresh()
    const Employee = ds.dataClass('Employee')
    expect(ds.call('appName')).toBe('shop')
    const high = Employee.call('highEarners', 6000)
    expect(high).toBeInstanceOf(EntitySelection)
    expect((high as EntitySelection).toArray().map((e) => e.key)).toEqual([2, 3])
    const raised = Employee.get(1)!.call('raise', 10) as Entity
    expect(raised.get('salary')).toBeCloseTo(5500)
    expect(raised.stamp).toBe(2)
    expect(Employee.all().call('payroll')).toBeCloseTo(5500 + 6000 + 7000)
    expect(ds.singleton('Counter').call('hit')).toBe(1)
    expect(ds.singleton('Counter').call('hit', 5)).toBe(6)
    expect(ds.singleton('Counter').state).toEqual({ hits: 6 })
  })

  it('calls functions that are not exposed (the application calls its own code)', () => {
    expect(fresh().call('secret')).toBe('private')
  })

  it('returns the Promise of an async function, and its writes are applied', async () => {
    const ds = fresh()
    const pending = ds.dataClass('Employee').get(2)!.call('later', 1234)
    expect(pending).toBeInstanceOf(Promise)
    await expect(pending).resolves.toBe(1234)
    expect(ds.dataClass('Employee').get(2)!.get('salary')).toBe(1234)
  })

  it('refuses unknown functions and singletons with 1573 / 9105', () => {
    const ds = fresh()
    const e = thrown(() => ds.dataClass('Employee').call('nope'))
    expect([e.errCode, e.category, e.message]).toEqual([
      1573,
      'notFound',
      'The function "nope" cannot be found in dataClass Employee',
    ])
    expect(thrown(() => ds.call('raise')).message).toBe(
      'The function "raise" cannot be found in the datastore',
    )
    expect(thrown(() => ds.singleton('Nope')).errCode).toBe(9105)
  })
})

describe('parameters', () => {
  const typed = (params: FunctionsDef['dataStore']) => fresh({ dataStore: params })
  const echo = (params: readonly unknown[]) =>
    typed({ f: { params: params as never, call: (...args: unknown[]) => args } })

  it('checks declared types, in order, and names the mismatch', () => {
    const ds = echo(['string', 'number', 'integer', 'boolean', 'object', 'array'])
    expect(ds.call('f', 'a', 1.5, 2, true, { x: 1 }, [1])).toEqual([
      'a',
      1.5,
      2,
      true,
      { x: 1 },
      [1],
    ])
    const e = thrown(() => ds.call('f', 'a', '1.5'))
    expect([e.errCode, e.category, e.message]).toEqual([
      9101,
      'badRequest',
      'Invalid parameters for the function "f": parameter 2 must be a number, not "1.5"',
    ])
    expect(thrown(() => ds.call('f', 'a', 1, 2.5)).message).toContain(
      'parameter 3 must be an integer, not 2.5',
    )
    expect(thrown(() => ds.call('f', 'a', 1, 2, true, [])).message).toContain(
      'parameter 5 must be an object, not []',
    )
  })

  it('passes missing and null parameters as they are, and refuses extra ones', () => {
    const ds = echo(['string', 'number'])
    expect(ds.call('f')).toEqual([])
    expect(ds.call('f', null, undefined)).toEqual([null, undefined])
    expect(thrown(() => ds.call('f', 'a', 1, 2)).message).toContain(
      'it takes at most 2 parameters, 3 were given',
    )
    expect(thrown(() => echo([]).call('f', 1)).message).toContain('it takes no parameters')
  })

  it('hands a date parameter to the function as a Date', () => {
    const ds = echo(['date', 'date'])
    const [a, b] = ds.call('f', '2020-08-22T22:00:00.000Z', '2021-03-04') as Date[]
    expect(a).toBeInstanceOf(Date)
    expect(a!.toISOString()).toBe('2020-08-22T22:00:00.000Z')
    expect(b!.toISOString()).toBe('2021-03-04T00:00:00.000Z')
    expect(thrown(() => ds.call('f', 'yesterday')).message).toContain(
      'parameter 1 must be a date (ISO 8601 text), not "yesterday"',
    )
  })

  it('checks entity and selection parameters by dataclass', () => {
    const ds = echo([{ entity: 'Employee' }, { selection: 'Company' }])
    const Employee = ds.dataClass('Employee')
    const Company = ds.dataClass('Company')
    expect(ds.call('f', Employee.get(1), Company.all())).toHaveLength(2)
    expect(ds.call('f', Employee.new({ lastName: 'New' }))).toHaveLength(1)
    expect(thrown(() => ds.call('f', Company.get(1))).message).toContain(
      'parameter 1 must be an entity of Employee, not an entity of Company',
    )
    expect(thrown(() => ds.call('f', Employee.get(1), Employee.all())).message).toContain(
      'parameter 2 must be an entity selection of Company, not an entity selection of Employee',
    )
  })
})

describe('what a function throws', () => {
  const throwing = (fn: () => unknown) => fresh({ dataStore: { f: { call: fn } } })

  it('keeps a DatastoreError as it is', () => {
    const ds = throwing(function (this: unknown) {
      return ds.dataClass('Employee').getOrFail(99)
    })
    expect(thrown(() => ds.call('f')).errCode).toBe(1542)
  })

  it('turns anything else into FunctionFailed with its message, paths masked', () => {
    const e = thrown(() =>
      throwing(() => {
        throw new Error("ENOENT: no such file or directory, open '/srv/app/data/prices.json'")
      }).call('f'),
    )
    expect([e.name, e.errCode, e.componentSignature, e.category]).toEqual([
      'FunctionFailed',
      9100,
      'enti',
      'failed',
    ])
    expect(e.message).toBe("ENOENT: no such file or directory, open '…'")
    expect(
      thrown(() =>
        throwing(() => {
          throw 'plain text'
        }).call('f'),
      ).message,
    ).toBe('plain text')
  })

  it("keeps the code of an error thrown 4D's way", () => {
    const e = failure({ errCode: 42, message: 'Out of stock', componentSignature: 'shop' })
    expect([e.errCode, e.componentSignature, e.message]).toEqual([42, 'shop', 'Out of stock'])
    expect(failure({ errCode: 7, message: 'x' }).componentSignature).toBe('host')
  })

  it('rejects the Promise of an async function with the same errors', async () => {
    const ds = throwing(async () => {
      await Promise.resolve()
      throw new TypeError('bad input')
    })
    const e: unknown = await (ds.call('f') as Promise<unknown>).catch((x: unknown) => x)
    expect(DatastoreError.is(e) && [e.name, e.message]).toEqual(['FunctionFailed', 'bad input'])
  })

  it('masks POSIX and Windows paths and file URLs, and leaves other text alone', () => {
    expect(maskMessage('at /home/me/app/fn.js:3:1 and file:///x/y.js')).toBe('at … and …')
    expect(maskMessage('C:\\app\\fn.js failed')).toBe('… failed')
    expect(maskMessage('salary must be 1/2 of 4000, see a/b')).toBe(
      'salary must be 1/2 of 4000, see a/b',
    )
    expect(maskMessage('x'.repeat(2000))).toHaveLength(1001)
  })
})

describe('the call context', () => {
  it('tells the function its datastore, function and session, also after an await', async () => {
    const seen: unknown[] = []
    const ds = fresh({
      dataStore: {
        who: {
          async call() {
            seen.push(currentCall()?.function.name, currentCall()?.session?.id)
            await new Promise((resolve) => setTimeout(resolve, 1))
            seen.push(currentCall()?.datastore === ds, currentCall()?.session?.id)
          },
        },
      },
    })
    const session = ds.sessions.openGuest()
    await callFunction(ds, ds.functions.find('dataStore', '', 'who')!, ds, [], { session })
    expect(seen).toEqual(['who', session.id, true, session.id])
    expect(currentCall()).toBeUndefined()
  })

  it('logs the session in and out (4D authentify)', () => {
    const ds = fresh({
      dataStore: {
        authentify: {
          exposed: true,
          call(credentials: { name: string }) {
            currentCall()!.logIn({ name: credentials.name, groups: ['vip'] })
            return currentCall()!.user?.name
          },
        },
        leave: {
          call() {
            currentCall()!.logOut()
          },
        },
      },
    })
    const session = ds.sessions.openGuest()
    const fn = (name: string) => ds.functions.find('dataStore', '', name)!
    expect(session.established).toBe(false)
    expect(callFunction(ds, fn('authentify'), ds, [{ name: 'Henry' }], { session })).toBe('Henry')
    expect(sessionUser(session)).toEqual({ name: 'Henry', groups: ['vip'] })
    expect(ds.sessions.peek(session.id)!.established).toBe(true)
    callFunction(ds, fn('leave'), ds, [], { session })
    expect(sessionUser(session)).toBeUndefined()
    expect(() => ds.call('authentify', { name: 'x' })).toThrow(/no session/)
  })

  it("makes an async function's writes after an await its caller's (locks are honoured)", async () => {
    const ds = fresh()
    const Employee = ds.dataClass('Employee')
    const owner = (): LockOwner => ({ id: ds.sessions.open().id, kind: 'session' })
    const holder = owner()
    const other = owner()
    expect(Employee.get(2)!.lock({ owner: holder })).toEqual({ success: true })
    const later = ds.functions.find('entity', 'Employee', 'later')!
    const refused: unknown = await (
      callFunction(ds, later, Employee.get(2), [1], { owner: other }) as Promise<unknown>
    ).catch((e: unknown) => e)
    expect(DatastoreError.is(refused) && refused.name).toBe('EntityLocked')
    await expect(
      callFunction(ds, later, Employee.get(2), [2], { owner: holder }) as Promise<unknown>,
    ).resolves.toBe(2)
  })
})

describe('the registry', () => {
  const invalid = (defs: unknown) => thrown(() => fresh(defs as FunctionsDef))

  it('refuses definitions that do not fit the model, naming where', () => {
    const cases: [unknown, string][] = [
      [
        { dataClasses: { Nope: {} } },
        'functions.dataClasses.Nope: the model has no dataclass "Nope"',
      ],
      [
        { dataClasses: { Employee: { entity: { salary: { call() {} } } } } },
        'functions.dataClasses.Employee.entity.salary: "salary" is the name of an attribute of Employee',
      ],
      [
        { dataStore: { Employee: { call() {} } } },
        'functions.dataStore.Employee: "Employee" is the name of a dataclass',
      ],
      [{ dataStore: { f: () => 1 } }, 'not a bare function'],
      [{ dataStore: { f: { call: 1 } } }, '"call" must be a function'],
      [{ dataStore: { f: { expose: true, call() {} } } }, 'unknown option "expose"'],
      [{ dataStore: { f: { exposed: 'yes', call() {} } } }, '"exposed" must be true or false'],
      [{ dataStore: { f: { params: ['text'], call() {} } } }, '"text" is not a parameter type'],
      [
        { dataStore: { f: { params: [{ entity: 'Nope' }], call() {} } } },
        'the model has no dataclass "Nope"',
      ],
      [{ dataStore: { __proto2: { call() {} } } }, 'is not valid'],
      [{ dataClass: {} }, 'unknown key "dataClass"'],
      [{ singletons: { S: { hit: { call() {} } } } }, 'expected { state?, functions, session? }'],
    ]
    for (const [defs, message] of cases) {
      const e = invalid(defs)
      expect(e.errCode).toBe(9104)
      expect(e.message).toContain(message)
    }
  })

  it("lists the model's declared functions first, then the code's, and merges a declared one with its code", () => {
    const model = writeModel()
    const declared: ModelJson = {
      ...model,
      methods: [
        {
          name: 'authentify',
          applyTo: 'dataStore',
          scope: 'public',
          from: 'remoteServer',
          allowedOnHTTPGET: false,
          exposed: true,
          paramsText: 'authentify($c)',
        },
        { name: 'hidden', exposed: false },
      ],
      singletons: [
        { name: 'Shop', methods: [{ name: 'open', allowedOnHTTPGET: true, exposed: true }] },
      ],
      dataClasses: model.dataClasses.map((dc) =>
        dc.name === 'Employee'
          ? {
              ...dc,
              methods: [
                { name: 'promote', applyTo: 'entity' },
                { name: 'team', applyTo: 'entityCollection' },
              ],
            }
          : dc,
      ),
    }
    const ds = fresh(
      {
        dataStore: {
          authentify: { params: ['object'], call: () => 'ok' },
          extra: { call: () => 1 },
        },
      },
      declared,
    )
    expect(ds.functions.list('dataStore').map((f) => [f.name, f.exposed, !!f.impl])).toEqual([
      ['authentify', true, true],
      ['hidden', false, false],
      ['extra', false, true],
    ])
    expect(ds.functions.find('dataStore', '', 'authentify')!.extra).toEqual({
      paramsText: 'authentify($c)',
    })
    expect(ds.functions.list('entity', 'Employee').map((f) => f.name)).toEqual(['promote'])
    expect(ds.functions.list('entitySelection', 'Employee').map((f) => f.name)).toEqual(['team'])
    expect(ds.functions.find('singleton', 'Shop', 'open')!.onHTTPGet).toBe(true)
    const e = thrown(() => ds.singleton('Shop').call('open'))
    expect([e.errCode, e.category, e.message]).toEqual([
      9103,
      'notImplemented',
      'The function "open" of singleton Shop is declared by the model but has no implementation here (give one with the functions option or --functions)',
    ])
  })

  it("names the 4D class file and the functions module's place of a project's function without code", () => {
    const declaredIn = (file: string) => ({ exposed: true, declaredIn: file })
    const ds = createDatastore({
      methods: [{ name: 'appInfo', ...declaredIn('Classes/DataStore.4dm') }],
      dataClasses: [
        {
          name: 'Employee',
          attributes: [{ name: 'ID', type: 'long' }],
          methods: [
            { name: 'raise', applyTo: 'entity', ...declaredIn('Classes/EmployeeEntity.4dm') },
          ],
        },
      ],
      singletons: [
        { name: 'Shop', methods: [{ name: 'open', ...declaredIn('Classes/Shop.4dm') }] },
      ],
    } as ModelJson)
    const messages = [() => ds.call('appInfo'), () => ds.singleton('Shop').call('open')].map(
      (call) => {
        const e = thrown(call)
        return [e.errCode, e.category, e.message]
      },
    )
    expect(messages).toEqual([
      [
        9107,
        'notImplemented',
        'The function "appInfo" of the datastore is declared in Classes/DataStore.4dm but has no implementation here: give it in a --functions module as dataStore.appInfo',
      ],
      [
        9107,
        'notImplemented',
        'The function "open" of singleton Shop is declared in Classes/Shop.4dm but has no implementation here: give it in a --functions module as singletons.Shop.functions.open',
      ],
    ])
    // The class file is the error's, not the catalog's: it is not echoed as an extra field.
    expect(ds.functions.find('entity', 'Employee', 'raise')!.extra).toEqual({})
  })

  it('makes a singleton state once per datastore, an empty object by default', () => {
    let made = 0
    const defs: FunctionsDef = {
      singletons: {
        A: {
          state: () => ({ n: ++made }),
          functions: {
            get: {
              call() {
                return this
              },
            },
          },
        },
        B: {
          functions: {
            get: {
              call() {
                return this
              },
            },
          },
        },
      },
    }
    const one = fresh(defs)
    expect(one.singleton('A').call('get')).toEqual({ n: 1 })
    expect(one.singleton('A').call('get')).toBe(one.singleton('A').state)
    expect(fresh(defs).singleton('A').state).toEqual({ n: 2 })
    expect(one.singleton('B').state).toEqual({})
    expect(one.functions.singletonNames()).toEqual(['A', 'B'])
    one.functions.resetSingletons()
    expect(one.singleton('A').state).toEqual({ n: 3 })
  })

  it("gives the model's calculated attributes the code of `computed`, and refuses others", () => {
    const ds = fresh({
      dataClasses: {
        Employee: {
          computed: {
            fullName: {
              get() {
                return `${String(this.get('lastName'))}!`
              },
            },
          },
        },
      },
    })
    expect(ds.dataClass('Employee').get(1)!.get('fullName')).toBe('Lovelace!')
    expect(ds.dataClass('Employee').query('fullName = :1', 'Turing!').length).toBe(1)
    const e = invalid({ dataClasses: { Employee: { computed: { lastName: { get: () => 1 } } } } })
    expect(e.message).toContain(
      'functions.dataClasses.Employee.computed.lastName: Employee has no calculated attribute "lastName"',
    )
  })

  it('accepts an entity draft where an entity is declared', () => {
    const ds = fresh({
      dataStore: { f: { params: [{ entity: 'Employee' }], call: (e: unknown) => e } },
    })
    expect(ds.call('f', ds.dataClass('Employee').new())).toBeInstanceOf(EntityDraft)
  })
})
