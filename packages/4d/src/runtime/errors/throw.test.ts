import { describe, expect, it } from 'vitest'
import { FourDError, fourDError } from './fourd-error.js'
import { ERRORS, fillPlaceholders } from './error-codes.js'
import { thrownCode, thrownObject } from './throw.js'

describe('docs/commands/throw.md', () => {
  it('example 1: throw(50042; "This is a custom error")', () => {
    const e = thrownCode(50042, 'This is a custom error')
    expect(e.toErrorObject()).toEqual({
      errCode: 50042,
      message: 'This is a custom error',
      componentSignature: 'host',
    })
    expect(e.deferred).toBe(false)
  })
  it('example 2: throw({errCode: 1; message: "This an error"})', () => {
    expect(thrownObject({ errCode: 1, message: 'This an error' }).toErrorObject()).toEqual({
      errCode: 1,
      message: 'This an error',
      componentSignature: 'host',
    })
  })
  it('example 3: throw({errCode: 1}) has the message "Error code: 1 (host)"', () => {
    expect(thrownObject({ errCode: 1 }).message).toBe('Error code: 1 (host)')
    expect(thrownCode(1).message).toBe('Error code: 1 (host)')
  })
  it('example 4: throw({message: "This is my error"}) has errCode -1', () => {
    const e = thrownObject({ message: 'This is my error' })
    expect(e.errCode).toBe(-1)
    expect(e.message).toBe('This is my error')
  })
  it('example 5: deferred: True', () => {
    expect(thrownObject({ message: 'This is my error', deferred: true }).deferred).toBe(true)
  })
  it('example 6: the project’s ERR_xbox_600 with {name} and {path} filled from the object', () => {
    const e = thrownObject(
      {
        componentSignature: 'xbox',
        errCode: 600,
        name: 'myFileName',
        path: 'myFilePath',
        deferred: true,
      },
      {
        localized: (res) => (res === 'ERR_xbox_600' ? 'File {name} not found ({path})' : undefined),
      },
    )
    expect(e.message).toBe('File myFileName not found (myFilePath)')
    expect(e.componentSignature).toBe('xbox')
    expect(e.deferred).toBe(true)
    expect(e.details).toEqual({ name: 'myFileName', path: 'myFilePath' })
  })
  it('{property} placeholders of a given message, a missing one kept as written', () => {
    const e = thrownObject({ message: 'No {what} in {where}', what: 'car' })
    expect(e.message).toBe('No car in {where}')
  })
  it('a component throws with its own signature when it gives none', () => {
    expect(thrownObject({ errCode: 2 }, { signature: 'C001' }).message).toBe('Error code: 2 (C001)')
  })
})

describe('the runtime’s error table', () => {
  it('gives each error its code, signature and filled message', () => {
    const e = fourDError('IncompatibleTypes', { left: 'Text', operator: '+', right: 'Number' })
    expect(e.errCode).toBe(54)
    expect(e.componentSignature).toBe('4DRT')
    expect(e.message).toBe('Argument types are incompatible (Text + Number)')
    expect(FourDError.is(e)).toBe(true)
    expect(e).toBeInstanceOf(Error)
  })
  it('codes are 4D’s documented ones or Entistore’s own, never both at once', () => {
    const codes = Object.values(ERRORS).map((s) => s.errCode)
    expect(new Set(codes).size).toBe(codes.length)
    for (const s of Object.values(ERRORS))
      expect(s.componentSignature === 'enti').toBe(s.errCode >= 9400 && s.errCode < 9500)
  })
  it('the place of an error is the nearest one', () => {
    const e = fourDError('DivisionByZero', {}).at('Classes/Car.4dm', 12).at('Classes/Fleet.4dm', 3)
    expect([e.method, e.line]).toEqual(['Classes/Car.4dm', 12])
  })
  it('placeholders are filled once, not from what they are filled with', () => {
    expect(fillPlaceholders('{a} {b}', { a: '{b}', b: 'x' })).toBe('{b} x')
  })
})
