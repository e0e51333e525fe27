import { describe, expect, it } from 'vitest'
import { parseCodeLimits } from './code-limits-option.js'

describe('serve --code-limits', () => {
  it('reads name=value pairs, each a positive whole number', () => {
    expect(parseCodeLimits(undefined)).toBeUndefined()
    expect(parseCodeLimits('callDepth=500, regexMs=20')).toEqual({ callDepth: 500, regexMs: 20 })
    expect(parseCodeLimits('elements=1_000_000')).toEqual({ elements: 1_000_000 })
  })
  it('refuses a name it does not know, a bad value, or nothing', () => {
    expect(() => parseCodeLimits('depth=5')).toThrow(/"depth" is not a bound \(callDepth, elements/)
    expect(() => parseCodeLimits('callDepth=0')).toThrow(
      /callDepth must be a positive whole number/,
    )
    expect(() => parseCodeLimits('callDepth')).toThrow(/callDepth must be a positive whole number/)
    expect(() => parseCodeLimits('regexMs=1.5')).toThrow(/regexMs must be/)
    expect(() => parseCodeLimits(' , ')).toThrow(/needs name=value pairs/)
  })
})
