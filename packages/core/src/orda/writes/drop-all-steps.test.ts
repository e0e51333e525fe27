/**
 * `dropAllSteps` and `dropKeptSteps`: a selection's drop in steps inside a transaction in steps. Each entity's
 * `dropping` event stops where its steps do, its `afterDrop` runs in steps once the transaction is
 * validated; the first refusal cancels every drop; an entity gone meanwhile is passed over, as
 * `dropOrFail` passes it over; outside a transaction it is refused. `dropKeptSteps` answers as
 * `drop()` does (the rows a refusal kept), the others dropped, in a transaction level of its own;
 * the budget's end cancels it whole.
 */
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from '../objects/datastore.js'
import { defineFunctions } from '../objects/define-functions.js'
import { driven } from '../objects/steps.fixture.js'
import { DatastoreError } from '../../errors/datastore-error.js'
import { dropAllSteps, dropKeptSteps } from './drop-all-steps.js'
import { transactionSteps } from './transaction-steps.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Crate',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'label', type: 'string' },
      ],
    },
  ],
}

type Self = { get(n: string): unknown }

// `dropping` stops twice, then refuses a crate labelled "keep"; `afterDrop` stops once, then
// notes the crate's ID.
function crates() {
  const dropped: number[] = []
  const refusal = (self: Self) => (self.get('label') === 'keep' ? { message: 'kept' } : undefined)
  const dropping = Object.assign(
    function (this: Self) {
      return refusal(this)
    },
    {
      *steps(this: Self) {
        yield
        yield
        return refusal(this)
      },
    },
  )
  const afterDrop = Object.assign(
    function (this: Self) {
      dropped.push(this.get('ID') as number)
    },
    {
      *steps(this: Self) {
        yield
        dropped.push(this.get('ID') as number)
      },
    },
  )
  const functions = defineFunctions({
    dataClasses: { Crate: { events: { dropping, afterDrop } } },
  })
  const data = { Crate: [1, 2, 3].map((ID) => ({ ID, label: `c${ID}` })) }
  const ds = createDatastore(model, { functions, data })
  return { ds, crate: ds.dataClass('Crate'), dropped }
}

describe('a selection dropped in steps', () => {
  it('stops in each dropping event, then runs each afterDrop in steps at the validation', () => {
    const { ds, crate, dropped } = crates()
    const work = transactionSteps(ds, dropAllSteps(crate, crate.all()))
    const { value, stops } = driven(work)
    expect(value).toBe(3)
    // Two stops in each dropping event, one between two drops, one in each afterDrop.
    expect(stops).toBe(3 * 2 + 2 + 3)
    expect(dropped).toEqual([1, 2, 3])
    expect(crate.getCount()).toBe(0)
    expect(ds.transactionLevel()).toBe(0)
  })

  it('keeps the entities dropped before a step away from the others until it is validated', () => {
    const { ds, crate, dropped } = crates()
    const work = transactionSteps(ds, dropAllSteps(crate, crate.all()))
    // Inside the second crate's dropping event: the first is dropped in the transaction only.
    for (let i = 0; i < 4; i++) work.next()
    expect(ds.transactionLevel()).toBe(1)
    expect(ds.locks.size).toBe(1)
    expect(dropped).toEqual([])
    driven(work)
    expect(crate.getCount()).toBe(0)
  })

  it('drops nothing, and runs no afterDrop, when one of them is refused', () => {
    const { ds, crate, dropped } = crates()
    crate.update(2, { label: 'keep' })
    expect(() => driven(transactionSteps(ds, dropAllSteps(crate, crate.all())))).toThrow('kept')
    expect(crate.getCount()).toBe(3)
    expect(dropped).toEqual([])
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.locks.size).toBe(0)
  })

  it('passes over an entity dropped since the selection was made, as dropOrFail does', () => {
    const { ds, crate, dropped } = crates()
    const all = crate.all()
    crate.drop(2)
    dropped.length = 0
    const { value } = driven(transactionSteps(ds, dropAllSteps(crate, all)))
    expect(value).toBe(2)
    expect(dropped).toEqual([1, 3])
    expect(crate.getCount()).toBe(0)
  })

  it('is refused outside a transaction, where each drop would commit alone', () => {
    const { crate } = crates()
    expect(() => driven(dropAllSteps(crate, crate.all()))).toThrow(TypeError)
    expect(crate.getCount()).toBe(3)
  })
})

describe('4D’s entitySelection.drop() in steps (dropKeptSteps)', () => {
  const rows = (ds: ReturnType<typeof crates>['ds'], ids: number[]) =>
    ids.map((ID) => ds.dataClass('Crate').get(ID)!.rowId)

  it('keeps a refused entity and drops the others, stopping in each event, as drop() answers', () => {
    const { ds, crate, dropped } = crates()
    crate.update(2, { label: 'keep' })
    const kept = rows(ds, [2])
    const { value, stops } = driven(dropKeptSteps(crate, crate.all(), false))
    expect(value).toEqual(kept)
    // Two stops in each dropping event, one between two tried, one in each afterDrop of the two.
    expect(stops).toBe(3 * 2 + 2 + 2)
    expect(dropped).toEqual([1, 3])
    expect(
      crate
        .all()
        .toArray()
        .map((e) => e.get('ID')),
    ).toEqual([2])
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.locks.size).toBe(0)
    // The same answer as the plain drop gives.
    const plain = crates()
    plain.crate.update(2, { label: 'keep' })
    expect(
      plain.crate
        .all()
        .drop()
        .toArray()
        .map((e) => e.get('ID')),
    ).toEqual([2])
  })

  it('stops at the first refusal with stopOnFirstError, the ones before it dropped', () => {
    const { ds, crate, dropped } = crates()
    crate.update(2, { label: 'keep' })
    const kept = rows(ds, [2])
    expect(driven(dropKeptSteps(crate, crate.all(), true)).value).toEqual(kept)
    expect(dropped).toEqual([1])
    expect(
      crate
        .all()
        .toArray()
        .map((e) => e.get('ID')),
    ).toEqual([2, 3])
  })

  it('keeps the drops away from the others until its own transaction is validated', () => {
    const { ds, crate } = crates()
    const work = dropKeptSteps(crate, crate.all(), false)
    for (let i = 0; i < 4; i++) work.next()
    expect(ds.transactionLevel()).toBe(1)
    expect(ds.locks.size).toBe(1)
    driven(work)
    expect(crate.getCount()).toBe(0)
    expect(ds.transactionLevel()).toBe(0)
  })

  it('is cancelled whole by the budget’s end: no refusal of one entity', () => {
    const { ds, crate, dropped } = crates()
    const work = dropKeptSteps(crate, crate.all(), false)
    // Into the second crate's dropping event, the first staged; then the budget ends there.
    for (let i = 0; i < 4; i++) work.next()
    const ended = new DatastoreError('QueryBudgetExceeded', 'The query took more than 2000 ms')
    expect(() => work.throw(ended)).toThrow(ended)
    expect(crate.getCount()).toBe(3)
    expect(dropped).toEqual([])
    expect(ds.transactionLevel()).toBe(0)
    expect(ds.locks.size).toBe(0)
  })

  it('runs the plain drop, at once, where no event may stop', () => {
    const ds = createDatastore(model, { data: { Crate: [{ ID: 1, label: 'a' }] } })
    const crate = ds.dataClass('Crate')
    const { value, stops } = driven(dropKeptSteps(crate, crate.all(), false))
    expect([value, stops]).toEqual([[], 0])
    expect(crate.getCount()).toBe(0)
  })
})
