import {
  createDatastore,
  DatastoreError,
  finishWork,
  saveInSteps,
  saveResultOf,
  writeInSteps,
  type Datastore,
} from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from './compile-project.js'
import { projectFunctions } from './project-functions.js'

const ENTITY = `Class extends Entity

Class constructor()
\tThis.status:="new"
\tThis.log:=["constructor"]

Function event touched price($event : Object)
\tThis.log:=This.log.concat($event.kind+" "+$event.attributeName)

Function event validateSave price($event : Object) : Object
\tIf (This.price<0)
\t\treturn {errCode: 11; message: "A price is never negative"; extraDescription: {at: $event.attributeName}}
\tEnd if

Function event validateSave($event : Object) : Object
\tIf (This.name="banned")
\t\treturn {errCode: 12; message: "banned"; seriousError: True}
\tEnd if

Function event saving($event : Object) : Object
\tIf (This.name="refused")
\t\treturn {errCode: 13; message: "not saved"}
\tEnd if
\tIf (This.name="broken")
\t\tvar $o : Object
\t\t$o.x:=1
\tEnd if
\tThis.stamp:=Uppercase(This.name)

Function event afterSave($event : Object)
\tUse (Storage)
\t\tStorage.saved:=$event.savedAttributes.join(",")+" "+$event.saveStatus
\tEnd use

Function event validateDrop($event : Object) : Object
\tIf (This.status="kept")
\t\treturn {errCode: 14; message: "kept"}
\tEnd if

Function event afterDrop($event : Object)
\tUse (Storage)
\t\tStorage.dropped:=This.name+" "+$event.dropStatus
\tEnd use
`
const DATASTORE = `Class extends DataStoreImplementation

Function log() : Object
\treturn Storage

// A save as 4D code makes it: a serious error raised (Try sees it, Last errors holds it), a mild
// one answered in the result.
Function trySave($name : Text; $price : Real) : Object
\tvar $e : cs.ProductEntity
\tvar $result : Object
\t$e:=ds.Product.new()
\t$e.name:=$name
\t$e.price:=$price
\tTry
\t\t$result:=$e.save()
\t\treturn {raised: False; status: $result.status; statusText: $result.statusText}
\tCatch
\t\treturn {raised: True; error: Last errors[0]}
\tEnd try
`

function datastore(): Datastore {
  const project = compileProject(
    [
      { path: 'Sources/Classes/ProductEntity.4dm', kind: 'class', text: ENTITY },
      { path: 'Sources/Classes/DataStore.4dm', kind: 'class', text: DATASTORE },
    ],
    { dataClasses: ['Product'] },
  )
  return createDatastore(
    {
      dataClasses: [
        {
          name: 'Product',
          attributes: [
            { name: 'ID', type: 'long', autosequence: true },
            { name: 'name', type: 'string' },
            { name: 'price', type: 'number' },
            { name: 'status', type: 'string' },
            { name: 'stamp', type: 'string' },
            { name: 'log', type: 'object' },
          ],
        },
      ],
    },
    {
      functions: projectFunctions(project, { dataClasses: new Set(['Product']) }),
      data: { Product: [{ ID: 1, name: 'tea', price: 3, status: 'kept' }] },
    },
  ) as unknown as Datastore
}

/** The DatastoreError `fn` throws (a refused write); the test fails if it throws none. */
function refusal(fn: () => unknown): DatastoreError {
  let caught: unknown
  try {
    fn()
  } catch (e) {
    caught = e
  }
  expect(DatastoreError.is(caught)).toBe(true)
  return caught as DatastoreError
}

