/**
 * What a project's 4D function receives and answers over REST, by the "Parameters" section of 4D's
 * ClassFunctions.md ("All JSON data types are supported … Dates can be passed as strings in ISO
 * 8601 date format"; entities and selections by `__DATACLASS`/`__ENTITY`/`__KEY` and
 * `__DATASET`/`__ENTITIES`), results of each kind, and the errors: an unexposed or unknown
 * function, a parameter of the wrong type, a `throw` with its code and message, an error in a
 * project method the function calls. The project is test-projects/docs-functions.
 */
import { describe, expect, it } from 'vitest'
import { FUNCTIONS, served, type Json } from './four-d-rest.fixture.js'

const start = () => served(FUNCTIONS, { data: `${FUNCTIONS}/csv` })

// 4D's Value type constants (docs/commands/value-type.md).
const IS_REAL = 1
const IS_TEXT = 2
const IS_DATE = 4
const IS_UNDEFINED = 5
const IS_BOOLEAN = 6
const IS_OBJECT = 38
const IS_COLLECTION = 42
const IS_NULL = 255

describe('parameters of each JSON type', () => {
  it('an untyped parameter keeps the JSON type: text, number, boolean, object, collection, null', async () => {
    const post = await start()
    const kind = async (value: unknown) => (await post('$catalog/kind', [value])).json.result
    expect(await kind('Aguada')).toEqual({ type: IS_TEXT, value: 'Aguada' })
    expect(await kind(1.5)).toEqual({ type: IS_REAL, value: 1.5 })
    // JSON has one number type: a Real.
    expect(await kind(2)).toEqual({ type: IS_REAL, value: 2 })
    expect(await kind(true)).toEqual({ type: IS_BOOLEAN, value: true })
    expect(await kind({ a: 1, b: [2] })).toEqual({ type: IS_OBJECT, value: { a: 1, b: [2] } })
    expect(await kind([1, 'two'])).toEqual({ type: IS_COLLECTION, value: [1, 'two'] })
    expect(await kind(null)).toEqual({ type: IS_NULL, value: null })
    // A date text given to an untyped parameter stays a text.
    expect(await kind('2020-08-22')).toEqual({ type: IS_TEXT, value: '2020-08-22' })
  })

  it('a parameter not sent is undefined', async () => {
    const post = await start()
    expect((await post('$catalog/kind', [])).json).toEqual({ result: { type: IS_UNDEFINED } })
  })

  it('typed parameters: Text, Real, Integer, Boolean, Collection, Object', async () => {
    const post = await start()
    expect((await post('$catalog/text', ['Paris'])).json).toEqual({ result: '<Paris>' })
    expect((await post('$catalog/number', [2.5])).json).toEqual({ result: 5 })
    expect((await post('$catalog/integer', [41])).json).toEqual({ result: 42 })
    expect((await post('$catalog/flag', [false])).json).toEqual({ result: true })
    expect((await post('$catalog/collection', [[1, 'b', null]])).json).toEqual({
      result: [null, 'b', 1],
    })
    expect((await post('$catalog/object', [{ a: 1, nested: { b: [true] } }])).json).toEqual({
      result: { a: 1, nested: { b: [true] }, seen: true },
    })
  })

  it('several parameters of several types, in order', async () => {
    const post = await start()
    expect((await post('$catalog/many', ['a', 1.5, true, [1, 2]])).json).toEqual({
      result: 'a 1.5 True 2',
    })
  })

  it('a Date parameter takes "YYYY-MM-DD"', async () => {
    const post = await start()
    expect((await post('$catalog/day', ['2020-08-22'])).json).toEqual({
      result: { type: IS_DATE, year: 2020, month: 8, day: 22 },
    })
    expect((await post('$catalog/nextDay', ['2020-12-31'])).json).toEqual({ result: '2021-01-01' })
    expect((await post('$catalog/nextDay', ['2024-02-28'])).json).toEqual({ result: '2024-02-29' })
  })

  it('a Date parameter takes an ISO 8601 date-time, the page\'s "2020-08-22T22:00:000Z" too: its day as written', async () => {
    const post = await start()
    const day = { result: { type: IS_DATE, year: 2020, month: 8, day: 22 } }
    expect((await post('$catalog/day', ['2020-08-22T22:00:00.000Z'])).json).toEqual(day)
    expect((await post('$catalog/day', ['2020-08-22T22:00:000Z'])).json).toEqual(day)
    expect((await post('$catalog/day', ['2020-08-22T08:30:00+02:00'])).json).toEqual(day)
  })

  it('null for an Object parameter, and no parameter at all: Null', async () => {
    const post = await start()
    expect((await post('$catalog/isNull', [null])).json).toEqual({ result: true })
    expect((await post('$catalog/isNull', [])).json).toEqual({ result: true })
    expect((await post('$catalog/isNull', [{}])).json).toEqual({ result: false })
  })

  it('the body forms clients send for no parameter: [], {}, null, nothing', async () => {
    const post = await start()
    for (const body of [[], {}, null])
      expect((await post('$catalog/getName', body)).json).toEqual({
        result: 'US cities and zip codes manager',
      })
  })
})

