import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { WitnessLog } from './witness-log.js'

describe('WitnessLog', () => {
  it('answers what a map of the last deletions would, across stamps taken back', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(
          fc.oneof(
            fc.record({ gap: fc.integer({ min: 1, max: 3 }), who: fc.subarray(['a', 'b', 'c']) }),
            fc.record({ back: fc.integer({ min: 0, max: 6 }) }),
          ),
          { maxLength: 60 },
        ),
        (capacity, ops) => {
          const log = new WitnessLog(capacity)
          let model: [number, string[]][] = []
          let stamp = 10
          for (const op of ops) {
            if ('back' in op) {
              stamp = Math.max(1, stamp - op.back)
              continue
            }
            stamp += op.gap
            log.add(stamp, new Set(op.who))
            model = model.filter(([s]) => s < stamp)
            model.push([stamp, op.who])
            if (model.length > capacity) model.shift()
          }
          expect(log.size).toBe(model.length)
          for (const [s, who] of model) expect([...log.get(s)!].sort()).toEqual([...who].sort())
          for (let s = 0; s < stamp + 5; s++)
            if (!model.some(([m]) => m === s)) expect(log.get(s)).toBeUndefined()
          // Each distinct set once, and only those some kept deletion refers to.
          expect(log.distinctSets).toBe(new Set(model.map(([, w]) => [...w].sort().join())).size)
        },
      ),
    )
  })

  it('keeps one set for the deletions of one set of witnesses', () => {
    const log = new WitnessLog(1_000_000)
    const marks = Array.from({ length: 99 }, (_, i) => `session-${i}`)
    for (let s = 1; s <= 100_000; s++) log.add(s, new Set(marks))
    expect(log.size).toBe(100_000)
    expect(log.distinctSets).toBe(1)
  })
})
