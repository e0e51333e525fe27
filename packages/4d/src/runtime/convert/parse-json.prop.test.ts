import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UNCOUNTED } from '../values/passes.js'
import { parseJSON } from './parse-json.js'

// What parseJSON gives: JSON.parse's value, or its error.
const outcome = (f: () => unknown): unknown => {
  try {
    return { value: f() }
  } catch (e) {
    return { error: (e as Error).name }
  }
}

describe('parseJSON a piece at a time', () => {
  it("gives JSON.parse's value, in pieces of any size", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom(undefined, '\t', ' \n '),
        (v, piece, space) => {
          const text = JSON.stringify(v, null, space)
          expect(parseJSON(text, UNCOUNTED, piece)).toEqual(JSON.parse(text))
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('refuses what JSON.parse refuses, whatever the pieces', () => {
    // JSON texts damaged at one place: a character dropped, doubled or changed.
    const damaged = fc
      .tuple(
        fc.jsonValue({ maxDepth: 4 }),
        fc.nat(),
        fc.constantFrom('', ',', ']', '}', '"', ':', '\\', 'x'),
      )
      .map(([v, at, c]) => {
        const text = JSON.stringify(v)
        const i = at % (text.length + 1)
        return text.slice(0, i) + c + text.slice(i + (c === '' ? 1 : 0))
      })
    fc.assert(
      fc.property(damaged, fc.integer({ min: 1, max: 40 }), (text, piece) => {
        expect(outcome(() => parseJSON(text, UNCOUNTED, piece))).toEqual(
          outcome(() => JSON.parse(text)),
        )
      }),
      { numRuns: 3000 },
    )
  })

  it('keys in their order, a repeated key last, __proto__ as a key', () => {
    const text = '{"b": [1, 2, 3], "2": {"x": "y"}, "a": 1, "__proto__": [4], "b": "again", "1": 0}'
    for (const piece of [1, 5, 12, 30, 1000]) {
      const v = parseJSON(text, UNCOUNTED, piece) as Record<string, unknown>
      expect(Object.keys(v)).toEqual(Object.keys(JSON.parse(text) as object))
      expect(JSON.stringify(v)).toBe(JSON.stringify(JSON.parse(text)))
      expect(Object.getPrototypeOf(v)).toBe(Object.prototype)
    }
  })

  it('a value nested deeper than it cuts is parsed whole', () => {
    const text = `${'['.repeat(40)}1, 2, 3${']'.repeat(40)}`
    expect(parseJSON(text, UNCOUNTED, 4)).toEqual(JSON.parse(text))
  })
})

describe('parseJSON counts its pieces', () => {
  const text = JSON.stringify(Array.from({ length: 600_000 }, (_, i) => ({ i, t: `n${i}` })))

  it('reads the clock as it goes, and what ends it at the budget is not taken for bad JSON', () => {
    let reads = 0
    const counting = {
      ticks: 4096,
      tick() {
        reads++
        this.ticks = 4096
      },
    }
    expect(parseJSON(text, counting)).toEqual(JSON.parse(text))
    // One pass each 64 characters parsed and scanned: some 300,000 passes, 70 readings.
    expect(reads).toBeGreaterThan(40)
    const ending = {
      ticks: 4096,
      tick() {
        if (++reads > 5) throw new Error('past the budget')
        this.ticks = 4096
      },
    }
    reads = 0
    expect(() => parseJSON(text, ending)).toThrow('past the budget')
  })
})
