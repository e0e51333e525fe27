import { describe, expect, it } from 'vitest'
import { compiledFields, fieldsDiffer } from './compiled-fields.js'

describe('fieldsDiffer', () => {
  it('sets bit i for each names[i] whose values differ by !==', () => {
    const differ = fieldsDiffer(['a', 'b', 'c'])!
    expect(differ({ a: 1, b: 'x', c: null }, { a: 1, b: 'x', c: null })).toBe(0)
    expect(differ({ a: 1, b: 'x', c: null }, { a: 2, b: 'x', c: undefined })).toBe(0b101)
    // !==, as the loop it stands for: NaN differs from itself, -0 does not from 0.
    expect(differ({ a: NaN, b: -0, c: 1 }, { a: NaN, b: 0, c: 1 })).toBe(0b001)
    // A field either side lacks reads undefined.
    expect(differ({ a: 1 }, { a: 1, b: 2 })).toBe(0b010)
  })

  it('gives 0 for no names, and bit 30 for the 31st', () => {
    expect(fieldsDiffer([])!({ a: 1 }, { a: 2 })).toBe(0)
    const names = Array.from({ length: 31 }, (_, i) => `f${i}`)
    expect(fieldsDiffer(names)!({ f30: 1 }, { f30: 2 })).toBe(2 ** 30)
  })

  it('is not compiled past 31 names, nor for a name a literal treats specially', () => {
    expect(fieldsDiffer(Array.from({ length: 32 }, (_, i) => `f${i}`))).toBeUndefined()
    expect(fieldsDiffer(['a', '__proto__'])).toBeUndefined()
    expect(fieldsDiffer(['a b'])).toBeUndefined()
  })
})

describe('compiledFields', () => {
  it('quotes the names into the body, and gives undefined when the code does not compile', () => {
    const pick = compiledFields<(v: Record<string, unknown>) => unknown[]>(
      ['x', 'é_1'],
      ['v'],
      (q) => `return [${q.map((n) => `v[${n}]`).join(', ')}]`,
    )!
    expect(pick({ x: 1, é_1: 2 })).toEqual([1, 2])
    expect(compiledFields(['x'], ['v'], () => 'return (')).toBeUndefined()
  })
})
