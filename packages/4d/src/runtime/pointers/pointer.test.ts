// Pointers to variables (dt_pointer.md, is-nil-pointer.md, get-pointer.md, resolve-pointer.md):
// made with `->`, read and assigned through `->`, passed to methods and commands.
import { describe, expect, it } from 'vitest'
import { checkReport } from '../../project/check-report.js'
import { compileProject } from '../../project/compile-project.js'
import { Runtime } from '../context/runtime.js'
import { errorOf, run } from '../commands/run.fixture.js'

describe('pointers', () => {
  it('read and assign the variable they point to, as its own assignment does', () => {
    expect(
      run(`var $x : Integer
var $p; $q : Pointer
$p:=->$x
$p->:=5.7
$p->+=1
$q:=->$x
return [$x; $p->; $p=$q; $p=->$x; Value type($p); Type($p)]`),
    ).toEqual([7, 7, true, true, 23, 23])
  })

  it('reach an array, its elements and an object, and are what commands write', () => {
    expect(
      run(`ARRAY TEXT($a; 0)
var $p; $e : Pointer
$p:=->$a
APPEND TO ARRAY($p->; "one")
ARRAY TEXT($p->; 3)
$p->{2}:="two"
$e:=->$a{3}
$e->:="three"
var $o : Object
$o:={}
$p:=->$o
$p->name:="n"
return [Size of array($a); $a{1}; $a{2}; $a{3}; $o.name]`),
    ).toEqual([3, 'one', 'two', 'three', 'n'])
  })

  it('point to process variables by name, and say what they point to', () => {
    expect(
      run(`var $p : Pointer
$p:=Get pointer("counter")
$p->:=3
ARRAY LONGINT(scores; 2)
$s:=Get pointer("scores{2}")
$s->:=10
var $name : Text
var $table; $field : Integer
RESOLVE POINTER($s; $name; $table; $field)
$resolved:=[$name; $table; $field]
RESOLVE POINTER(->counter; $name; $table; $field)
return [counter; scores{2}; $p=->counter; $resolved; [$name; $table; $field]]`),
    ).toEqual([3, 10, true, ['scores', 2, -1], ['counter', -1, -1]])
  })

  it('are Nil until set; reading a Nil one is an error the code can catch', () => {
    expect(
      run(`var $p : Pointer
var $n : Text
var $t; $f : Integer
RESOLVE POINTER($p; $n; $t; $f)
$x:=1
return [Is nil pointer($p); Is nil pointer(->$x); Is a variable(->$x); $n; $t; $f]`),
    ).toEqual([true, false, true, '', 0, 0])
    expect(errorOf('var $p : Pointer\n$v:=$p->')).toMatchObject({ errCode: 9425 })
    expect(errorOf('$p:="text"\n$v:=$p->')).toMatchObject({
      errCode: 9426,
      message: 'A Text is not a pointer',
    })
  })

  it("let a method change its caller's variables, and a formula too", () => {
    const project = compileProject([
      {
        path: 'Sources/Methods/increment.4dm',
        kind: 'method',
        text: '#DECLARE($target : Pointer; $by : Integer)\n$target->:=$target->+$by\n',
      },
      {
        path: 'Sources/Methods/caller.4dm',
        kind: 'method',
        text: `var $n : Integer
$n:=1
increment(->$n; 2)
$f:=Formula($1->:=$1->*10)
$f.call(Null; ->$n)
return $n
`,
      },
    ])
    const { classes, methods } = project.instantiate()
    expect(new Runtime({ classes, methods }).method('caller', [])).toBe(30)
  })

  it('to a field or a table are what does not run here, by name', () => {
    const project = compileProject([
      {
        path: 'Sources/Methods/classic.4dm',
        kind: 'method',
        text: '$f:=->[Employee]name\n$t:=->[Employee]\n$x:=->$local\n',
      },
    ])
    expect(checkReport(project.files).files[0]!.notRunnable.map((p) => p.name)).toEqual([
      'A pointer to a field',
      'A pointer to a table',
    ])
  })
})
