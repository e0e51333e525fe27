/**
 * `transactionSteps`: a transaction level as work in steps. Its writes' events stop inside a first
 * level open across awaits, not inside `ds.transaction`'s kind; it validates at its end, its
 * writes' after-events then running in steps; it leaves nothing when its work throws, and refuses
 * work that leaves a level open as `ds.transaction` does.
 */
import { describe, expect, it } from 'vitest'
import type { Work } from '../../query/slices.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from '../objects/datastore.js'
import { defineFunctions } from '../objects/define-functions.js'
import { saveInSteps } from '../objects/data-class-steps.js'
import { driven } from '../objects/steps.fixture.js'
import { transactionSteps } from './transaction-steps.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Gauge',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'level', type: 'long' },
      ],
    },
  ],
}

// `saving` stops twice; `afterSave` stops once, then notes the level it saw saved.
function gauges() {
  const seen: number[] = []
  const saving = Object.assign(() => undefined, {
    *steps() {
      yield
      yield
      return undefined
    },
  })
  const afterSave = Object.assign(
    function (this: { get(n: string): unknown }) {
      seen.push(this.get('level') as number)
    },
    {
      *steps(this: { get(n: string): unknown }) {
        yield
        seen.push(this.get('level') as number)
      },
    },
  )
  const functions = defineFunctions({
    dataClasses: { Gauge: { events: { saving, afterSave } } },
  })
  const ds = createDatastore(model, { functions, data: { Gauge: [{ ID: 1, level: 1 }] } })
  return { ds, gauge: ds.dataClass('Gauge'), seen }
}

function* twoSaves(gauge: ReturnType<typeof gauges>['gauge']): Work<number> {
  ;(yield* saveInSteps(gauge, 1, { level: 2 }))()
  ;(yield* saveInSteps(gauge, undefined, { ID: 2, level: 3 }))()
  return 7
}

describe('a transaction in steps', () => {
  it('stops in its writes’ events, commits at its end, then runs their after-events in steps', () => {
    const { ds, gauge, seen } = gauges()
    const work = transactionSteps(ds, twoSaves(gauge))
    work.next()
    expect(ds.transactionLevel()).toBe(1)
    expect(seen).toEqual([])
    const { value, stops } = driven(work)
    expect(value).toBe(7)
    // The first save's last stop, the second's two, then one for each afterSave.
    expect(stops).toBe(3 + 2)
    expect(seen).toEqual([2, 3])
    expect(ds.transactionLevel()).toBe(0)
    expect(gauge.all().toCollection('ID, level')).toEqual([
      { ID: 1, level: 2 },
      { ID: 2, level: 3 },
    ])
  })

  it('of `ds.transaction`’s kind, runs its writes whole', () => {
    const { ds, gauge } = gauges()
    const { value, stops } = driven(transactionSteps(ds, twoSaves(gauge), false))
    expect(value).toBe(7)
    // No stop in the events: only the after-events', once committed.
    expect(stops).toBe(2)
  })

  it('leaves nothing, and runs no after-event, when its work throws or stops unfinished', () => {
    const { ds, gauge, seen } = gauges()
    function* failing(): Work<void> {
      yield* twoSaves(gauge)
      throw new Error('the budget')
    }
    expect(() => driven(transactionSteps(ds, failing()))).toThrow('the budget')
    const stopped = transactionSteps(ds, twoSaves(gauge))
    // Stopped once the first save is staged (its entity locked), inside the second's event.
    for (let i = 0; i < 3; i++) stopped.next()
    expect(ds.locks.size).toBe(1)
    stopped.return(0)
    expect(ds.transactionLevel()).toBe(0)
    expect(seen).toEqual([])
    expect(gauge.all().toCollection('ID, level')).toEqual([{ ID: 1, level: 1 }])
    expect(ds.locks.size).toBe(0)
  })

  it('refuses work that leaves a level open, as ds.transaction does, and cancels it', () => {
    const { ds, gauge } = gauges()
    function* leaving(): Work<void> {
      yield* twoSaves(gauge)
      ds.startTransaction()
    }
    expect(() => driven(transactionSteps(ds, leaving()))).toThrow(
      'a transaction in steps: the function left 1 transaction(s) open',
    )
    expect(ds.transactionLevel()).toBe(0)
    expect(gauge.all().length).toBe(1)
  })
})
