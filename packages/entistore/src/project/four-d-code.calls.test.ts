/**
 * The requests and replies of 4D's "Calling class functions" page (docs/REST/ClassFunctions.md),
 * its `$singleton` page and the functions its `$catalog` page lists, sent to `serve --project` on
 * a project whose class files are the pages' examples (test-projects/docs-functions): the datastore,
 * dataclass, entity and selection functions, POST and GET (`onHTTPGet`, `?$params='[…]'`),
 * entities and selections as parameters, singletons, and the catalog.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FUNCTIONS, served, type Json } from './four-d-rest.fixture.js'

const start = () => served(FUNCTIONS, { data: `${FUNCTIONS}/csv` })
const MANUALS = `${FUNCTIONS}/Resources/User manuals`

/** An entity's reply without its `__TIMESTAMP`, which the clock decides. */
const entity = (json: Json): Json => {
  const { __TIMESTAMP, ...rest } = json
  expect(__TIMESTAMP).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  return rest
}

const AGUADA = {
  __entityModel: 'City',
  __DATACLASS: 'City',
  __KEY: '1',
  __STAMP: 1,
  ID: 1,
  name: 'Aguada',
  countyFIPS: 72003,
  zips: { __deferred: { uri: '/rest/City[1]/zips?$expand=zips' } },
}

/** The id of the entity set a GET with `$method=entityset` made. */
const setId = (json: Json): string => String(json.__ENTITYSET).split('/').at(-1)!

