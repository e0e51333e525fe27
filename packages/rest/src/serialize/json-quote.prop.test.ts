import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { quoteText } from './json-quote.js'

describe('quoteText', () => {
  it('writes any text as JSON.stringify does, lone surrogates and controls included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(quoteText(text)).toBe(JSON.stringify(text))
      }),
      { numRuns: 20_000 },
    )
  })

  it('writes texts of the characters JSON escapes, and of none, as JSON.stringify does', () => {
    const unit = fc.constantFrom(
      'a',
      'é',
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      '\ud83d',
      '\ude00',
      '😀',
      ' ',
    )
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const text = units.join('')
        expect(quoteText(text)).toBe(JSON.stringify(text))
      }),
      { numRuns: 20_000 },
    )
  })
})
