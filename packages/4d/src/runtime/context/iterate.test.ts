/**
 * @module For each's passes (cf_looping.md): a collection's begin and end (negative ones from the
 * end), an object's property names as they are when the loop starts, a host's items, and an
 * error for anything else.
 */
import { describe, expect, test } from 'vitest'
import { Collection } from '../values/collection.js'
import { FourDError } from '../errors/fourd-error.js'
import { FOR_EACH, iterate } from './iterate.js'

const items = (source: unknown, begin?: unknown, end?: unknown): unknown[] => {
  const it = iterate(source, begin, end)
  const out: unknown[] = []
  for (let i = it.start; i < it.end; i++) out.push(it.at(i))
  return out
}

describe('iterate', () => {
  const c = Collection.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)

  test.each([
    [undefined, undefined, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [2, 5, [2, 3, 4]],
    [-4, -2, [6, 7]], // the doc's example: begin 6, end 8
    [-20, 2, [0, 1]], // a begin before the start is 0
    [8, 50, [8, 9]], // an end past the end is the size
    [5, 2, []],
  ])('a collection from %s to %s', (begin, end, expected) => {
    expect(items(c, begin, end)).toEqual(expected)
  })

  test("an object's property names, fixed at the start; begin and end ignored", () => {
    const o: Record<string, unknown> = { b: 1, a: 2 }
    const it = iterate(o, 1, 1)
    o.c = 3
    expect([it.start, it.end, it.at(0), it.at(1)]).toEqual([0, 2, 'b', 'a'])
  })

  test('a host gives its items; Null and Undefined give none', () => {
    const host = { [FOR_EACH]: () => ({ length: 2, at: (i: number) => `e${i}` }) }
    expect(items(host)).toEqual(['e0', 'e1'])
    expect(items(null)).toEqual([])
    expect(items(undefined)).toEqual([])
  })

  test('anything else is an error', () => {
    expect(() => iterate('text')).toThrow(FourDError)
    expect(() => iterate(12)).toThrow(/Number/)
  })
})
