import fc from 'fast-check'
import { Immer, enablePatches } from 'immer'
import { describe, expect, it } from 'vitest'
import type { StoredValue } from '../values/coerce.js'
import { nextValues } from './next-values.js'

enablePatches()
// The reference: the produceWithPatches updates used before, with the same settings.
const immer = new Immer({ autoFreeze: true })

const names = fc.constantFrom('a', 'b', 'c', 'name', 'salary', 'data')
// Values as stored: texts, numbers (NaN, -0: Object.is tells them apart), booleans, null, and JSON
// objects (an object attribute's), new ones or the very one already there.
const values: fc.Arbitrary<StoredValue> = fc.oneof(
  fc.constantFrom<StoredValue>(null, true, false, 0, -0, NaN, 1, 'x', ''),
  fc.integer({ min: -3, max: 3 }),
  fc.string({ maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => v as StoredValue),
)

describe('nextValues', () => {
  it('gives what immer.produceWithPatches gives: values, patches, identity and freezing', () => {
    fc.assert(
      fc.property(
        fc.dictionary(names, values),
        // Assignments, some repeated, some back to the value of base, some of a name base lacks.
        fc.array(fc.tuple(names, values, fc.boolean()), { maxLength: 8 }),
        (given, writes) => {
          const base = Object.freeze({ ...given })
          const assignments = writes.map(([name, value, same]): [string, StoredValue] => [
            name,
            same && Object.hasOwn(base, name) ? base[name]! : value,
          ])
          const [refNext, refPatches] = immer.produceWithPatches(base, (draft) => {
            const out = draft as Record<string, StoredValue>
            for (const [name, value] of assignments) out[name] = value
          })
          const [next, patches] = nextValues(base, assignments)
          expect(next).toEqual(refNext)
          expect(Object.keys(next)).toEqual(Object.keys(refNext))
          expect(patches).toEqual(refPatches)
          expect(next === base).toBe(refNext === base)
          expect(Object.isFrozen(next)).toBe(true)
          for (const name of Object.keys(next)) {
            const v = next[name]
            if (typeof v === 'object' && v !== null)
              expect(Object.isFrozen(v)).toBe(Object.isFrozen((refNext as typeof next)[name]))
          }
        },
      ),
      { numRuns: 500 },
    )
  })

  it('keeps a field named __proto__ a field', () => {
    const base = Object.freeze({ a: 1 })
    const [next, patches] = nextValues(base, [['__proto__', 'x']])
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(next, '__proto__')?.value).toBe('x')
    expect(patches).toEqual([{ op: 'add', path: ['__proto__'], value: 'x' }])
  })
})
