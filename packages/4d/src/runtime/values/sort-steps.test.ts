// The merge sort as steps against V8's Array.prototype.sort, which is stable too: with the same
// comparison both give the same order, whatever the runs and the equal keys of the input.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UNCOUNTED, type Passes } from './passes.js'
import { sortSteps } from './sort-steps.js'
import { finish, type Work } from './work.js'

interface Item {
  readonly key: number
  readonly at: number
}

// Keys from a few values, so that most elements have equals; runs up and down, as TimSort and the
// merges' galloping meet them in real data.
const items = fc
  .array(
    fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 1000 }), fc.constant(3)),
    { maxLength: 3000, size: 'max' },
  )
  .chain((keys) =>
    fc
      .constantFrom<(k: number[]) => number[]>(
        (k) => k,
        (k) => [...k].sort((a, b) => a - b),
        (k) => [...k].sort((a, b) => b - a),
        (k) => [...k].sort((a, b) => a - b).map((v, i) => (i % 97 === 0 ? 1000 - v : v)),
      )
      .map((shape) => shape(keys).map((key, at): Item => ({ key, at }))),
  )

const byKey = (a: Item, b: Item): number => a.key - b.key
const byKeyDown = (a: Item, b: Item): number => b.key - a.key

describe('sortSteps', () => {
  it('gives what V8’s sort gives, ascending and descending', () => {
    fc.assert(
      fc.property(items, (input) => {
        for (const compare of [byKey, byKeyDown]) {
          const before = [...input]
          expect(finish(sortSteps(UNCOUNTED, input, compare))).toEqual([...input].sort(compare))
          expect(input).toEqual(before)
        }
      }),
    )
  })

  it('a comparison that is itself steps gives the same order, its stops passed on', () => {
    fc.assert(
      fc.property(items, (input) => {
        let inner = 0
        // Says only whether `a` goes before `b`, as a callback does, and stops once a call.
        function* before(a: Item, b: Item): Work<number> {
          inner++
          yield
          return a.key < b.key ? -1 : 0
        }
        const work = sortSteps(UNCOUNTED, input, before)
        let stops = 0
        let r = work.next()
        for (; r.done !== true; r = work.next()) stops++
        expect(r.value).toEqual([...input].sort(byKey))
        expect(stops).toBe(inner)
      }),
    )
  })

  it('counts each comparison as a pass and stops where the ticks run out', () => {
    const input = Array.from({ length: 20_000 }, (_, i): Item => ({
      key: (i * 7919) % 1001,
      at: i,
    }))
    let compared = 0
    const counting = (a: Item, b: Item): number => {
      compared++
      return byKey(a, b)
    }
    let reads = 0
    const rt: Passes = {
      ticks: 100,
      tick() {
        reads++
        this.ticks = 100
      },
    }
    const work = sortSteps(rt, input, counting)
    let stops = 0
    while (work.next().done !== true) stops++
    expect(stops).toBe(reads)
    expect(stops).toBe(Math.floor(compared / 101))
  })
})
