// The System Environment and Processes commands that answer here (environment.ts), CLEAR VARIABLE
// (clear-variable.md), and the process commands that cannot run.
import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'

describe('Is macOS, Is Windows, Application version, Current process name', () => {
  it('answer as the 4D release Entistore follows, on no desktop system', () => {
    expect(
      run(`var $build : Integer
$build:=-1
$short:=Application version($build)
return [Is macOS; Is Windows; $short; Application version(*); $build; Current process name]`),
    ).toEqual([false, false, '2140', 'F0002140', 0, 'REST Handler'])
  })
  it('application-version.md example 1 reads the version as 21.4.0', () => {
    expect(
      run(`$vs4Dversion:=Application version
return String(Num(Substring($vs4Dversion;1;2)))+"."+$vs4Dversion[[3]]+"."+$vs4Dversion[[4]]`),
    ).toBe('21.4.0')
  })
})

describe('CLEAR VARIABLE', () => {
  it("gives a variable its type's empty value, an array no element", () => {
    expect(
      run(`var $t : Text
var $n : Integer
$t:="abc"
$n:=5
$v:={a: 1}
ARRAY LONGINT($a;3)
CLEAR VARIABLE($t)
CLEAR VARIABLE($n)
CLEAR VARIABLE($v)
CLEAR VARIABLE($a)
APPEND TO ARRAY($a;7)
return [$t; $n; $v=Null; Undefined($v); Size of array($a); $a{1}]`),
    ).toEqual(['', 0, true, true, 1, 7])
  })
})

describe('New process, CALL WORKER', () => {
  it('raise 9422, naming the command: no other process runs here', () => {
    const e = errorOf(`$p:=New process("worker";0;"w")`)
    expect(e.errCode).toBe(9422)
    expect(e.message).toContain('"New process"')
    expect(errorOf(`CALL WORKER("w";"job")`).errCode).toBe(9422)
  })
})
