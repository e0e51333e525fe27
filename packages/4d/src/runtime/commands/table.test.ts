/**
 * @module The command table: signatures read into what the compiler checks, entries found by
 * number and by name without case, and a number or name listed twice refused; as assembled
 * (index.ts), each entry says how it runs, with a signature when it does, under the number 4D's
 * list of commands gives its name.
 */
import { describe, expect, it, test } from 'vitest'
import { builtinNamed } from '../../grammar/builtins.js'
import { COLLECTION_FUNCTION_ENTRIES } from '../classes/collection-functions.js'
import { COMMANDS } from './index.js'
import { parseSignature } from '../arguments/signature.js'
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

  test('the implementations by number have no hole (a sparse array is a dictionary to V8)', () => {
    const impls = COMMANDS.impls
    expect(Object.keys(impls)).toHaveLength(impls.length)
    expect(impls.filter((f) => f !== undefined).length).toBeGreaterThan(50)
  })

  test('the implementations by number are not frozen (V8 reads a frozen array the slow way)', () => {
    expect(Object.isFrozen(COMMANDS.impls)).toBe(false)
    expect(Object.isFrozen(COMMANDS.steps)).toBe(false)
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

describe('the command table', () => {
  it('every implemented command has a signature; the others say why they cannot run', () => {
    for (const entry of COMMANDS.entries) {
      if (entry.impl !== undefined) expect(entry.parsed, entry.name).toBeDefined()
      else expect(entry.notRunnable, entry.name).toBeTruthy()
    }
  })
  it("each number is the one 4D's list of commands gives the name", () => {
    // Commands of 4D 21, newer than the list the grammar has (their pages give their numbers).
    const newer = new Map([
      ['Trim', 1853],
      ['Trim start', 1854],
      ['Trim end', 1855],
    ])
    for (const entry of COMMANDS.entries)
      for (const name of [entry.name, ...(entry.aliases ?? [])]) {
        const builtin = builtinNamed(name)
        const listed = builtin?.kind === 'command' ? builtin.number : newer.get(name)
        expect(listed, name).toBe(entry.number)
      }
  })
  it('the commands of a user interface are not runnable for "UI"', () => {
    for (const name of [
      'ALERT',
      'CONFIRM',
      'DIALOG',
      'Open window',
      'Form',
      'LISTBOX SET ROW HEIGHT',
      'Request',
      'FORM LOAD',
    ])
      expect(COMMANDS.byName(name)?.notRunnable, name).toBe('UI')
    expect(COMMANDS.entries.filter((e) => e.notRunnable === 'UI').length).toBeGreaterThan(450)
  })
  it('a name is found without case, an alias too', () => {
    expect(COMMANDS.byName('ob keys')?.number).toBe(1719)
    expect(COMMANDS.byName('GET LOCALIZED STRING')?.number).toBe(991)
  })
})

describe('the collection functions', () => {
  it('each has a signature read once', () => {
    expect(COLLECTION_FUNCTION_ENTRIES.length).toBeGreaterThan(45)
    for (const entry of COLLECTION_FUNCTION_ENTRIES) expect(entry.parsed, entry.name).toBeDefined()
  })
})
