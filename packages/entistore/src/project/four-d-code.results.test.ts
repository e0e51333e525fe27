/**
 * What a project's 4D function returns, as the REST server answers it (docs/REST/ClassFunctions.md,
 * "Request examples"): an entity as a read writes it — a new one not saved too —, a selection as
 * its envelope, anything else as `{"result": …}`; and what it receives: an entity given as
 * `{"__DATACLASS", "__ENTITY": true, "__KEY"}` (with values: changed, not saved; without `__KEY`:
 * new), a selection as `{"__DATASET": id, "__ENTITIES": true}`, both 4D's objects in its code.
 */
import { describe, expect, it } from 'vitest'
import { projectCopy, RENTAL, served } from './four-d-rest.fixture.js'

const PROBE = `shared singleton Class constructor()

exposed Function car($id : Integer) : cs.CarEntity
\treturn ds.Car.get($id)

exposed Function cars() : cs.CarSelection
\treturn ds.Car.query("ID < :1"; 3)

exposed Function nothing() : Object
\treturn Null

exposed Function none()

exposed Function scalar() : Real
\treturn 1.5

exposed Function list() : Collection
\treturn [1; "a"; Null; {b: True}]

exposed Function holder() : Object
\treturn {car: ds.Car.get(1); n: 2}

exposed Function recolored($id : Integer) : cs.CarEntity
\tvar $car : cs.CarEntity:=ds.Car.get($id)
\t$car.color:="blue"
\treturn $car

exposed Function describe($car : cs.CarEntity) : Object
\treturn {dataClass: $car.getDataClass().getInfo().name; key: $car.getKey(); isNew: $car.isNew(); \\
\t\tcolor: $car.color; touched: $car.touchedAttributes()}

exposed Function plates($cars : cs.CarSelection) : Collection
\treturn $cars.orderBy("plate").plate
`

describe("a project's function results over REST", () => {
  const dir = projectCopy(RENTAL, { 'Project/Sources/Classes/Probe.4dm': PROBE })
  const start = () => served(dir, { data: `${dir}/csv` })

  it('answers a new entity not saved as an entity: no key nor time yet, stamp 0', async () => {
    const post = await start()
    const booked = await post('Car(1)/book', ['c1', '2024-01-01', '2024-01-02'])
    expect(booked.status).toBe(200)
    expect(booked.json).toMatchObject({
      __entityModel: 'Rental',
      __DATACLASS: 'Rental',
      __STAMP: 0,
    })
    expect(booked.json).not.toHaveProperty('__KEY')
    // Its relations to many have no URI before it has a key.
    expect(booked.json).toMatchObject({ ID: null, car: null })
    expect(booked.json).not.toHaveProperty('options')
    expect(booked.json).not.toHaveProperty('result')
    // Not saved: the rentals are as they were.
    expect((await post('Rental/total', [])).json).toEqual({ result: 525.8 })
  })

  it('answers an entity changed and not saved with its changes, and the stored stamp', async () => {
    const post = await start()
    const stored = (await post('$singleton/Probe/car', [2])).json
    const recolored = (await post('$singleton/Probe/recolored', [2])).json
    expect(recolored).toEqual({ ...stored, color: 'blue' })
    expect((await post('$singleton/Probe/car', [2])).json).toEqual(stored)
  })

  it('answers an entity, a selection, Null, nothing, a scalar, a collection, an object', async () => {
    const post = await start()
    expect((await post('$singleton/Probe/car', [1])).json).toMatchObject({
      __DATACLASS: 'Car',
      __KEY: '1',
      plate: 'AB-123-CD',
    })
    expect((await post('$singleton/Probe/cars', [])).json).toMatchObject({
      __DATACLASS: 'Car',
      __COUNT: 2,
      __ENTITIES: [{ __KEY: '1' }, { __KEY: '2' }],
    })
    expect((await post('$singleton/Probe/nothing', [])).json).toEqual({ result: null })
    expect((await post('$singleton/Probe/none', [])).json).toEqual({ result: null })
    expect((await post('$singleton/Probe/scalar', [])).json).toEqual({ result: 1.5 })
    expect((await post('$singleton/Probe/list', [])).json).toEqual({
      result: [1, 'a', null, { b: true }],
    })
    const holder = (await post('$singleton/Probe/holder', [])).json
    expect(holder.result).toMatchObject({ n: 2, car: { __KEY: '1', plate: 'AB-123-CD' } })
  })

  it('gives the code an entity for {"__DATACLASS", "__ENTITY", "__KEY"}: stored, changed, new', async () => {
    const post = await start()
    const describe = (entity: object) => post('$singleton/Probe/describe', [entity])
    expect((await describe({ __DATACLASS: 'Car', __ENTITY: true, __KEY: 2 })).json).toEqual({
      result: { dataClass: 'Car', key: 2, isNew: false, color: 'grey', touched: [] },
    })
    const changed = { __DATACLASS: 'Car', __ENTITY: true, __KEY: 2, color: 'green' }
    expect((await describe(changed)).json).toEqual({
      result: { dataClass: 'Car', key: 2, isNew: false, color: 'green', touched: ['color'] },
    })
    const fresh = { __DATACLASS: 'Car', __ENTITY: true, color: 'white' }
    expect((await describe(fresh)).json).toEqual({
      result: { dataClass: 'Car', key: null, isNew: true, color: 'white', touched: ['color'] },
    })
  })

  it('gives the code a selection for {"__DATASET": id, "__ENTITIES": true}', async () => {
    const post = await start()
    const client = post.client()
    const set = await client.get('Car?$filter="ID>1"&$method=entityset')
    const id = String(set.json.__ENTITYSET).split('/').at(-1)
    const plates = await client.post('$singleton/Probe/plates', [
      { __DATASET: id, __ENTITIES: true },
    ])
    expect(plates.json).toEqual({ result: ['EF-456-GH', 'IJ-789-KL'] })
  })
})
