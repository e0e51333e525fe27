/**
 * @module The command table: signatures read into what the compiler checks, entries found by
 * number and by name without case, and a number or name listed twice refused.
 */
import { describe, expect, test } from 'vitest'
import { COMMANDS } from './index.js'
import { parseSignature } from './signature.js'
import { buildCommandTable } from './table.js'

describe('signatures', () => {
  test.each([
    ['(text: Text): Integer', { min: 1, max: 1, result: 'Integer' }],
    ['(value?: any; format?: Text): Text', { min: 0, max: 2, result: 'Text' }],
    ['(a: any; ...rest: any): Collection', { min: 1, max: Infinity, result: 'other' }],
    ['()', { min: 0, max: 0, result: 'none' }],
    ['(flag: Boolean): Real', { min: 1, max: 1, result: 'Real' }],
  ])('%s', (signature, expected) => {
    expect(parseSignature(signature)).toEqual(expected)
  })

  test.each(['text: Text', '(a?: Text; b: Text)', '(...a: any; b: any)', '(1a: Text)'])(
    '%s is refused',
    (signature) => {
      expect(() => parseSignature(signature)).toThrow()
    },
  )
})

describe('the table', () => {
  test('by number and by name, without case', () => {
    expect(COMMANDS.byNumber(16)?.name).toBe('Length')
    expect(COMMANDS.byName('new OBJECT')?.number).toBe(1471)
    expect(COMMANDS.impls[16]).toBe(COMMANDS.byNumber(16)?.impl)
    expect(COMMANDS.byNumber(41)?.notRunnable).toBe('UI')
  })

  test('a command listed twice is a mistake of the table', () => {
    expect(() =>
      buildCommandTable([[{ number: 1, name: 'A' }], [{ number: 1, name: 'B' }]]),
    ).toThrow(/twice/)
    expect(() =>
      buildCommandTable([[{ number: 1, name: 'A' }], [{ number: 2, name: 'a' }]]),
    ).toThrow(/twice/)
  })
})
