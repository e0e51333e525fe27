// The variables a command writes (runtime/arguments/out-parameter.ts), for each kind of variable
// the code generator passes: a typed local, a parameter, a process and an interprocess
// variable, a formula's copy and its parameter; any other expression is passed as its value.
import { describe, expect, it } from 'vitest'
import { errorOf, run } from '../../runtime/commands/run.fixture.js'

describe('a command writes the variable passed where its entry says', () => {
  it('a local keeps its declared type: a Real gets a number, a Text refuses one', () => {
    expect(
      run(`var $len : Real\nPosition("b";"abc";1;$len)\nreturn Value type($len)=Is real`),
    ).toBe(true)
    expect(errorOf(`var $len : Text\nPosition("b";"abc";1;$len)`).errCode).toBe(54)
  })
  it("a method's declared parameter, then read by the method", () => {
    const methods = {
      lengthOf: `#DECLARE($find : Text; $in : Text; $len : Integer) : Integer\nPosition($find;$in;1;$len)\nreturn $len`,
    }
    expect(run(`return lengthOf("æ";"Cæsar";0)`, { methods })).toBe(1)
  })
  it('a process variable, declared or not, and an interprocess variable', () => {
    expect(
      run(`var found : Integer
Position("c";"abc";1;found)
Position("bc";"abc";1;other)
Match regex("b+";"abbbc";1;<>pos;<>len)
return [found; other; <>pos; <>len]`),
    ).toEqual([1, 2, 2, 3])
  })
  it('in a formula: its copy of a local (the local itself unchanged, as 4D copies it) and its $2', () => {
    expect(
      run(`$len:=-1
$f:=Formula(Position("b";"abc";1;$len)+$len)
return [$f.call(); $len]`),
    ).toEqual([3, -1])
    expect(run(`$f:=Formula(Position($1;"abc";1;$2)+$2)\nreturn $f.call(Null;"bc";0)`)).toBe(4)
  })
  it('an expression is passed as its value: refused by Position, an object for OB SET', () => {
    expect(errorOf(`$o:={}\nPosition("b";"abc";1;$o.len)`).errCode).toBe(9415)
    expect(errorOf(`Position("b";"abc";1;Length("x"))`).errCode).toBe(9415)
    expect(run(`$o:={child: {}}\nOB SET($o.child;"a";1)\nreturn $o`)).toEqual({ child: { a: 1 } })
  })
})
