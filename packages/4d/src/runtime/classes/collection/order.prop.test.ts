// The order of `.sort()`, `.orderBy()`, `.min()` and `.max()` against a reference written from
// docs/API/CollectionClass.md: "If the collection contains elements of different types, they are
// first grouped by type and sorted afterwards. Types are returned in the following order: null,
// booleans, strings, numbers, objects, collections, dates." Texts are ASCII letters here, which
// 4D's comparison orders ignoring case; objects and collections keep their order (none is
// defined among them).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Runtime } from '../../index.js'
import { Collection } from '../../values/collection.js'
import { DateValue } from '../../values/date-value.js'
import { newObject } from '../../values/kinds.js'
import { COLLECTION_FUNCTIONS } from '../collection-functions.js'

type Ref =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'text'; v: string }
  | { t: 'number'; v: number }
  | { t: 'object'; id: number }
  | { t: 'collection'; id: number }
  | { t: 'date'; days: number }

const TYPE_ORDER = ['null', 'bool', 'text', 'number', 'object', 'collection', 'date'] as const

const ref: fc.Arbitrary<Ref> = fc.oneof(
  fc.constant<Ref>({ t: 'null' }),
  fc.boolean().map((v): Ref => ({ t: 'bool', v })),
  fc.stringMatching(/^[a-zA-Z]{0,4}$/).map((v): Ref => ({ t: 'text', v })),
  fc.integer({ min: -50, max: 50 }).map((v): Ref => ({ t: 'number', v: v / 4 })),
  fc.nat(1000).map((id): Ref => ({ t: 'object', id })),
  fc.nat(1000).map((id): Ref => ({ t: 'collection', id })),
  fc.integer({ min: -5000, max: 5000 }).map((days): Ref => ({ t: 'date', days })),
)

/** The reference order: by type, then within the type; 0 for objects and collections. */
function refCompare(a: Ref, b: Ref): number {
  const ta = TYPE_ORDER.indexOf(a.t)
  const tb = TYPE_ORDER.indexOf(b.t)
  if (ta !== tb) return ta - tb
  switch (a.t) {
    case 'bool':
      return Number(a.v) - Number((b as typeof a).v)
    case 'text': {
      const x = a.v.toLowerCase()
      const y = (b as typeof a).v.toLowerCase()
      return x < y ? -1 : x > y ? 1 : 0
    }
    case 'number':
      return a.v - (b as typeof a).v
    case 'date':
      return a.days - (b as typeof a).days
    default:
      return 0
  }
}

/** A 4D value for each reference, and back. */
function toValue(r: Ref, index: number): unknown {
  switch (r.t) {
    case 'null':
      return null
    case 'bool':
    case 'text':
    case 'number':
      return r.v
    case 'object': {
      const o = newObject()
      o.id = index
      return o
    }
    case 'collection':
      return Collection.of(index)
    case 'date':
      return DateValue.fromDays(r.days)
  }
}

const call = (name: string, self: Collection, ...args: unknown[]): unknown =>
  COLLECTION_FUNCTIONS.get(name)!(new Runtime(), self, args)

// What tells two values apart in the result (objects and collections by their creation index).
function key(v: unknown): string {
  if (v instanceof DateValue) return `d${v.days}`
  if (v instanceof Collection) return `c${String(v.items[0])}`
  if (v !== null && typeof v === 'object') return `o${String((v as { id: number }).id)}`
  return `${typeof v}:${String(v)}`
}

describe("the order of the collection functions (CollectionClass.md's order of types)", () => {
  it('.sort() and .orderBy() order as the reference does, stably', () => {
    fc.assert(
      fc.property(fc.array(ref, { maxLength: 30 }), (refs) => {
        const values = refs.map(toValue)
        const expected = refs
          .map((r, i) => ({ r, v: values[i] }))
          .sort((a, b) => refCompare(a.r, b.r))
          .map(({ v }) => key(v))
        const ordered = call('orderBy', new Collection([...values])) as Collection
        expect(ordered.items.map(key)).toEqual(expected)
        const sorted = new Collection([...values])
        call('sort', sorted)
        expect(sorted.items.map(key)).toEqual(expected)
      }),
      { numRuns: 500 },
    )
  })

  it('ck descending is the reverse order of types and values', () => {
    fc.assert(
      fc.property(fc.array(ref, { maxLength: 30 }), (refs) => {
        const values = refs.map(toValue)
        const expected = refs
          .map((r, i) => ({ r, v: values[i] }))
          .sort((a, b) => refCompare(b.r, a.r))
          .map(({ v }) => key(v))
        const ordered = call('orderBy', new Collection([...values]), 1) as Collection
        expect(ordered.items.map(key)).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('.min() and .max() are the first and last non-null values of that order', () => {
    fc.assert(
      fc.property(fc.array(ref, { maxLength: 20 }), (refs) => {
        const values = refs.map(toValue)
        const kept = refs
          .map((r, i) => ({ r, v: values[i] }))
          .filter(({ r }) => r.t !== 'null')
          .sort((a, b) => refCompare(a.r, b.r))
        const min = call('min', new Collection(values))
        const max = call('max', new Collection(values))
        if (kept.length === 0) {
          expect(min).toBeUndefined()
          expect(max).toBeUndefined()
          return
        }
        expect(refCompare(kept[0]!.r, refs[values.indexOf(min)]!)).toBe(0)
        expect(refCompare(kept[kept.length - 1]!.r, refs[values.indexOf(max)]!)).toBe(0)
      }),
      { numRuns: 300 },
    )
  })
})
