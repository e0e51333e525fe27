import { describe, expect, test } from 'vitest'
import { constantNames } from '../runtime/commands/constants.js'
import { builtinNamed, commandName, matchBuiltin } from './builtins.js'

describe('builtins', () => {
  test('commands keep their numbers, and a number names the command 4D lists first', () => {
    expect(builtinNamed('current date')).toEqual({
      kind: 'command',
      name: 'Current date',
      number: 33,
    })
    expect(builtinNamed('New formula')).toMatchObject({ number: 1597 })
    expect(commandName(1597)).toBe('Formula')
    expect(commandName(16)).toBe('Length')
    expect(builtinNamed('Localized string')).toMatchObject({ number: 991 })
    expect(commandName(991)).toBe('Get localized string')
  })

  test('the longest name wins, ending where a word ends', () => {
    expect(matchBuiltin('x:=OB Keys($o)', 3)).toMatchObject({
      length: 7,
      builtin: { number: 1719 },
    })
    expect(matchBuiltin('Current date+1', 0)).toMatchObject({ length: 12 })
    expect(matchBuiltin('Current', 0)).toBeNull()
    expect(matchBuiltin('Lengthy', 0)).toBeNull()
    expect(matchBuiltin('Error method', 0)?.builtin).toEqual({
      kind: 'variable',
      name: 'Error method',
    })
    expect(matchBuiltin('Is text', 0)?.builtin).toEqual({ kind: 'constant', name: 'Is text' })
    // `HTTP Get` is a command too: the constant's three words win over its two.
    expect(matchBuiltin('HTTP GET method;$url', 0)).toMatchObject({
      length: 15,
      builtin: { kind: 'constant', name: 'HTTP GET method' },
    })
  })

  test('two spaces end a name: 4D writes one between the words', () => {
    expect(matchBuiltin('Current  date', 0)).toBeNull()
  })
})

test('every constant the runtime has a value for is a name the grammar recognises', () => {
  // `ck keep null` was a value without a name: `$c.extract("name";ck keep null)` did not parse.
  expect(constantNames().filter((n) => builtinNamed(n)?.kind !== 'constant')).toEqual([])
})
