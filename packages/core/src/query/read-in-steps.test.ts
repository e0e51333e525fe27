/**
 * A read as work in steps (`readInSteps`): its heavy work stops between steps, its value is the
 * plain read's, brought up to date with the writes made between its steps, and its scope is let
 * go whatever ends it.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import type { ModelJson } from '../schema/model-json.js'
import { readInSteps } from './read-in-steps.js'
import { currentScope, type Work } from './slices.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'P',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 's', type: 'number' },
      ],
    },
  ],
}
const ROWS = 50_000

function people() {
  const data = { P: Array.from({ length: ROWS }, (_, i) => ({ ID: i + 1, s: i % 100 })) }
  const ds = createDatastore(model, { data })
  return { ds, p: ds.dataClass('P') }
}

// The work driven a step at a time, `between` run at each stop: its value and its stops.
function driven<T>(work: Work<T>, between: (stop: number) => void = () => {}) {
  let stops = 0
  for (;;) {
    const r = work.next()
    if (r.done === true) return { value: r.value, stops }
    between(++stops)
  }
}

describe('readInSteps', () => {
  it('stops between the steps of a query over many rows, its value the plain one', () => {
    const { ds, p } = people()
    const { value, stops } = driven(readInSteps(ds, () => p.query('s > 5').length))
    expect(stops).toBeGreaterThan(5)
    expect(value).toBe(p.query('s > 5').length)
  })

  it('stops in an aggregate too', () => {
    const { ds, p } = people()
    const { value, stops } = driven(readInSteps(ds, () => p.all().sum('s')))
    expect(stops).toBeGreaterThan(5)
    expect(value).toBe(p.all().sum('s'))
  })

  it('answers a cheap read at once, with no stop', () => {
    const { ds, p } = people()
    expect(driven(readInSteps(ds, () => p.query('ID = 3').length))).toEqual({ value: 1, stops: 0 })
  })

  it('answers the data as it is when it ends, writes made between its steps included', () => {
    const { ds, p } = people()
    const { value } = driven(
      readInSteps(ds, () => p.query('s >= 99').length),
      (stop) => {
        if (stop === 2) {
          p.update(1, { s: 99 })
          p.create({ ID: ROWS + 1, s: 99 })
        }
      },
    )
    expect(value).toBe(ROWS / 100 + 2)
  })

  it('closes its scope, whether it ends, throws or is closed itself', () => {
    const { ds, p } = people()
    let made = 0
    let closed = 0
    const maker = {
      sliceScope(timeUp: () => boolean) {
        made++
        const scope = ds.sliceScope(timeUp)
        const close = scope.close.bind(scope)
        scope.close = () => {
          closed++
          close()
        }
        return scope
      },
    }
    driven(readInSteps(maker, () => p.query('s > 5').length))
    expect(() => driven(readInSteps(maker, () => p.query('nope > 5')))).toThrow()
    const work = readInSteps(maker, () => p.query('s > 5').length)
    work.next()
    work.return(0)
    expect([made, closed]).toEqual([3, 3])
    expect(currentScope()).toBeUndefined()
  })
})
