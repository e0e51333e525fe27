/**
 * A write in steps (`saveInSteps`, what the REST interface's `$method=update` runs in slices) of a
 * computed attribute whose setter has a steps form (a 4D project's `Function set`): the setter is
 * called in steps before the write, which finds its answer rather than calling it again: the same
 * entity written as the plain write writes it. A setter that throws leaves nothing written; one
 * called on a version another write replaced meanwhile is called again by the write.
 */
import { describe, expect, it } from 'vitest'
import { computedStore } from '../objects/computed.fixture.js'
import { saveInSteps } from '../objects/data-class-steps.js'
import type { Datastore } from '../objects/datastore.js'
import { driven } from '../objects/steps.fixture.js'
import type { ComputedAttributeFunctions, EntityView } from '../../schema/definitions.js'

const STOPS = 3

/**
 * The company's fullName with a setter that splits "first last", and a steps form that stops
 * STOPS times first (and throws for "fail"); each call logged with the version it was given.
 */
function store() {
  const calls: { how: 'plain' | 'steps'; self: EntityView | null; value: unknown }[] = []
  const split = (value: unknown) => {
    if (value === 'fail') throw new Error('no such name')
    const [firstName, lastName] = String(value).split(' ')
    return { firstName, lastName }
  }
  const functions: ComputedAttributeFunctions = {
    get: (e) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`,
    set(value) {
      calls.push({ how: 'plain', self: this, value })
      return split(value)
    },
    *setSteps(value) {
      calls.push({ how: 'steps', self: this, value })
      for (let i = 0; i < STOPS; i++) yield
      return split(value)
    },
  }
  return { ds: computedStore({ functions }).ds, calls }
}

const names = (ds: Datastore, key: number) => {
  const e = ds.dataClass('Employee').get(key)!
  return [e.get('firstName'), e.get('lastName'), e.getStamp()]
}

describe('a setter with steps, in a write in steps', () => {
  it('is called in steps before the write (an update), which writes its answer', () => {
    const { ds, calls } = store()
    const employees = ds.dataClass('Employee')
    const before = employees.get(6)!
    const { value: write, stops } = driven(saveInSteps(employees, 6, { fullName: 'Flora Martin' }))
    expect(stops).toBe(STOPS)
    // Nothing written before the write runs.
    expect(names(ds, 6)).toEqual(['Flora', 'Pionsin', 1])
    write()
    expect(names(ds, 6)).toEqual(['Flora', 'Martin', 2])
    // Called once, in steps, on the version updated.
    expect(calls).toEqual([{ how: 'steps', self: before, value: 'Flora Martin' }])
    // As the plain write writes it.
    const twin = store()
    twin.ds.dataClass('Employee').update(6, { fullName: 'Flora Martin' })
    expect(names(twin.ds, 6)).toEqual(names(ds, 6))
    expect(twin.calls.map((c) => c.how)).toEqual(['plain'])
  })

  it('is called in steps for a create, on no version', () => {
    const { ds, calls } = store()
    const employees = ds.dataClass('Employee')
    const { value: write, stops } = driven(saveInSteps(employees, undefined, { fullName: 'Ada L' }))
    expect(stops).toBe(STOPS)
    const made = write()
    expect([made.get('firstName'), made.get('lastName')]).toEqual(['Ada', 'L'])
    expect(calls).toEqual([{ how: 'steps', self: null, value: 'Ada L' }])
  })

  it('leaves nothing written when it throws: the write throws it', () => {
    const { ds } = store()
    const employees = ds.dataClass('Employee')
    const stamp = ds.globalStamp
    const { value: write, stops } = driven(
      saveInSteps(employees, 6, { fullName: 'fail', salary: 1 }),
    )
    expect(stops).toBe(STOPS)
    expect(() => write()).toThrow('no such name')
    expect(names(ds, 6)).toEqual(['Flora', 'Pionsin', 1])
    expect(employees.get(6)!.get('salary')).toBe(5500)
    expect(ds.globalStamp).toBe(stamp)
  })

  it('is called again by the write when another write replaced the version meanwhile', () => {
    const { ds, calls } = store()
    const employees = ds.dataClass('Employee')
    const work = saveInSteps(employees, 6, { fullName: 'Flora Martin' })
    work.next()
    employees.update(6, { salary: 1 })
    const replaced = employees.get(6)!
    const { value: write } = driven(work)
    write()
    expect(names(ds, 6)).toEqual(['Flora', 'Martin', 3])
    expect(calls.map((c) => [c.how, c.self])).toEqual([
      ['steps', expect.anything()],
      ['plain', replaced],
    ])
  })

  it('is not called for a write its stamp refuses: the write answers 1263', () => {
    const { ds, calls } = store()
    const employees = ds.dataClass('Employee')
    const work = saveInSteps(employees, 6, { fullName: 'Flora Martin' }, { stamp: 7 })
    const { value: write, stops } = driven(work)
    expect(stops).toBe(0)
    expect(() => write()).toThrow(expect.objectContaining({ name: 'StampChanged' }))
    expect(calls).toEqual([])
  })

  it('is called at once inside a transaction that ends within its step', () => {
    const { ds, calls } = store()
    const employees = ds.dataClass('Employee')
    ds.transaction(() => {
      const { value: write, stops } = driven(saveInSteps(employees, 6, { fullName: 'Flora M' }))
      expect(stops).toBe(0)
      write()
    })
    expect(names(ds, 6)).toEqual(['Flora', 'M', 2])
    expect(calls.map((c) => c.how)).toEqual(['plain'])
  })
})
