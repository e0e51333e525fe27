/**
 * @module Errors through compiled code: a host's exception made a 4D error, the line of a 4D file
 * read from the JavaScript stack (the innermost frame of that file, not of a file whose name ends
 * the same), and a placed error kept where it was first placed.
 */
import { describe, expect, test } from 'vitest'
import { fourDError } from '../errors/fourd-error.js'
import { lineFromStack, placeError, toFourDError } from './error-flow.js'

const withStack = (stack: string): Error => Object.assign(new Error('x'), { stack })

describe('error flow', () => {
  test('the innermost frame of the file gives the line', () => {
    const e = withStack(
      'Error: x\n    at get (members.ts:40:3)\n    at Classes/Car.4dm:12:7\n    at Classes/Car.4dm:30:1',
    )
    expect(lineFromStack(e, 'Classes/Car.4dm')).toBe(12)
  })

  test('a file whose path ends the same is another file', () => {
    const e = withStack(
      'Error: x\n    at Project/Classes/Car.4dm:12:7\n    at f (Classes/Car.4dm:5:1)',
    )
    expect(lineFromStack(e, 'Classes/Car.4dm')).toBe(5)
    expect(lineFromStack(withStack('Error: x'), 'Classes/Car.4dm')).toBe(0)
  })

  test("a host's exception becomes a HostError holding it", () => {
    const cause = new RangeError('Maximum call stack size exceeded')
    const err = toFourDError(cause)
    expect([err.errCode, err.componentSignature, err.cause]).toEqual([9412, 'enti', cause])
    expect(err.message).toContain('RangeError: Maximum call stack size exceeded')
  })

  test('an error is placed once, by the innermost function', () => {
    const err = fourDError('DivisionByZero')
    placeError(err, 'Car.drive', 'Classes/Car.4dm', 12)
    placeError(err, 'caller', 'Methods/caller.4dm', 3)
    expect([err.method, err.file, err.line]).toEqual(['Car.drive', 'Classes/Car.4dm', 12])
  })

  test('an error whose stack does not show the file is left for the caller to place', () => {
    const err = fourDError('DivisionByZero')
    placeError(err, 'inner', 'Methods/inner.4dm', 0)
    expect(err.method).toBeUndefined()
    placeError(err, 'outer', 'Methods/outer.4dm', 7)
    expect([err.method, err.line]).toEqual(['outer', 7])
  })
})
