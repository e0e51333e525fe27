/**
 * @module A spec per pass (research §8.13 c): what each pass makes of small units — the slots and
 * types it finds, what names resolve to, and the problems it reports.
 */
import { describe, expect, test } from 'vitest'
import type { MethodFileNode } from '../../ast/files.js'
import type { Node } from '../../ast/nodes.js'
import { walk } from '../../ast/walk.js'
import { parse4d } from '../../grammar/parse.js'
import { analyze } from '../analyze.js'
import type { Analysis } from '../analysis.js'
import { Session } from '../session.js'
import { methodUnit } from '../units.js'

function analysisOf(text: string): Analysis {
  const file = 'Methods/m.4dm'
  const ast = parse4d(text, { file, kind: 'method' }).file as MethodFileNode
  return analyze(methodUnit(ast), new Session(file), text)
}

const problems = (a: Analysis): string[] =>
  a.session.problems.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`)

const slot = (a: Analysis, key: string) => a.locals.get(key)

/** The resolution of the first node of `kind` (in source order). */
function resolutionOf(a: Analysis, kind: Node['kind']) {
  let found: Node | undefined
  for (const s of a.unit.body)
    walk(s, (n) => {
      if (found === undefined && n.kind === kind) found = n
    })
  return found === undefined ? undefined : a.resolved.get(found)
}

describe('lower-classic', () => {
  test('C_ commands type their variables and make no code', () => {
    const a = analysisOf('C_TEXT($1; $name)\nC_LONGINT($0)\nC_REAL(${3})\n$0:=Length($name)')
    expect(slot(a, '#1')?.type).toBe('Text')
    expect(slot(a, 'name')?.type).toBe('Text')
    expect(a.result?.type).toBe('Integer')
    expect([a.variadicType, a.variadicFrom]).toEqual(['Real', 3])
    expect(a.skip.size).toBe(3)
  })

  test('var ${n} types the parameters from the nth on, and gives them no value', () => {
    const a = analysisOf('var ${2} : Text\n$0:=$2+$3')
    expect([a.variadicType, a.variadicFrom]).toEqual(['Text', 2])
    const given = analysisOf('var ${2} : Text := "x"')
    expect(given.session.problems.map((p) => p.message)).toContain(
      'var ${n} types parameters: it gives no value',
    )
  })

  test('#DECLARE makes no code; its parameters are the unit’s', () => {
    const a = analysisOf('#DECLARE($a : Text; $b : Integer) -> $r : Object\n$r:={}')
    expect(a.skip.size).toBe(1)
    expect(a.params.map((s) => [s?.display, s?.type])).toEqual([
      ['$a', 'Text'],
      ['$b', 'Integer'],
    ])
    expect([a.result?.display, a.result?.type]).toEqual(['$r', 'Object'])
  })
})

describe('resolve-names', () => {
  test('locals ignore case; a named parameter is also $n; $0 is the result', () => {
    const a = analysisOf('#DECLARE($first : Text) -> $out : Text\n$Total:=1\n$total:=$1\n$0:=$out')
    expect(slot(a, 'total')).toBe(a.locals.get('total'))
    expect([...a.locals.keys()].filter((k) => k === 'total')).toHaveLength(1)
    expect(slot(a, '#1')).toBe(slot(a, 'first'))
    expect(slot(a, '#0')).toBe(a.result)
  })

  test("inside a formula a local is the formula's copy and $1 its own parameter", () => {
    const a = analysisOf('$x:=1\n$f:=Formula($x+$1)')
    expect(resolutionOf(a, 'Param')).toEqual({ kind: 'formula-param', index: 1 })
    const locals: string[] = []
    walk(a.unit.body[1]!, (n) => {
      if (n.kind === 'Local') locals.push(a.resolved.get(n)!.kind)
    })
    expect(locals).toEqual(['slot', 'captured'])
  })

  test('a bare name is a process variable when declared so, else decided at run time', () => {
    expect(resolutionOf(analysisOf('var counter : Integer\ncounter:=counter+1'), 'Name')).toEqual({
      kind: 'process',
    })
    expect(resolutionOf(analysisOf('$x:=something'), 'Name')).toEqual({ kind: 'name' })
  })

  test('break outside a loop, Super outside a class, and lines that do not parse are reported', () => {
    const a = analysisOf('break\nFor ($i; 1; 2)\n\tcontinue\nEnd for\nSuper.f()\n$x:=(')
    expect(problems(a)).toEqual([
      '1:1 error placement: break outside a loop',
      '5:1 error placement: Super outside a class',
      '6:6 error syntax: Expected expression but end of line found',
    ])
    expect(a.invalid.size).toBe(2)
  })

  test('a parameter declared twice is an error', () => {
    expect(problems(analysisOf('#DECLARE($a : Text; $A : Text) -> $a : Text'))).toEqual([
      '1:21 error declaration: $A is declared twice',
      '1:32 error declaration: $a is declared twice',
    ])
  })
})

describe('check-declarations', () => {
  test('var types a variable for the whole unit, a literal gives its type', () => {
    const a = analysisOf('$early:=$n\nvar $n:=10\nvar $t:="a"\nvar $c:=[]\nvar $v:=$t')
    expect(['n', 't', 'c', 'v'].map((k) => slot(a, k)?.type)).toEqual([
      'Real',
      'Text',
      'Collection',
      'Variant',
    ])
  })

  test('a second declaration with another type is reported; the first is kept', () => {
    const a = analysisOf('var $x : Text\nvar $x : Integer\nC_TEXT($x)')
    expect(slot(a, 'x')?.type).toBe('Text')
    expect(problems(a)).toEqual([
      '2:1 warning declaration: $x is declared Integer here and Text at line 1',
    ])
  })

  test('var with a value and several names is an error when reached', () => {
    const a = analysisOf('var $a; $b : Integer := 15')
    expect(problems(a)).toEqual(['1:1 error declaration: var gives a value to one variable only'])
    expect(a.invalid.size).toBe(1)
  })

  test('an unknown type is reported and taken as a Variant', () => {
    const a = analysisOf('var $x : Strange')
    expect(slot(a, 'x')?.type).toBe('Variant')
    expect(problems(a)).toEqual(['1:10 warning unknown-type: Unknown type "Strange"'])
  })

  test('class types are Objects; process variables are typed where declared', () => {
    const a = analysisOf('var $e : cs.Employee\nvar $f : 4D.File\nvar total : Real')
    expect([slot(a, 'e')?.type, slot(a, 'f')?.type]).toEqual(['Object', 'Object'])
    expect([...a.processDeclarations.values()]).toEqual([[{ name: 'total', type: 'Real' }]])
  })
})

describe('resolve-commands', () => {
  test('a command the table implements, by name or by token', () => {
    const a = analysisOf('$a:=Length("x")\n$b:=Length:C16("x")')
    const resolved = [...a.resolved.values()].filter((r) => r.kind === 'command')
    expect(resolved.map((r) => r.kind === 'command' && r.entry.name)).toEqual(['Length', 'Length'])
    expect(problems(a)).toEqual([])
  })

  test('a token whose name is not the table’s is reported', () => {
    expect(problems(analysisOf('$a:=Lenght:C16("x")'))).toEqual([
      '1:5 warning command-name: Lenght:C16 names the command Length',
    ])
  })

  test('commands that cannot run, and a wrong number of arguments, fail when reached', () => {
    const a = analysisOf('ALERT("x")\n$t:=Command name(1)\n$n:=Length("a"; "b")')
    expect(problems(a)).toEqual([
      '1:1 error not-runnable: The command "ALERT" cannot run here (it needs a user interface)',
      '2:5 error not-runnable: The command "Command name" cannot run here',
      '3:5 error arguments: Length takes 1 parameter, not 2',
    ])
  })

  test('the constants of a user interface are said to need one', () => {
    const a = analysisOf(
      '$e:=On Clicked\n$s:=Bold:K14:2\n$w:=Plain form window\n$z:=Nowhere constant',
    )
    expect(problems(a)).toEqual([
      '1:5 error not-runnable: The constant "On Clicked" is not implemented (it needs a user interface)',
      '2:5 error not-runnable: The constant "Bold" is not implemented (it needs a user interface)',
      '3:5 error not-runnable: The constant "Plain form window" is not implemented (it needs a user interface)',
      '4:5 error not-runnable: The constant "Nowhere constant" is not implemented',
    ])
  })

  test('the compiler answers Count parameters and Current method name', () => {
    expect(resolutionOf(analysisOf('$n:=Count parameters'), 'Command')).toEqual({
      kind: 'intrinsic',
      name: 'count-parameters',
    })
  })

  test('constants by name or token; classic constructs are not runnable', () => {
    const a = analysisOf(
      '$a:=Is text:K8:3\n$b:=Is picture\n$c:=Black\nARRAY POINTER($arr; 2)\n$d:=$arr{1}->\n$e:=->[Employee]name',
    )
    expect(resolutionOf(a, 'Constant')).toEqual({ kind: 'constant', value: 2 })
    expect(problems(a)).toEqual([
      '4:1 error not-runnable: The command "ARRAY POINTER" cannot run here',
      '6:5 error not-runnable: A pointer to a field cannot run here',
    ])
  })
})
