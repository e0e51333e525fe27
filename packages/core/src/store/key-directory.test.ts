import { describe, expect, it } from 'vitest'
import type { KeyValue } from './entity-record.js'
import { KeyDirectory } from './key-directory.js'

// A row id per key (any distinct numbers), and back.
const ids = new Map<KeyValue, number>()
const rec = (key: KeyValue): number => {
  if (!ids.has(key)) ids.set(key, 1000 + ids.size)
  return ids.get(key)!
}
const keyOf = (rowId: number | undefined): KeyValue | undefined =>
  [...ids].find(([, id]) => id === rowId)?.[0]

describe('KeyDirectory', () => {
  it('holds row id 0, with room reserved ahead or not, in the dense form and in the map', () => {
    for (const room of [0, 1000]) {
      const d = new KeyDirectory()
      d.reserve(room)
      for (let k = 0; k < 500; k++) d.set(k, k === 7 ? 0 : k + 10)
      expect([d.get(7), d.get(8), d.get(500), d.size]).toEqual([0, 18, undefined, 500])
      expect([...d.values()].sort((a, b) => a - b).slice(0, 3)).toEqual([0, 10, 11])
      d.delete(7)
      expect([d.get(7), d.size]).toEqual([undefined, 499])
      d.set(7, 0)
      // A text key moves every key to a map, row id 0 too.
      d.set('x', 1)
      expect([d.get(7), d.get('x'), d.get(499), d.size]).toEqual([0, 1, 509, 501])
    }
  })

  it('finds integer keys as stored, and nothing for other spellings', () => {
    const d = new KeyDirectory()
    for (let k = 1; k <= 100; k++) d.set(k, rec(k))
    expect(d.size).toBe(100)
    expect(keyOf(d.get(7))).toBe(7)
    for (const miss of ['7', 7.5, -1, 0, 101, NaN, null, undefined, {}, 1e300])
      expect(d.get(miss), String(miss)).toBeUndefined()
  })

  // The dense form is a typed array, which has no element -0: -0 is key 0 all the same.
  it('finds key 0 as -0, and -0 as 0', () => {
    const d = new KeyDirectory()
    d.set(-0, rec(0))
    expect(keyOf(d.get(0))).toBe(0)
    d.delete(0)
    expect(d.get(-0)).toBeUndefined()
    d.set(0, rec(0))
    expect(keyOf(d.get(-0))).toBe(0)
    expect([...d.values()]).toEqual([rec(0)])
  })

  it('moves to a map for keys that do not fit, keeping every record', () => {
    for (const odd of ['A', -3, 2.5, 10_000_000]) {
      const d = new KeyDirectory()
      for (let k = 1; k <= 50; k++) d.set(k, rec(k))
      d.set(odd as KeyValue, rec(odd as KeyValue))
      expect(d.size, String(odd)).toBe(51)
      expect(keyOf(d.get(odd))).toBe(odd)
      expect(keyOf(d.get(25))).toBe(25)
      expect(d.get('25')).toBeUndefined()
      expect([...d.values()].length).toBe(51)
    }
  })

  it('counts deletes and replacements once', () => {
    const d = new KeyDirectory()
    d.set(1, rec(1))
    d.set(1, rec(1))
    d.set(2, rec(2))
    d.delete(1)
    d.delete(1)
    d.delete(99)
    expect(d.size).toBe(1)
    expect(d.get(1)).toBeUndefined()
    d.set('x', rec('x'))
    d.delete('x')
    d.delete('x')
    expect(d.size).toBe(1)
    expect([...d.values()].map(keyOf)).toEqual([2])
  })

  it('takes keys out of order within reach of the others', () => {
    const d = new KeyDirectory()
    for (const k of [500, 3, 900, 1, 2]) d.set(k, rec(k))
    expect(d.size).toBe(5)
    expect([...d.values()].map(keyOf)).toEqual([1, 2, 3, 500, 900])
  })
})
