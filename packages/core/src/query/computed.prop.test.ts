/**
 * Property: a query function that means what the getter computes finds the same entities as the
 * sequential scan through the getter, for any names and any full name asked, by equality (with
 * and without wildcards), inequality and IN; and an orderBy function sorts as the order it
 * returns would if written in the query.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { COMPUTED_MODEL, fullNameQuery } from '../orda/objects/computed.fixture.js'
import type { ComputedAttributeFunctions } from '../schema/definitions.js'

// Names without spaces (the full name is split on its first one), with case and accents that
// folding makes equal, and `@` to exercise wildcards.
const name = fc
  .array(fc.constantFrom(...'abAB\u00e9\u00c9z@'), { minLength: 1, maxLength: 4 })
  .map((cs) => cs.join(''))
const person = fc.record({ firstName: name, lastName: name })

const get = (e: { get(n: string): unknown }): string =>
  `${String(e.get('firstName'))} ${String(e.get('lastName'))}`

function store(people: readonly { firstName: string; lastName: string }[], fns: boolean) {
  const functions: ComputedAttributeFunctions = fns
    ? {
        get,
        query: fullNameQuery,
        orderBy: (e) => (e.descending ? 'firstName desc, lastName desc' : 'firstName, lastName'),
      }
    : { get }
  return createDatastore(COMPUTED_MODEL, {
    data: { Employee: people.map((p, i) => ({ ID: i + 1, ...p })) },
    calculated: { Employee: { fullName: functions } },
  })
}

describe('computed attributes', () => {
  test.prop(
    [
      fc.array(person, { minLength: 1, maxLength: 12 }),
      fc.array(fc.tuple(name, name), { minLength: 1, maxLength: 3 }),
      fc.nat(),
    ],
    { numRuns: 200 },
  )('a query function finds what the getter finds', (people, asked, pick) => {
    const withFns = store(people, true).dataClass('Employee')
    const plain = store(people, false).dataClass('Employee')
    // Ask for an existing full name as often as for a made-up one.
    const known = people[pick % people.length]!
    const values = [`${known.firstName} ${known.lastName}`, ...asked.map(([f, l]) => `${f} ${l}`)]
    const keys = (dc: typeof plain, text: string, value: unknown) =>
      dc
        .query(text, value)
        .toArray()
        .map((e) => e.getKey())
    for (const text of ['fullName = :1', 'fullName === :1', 'fullName != :1']) {
      for (const value of values) {
        expect(keys(withFns, text, value), `${text} ${value}`).toEqual(keys(plain, text, value))
      }
    }
    expect(keys(withFns, 'fullName in :1', values)).toEqual(keys(plain, 'fullName in :1', values))
  })

  test.prop([fc.array(person, { minLength: 1, maxLength: 12 }), fc.boolean()], { numRuns: 100 })(
    'an orderBy function sorts as the order it returns, written by hand',
    (people, descending) => {
      const dc = store(people, true).dataClass('Employee')
      const keys = (text: string) =>
        dc
          .query(text)
          .toArray()
          .map((e) => e.getKey())
      const desc = descending ? ' desc' : ''
      expect(keys(`order by fullName${desc}`)).toEqual(
        keys(`order by firstName${desc}, lastName${desc}`),
      )
    },
  )
})