describe('ClassFunctions.md, POST request examples', () => {
  it('a datastore class function: POST /rest/$catalog/getName', async () => {
    const post = await start()
    expect(await post('$catalog/getName')).toEqual({
      status: 200,
      json: { result: 'US cities and zip codes manager' },
    })
  })

  it('a dataclass class function: POST /rest/City/getCity ["Aguada"] answers the entity', async () => {
    const post = await start()
    const city = await post('City/getCity', ['Aguada'])
    expect(city.status).toBe(200)
    expect(entity(city.json)).toEqual(AGUADA)
    // The page's key order: the entity's own keys, then its attributes in the model's order.
    expect(Object.keys(city.json)).toEqual([
      '__entityModel',
      '__DATACLASS',
      '__KEY',
      '__TIMESTAMP',
      '__STAMP',
      'ID',
      'name',
      'countyFIPS',
      'zips',
    ])
  })

  it('a dataclass function returning a selection: POST /rest/City/getCities ["Aguada","Adjuntas"]', async () => {
    const post = await start()
    const cities = (await post('City/getCities', ['Aguada', 'Adjuntas'])).json
    expect(cities).toMatchObject({ __DATACLASS: 'City', __COUNT: 2, __FIRST: 0, __SENT: 2 })
    expect((cities.__ENTITIES as Json[]).map((e) => e.name)).toEqual(['Aguada', 'Adjuntas'])
  })

  it('an entity class function: POST /rest/City(2)/getPopulation answers {"result": 48814}', async () => {
    const post = await start()
    expect(await post('City(2)/getPopulation')).toEqual({ status: 200, json: { result: 48814 } })
  })

  it('ORDA objects are instances of 4D.Entity, 4D.EntitySelection, 4D.DataClass, 4D.DataStoreImplementation', async () => {
    const post = await start()
    expect(await post('City(2)/classes')).toEqual({
      status: 200,
      json: { result: [true, true, 'CityEntity', 'EntitySelection', true, true, true] },
    })
  })

  it('an entity function of a key that does not exist: 404 1542', async () => {
    const post = await start()
    const missing = await post('City(99)/getPopulation')
    expect(missing.status).toBe(404)
    expect((missing.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 1542 })
  })

  it('an entitySelection class function: POST /rest/City/getPopulation/?$filter="ID<3" answers 87256', async () => {
    const post = await start()
    expect((await post('City/getPopulation/?$filter="ID<3"')).json).toEqual({ result: 87256 })
    // Without $filter, on every entity of the dataclass.
    expect((await post('City/getPopulation')).json).toEqual({ result: 87256 + 18570 })
  })

  it("runs the selection's function, never the dataclass's of the same name", async () => {
    const post = await start()
    // City.4dm's getPopulation answers -1: "the dataclass class function will never be executed".
    expect((await post('City/getPopulation', [])).json.result).not.toBe(-1)
  })

  it('a selection function on $filter and $orderby: the selection in that order', async () => {
    const post = await start()
    const names = await post('City/names?$filter="ID<3"&$orderby="name desc"')
    expect(names.json).toEqual({ result: ['Aguadilla', 'Aguada'] })
  })

  it('a selection function on an entity set: /rest/Students/getAgeAverage/$entityset/{id}', async () => {
    const post = await start()
    const client = post.client()
    const set = await client.get('Students/?$filter="ID<3"&$method=entityset')
    const id = setId(set.json)
    expect(await client.post(`Students/getAgeAverage/$entityset/${id}`)).toEqual({
      status: 200,
      json: { result: 22 },
    })
    // The other order of the URL, which 4D clients send too.
    expect((await client.post(`Students/$entityset/${id}/getAgeAverage`)).json).toEqual({
      result: 22,
    })
  })

  it('a selection function and an orderBy: getLastSummary answers "Wilbert - Bull is ... 21"', async () => {
    const post = await start()
    const summary = await post(
      'Students/getLastSummary/$entityset/?$filter="lastname=b@"&$orderby="lastname"',
    )
    expect(summary).toEqual({ status: 200, json: { result: 'Wilbert - Bull is ... 21' } })
  })

  it('an entity to be created on the server: pushData saves it, its method uppercasing the name', async () => {
    const post = await start()
    const ann = { __DATACLASS: 'Students', __ENTITY: true, firstname: 'Ann', lastname: 'Brown' }
    const created = await post('Students/pushData', [ann])
    expect(created.status).toBe(200)
    expect(entity(created.json)).toEqual({
      __entityModel: 'Students',
      __DATACLASS: 'Students',
      __KEY: '4',
      __STAMP: 1,
      ID: 4,
      firstname: 'Ann',
      lastname: 'BROWN',
      born: null,
      finalExam: null,
      schoolID: null,
      school: null,
    })
    // Saved: a read finds it.
    expect((await post.client().get('Students(4)')).json).toMatchObject({ lastname: 'BROWN' })
  })

  it('an entity to be updated on the server: __KEY given, the stamp goes up', async () => {
    const post = await start()
    const brownie = { __DATACLASS: 'Students', __ENTITY: true, lastname: 'Brownie', __KEY: 3 }
    const updated = (await post('Students/pushData', [brownie])).json
    expect(updated).toMatchObject({ __KEY: '3', __STAMP: 2, firstname: 'Paula' })
    expect(updated.lastname).toBe('BROWNIE')
  })

  it('creating an entity with a related entity: "school": {"__KEY": 2}', async () => {
    const post = await start()
    const john = {
      __DATACLASS: 'Students',
      __ENTITY: true,
      firstname: 'John',
      lastname: 'Smith',
      school: { __KEY: 2 },
    }
    const created = (await post('Students/pushData', [john])).json
    expect(created).toMatchObject({ __KEY: '4', lastname: 'SMITH', schoolID: 2 })
    expect(created.school).toEqual({ __deferred: { uri: '/rest/Schools[2]', __KEY: '2' } })
  })

  it("answers the function's status object when its method refuses the entity, and saves nothing", async () => {
    const post = await start()
    const noName = { __DATACLASS: 'Students', __ENTITY: true, firstname: 'No' }
    expect(await post('Students/pushData', [noName])).toEqual({
      status: 200,
      json: { result: { success: false, statusText: 'A student has a last name' } },
    })
    expect((await post.client().get('Students?$filter="firstname=No"')).json.__COUNT).toBe(0)
  })

  it('updating an entity with a related entity: Students(1)/putToSchool answers {"success": true}', async () => {
    const post = await start()
    const school = { __DATACLASS: 'Schools', __ENTITY: true, __KEY: 2 }
    expect(await post('Students(1)/putToSchool', [school])).toEqual({
      status: 200,
      json: { result: { success: true } },
    })
    const read = (await post.client().get('Students(1)')).json
    expect(read).toMatchObject({ schoolID: 2, __STAMP: 2 })
  })

  it('receiving an entity selection as parameter: setFinalExam answers the keys it updated', async () => {
    const post = await start()
    const client = post.client()
    const id = setId((await client.get('Students/?$filter="ID<3"&$method=entityset')).json)
    const exam = await client.post('Students/setFinalExam', [
      { __ENTITIES: true, __DATASET: id },
      'Passed',
    ])
    expect(exam).toEqual({ status: 200, json: { result: [1, 2] } })
    const passed = await client.get('Students?$filter="finalExam=Passed"')
    expect(passed.json.__COUNT).toBe(2)
  })

  it('an entity function that changes This and returns it: its changes, not saved', async () => {
    const post = await start()
    const renamed = (await post('City(1)/rename', ['Nueva'])).json
    expect(renamed).toMatchObject({ __KEY: '1', __STAMP: 1, name: 'Nueva' })
    expect((await post.client().get('City(1)')).json.name).toBe('Aguada')
  })
})

