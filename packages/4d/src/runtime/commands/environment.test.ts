// The System Environment, 4D Environment and Processes commands that answer here (environment.ts),
// CLEAR VARIABLE (clear-variable.md), and the process commands that cannot run.
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

describe('Application type, Is compiled mode', () => {
  it("application-type.md: 4D Server (5), Entistore's kind; its example takes the server branch", () => {
    expect(
      run(`If (Application type=4D Server)
  $branch:="server"
End if
return [Application type; $branch; Application type=4D Local mode; Application type#4D Remote mode]`),
    ).toEqual([5, 'server', false, true])
  })
  it("application-type.md's table: the constants' values", () => {
    expect(
      run(
        `return [4D Local mode; 4D Volume desktop; 4D Desktop; 4D Remote mode; 4D Server; tool4d]`,
      ),
    ).toEqual([0, 1, 3, 4, 5, 6])
    expect(run(`return Application type:C494=4D Server:K5:6`)).toBe(true)
  })
  it('is-compiled-mode.md: True (the code is compiled), with or without *; its example skips the debugging code', () => {
    expect(
      run(`$debug:=False
If (Not(Is compiled mode))
  $debug:=True
End if
return [Is compiled mode; Is compiled mode(*); $debug]`),
    ).toEqual([true, true, false])
  })
})

describe('Current process, DELAY PROCESS', () => {
  it("current-process.md: the process's number, the same at each read of a call; another call has its own", () => {
    const [a, b] = run(`return [Current process; Current process]`) as number[]
    const c = run(`return Current process`) as number
    expect(Number.isInteger(a) && a! > 0).toBe(true)
    expect(b).toBe(a)
    expect(c).not.toBe(a)
  })
  it('delay-process.md: of the current process it returns at once (the server thread never waits), of none it does nothing; neither raises', () => {
    const start = Date.now()
    expect(
      run(`DELAY PROCESS(Current process;60*60)
DELAY PROCESS(-1;10)
DELAY PROCESS(Current process;0.5)
return "after"`),
    ).toBe('after')
    expect(Date.now() - start).toBeLessThan(1000)
    expect(errorOf(`DELAY PROCESS("a";1)`).errCode).toBe(9406)
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