describe('entities and selections as parameters', () => {
  const city = { __DATACLASS: 'City', __ENTITY: true }

  it('{"__DATACLASS","__ENTITY":true,"__KEY"}: the stored entity', async () => {
    const post = await start()
    expect((await post('$catalog/entity', [{ ...city, __KEY: 1 }])).json).toEqual({
      result: { dataClass: 'City', key: 1, isNew: false, touched: [], name: 'Aguada' },
    })
    // The key as a text, as the replies write it.
    expect((await post('$catalog/entity', [{ ...city, __KEY: '2' }])).json.result).toMatchObject({
      key: 2,
      name: 'Aguadilla',
    })
  })

  it('with attribute values: that entity with them, touched, not saved', async () => {
    const post = await start()
    const changed = await post('$catalog/entity', [{ ...city, __KEY: 1, name: 'Nueva' }])
    expect(changed.json).toEqual({
      result: { dataClass: 'City', key: 1, isNew: false, touched: ['name'], name: 'Nueva' },
    })
    expect((await post.client().get('City(1)')).json.name).toBe('Aguada')
  })

  it('without __KEY: a new entity with the values given, not saved', async () => {
    const post = await start()
    const fresh = await post('$catalog/entity', [{ ...city, name: 'Nueva' }])
    expect(fresh.json).toEqual({
      result: { dataClass: 'City', key: null, isNew: true, touched: ['name'], name: 'Nueva' },
    })
    expect((await post.client().get('City')).json.__COUNT).toBe(3)
  })

  it('an entity of an untyped parameter is an object for Value type', async () => {
    const post = await start()
    const kind = (await post('$catalog/kind', [{ ...city, __KEY: 1 }])).json.result
    expect(kind.type).toBe(IS_OBJECT)
    expect(kind.value).toMatchObject({ __DATACLASS: 'City', __KEY: '1', name: 'Aguada' })
  })

  it('a key that does not exist: 404 1542; a dataclass that does not: 404 1800', async () => {
    const post = await start()
    const missing = await post('$catalog/entity', [{ ...city, __KEY: 99 }])
    expect(missing.status).toBe(404)
    expect((missing.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 1542 })
    const nope = await post('$catalog/entity', [{ __DATACLASS: 'Nope', __ENTITY: true, __KEY: 1 }])
    expect(nope.status).toBe(404)
    expect((nope.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 1800 })
  })

  it('an attribute the dataclass does not have: 400 1500', async () => {
    const post = await start()
    const wrong = await post('$catalog/entity', [{ ...city, __KEY: 1, nope: 1 }])
    expect(wrong.status).toBe(400)
    expect((wrong.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 1500 })
  })

  it('{"__DATASET": id, "__ENTITIES": true}: the entity set as an EntitySelection', async () => {
    const post = await start()
    const client = post.client()
    const set = await client.get('City/?$filter="ID<3"&$method=entityset')
    const id = String(set.json.__ENTITYSET).split('/').at(-1)
    expect(await client.post('$catalog/selection', [{ __DATASET: id, __ENTITIES: true }])).toEqual({
      status: 200,
      json: { result: { length: 2, dataClass: 'City', keys: [1, 2] } },
    })
  })

  it('an entity set that does not exist: 404 1802', async () => {
    const post = await start()
    const nope = await post('$catalog/selection', [{ __DATASET: 'NOPE', __ENTITIES: true }])
    expect(nope.status).toBe(404)
    expect((nope.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 1802 })
  })
})

