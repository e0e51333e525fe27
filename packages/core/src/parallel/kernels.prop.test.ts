/**
 * The kernels against the per-row test they stand for: any values (null as NaN, -0, infinities),
 * any operator, any part boundaries give the rows a plain loop finds, and a raised flag stops them.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { cancelFlag, CHECK_ROWS, compareNumbers, KernelStopped, type NumberOp } from './kernels.js'
import { partsOf } from './parallel-pool.js'
import { nanColumn } from './shared-arrays.js'

const OPS: readonly NumberOp[] = ['lt', 'le', 'gt', 'ge', 'eq']
const plain: Record<NumberOp, (v: number, k: number) => boolean> = {
  lt: (v, k) => v < k,
  le: (v, k) => v <= k,
  gt: (v, k) => v > k,
  ge: (v, k) => v >= k,
  eq: (v, k) => v === k,
}
const value = fc.oneof(
  fc.constantFrom(Number.NaN, -0, 0, Infinity, -Infinity),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true }),
)

describe('compareNumbers', () => {
  test.prop([
    fc.array(value, { maxLength: 300 }),
    fc.constantFrom(...OPS),
    value,
    fc.integer({ min: 1, max: 8 }),
  ])(
    'finds, part by part, the rows a plain loop finds, in row order',
    (values, op, key, threads) => {
      const column = nanColumn(values.length)
      column.set(values)
      const expected = values.flatMap((v, i) => (plain[op](v, key) ? [i] : []))
      const found = partsOf(values.length, threads, 7).flatMap((p) => [
        ...compareNumbers({ column, op, key }, p.from, p.to, cancelFlag()),
      ])
      expect(found).toEqual(expected)
    },
  )

  it('stops at its next check once the flag is raised, saying how far it went', () => {
    const column = nanColumn(3 * CHECK_ROWS).fill(1)
    const cancel = cancelFlag()
    Atomics.store(cancel, 0, 1)
    const stopped = (() => {
      try {
        compareNumbers({ column, op: 'eq', key: 1 }, 0, column.length, cancel)
      } catch (error) {
        return error
      }
    })()
    expect(stopped).toBeInstanceOf(KernelStopped)
    expect((stopped as KernelStopped).rowsDone).toBe(0)
  })

  it('is given shared columns where the runtime has shared memory', () => {
    expect(nanColumn(4, new Float64Array([1, 2])).buffer).toBeInstanceOf(SharedArrayBuffer)
    expect([...nanColumn(3, new Float64Array([1, 2]))]).toEqual([1, 2, Number.NaN])
  })
})
