import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RecentRecords } from './recent-records.js'

describe('RecentRecords', () => {
  // Few ids and rare clears, so that entries live through several generations.
  it('holds what was set or read among the last `half`, never more than 2 × half, and forgets what was deleted', () => {
    holdsTheLast(15, 6)
  })

  // More ids than the front's first 16 slots, and generations large enough for it to grow
  // (to four slots an entry of the young one) while entries are held, read and deleted.
  it('holds the same while its front grows', () => {
    holdsTheLast(299, 40)
  })

  it('refuses a size that is not a positive integer', () => {
    expect(() => new RecentRecords(0)).toThrow(RangeError)
    expect(() => new RecentRecords(1.5)).toThrow(RangeError)
  })
})

/** The model-based property, ids from 0 to `most`, generations of 1 to `halfMost` entries. */
function holdsTheLast(most: number, halfMost: number): void {
  const id = fc.integer({ min: 0, max: most })
  const op = fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('set' as const), id }), weight: 8 },
    { arbitrary: fc.record({ kind: fc.constant('get' as const), id }), weight: 8 },
    { arbitrary: fc.record({ kind: fc.constant('delete' as const), id }), weight: 3 },
    { arbitrary: fc.constant({ kind: 'clear' as const, id: 0 }), weight: 1 },
  )
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: halfMost }),
      // fast-check's default size makes arrays of about ten: too few for several generations.
      fc.array(op, { maxLength: 10 * halfMost + 140, size: 'max' }),
      (half, ops) => {
        const recent = new RecentRecords<string>(half)
        // The model: every live id's value (what a hit must give; none once deleted), and the
        // ids touched, last first.
        const values = new Map<number, string>()
        let touched: number[] = []
        const touch = (id: number) => (touched = [id, ...touched.filter((t) => t !== id)])
        ops.forEach(({ kind, id }, step) => {
          if (kind === 'set') {
            recent.set(id, `${id}@${step}`)
            values.set(id, `${id}@${step}`)
            touch(id)
          } else if (kind === 'get') {
            // The front answers for the entries it holds only, and never with a stale one.
            const front = recent.front(id)
            if (front !== undefined) expect(front).toBe(values.get(id))
            const got = recent.get(id)
            // A hit is the value last set; a miss is allowed only past the last `half` touched.
            if (got !== undefined) expect(got).toBe(values.get(id))
            else if (values.has(id)) expect(touched.slice(0, half)).not.toContain(id)
            if (got !== undefined) touch(id)
          } else if (kind === 'delete') {
            // A deleted id keeps its place among those touched: its place among the last
            // `half` is not handed to an older one.
            recent.delete(id)
            values.delete(id)
          } else {
            recent.clear()
            values.clear()
            touched = []
          }
          expect(recent.size).toBeLessThanOrEqual(2 * half)
        })
        // Read at the end only: a read moves what it finds, and reading the last ones at every
        // step would leave nothing older in the structure for the steps to find.
        for (const t of touched.slice(0, half)) expect(recent.get(t)).toBe(values.get(t))
      },
    ),
  )
}