describe('results of each kind', () => {
  it('a scalar, a date, an object, a collection: {"result": …}', async () => {
    const post = await start()
    expect((await post('$catalog/getName')).json).toEqual({
      result: 'US cities and zip codes manager',
    })
    expect((await post('$catalog/aDate')).json).toEqual({ result: '2024-02-29' })
    expect((await post('$catalog/aCollection')).json).toEqual({
      result: [1, 2.5, 'three', true, null, { four: 4 }],
    })
    const object = (await post('$catalog/anObject')).json.result as Json
    expect(object).toMatchObject({ name: 'Aguada', zip: 602, at: '2020-08-22', tags: ['a', 'b'] })
    // An entity inside an object is written as an entity.
    expect(object.city).toMatchObject({ __DATACLASS: 'City', __KEY: '1', name: 'Aguada' })
  })

  it('an entity: the entity itself, no "result"', async () => {
    const post = await start()
    const city = (await post('$catalog/anEntity')).json
    expect(city).toMatchObject({ __entityModel: 'City', __KEY: '2', name: 'Aguadilla' })
    expect(city).not.toHaveProperty('result')
  })

  it('an entity with $attributes: only those', async () => {
    const post = await start()
    const city = (await post('$catalog/anEntity?$attributes=name')).json
    expect(Object.keys(city).filter((k) => !k.startsWith('__'))).toEqual(['name'])
  })

  it('a selection: its envelope, in the order the code made', async () => {
    const post = await start()
    const cities = (await post('$catalog/aSelection')).json
    expect(cities).toMatchObject({
      __DATACLASS: 'City',
      __entityModel: 'City',
      __COUNT: 3,
      __FIRST: 0,
      __SENT: 3,
    })
    expect((cities.__ENTITIES as Json[]).map((e) => e.name)).toEqual([
      'Adjuntas',
      'Aguada',
      'Aguadilla',
    ])
  })

  it('a selection with $attributes and $top', async () => {
    const post = await start()
    const top = (await post('$catalog/aSelection?$top=1&$attributes=name')).json
    expect(top).toMatchObject({ __COUNT: 3, __SENT: 1 })
    const [first] = top.__ENTITIES as Json[]
    expect(first).toMatchObject({ __KEY: '3', name: 'Adjuntas' })
    expect(first).not.toHaveProperty('countyFIPS')
  })

  it('a selection with $method=entityset: kept as an entity set', async () => {
    const post = await start()
    const client = post.client()
    const kept = (await client.post('$catalog/aSelection?$method=entityset')).json
    expect(kept.__ENTITYSET).toMatch(/^\/rest\/City\/\$entityset\/[0-9A-F]{32}$/)
    expect((await client.get(`${String(kept.__ENTITYSET).slice(6)}?$top=1`)).json.__COUNT).toBe(3)
  })

  it('Null, undefined, and a function that returns nothing: {"result": null}', async () => {
    const post = await start()
    expect(await post('$catalog/aNull')).toEqual({ status: 200, json: { result: null } })
    expect(await post('$catalog/anUndefined')).toEqual({ status: 200, json: { result: null } })
    expect(await post('$catalog/nothing')).toEqual({ status: 200, json: { result: null } })
  })

  it('a function declared local runs on the server for REST', async () => {
    const post = await start()
    expect((await post('$catalog/localToo')).json).toEqual({ result: 'ran' })
  })
})

