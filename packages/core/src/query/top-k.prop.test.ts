/**
 * The merge sort in steps (top-k.ts) sorts as Array.prototype.sort does with the same comparison,
 * across its runs of 4,096 and every pass of merges, for any length.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { finish } from './slices.js'
import { sortWork, topK } from './top-k.js'

describe('sortWork', () => {
  test.prop([fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 1, max: 50 }), fc.boolean()], {
    numRuns: 30,
  })('sorts as Array.prototype.sort does', (n, distinct, descending) => {
    // Few distinct keys: ties everywhere, broken by position as the orderings break them by row.
    const keys = Array.from({ length: n }, (_, i) => (i * 7919) % distinct)
    const sign = descending ? -1 : 1
    const cmp = (a: number, b: number): number => (keys[a]! - keys[b]!) * sign || a - b
    const items = Array.from({ length: n }, (_, i) => (i * 104_729) % n)
    const expected = [...items].sort(cmp)
    expect(finish(sortWork(items, cmp))).toEqual(expected)
  })

  test.prop([fc.integer({ min: 0, max: 12_000 }), fc.integer({ min: 0, max: 300 })], {
    numRuns: 30,
  })('topK keeps the k first', (n, k) => {
    const keys = Array.from({ length: n }, (_, i) => (i * 7919) % 97)
    const cmp = (a: number, b: number): number => keys[a]! - keys[b]! || a - b
    const all = Array.from({ length: n }, (_, i) => i).sort(cmp)
    expect(finish(topK(n, k, cmp)).sort(cmp)).toEqual(all.slice(0, Math.min(k, n)))
  })
})
