/**
 * A 4D project's own class functions over REST (`serve --project`, issue 62): the car-rental
 * example's DataStore functions that need no ORDA object, a 4D error answered as 4D's error stack
 * naming the file and line, a runaway loop stopped at the request's budget, and a --functions
 * module's function winning over the class file's of the same name.
 */
import { join } from 'node:path'
import type { FunctionsDef } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { mergeFunctions } from './code-functions.js'
import {
  DOCS,
  projectCopy,
  RENTAL,
  served,
  TickingClock,
  type Json,
} from './four-d-rest.fixture.js'

describe("a project's DataStore class functions over REST", () => {
  it('runs sayHello and the other functions that need no ORDA object', async () => {
    const notes: string[] = []
    const post = await served(RENTAL, { notes })
    expect(await post('$catalog/sayHello', ['Ada', 'Lovelace'])).toEqual({
      status: 200,
      json: { result: 'Hello Ada Lovelace!' },
    })
    // Dates come as texts, made Dates by the declared parameter types.
    expect((await post('$catalog/rentalDays', ['2024-02-27', '2024-03-02'])).json).toEqual({
      result: 5,
    })
    expect((await post('$catalog/priceByDay', [30.5, 8])).json).toEqual({
      result: [30.5, 30.5, 30.5, 30.5, 30.5, 30.5, 0, 30.5],
    })
    // The start-up's one line on the code.
    expect(notes).toContain('12 files of 4D code: no problem')
  })

  it('runs the DataStore, DataClass, Entity and selection functions that use ORDA, and the singletons', async () => {
    const post = await served(RENTAL, { data: `${RENTAL}/csv` })
    const first = await post('$catalog/getFirstCar', [])
    expect(first.json).toMatchObject({ __DATACLASS: 'Car', __KEY: '1', plate: 'AB-123-CD' })
    const renault = await post('$catalog/getEntitySel', ['Renault'])
    expect(renault.json).toMatchObject({ __DATACLASS: 'Car', __COUNT: 1 })
    expect((await post('$catalog/stats', [])).json).toEqual({ result: { cars: 3 } })
    const available = await post('Car/available', ['2024-01-01', '2024-01-05'])
    expect(available.json).toMatchObject({ __DATACLASS: 'Car', __COUNT: 2 })
    expect((await post('Rental/total', [])).json).toEqual({ result: 525.8 })
    expect((await post('$singleton/Pricing/quote', [2, 3])).json).toEqual({ result: 59.9 * 3 })
    // ds has no tables in getInfo() (4D's): OB Keys(ds) lists its dataclasses.
    const info = (await post('$catalog/appInfo', [])).json
    expect(info.result).toMatchObject({ name: 'car rental' })
    expect(info.result.tables).toEqual(expect.arrayContaining(['Car', 'Rental', 'Customer']))
  })

  it("answers a 4D error with 4D's error stack: the error, then its function, file and line", async () => {
    const post = await served(RENTAL)
    expect(await post('$catalog/rentalDays', ['2024-03-02', '2024-02-27'])).toEqual({
      status: 422,
      json: {
        __ERROR: [
          { message: 'The rental ends before it starts', componentSignature: 'host', errCode: 1 },
          {
            message: 'Error in DataStore.rentalDays, line 17 of Sources/Classes/DataStore.4dm',
            componentSignature: 'enti',
            errCode: 9100,
          },
        ],
      },
    })
    // A parameter of another type than declared is 4D's error too.
    const wrong = await post('$catalog/sayHello', [1, 2])
    expect(wrong.status).toBe(422)
    expect((wrong.json.__ERROR as Json[])[1]!.message).toMatch(/DataStore\.sayHello, line 11 /)
  })

  describe('a project of its own', () => {
    const dir = projectCopy(DOCS, {
      'Project/Sources/Classes/DataStore.4dm': [
        'Class extends DataStoreImplementation',
        'exposed Function spin() : Integer',
        '\tvar $n : Integer',
        '\tWhile (True)',
        '\t\t$n+=1',
        '\tEnd while',
        'exposed Function ping() : Text',
        '\treturn "pong"',
        'exposed Function window()',
        '\tSET WINDOW TITLE("x")',
        '',
      ].join('\n'),
    })

    it("stops a runaway loop at the request's budget, and answers the next request", async () => {
      const post = await served(dir, { clock: new TickingClock() })
      const spin = await post('$catalog/spin', [])
      expect(spin.status).toBe(422)
      expect((spin.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 9410 })
      expect((await post('$catalog/ping', [])).json).toEqual({ result: 'pong' })
    })

    it('says at start-up what would fail, and fails it only when reached', async () => {
      const notes: string[] = []
      const post = await served(dir, { notes })
      expect(notes.at(-1)).toBe(
        `1 file of 4D code: 1 use of what cannot run here (SET WINDOW TITLE), in 1 file: that code fails when it is reached (entistore check --project ${join(dir, 'Project')} lists them)`,
      )
      const window = await post('$catalog/window', [])
      expect(window.status).toBe(422)
      expect((window.json.__ERROR as Json[])[0]!.message).toMatch(/SET WINDOW TITLE/)
    })
  })
})

describe('mergeFunctions', () => {
  const call = () => 'code'
  const mod = () => 'module'
  it("adds a module's functions to the project's, the module's winning by name", () => {
    const code: FunctionsDef = {
      dataStore: { a: { call }, b: { call } },
      dataClasses: { Car: { dataClass: { x: { call } }, entity: { y: { call } } } },
      singletons: { S: { functions: { s: { call }, t: { call } } } },
    }
    const merged = mergeFunctions(code, {
      dataStore: { b: { call: mod } },
      dataClasses: { Car: { entity: { y: { call: mod } } } },
      singletons: { S: { session: true, functions: { t: { call: mod } } } },
    })
    expect(merged.dataStore!.a!.call).toBe(call)
    expect(merged.dataStore!.b!.call).toBe(mod)
    expect(merged.dataClasses!.Car!.dataClass!.x!.call).toBe(call)
    expect(merged.dataClasses!.Car!.entity!.y!.call).toBe(mod)
    expect(merged.singletons!.S!.functions.s!.call).toBe(call)
    expect(merged.singletons!.S!.functions.t!.call).toBe(mod)
    expect(merged.singletons!.S!.session).toBe(true)
  })

  it("gives a module's entity events and restrict the win by event, an attribute's by attribute", () => {
    const own = () => undefined
    const given = () => undefined
    const code: FunctionsDef = {
      dataClasses: {
        Car: {
          events: { saving: own, afterSave: own },
          attributeEvents: { plate: { touched: own }, mileage: { validateSave: own } },
          restrict: () => null,
        },
      },
    }
    const restrict = () => undefined
    const merged = mergeFunctions(code, {
      dataClasses: {
        Car: {
          events: { saving: given },
          attributeEvents: { plate: { validateSave: given } },
          restrict,
        },
      },
    }).dataClasses!.Car!
    expect(merged.events).toEqual({ saving: given, afterSave: own })
    expect(merged.attributeEvents).toEqual({
      plate: { touched: own, validateSave: given },
      mileage: { validateSave: own },
    })
    expect(merged.restrict).toBe(restrict)
  })
})
