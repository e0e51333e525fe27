// Bounds of the String commands (the pages say what happens past the end; compat.md says what
// happens before the start): against a reference written from those rules.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Runtime } from '../index.js'
import { COMMANDS } from './index.js'

const rt = new Runtime()
const call = (number: number, ...args: unknown[]): unknown => COMMANDS.impls[number]!(rt, ...args)
const SUBSTRING = 12
const POSITION = 15
const INSERT = 231
const DELETE = 232
const CHANGE = 234

const text = fc.stringMatching(/^[abcAB]{0,8}$/)
const int = fc.integer({ min: -12, max: 12 })

describe('Substring(source; firstChar {; numChars})', () => {
  it('is the characters from max(1, firstChar) on, numChars of them (none if it is not positive)', () => {
    fc.assert(
      fc.property(text, int, fc.option(int, { nil: undefined }), (s, first, n) => {
        const from = Math.max(1, first) - 1
        const count = n === undefined ? s.length : n
        const expected = count <= 0 ? '' : s.slice(from, from + count)
        expect(call(SUBSTRING, s, first, n)).toBe(expected)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('Position(find; aString {; start})', () => {
  it('finds the first occurrence at or after start, ignoring case; 0 when none or find is ""', () => {
    fc.assert(
      fc.property(text, text, fc.option(int, { nil: undefined }), (find, s, start) => {
        const from = Math.max(1, start ?? 1) - 1
        const at = find === '' ? -1 : s.toLowerCase().indexOf(find.toLowerCase(), from)
        expect(call(POSITION, find, s, start)).toBe(at + 1)
        const found = call(POSITION, find, s, start) as number
        if (found > 0)
          expect(s.slice(found - 1, found - 1 + find.length).toLowerCase()).toBe(find.toLowerCase())
      }),
      { numRuns: 2000 },
    )
  })
})

describe('Insert string, Delete string, Change string', () => {
  it('Insert string keeps every character and puts `what` within the text', () => {
    fc.assert(
      fc.property(text, text, int, (s, what, where) => {
        const at = Math.min(Math.max(1, where), s.length + 1) - 1
        expect(call(INSERT, s, what, where)).toBe(s.slice(0, at) + what + s.slice(at))
      }),
    )
  })
  it('Delete string removes what lies within the text, from max(1, where)', () => {
    fc.assert(
      fc.property(text, int, int, (s, where, n) => {
        const start = Math.max(1, where) - 1
        const end = where + n - 1
        const expected =
          where > s.length || n <= 0 || end <= start ? s : s.slice(0, start) + s.slice(end)
        expect(call(DELETE, s, where, n)).toBe(expected)
      }),
    )
  })
  it('Change string never changes the length', () => {
    fc.assert(
      fc.property(text, text, int, (s, chars, where) => {
        expect((call(CHANGE, s, chars, where) as string).length).toBe(s.length)
      }),
    )
  })
})
