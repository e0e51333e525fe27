/**
 * `fromCollectionSteps`: 4D's `fromCollection()` as work in steps. Each object's save runs its
 * `saving` event in steps and its `afterSave` in steps once it has committed, a step between two
 * objects; the answer and the data are the plain member's; a refusal throws, the objects before
 * it saved, as the plain member leaves them.
 */
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import { defineFunctions } from './define-functions.js'
import { fromCollectionSteps } from './data-class-steps.js'
import { driven } from './steps.fixture.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
  ],
}

type Self = { get(n: string): unknown }

// `saving` stops twice, then refuses an item named "bad"; `afterSave` stops once, then logs.
function items() {
  const log: string[] = []
  const refusal = (self: Self) =>
    self.get('name') === 'bad' ? { errCode: 1, message: 'refused' } : undefined
  const saving = Object.assign(
    function (this: Self) {
      return refusal(this)
    },
    {
      *steps(this: Self) {
        log.push(`saving ${String(this.get('name'))}`)
        yield
        yield
        return refusal(this)
      },
    },
  )
  const afterSave = Object.assign(
    function (this: Self) {
      log.push(`saved ${String(this.get('name'))}`)
    },
    {
      *steps(this: Self) {
        yield
        log.push(`saved ${String(this.get('name'))}`)
      },
    },
  )
  const functions = defineFunctions({
    dataClasses: { Item: { events: { saving, afterSave } } },
  })
  const ds = createDatastore(model, { functions, data: { Item: [{ ID: 1, name: 'one' }] } })
  return { ds, item: ds.dataClass('Item'), log }
}

const names = (s: { toArray(): { get(n: string): unknown }[] }) =>
  s.toArray().map((e) => `${String(e.get('ID'))}:${String(e.get('name'))}`)

describe('fromCollection in steps', () => {
  const objects = [
    { ID: 2, name: 'two' },
    { __KEY: 1, name: 'uno' },
    { ID: 3, name: 'three' },
  ]

  it('saves each object in turn, its events in steps, and answers as the plain member', () => {
    const { item, log } = items()
    const { value, stops } = driven(fromCollectionSteps(item, objects))
    // Two stops in each saving event, one in each afterSave, one between two objects.
    expect(stops).toBe(3 * 2 + 3 + 2)
    expect(names(value)).toEqual(['2:two', '1:uno', '3:three'])
    expect(log).toEqual([
      'saving two',
      'saved two',
      'saving uno',
      'saved uno',
      'saving three',
      'saved three',
    ])
    const plain = items()
    expect(names(plain.item.fromCollection(objects))).toEqual(names(value))
    expect(names(plain.item.all().orderBy('ID'))).toEqual(names(item.all().orderBy('ID')))
  })

  it('throws a refusal, the objects before it saved', () => {
    const { item } = items()
    const work = fromCollectionSteps(item, [
      { ID: 2, name: 'two' },
      { ID: 3, name: 'bad' },
    ])
    expect(() => driven(work)).toThrow()
    expect(names(item.all().orderBy('ID'))).toEqual(['1:one', '2:two'])
  })

  it('refuses what is no collection of objects, as the plain member', () => {
    const { item } = items()
    expect(() => driven(fromCollectionSteps(item, 'nope' as never))).toThrow(/fromCollection/)
    expect(() => driven(fromCollectionSteps(item, [3 as never]))).toThrow(/an object/)
  })
})
