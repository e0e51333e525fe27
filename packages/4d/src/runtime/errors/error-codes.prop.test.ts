import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fillPlaceholders } from './error-codes.js'

// The rule as a regular expression says it; fillPlaceholders keeps to it without one.
const byPattern = (message: string, args: Record<string, unknown>): string =>
  message.replace(/\{([^{}]+)\}/g, (whole, name: string) =>
    Object.hasOwn(args, name) ? String(args[name]) : whole,
  )

describe('fillPlaceholders', () => {
  it('fills as the placeholder pattern does, for any text of braces and names', () => {
    const text = fc
      .array(fc.constantFrom('{', '}', 'a', 'b', 'ab', ' '), { maxLength: 24 })
      .map((parts) => parts.join(''))
    const args = fc.dictionary(fc.constantFrom('a', 'b', 'ab', ' ', 'a b'), fc.string())
    fc.assert(
      fc.property(text, args, (message, values) => {
        expect(fillPlaceholders(message, values)).toBe(byPattern(message, values))
      }),
      { numRuns: 2000 },
    )
  })
})
