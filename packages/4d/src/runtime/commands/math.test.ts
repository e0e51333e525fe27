// The Math theme, with the examples of each command's page (docs/commands-legacy/*.md).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'
import { round, trunc } from './math.js'

describe('Round, Trunc, Int, Dec, Mod, Abs', () => {
  it('Round: 16.86, 32000, 29.873, -2', () => {
    expect(
      run(`return [Round(16.857;2); Round(32345.67;-3); Round(29.8725;3); Round(-1.5;0)]`),
    ).toEqual([16.86, 32000, 29.873, -2])
  })
  it('Trunc: 216.8, 210, -216.9, -220', () => {
    expect(
      run(`return [Trunc(216.897;1); Trunc(216.897;-1); Trunc(-216.897;1); Trunc(-216.897;-1)]`),
    ).toEqual([216.8, 210, -216.9, -220])
  })
  it('Int: 123 and -124; Dec(7.31)*100 is 31', () => {
    expect(run(`return [Int(123.4); Int(-123.4); Round(Dec(7.31)*100;0); Dec(-1.25)]`)).toEqual([
      123, -124, 31, 0.75,
    ])
  })
  it('Mod: 1, 0, 0 (3.5 is rounded first); by zero an error', () => {
    expect(run(`return [Mod(3;2); Mod(4;2); Mod(3.5;2); Mod(-7;3); Abs(-2.5)]`)).toEqual([
      1, 0, 0, -1, 2.5,
    ])
    expect(errorOf(`return Mod(1;0)`).errCode).toBe(9400)
  })
  it('Random is an integer from 0 to 32,767; (Random%21)+10 from 10 to 30', () => {
    const values = run(`$r:=[]
For($i;1;200)
  $r.push(Random)
  $r.push((Random%21)+10+40000)
End for
return $r`) as number[]
    for (const v of values) {
      expect(Number.isInteger(v)).toBe(true)
      if (v < 40000) expect(v >= 0 && v <= 32767).toBe(true)
      else expect(v >= 40010 && v <= 40030).toBe(true)
    }
  })
  it('Square root, Exp, Log, Sin, Cos, Tan, Arctan', () => {
    expect(
      run(`return [Square root(16); Exp(0); Log(1); Sin(0); Cos(0); Tan(0); Arctan(1)*4=Pi]`),
    ).toEqual([4, 1, 0, 0, 1, 0, true])
  })
})

describe('Round and Trunc against their rules', () => {
  it('Round is the nearest multiple of 10^-places, a half away from zero; Trunc the one below', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100000, max: 100000 }),
        fc.integer({ min: -2, max: 3 }),
        (n, places) => {
          const x = n / 1000
          const unit = 10 ** -places
          const r = round(x, places)
          const t = trunc(x, places)
          expect(Math.abs(r - x)).toBeLessThanOrEqual(unit / 2 + 1e-9)
          expect(t).toBeLessThanOrEqual(x + 1e-9)
          expect(x - t).toBeLessThan(unit + 1e-9)
          expect(round(-x, places)).toBe(r === 0 ? 0 : -r)
        },
      ),
      { numRuns: 2000 },
    )
  })
})
