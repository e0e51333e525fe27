import { describe, expect, it } from 'vitest'
import { needsBound, patternRisk } from './regex-risk.js'
import { errorOf, run } from './run.fixture.js'
import { limitsOf, withLimits } from '../values/limits.js'

describe('patternRisk', () => {
  it('finds a repeated group that repeats inside', () => {
    for (const p of ['(a+)+$', '^([a-zA-Z0-9]+\\s?)*$', '(a|ab)*c', '(?:x(y+))*', '((a)+)+'])
      expect(patternRisk(p).exponential, p).toBe(true)
  })
  it('finds back-references', () => {
    expect(patternRisk('(a)\\1').exponential).toBe(true)
    expect(patternRisk('(?<x>a)\\k<x>').exponential).toBe(true)
  })
  it('leaves alone what backtracks at most linearly', () => {
    for (const p of [
      '^\\d{3}-\\d{4}$',
      '[A-Z][a-z]+',
      '(abc)+',
      '(a|b)',
      '[(+*)]+',
      '\\(a+\\)+',
      '(a+){2}',
    ])
      expect(patternRisk(p).exponential, p).toBe(false)
  })
  it('bounds two unbounded quantifiers on a long text only', () => {
    const risk = patternRisk('\\s*\\s*$')
    expect(risk.unbounded).toBe(2)
    expect(needsBound(risk, ' '.repeat(100))).toBe(false)
    expect(needsBound(risk, ' '.repeat(5000))).toBe(true)
    expect(needsBound(patternRisk('a{2,}b{3}'), 'x'.repeat(5000))).toBe(false)
  })
})

describe('Match regex under a bound of time', () => {
  it('stops a catastrophic pattern with 9440, which Try catches', () => {
    const e = errorOf(`return Match regex("(a+)+$"; "${'a'.repeat(40)}!")`)
    expect(e.errCode).toBe(9440)
    expect(
      run(`var $r : Text
Try
  Match regex("^([a-zA-Z0-9]+\\\\s?)*$"; "${'abcdefghijklmnopqrstuvwxyz'.repeat(2)}!")
Catch
  $r:=String(Last errors[0].errCode)
End try
return $r`),
    ).toBe('9440')
  })
  it('answers a risky pattern that ends, as RegExp does', () => {
    // A bound no busy machine meets: what is tested is the answer, not the time it took.
    withLimits(limitsOf({ regexMs: 60_000 }), () => {
      expect(run(`return Match regex("^([a-z]+\\\\s?)*$"; "abc def ghi")`)).toBe(true)
      expect(run(`return Match regex("(a)\\\\1"; "xaay"; 1; pos; len)`)).toBe(true)
    })
  })
})
