/**
 * Issue 78: the values a reply writes of getters with steps are made ahead in the read's slices
 * (getters-ahead.ts): each call is gone into, its value kept and found where the reply is written,
 * an error thrown there as the call would have thrown it; outside a scope nothing is made ahead.
 */
import { describe, expect, it } from 'vitest'
import {
  getterStore,
  inSlices,
  type Company,
  type Employee,
} from '../orda/objects/getter-steps.fixture.js'
import type { Datastore } from '../orda/objects/datastore.js'
import type { Entity } from '../orda/objects/entity.js'
import { gettersAhead as ahead, withAnswersAhead, type GetterCall } from './getters-ahead.js'
import type { CalculatedFn } from '../schema/definitions.js'

// Each getter's call for each entity.
const gettersAhead = (entities: () => readonly Entity[], getters: readonly CalculatedFn[]) =>
  ahead(() => entities().flatMap((e) => getters.map((g): GetterCall => [e, g])))

// 12 employees: a call of theirs in steps stops 0 to 2 times; 13 is 'unlucky' (n = 13).
const EMPLOYEES: Employee[] = Array.from({ length: 12 }, (_, i) => ({
  n: i === 5 ? 13 : i,
  stops: i % 3,
  employer: i % 2,
}))
const COMPANIES: Company[] = [0, 1].map((i) => ({ level: i, stops: 1 }))

const attr = (ds: Datastore, name: string) =>
  ds.dataClass('Employee').def.attributesByName.get(name)!
const getter = (ds: Datastore, name: string) => {
  const a = attr(ds, name)
  if (a.kind !== 'calculated' || a.compute === undefined) throw new Error(`${name}: no getter`)
  return a.compute
}
const all = (ds: Datastore): Entity[] => ds.dataClass('Employee').all().toArray()

describe('getters made ahead of a reply', () => {
  it('goes into each call in the slices, and the writing finds the values', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    const entities = all(ds)
    const getters = [getter(ds, 'score'), getter(ds, 'tag')]
    const read = () => {
      const answers = gettersAhead(() => entities, getters)!
      return withAnswersAhead(answers, () => entities.map((e) => [e.get('score'), e.get('tag')]))
    }
    const { value, stopsInside } = inSlices(ds, counts, read)
    // Every call was made in steps, once; none at once when the values were read.
    expect(counts).toEqual({ plain: 0, stepped: 2 * EMPLOYEES.length, inside: 0 })
    expect(stopsInside).toBe(2 * EMPLOYEES.reduce((n, e) => n + e.stops, 0))
    expect(value).toEqual(entities.map((e) => [e.get('score'), e.get('tag')]))
  })

  it('keeps what a call threw, and throws it where the value is read', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES, { fail: true })
    const entities = all(ds)
    const read = () => {
      const answers = gettersAhead(() => entities, [getter(ds, 'score')])!
      return entities.map((e) => {
        try {
          return withAnswersAhead(answers, () => e.get('score'))
        } catch (error) {
          return (error as Error).message
        }
      })
    }
    const { value } = inSlices(ds, counts, read)
    expect(value[5]).toBe('unlucky 13')
    expect(counts.plain).toBe(0)
  })

  it('calls at once what it did not make ahead: another getter, another entity', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    const entities = all(ds)
    const read = () => {
      const answers = gettersAhead(() => entities.slice(0, 3), [getter(ds, 'score')])!
      return withAnswersAhead(answers, () => [entities[0]!.get('tag'), entities[4]!.get('score')])
    }
    inSlices(ds, counts, read)
    expect(counts.plain).toBe(2)
    expect(counts.stepped).toBe(3)
  })

  it('makes nothing ahead outside a slice scope, nor of getters without steps', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    expect(gettersAhead(() => all(ds), [getter(ds, 'score')])).toBeUndefined()
    expect(counts.stepped).toBe(0)
    const plainGetter = (e: { get(n: string): unknown }) => e.get('n')
    const read = () => {
      const answers = gettersAhead(() => all(ds), [plainGetter])!
      return withAnswersAhead(answers, () => answers.has(plainGetter, 1))
    }
    expect(inSlices(ds, counts, read).value).toBe(false)
  })

  it('makes a call asked twice once', () => {
    const { ds, counts } = getterStore(EMPLOYEES, COMPANIES)
    const entities = all(ds)
    inSlices(ds, counts, () =>
      gettersAhead(() => [...entities, ...entities], [getter(ds, 'score')]),
    )
    expect(counts.stepped).toBe(EMPLOYEES.length)
  })
})