describe('ClassFunctions.md, GET requests (onHTTPGet)', () => {
  it('GET /rest/City/getCity?$params=\'["Aguada"]\' answers what the POST answers', async () => {
    const post = await start()
    const client = post.client()
    const got = await client.get(`City/getCity?$params='["Aguada"]'`)
    expect(got.status).toBe(200)
    expect(entity(got.json)).toEqual(AGUADA)
  })

  it('GET of a function not declared onHTTPGet is refused: 405 9102', async () => {
    const post = await start()
    const client = post.client()
    const got = await client.get(`City/getCities?$params='["Aguada","Paris"]'`)
    expect(got.status).toBe(405)
    expect((got.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 9102 })
    expect((await client.get('$catalog/getName')).status).toBe(405)
    expect((await client.get('$singleton/mySingleton/sayHello')).status).toBe(405)
  })

  it('scalar parameters in $params: Product/getUserManual?$params=\'[1,"pdf"]\' answers the PDF as it is', async () => {
    const post = await start()
    const client = post.client()
    const pdf = await client.raw(`Product/getUserManual?$params='[1,"pdf"]'`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.bytes).toEqual(new Uint8Array(readFileSync(`${MANUALS}/product_1.pdf`)))
    const jpeg = await client.raw(`Product/getUserManual?$params='[1,"jpeg"]'`)
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
    expect(jpeg.bytes).toEqual(new Uint8Array(readFileSync(`${MANUALS}/product_1.jpeg`)))
    // Another type: the message as new() made it, empty, 200.
    const none = await client.raw(`Product/getUserManual?$params='[1,"doc"]'`)
    expect([none.status, none.bytes.length]).toEqual([200, 0])
  })

  it('an entity in $params: {"__DATACLASS":"Product","__ENTITY":true,"__KEY":41} downloads its PDF', async () => {
    const post = await start()
    const got = await post
      .client()
      .raw(`Product/manualOf?$params='[{"__DATACLASS":"Product","__ENTITY":true,"__KEY":41}]'`)
    expect(got.headers.get('content-type')).toBe('application/pdf')
    expect(got.bytes).toEqual(new Uint8Array(readFileSync(`${MANUALS}/Blender.pdf`)))
  })

  it('a selection in $params to a singleton: /rest/$singleton/Shopping/buildShoppingList answers the list as text', async () => {
    const post = await start()
    const client = post.client()
    const id = setId((await client.get('Product?$filter="ID>41"&$method=entityset')).json)
    const list = await client.raw(
      `$singleton/Shopping/buildShoppingList?$params='[{"__DATASET":"${id}","__ENTITIES":true}]'`,
    )
    expect(list.status).toBe(200)
    expect(list.headers.get('content-type')).toBe('text/plain')
    expect(new TextDecoder().decode(list.bytes)).toBe(' Acme - Toaster\r Brand - Kettle\r')
  })

  it('an OutgoingMessage with its status, a header of its own and an object body as JSON', async () => {
    const post = await start()
    const got = await post.client().raw(`Product/notFound?$params='["manual"]'`)
    expect(got.status).toBe(404)
    expect(got.headers.get('content-type')).toBe('application/json')
    expect(got.headers.get('cache-control')).toBe('no-store')
    expect(JSON.parse(new TextDecoder().decode(got.bytes))).toEqual({ error: 'manual not found' })
  })

  it('a header name holding CR LF is refused with a 4D error, not sent', async () => {
    const post = await start()
    const got = await post.client().get('Product/injected')
    expect(got.status).toBe(422)
    const [error, place] = got.json.__ERROR as Json[]
    expect(error).toMatchObject({
      errCode: 9415,
      message: expect.stringMatching(/not a header name/),
    })
    expect(place!.message).toMatch(/Product\.injected/)
  })

  it('a GET with no $params calls the function without parameters', async () => {
    const post = await start()
    expect(await post.client().get('$singleton/VehicleFactory/count')).toEqual({
      status: 200,
      json: { result: 0 },
    })
  })
})

describe('$singleton.md', () => {
  it('POST /rest/$singleton/mySingleton/sayHello ["John"] answers {"result": "Hello John"}', async () => {
    const post = await start()
    expect(await post('$singleton/mySingleton/sayHello', ['John'])).toEqual({
      status: 200,
      json: { result: 'Hello John' },
    })
  })

  it("keeps a shared singleton's state from one call to the next, whoever calls", async () => {
    const post = await start()
    await post('$catalog/authentify', [{ name: 'ann', password: 'secret' }])
    const truck = await post('$singleton/VehicleFactory/buildVehicle', ['truck'])
    expect(truck.json).toEqual({ result: { type: 'truck', number: 1 } })
    expect((await post('$singleton/VehicleFactory/buildVehicle', ['car'])).json).toEqual({
      result: { type: 'car', number: 2 },
    })
    expect((await post.client().get('$singleton/VehicleFactory/count')).json).toEqual({
      result: 2,
    })
  })

  it('a function not exposed, a function or singleton that does not exist: 404', async () => {
    const post = await start()
    const reset = await post('$singleton/VehicleFactory/reset')
    expect(reset.status).toBe(404)
    expect((reset.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 1573 })
    const nope = await post('$singleton/Nope/sayHello')
    expect(nope.status).toBe(404)
    expect((nope.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 9105 })
  })

  it("restricts a singleton function by roles.json's execute permission (singletonMethod)", async () => {
    const post = await start()
    const refused = await post('$singleton/VehicleFactory/buildVehicle', ['truck'])
    expect(refused.status).toBe(403)
    expect((refused.json.__ERROR as Json[])[0]).toMatchObject({
      errCode: 1561,
      message: 'No permission to execute method buildVehicle in singleton VehicleFactory',
    })
  })
})