describe('errors', () => {
  it('a function not exposed answers as one that does not exist: 404 1573 on the datastore', async () => {
    const post = await start()
    const secret = await post('$catalog/secret')
    const nope = await post('$catalog/nope')
    expect(secret.status).toBe(404)
    expect(secret.json).toEqual({
      __ERROR: [
        {
          message: 'The function "secret" cannot be found in the datastore',
          componentSignature: 'dbmg',
          errCode: 1573,
        },
      ],
    })
    expect(nope.status).toBe(404)
    expect((nope.json.__ERROR as Json[])[0]!.errCode).toBe(1573)
  })

  it('…and 1500 then 1804 on a dataclass, as 4D answers "getProductDetails"', async () => {
    const post = await start()
    const hidden = await post('Students/age')
    expect(hidden.status).toBe(404)
    expect(hidden.json).toEqual({
      __ERROR: [
        {
          message: 'The "age" attribute cannot be found in The "Students" dataclass',
          componentSignature: 'dbmg',
          errCode: 1500,
        },
        {
          message:
            'Cannot completely build a list of attributes with "age" for the "Students" dataclass',
          componentSignature: 'dbmg',
          errCode: 1804,
        },
      ],
    })
  })

  it("a parameter of the wrong type: 4D's error 54, then the function, file and line", async () => {
    const post = await start()
    const wrong = await post('$catalog/text', [3])
    expect(wrong).toEqual({
      status: 422,
      json: {
        __ERROR: [
          {
            message: 'Argument types are incompatible (Text := Number)',
            componentSignature: '4DRT',
            errCode: 54,
          },
          {
            message: 'Error in DataStore.text, line 11 of Sources/Classes/DataStore.4dm',
            componentSignature: 'enti',
            errCode: 9100,
          },
        ],
      },
    })
    expect((await post('$catalog/number', ['2.5'])).status).toBe(422)
    expect((await post('$catalog/flag', ['true'])).status).toBe(422)
  })

  it('throw({errCode; message}): its code and message lead __ERROR', async () => {
    const post = await start()
    expect(await post('$catalog/failing')).toEqual({
      status: 422,
      json: {
        __ERROR: [
          { message: 'The city is unknown', componentSignature: 'host', errCode: 1234 },
          {
            message: 'Error in DataStore.failing, line 78 of Sources/Classes/DataStore.4dm',
            componentSignature: 'enti',
            errCode: 9100,
          },
        ],
      },
    })
  })

  it('throw(code; text) with the parameters given', async () => {
    const post = await start()
    const thrown = await post('$catalog/failingWith', [77, 'Bad thing'])
    expect(thrown.status).toBe(422)
    expect((thrown.json.__ERROR as Json[])[0]).toEqual({
      message: 'Bad thing',
      componentSignature: 'host',
      errCode: 77,
    })
  })

  it('an error in a project method the function calls: named by the method and its line', async () => {
    const post = await start()
    expect((await post('$catalog/divide', [5])).json).toEqual({ result: 2 })
    const zero = await post('$catalog/divide', [0])
    expect(zero.status).toBe(422)
    const [error, place] = zero.json.__ERROR as Json[]
    expect(error).toMatchObject({ errCode: 9400 })
    expect(error!.message).toMatch(/^Division by zero/)
    expect(place).toEqual({
      message: 'Error in ratio, line 3 of Sources/Methods/ratio.4dm',
      componentSignature: 'enti',
      errCode: 9100,
    })
  })

  it('a body that is not a JSON array of parameters: 400', async () => {
    const post = await start()
    const wrong = await post('$catalog/getName', 'Aguada')
    expect(wrong.status).toBe(400)
    expect((wrong.json.__ERROR as Json[])[0]).toHaveProperty('errCode')
  })

  it('the next call after an error is answered as usual', async () => {
    const post = await start()
    await post('$catalog/failing')
    expect((await post('$catalog/getName')).status).toBe(200)
  })
})
