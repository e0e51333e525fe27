import { describe, expect, it } from 'vitest'
import { errorOf, run } from '../commands/run.fixture.js'
import { callDepth } from '../ops/call-depth.js'
import { DEFAULT_LIMITS, limitsOf, withLimits } from './limits.js'

// Each asks for a size V8 would abort the process for, or take seconds over.
const TOO_LARGE: readonly [string, string][] = [
  ['a collection resized', `$c:=New collection\n$c.resize(2000000000; 0)`],
  ['a collection element far past its end', `$c:=New collection\n$c[2000000000]:=1`],
  ['an array declared', `ARRAY LONGINT($a; 2000000000)`],
  ['an array inserted into', `ARRAY LONGINT($a; 2)\nINSERT IN ARRAY($a; 1; 2000000000)`],
  ['a text repeated', `$t:="ab"*250000000`],
  ['a BLOB sized', `var $b : Blob\nSET BLOB SIZE($b; 2000000000)`],
]

// The same under a bound of 100,000 elements: what grows as it goes, and would take seconds.
const TOO_LARGE_SMALL: readonly [string, string][] = [
  [
    'a collection holding itself, flattened',
    `$c:=New collection(1)\nFor ($i; 1; 2)\n$c.push($c)\nEnd for\n$c:=$c.flat(40)`,
  ],
  ['a collection concatenated', `$c:=New collection\n$c.resize(50000)\n$d:=$c.concat($c; $c)`],
  ['a text split', `$t:=","*200000\n$c:=Split string($t; ",")`],
]

describe('the bounds of sizes', () => {
  for (const [what, code] of TOO_LARGE)
    it(`refuse ${what} with 9439, which Try catches`, () => {
      const e = errorOf(code)
      expect(e.errCode).toBe(9439)
      expect(
        run(
          `var $r : Text\nTry\n${code}\nCatch\n$r:=String(Last errors[0].errCode)\nEnd try\nreturn $r`,
        ),
      ).toBe('9439')
    })

  for (const [what, code] of TOO_LARGE_SMALL)
    it(`refuse ${what} as it grows`, () => {
      withLimits(limitsOf({ elements: 100_000 }), () => expect(errorOf(code).errCode).toBe(9439))
    })

  it('are the project’s: a smaller bound refuses less', () => {
    const small = limitsOf({ elements: 10, textLength: 5 })
    withLimits(small, () => {
      expect(errorOf(`$c:=New collection\n$c.resize(11)`).errCode).toBe(9439)
      expect(run(`$c:=New collection\n$c.resize(10)\nreturn $c.length`)).toBe(10)
      expect(errorOf(`$c:=New collection(1;2;3;4;5;6;7;8;9;10)\n$c.push(11)`).errCode).toBe(9439)
      expect(errorOf(`return "ab"*3`).errCode).toBe(9439)
      expect(errorOf(`return Split string("a,b,c,d,e,f,g,h,i,j,k,l"; ",")`).errCode).toBe(9439)
      expect(run(`return Split string("a,b,c"; ",").length`)).toBe(3)
    })
    expect(run(`$c:=New collection\n$c.resize(11)\nreturn $c.length`)).toBe(11)
  })

  it('are checked when set', () => {
    expect(() => limitsOf({ elements: 0 })).toThrow(/elements must be a positive whole number/)
    expect(() => limitsOf({ callDepth: 1.5 })).toThrow(/callDepth/)
    expect(limitsOf(undefined)).toBe(DEFAULT_LIMITS)
    expect(limitsOf({ regexMs: 10 }).elements).toBe(DEFAULT_LIMITS.elements)
  })
})

describe('the bound of call depth', () => {
  const recursion = `$o:=New object\n$o.down:=Formula(This.down()+1)\nreturn $o.down()`

  it('ends a call that calls itself without end with 9438, and counts every call back out', () => {
    const e = errorOf(recursion)
    expect(e.errCode).toBe(9438)
    expect(callDepth()).toBe(0)
  })

  it('is seen by Try, and the code goes on', () => {
    expect(
      run(`var $r : Text
$o:=New object
$o.down:=Formula(This.down()+1)
Try
  $o.down()
Catch
  $r:=String(Last errors[0].errCode)
End try
return $r+" then "+String(1+1)`),
    ).toBe('9438 then 2')
  })

  it('stops before the end of the stack when the bound is set past it', () => {
    // A bound of a million: the measure of the stack left ends it (a JavaScript RangeError at
    // the very end would be 9412, or, in a regular expression's compiling, the process's end).
    withLimits(limitsOf({ callDepth: 1_000_000 }), () => {
      const e = errorOf(recursion)
      expect(e.errCode).toBe(9438)
      expect(Number(/(\d+) calls/.exec(e.message)![1])).toBeLessThan(1_000_000)
    })
    expect(callDepth()).toBe(0)
  })

  it('lets code nest as deep as the bound, and no deeper', () => {
    const code = `$o:=New object
$o.down:=Formula(($1<=0) ? 0 : This.down($1-1)+1)
return $o.down($2)`
    withLimits(limitsOf({ callDepth: 50 }), () => {
      expect(run(code.replace('$2', '48'))).toBe(48)
      expect(errorOf(code.replace('$2', '60')).errCode).toBe(9438)
    })
  })
})
