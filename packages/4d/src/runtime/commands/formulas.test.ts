// Formula from string, EXECUTE FORMULA and EXECUTE METHOD (formula-from-string.md,
// execute-formula.md, execute-method.md): 4D code given as text or by name, run on the caller's
// context with the run's compiler (compile/formula-text.ts).
import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'

const DOUBLE = { double: '#DECLARE($x : Integer) -> $r : Integer\n$r:=$x*2' }

describe('Formula from string', () => {
  it('takes $1… as its parameters, This as call() gives it, tokens as 4D writes them', () => {
    expect(run('return Formula from string("$1+$2").call(Null; 2; 3)')).toBe(5)
    expect(run('return Formula from string("This.a*2").call(New object("a"; 21))')).toBe(42)
    expect(run('return Formula from string("Uppercase:C13($1)").call(Null; "abc")')).toBe('ABC')
    expect(run('return Formula from string("  1+1  ").call()')).toBe(2)
  })
  it('takes a context (sk execute in host database: there is no component, so the same)', () => {
    expect(run('return Formula from string("2*21"; sk execute in host database).call()')).toBe(42)
  })
  it('calls a project method by name, with or without its parameters written', () => {
    expect(run('return Formula from string("double").call(Null; 4)', { methods: DOUBLE })).toBe(8)
    expect(run('return Formula from string("double($1)").call(Null; 5)', { methods: DOUBLE })).toBe(
      10,
    )
  })
  it('reads process variables, not the locals of its caller (-10737 when the text names one)', () => {
    expect(run('gValue:=5\nreturn Formula from string("gValue*2").call()')).toBe(10)
    const e = errorOf('$x:=1\n$f:=Formula from string("$x+1")')
    expect(e.errCode).toBe(-10737)
    expect(e.message).toContain('$x')
  })
  it('a text that does not parse is a syntax error when the formula is made; Try catches it', () => {
    expect(errorOf('$f:=Formula from string("1+")').errCode).toBe(9408)
    expect(run('Try\n$f:=Formula from string("1+")\nCatch\n$r:="caught"\nEnd try\nreturn $r')).toBe(
      'caught',
    )
  })
  it('a formula made in a loop from the same text gives the same result each time', () => {
    expect(
      run(
        'var $t : Integer\nFor ($i; 1; 50)\n$t:=$t+Formula from string("$1*2").call(Null; $i)\nEnd for\nreturn $t',
      ),
    ).toBe(2550)
  })
  it('without a compiler given to the run, a 4D error that says so', () => {
    const e = errorOf('return Formula from string("1")', {
      runtime: { compileFormula: undefined },
    })
    expect(e.errCode).toBe(9414)
    expect(e.message).toContain('Formula from string')
  })
})

describe('EXECUTE FORMULA', () => {
  it('runs one line: an assignment to a process variable, a method call', () => {
    expect(run('EXECUTE FORMULA("gTotal:=40+2")\nreturn gTotal')).toBe(42)
    expect(run('EXECUTE FORMULA("gTotal:=double(21)")\nreturn gTotal', { methods: DOUBLE })).toBe(
      42,
    )
    expect(run('EXECUTE FORMULA("")\nreturn "nothing"')).toBe('nothing')
  })
  it('a local, more than one line, a text that does not parse: 4D errors', () => {
    expect(errorOf('EXECUTE FORMULA("$x:=1")').errCode).toBe(-10737)
    expect(errorOf('EXECUTE FORMULA("gA:=1\\rgB:=2")').errCode).toBe(9408)
    expect(errorOf('EXECUTE FORMULA("gA:=")').errCode).toBe(9408)
  })
  it("an error of the line is the caller's: Try catches it", () => {
    expect(
      run(
        'Try\nEXECUTE FORMULA("gA:=1\\\\0")\nCatch\n$r:=Last errors[0].errCode\nEnd try\nreturn $r',
      ),
    ).toBe(9400)
  })
})

describe('EXECUTE METHOD', () => {
  it('calls a method by name with parameters, its result in a variable; OK is 1', () => {
    expect(run('EXECUTE METHOD("double"; $r; 21)\nreturn [$r; OK]', { methods: DOUBLE })).toEqual([
      42, 1,
    ])
  })
  it('* or nothing for a method whose result is not kept', () => {
    const methods = { setIt: '#DECLARE($v : Text)\ngSet:=$v', reset: 'gSet:="reset"' }
    expect(run('EXECUTE METHOD("setIt"; *; "a")\nreturn gSet', { methods })).toBe('a')
    expect(run('EXECUTE METHOD("reset")\nreturn gSet', { methods })).toBe('reset')
  })
  it('an unknown method: -10508, and OK is 0', () => {
    expect(errorOf('EXECUTE METHOD("nothing"; *)').errCode).toBe(-10508)
    expect(run('Try\nEXECUTE METHOD("nothing"; *)\nEnd try\nreturn OK')).toBe(0)
  })
  it('the result given as a value, not a variable: an error', () => {
    expect(errorOf('EXECUTE METHOD("double"; 3; 21)', { methods: DOUBLE }).errCode).toBe(9415)
  })
})
