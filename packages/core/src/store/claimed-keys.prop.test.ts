import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { KeyValue } from './entity-record.js'
import { ClaimedKeys } from './claimed-keys.js'

const BYTES_PER_KEY = 32
const isSmall = (k: KeyValue) =>
  typeof k === 'number' && Number.isInteger(k) && k >= 0 && k < 2 ** 26

// Keys of every kind a table may have: dense small numbers, small numbers far apart, numbers near
// the bitmap's limit, and keys no bitmap holds.
const key: fc.Arbitrary<KeyValue> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 300 }), weight: 6 },
  { arbitrary: fc.integer({ min: 0, max: 300 }).map((k) => 50_000_000 + k), weight: 3 },
  { arbitrary: fc.integer({ min: 2 ** 26 - 3, max: 2 ** 26 + 3 }), weight: 1 },
  { arbitrary: fc.constantFrom(-1, 0.5, -0, 1e12), weight: 1 },
  { arbitrary: fc.constantFrom('1', 'a', 'B6F9'), weight: 1 },
)

describe('ClaimedKeys', () => {
  it('holds what a Set holds, its bitmap never more than 32 bytes a small key it held', () => {
    const op = fc.record({ kind: fc.constantFrom('add', 'add', 'add', 'delete', 'has'), key })
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }),
        fc.array(op, { maxLength: 400, size: 'max' }),
        (firstLook, ops) => {
          const claimed = new ClaimedKeys(firstLook)
          const model = new Set<KeyValue>()
          let peakSmall = 0
          for (const { kind, key: k } of ops) {
            if (kind === 'add') (claimed.add(k), model.add(k))
            else if (kind === 'delete') (claimed.delete(k), model.delete(k))
            // -0 and 0 are one key in a Set as in the bitmap.
            expect(claimed.has(k), `${kind} ${String(k)}`).toBe(model.has(k))
            peakSmall = Math.max(peakSmall, [...model].filter(isSmall).length)
            expect(claimed.bitmapBytes).toBeLessThanOrEqual(BYTES_PER_KEY * peakSmall)
          }
          for (const k of [...model, 1, 299, 50_000_000, 2 ** 26 - 1, 'a'])
            expect(claimed.has(k)).toBe(model.has(k))
        },
      ),
      { numRuns: 300 },
    )
  })

  it("costs a write the same whatever its key's size", () => {
    // One key of 50,000,000: no bitmap (a bitmap reaching it would be 6 MB).
    const one = new ClaimedKeys()
    one.add(50_000_000)
    expect([one.has(50_000_000), one.bitmapBytes]).toEqual([true, 0])
    // 100,000 keys from 50,000,000 on: a bitmap would cost more than the Set.
    const far = new ClaimedKeys()
    for (let k = 50_000_000; k < 50_100_000; k++) far.add(k)
    expect(far.bitmapBytes).toBe(0)
    // A load's 1M keys from 1: a bitmap of 125 KB (a Set of them, about 30 MB).
    const load = new ClaimedKeys()
    for (let k = 1; k <= 1_000_000; k++) load.add(k)
    expect(load.bitmapBytes).toBeGreaterThan(0)
    expect(load.bitmapBytes).toBeLessThanOrEqual(2 * 125_008)
    expect([load.has(1), load.has(1_000_000), load.has(1_000_001), load.has(0)]).toEqual([
      true,
      true,
      false,
      false,
    ])
  })
})