describe("an Entity class's events, run by core for the library's writes", () => {
  it('runs the constructor, touched, saving (its value saved) and afterSave', () => {
    const ds = datastore()
    const products = ds.dataClass('Product')
    const saved = products.create({ name: 'jam', price: 4 })
    expect(saved.get('status')).toBe('new')
    expect(saved.get('stamp')).toBe('JAM')
    expect(saved.get('log')).toEqual(['constructor', 'touched price'])
    const log = ds.call('log') as Record<string, unknown>
    expect(log.saved).toBe('status,log,name,price,stamp success')
  })

  it('refuses with the 4D error object: 7 for a mild validate, 8 a serious one, 4 for saving', () => {
    const products = datastore().dataClass('Product')
    const mild = refusal(() => products.create({ name: 'x', price: -1 }))
    expect([mild.errCode, mild.componentSignature, mild.message]).toEqual([
      11,
      'DBEV',
      'A price is never negative',
    ])
    expect(mild.details).toMatchObject({ attribute: 'price', extraDescription: { at: 'price' } })
    expect(saveResultOf(mild).status).toBe(7)
    expect(saveResultOf(refusal(() => products.create({ name: 'banned' }))).status).toBe(8)
    expect(saveResultOf(refusal(() => products.create({ name: 'refused' }))).status).toBe(4)
    expect(products.all().length).toBe(1)
  })

  it('fails the write with the 4D error stack when the event raises', () => {
    const products = datastore().dataClass('Product')
    const e = refusal(() => products.create({ name: 'broken' }))
    expect(e.errCode).not.toBe(0)
    expect(String((e.cause as Error).message)).toMatch(/ProductEntity\.saving, line \d+/)
    expect(products.all().length).toBe(1)
  })

  it('refuses the whole transaction for one refused entity', () => {
    const ds = datastore()
    const products = ds.dataClass('Product')
    refusal(() =>
      ds.transaction(() => {
        products.create({ name: 'ok', price: 1 })
        products.create({ name: 'x', price: -1 })
      }),
    )
    expect(products.all().length).toBe(1)
  })

  it('runs validateDrop and afterDrop', () => {
    const ds = datastore()
    const products = ds.dataClass('Product')
    expect(refusal(() => products.get(1)!.dropOrFail()).errCode).toBe(14)
    const jam = products.create({ name: 'jam', price: 4 })
    jam.drop()
    expect((ds.call('log') as Record<string, unknown>).dropped).toBe('jam success')
  })

  // orda-events.md, "Error object": with fatalError true a validate event's error "require[s] a
  // try catch" and "reach[es] the client"; a saving event's is "always raised as a serious
  // error"; with false, "such errors do not require a try catch".
  it('raises a serious event error in 4D code, which Try and Last errors see; answers a mild one', () => {
    const ds = datastore()
    expect(ds.call('trySave', 'banned', 1)).toEqual({
      raised: true,
      error: { errCode: 12, message: 'banned', componentSignature: 'DBEV' },
    })
    expect(ds.call('trySave', 'refused', 1)).toEqual({
      raised: true,
      error: { errCode: 13, message: 'not saved', componentSignature: 'DBEV' },
    })
    expect(ds.call('trySave', 'x', -1)).toEqual({
      raised: false,
      status: 7,
      statusText: 'Mild Validation Error',
    })
    expect(ds.dataClass('Product').all().length).toBe(1)
  })

  // Where the write runs in slices (a REST write), core goes into each event's steps.
  it('runs every event in steps for a write in slices, as the plain write runs them', () => {
    const plainDs = datastore()
    const plain = plainDs.dataClass('Product').create({ name: 'jam', price: 4 })
    const ds = datastore()
    const products = ds.dataClass('Product')
    const events = ds.functions.events('Product')!
    for (const kind of ['constructor', 'saving', 'afterSave'])
      expect(typeof events.entity![kind]!.steps).toBe('function')
    expect(typeof events.attributes.get('price')!['touched']!.steps).toBe('function')
    const write = finishWork(saveInSteps(products, undefined, { name: 'jam', price: 4 }))
    const saved = finishWork(writeInSteps(write))
    const attributes = 'name,price,status,stamp,log'
    expect(saved.toObject(attributes)).toEqual(plain.toObject(attributes))
    expect(ds.call('log')).toEqual(plainDs.call('log'))
  })
})
