// A model's `maxLength` and `never_null` (4D's Alpha length and "Map NULL values to blank
// values") through the library: a data load, a draft's save, a transaction. REST's are tested on
// the car-rental project (packages/entistore/src/project/structure-model.test.ts).
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { thrown } from '../errors/thrown.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import type { ModelJson } from '../schema/model-json.js'

const model = {
  dataClasses: [
    {
      name: 'Agency',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'code', type: 'string', maxLength: 4 },
        { name: 'notes', type: 'string', never_null: true },
        { name: 'cars', type: 'long', never_null: true },
        { name: 'open', type: 'bool', never_null: true },
      ],
    },
  ],
} as const satisfies ModelJson

const agencies = () => {
  const ds = createDatastore(model, { clock: new ManualClock(0) })
  ds.loadData({
    Agency: [
      { ID: 1, code: 'LYON' },
      { ID: 2, code: 'NICE', notes: null, cars: null },
    ],
  })
  return ds
}

describe('never_null through the library', () => {
  it('loads a missing or null value as the blank of its type', () => {
    const ds = agencies()
    for (const id of [1, 2]) {
      const a = ds.Agency.get(id)!
      expect([a.notes, a.cars, a.open]).toEqual(['', 0, false])
    }
  })

  it('saves a null assigned as the blank, and a query for null finds none', () => {
    const ds = agencies()
    const draft = ds.Agency.get(1)!.edit()
    draft.notes = 'busy'
    draft.saveOrFail()
    const again = ds.Agency.get(1)!.edit()
    again.notes = null
    again.saveOrFail()
    expect(ds.Agency.get(1)!.notes).toBe('')
    expect(ds.Agency.query('notes = null').length).toBe(0)
    expect(ds.Agency.query('notes = ""').length).toBe(2)
  })
})

describe('maxLength through the library', () => {
  it('refuses a longer value at load with 1570, naming the row', () => {
    const ds = createDatastore(model, { clock: new ManualClock(0) })
    const err = thrown(() => ds.loadData({ Agency: [{ ID: 1, code: 'LYON-2' }] }))
    expect([err.errCode, err.message]).toEqual([
      1570,
      `Agency[0].code: The value "LYON-2" is not valid for the "code" attribute (string) of the "Agency" dataclass: longer than the attribute's 4 characters`,
    ])
  })

  it('refuses a longer value on save, the entity left as it was', () => {
    const ds = agencies()
    const draft = ds.Agency.get(1)!.edit()
    draft.notes = 'kept?'
    const err = thrown(() => {
      draft.code = 'LYON-2'
      draft.saveOrFail()
    })
    expect(err.errCode).toBe(1570)
    expect([ds.Agency.get(1)!.code, ds.Agency.get(1)!.notes]).toEqual(['LYON', ''])
  })

  it('undoes a whole transaction whose one write is too long', () => {
    const ds = agencies()
    const err = thrown(() =>
      ds.transaction(() => {
        ds.Agency.create({ code: 'PAU' })
        const first = ds.Agency.get(1)!.edit()
        first.notes = 'first'
        first.saveOrFail()
        const second = ds.Agency.get(2)!.edit()
        second.code = 'TOO-LONG'
        second.saveOrFail()
      }),
    )
    expect(err.errCode).toBe(1570)
    expect([ds.Agency.get(1)!.notes, ds.Agency.get(2)!.code]).toEqual(['', 'NICE'])
    expect(ds.Agency.getCount()).toBe(2)
  })
})