describe('the Session pages: authentify', () => {
  it('a guest may not call a function roles.json keeps for a privilege; after authentify it may', async () => {
    const post = await start()
    const refused = await post('City/count')
    expect(refused.status).toBe(403)
    expect((refused.json.__ERROR as Json[])[0]).toMatchObject({ errCode: 1561 })
    expect((await post('$catalog/authentify', [{ name: 'ann', password: 'nope' }])).json).toEqual({
      result: 'Wrong password',
    })
    expect((await post('City/count')).status).toBe(403)
    expect((await post('$catalog/authentify', [{ name: 'ann', password: 'secret' }])).json).toEqual(
      {
        result: 'Welcome ann',
      },
    )
    expect((await post('$catalog/whoAmI')).json).toEqual({ result: { user: 'ann', manager: true } })
    expect(await post('City/count')).toEqual({ status: 200, json: { result: 3 } })
    // Another client is another session: still a guest.
    const other = post.client()
    expect((await other.post('$catalog/whoAmI')).json).toEqual({
      result: { user: '', manager: false },
    })
  })
})

describe('$catalog.md: the exposed functions', () => {
  const method = (name: string, applyTo: string, allowedOnHTTPGET = false) => ({
    name,
    applyTo,
    scope: 'public',
    from: 'remoteServer',
    allowedOnHTTPGET,
    exposed: true,
  })

  it("lists the DataStore class's exposed functions, none of the others", async () => {
    const post = await start()
    const catalog = (await post.client().get('$catalog')).json
    const methods = catalog.methods as Json[]
    expect(methods[0]).toEqual(method('getName', 'dataStore'))
    const names = methods.map((m) => m.name)
    expect(names).toContain('localToo')
    expect(names).toContain('authentify')
    expect(names).not.toContain('secret')
    expect(methods.every((m) => m.applyTo === 'dataStore')).toBe(true)
  })

  it('lists the shared singletons that have an exposed function, with their exposed functions', async () => {
    const post = await start()
    const catalog = (await post.client().get('$catalog')).json
    expect(catalog.singletons).toEqual([
      {
        name: 'mySingleton',
        methods: [{ name: 'sayHello', allowedOnHTTPGET: false, exposed: true }],
      },
      {
        name: 'Shopping',
        methods: [{ name: 'buildShoppingList', allowedOnHTTPGET: true, exposed: true }],
      },
      {
        name: 'VehicleFactory',
        methods: [
          { name: 'buildVehicle', allowedOnHTTPGET: false, exposed: true },
          { name: 'count', allowedOnHTTPGET: true, exposed: true },
        ],
      },
    ])
    // $catalog/$all has them too, before dataClasses.
    const all = (await post.client().get('$catalog/$all')).json
    expect(all.singletons).toEqual(catalog.singletons)
    const keys = Object.keys(all)
    expect(keys.indexOf('singletons')).toBeLessThan(keys.indexOf('dataClasses'))
  })

  it("lists a dataclass's DataClass, Entity and EntitySelection functions in $catalog/City", async () => {
    const post = await start()
    const city = (await post.client().get('$catalog/City')).json
    expect(city.methods).toEqual([
      method('getCity', 'dataClass', true),
      method('getCities', 'dataClass'),
      method('getPopulation', 'dataClass'),
      method('count', 'dataClass'),
      method('getPopulation', 'entity'),
      method('rename', 'entity'),
      method('classes', 'entity'),
      method('getPopulation', 'entityCollection'),
      method('names', 'entityCollection'),
    ])
    // A dataclass with no exposed function has no methods.
    expect((await post.client().get('$catalog/Zip')).json).not.toHaveProperty('methods')
    // Students: the entity's age() is not exposed.
    const students = (await post.client().get('$catalog/Students')).json
    expect((students.methods as Json[]).map((m) => m.name)).toEqual([
      'pushData',
      'setFinalExam',
      'putToSchool',
      'getAgeAverage',
      'getLastSummary',
    ])
  })
})
