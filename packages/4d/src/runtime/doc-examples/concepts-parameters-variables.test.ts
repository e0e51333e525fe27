// docs/Concepts/parameters.md, methods.md and variables.md: #DECLARE and named parameters, $0/$1
// and ${n}, Count parameters, Copy parameters, variadic `...`, return, parameters not passed,
// values passed by value or by reference; var with types, initializers and default values.
import type { Check } from './doc.fixture.js'
import { page } from './doc.fixture.js'

type Methods = Readonly<Record<string, string>>

/** Checks of one method each, all with the same project methods. */
const withMethods = (
  methods: Methods,
  table: readonly (readonly [name: string, code: string, expected: unknown])[],
): Check[] =>
  table.map(([name, code, expected]) => ({ name, code, expected, options: { methods } }))

const METHODS: Methods = {
  getFullName: `#DECLARE($firstname : Text; $lastname : Text) -> $fullname : Text
$fullname:=$firstname+" "+Uppercase($lastname)`,
  square: `#DECLARE($x : Integer) : Integer
return $x*$x`,
  addSeq: `C_REAL($0;$1;$2)
$0:=$1+$2`,
  countThem: `$0:=Count parameters`,
  maxOf: `C_REAL($0)
$0:=$1
For($i;2;Count parameters)
  If(\${$i}>$0)
    $0:=\${$i}
  End if
End for`,
  formatAll: `#DECLARE($format : Text; ... : Real) -> $result : Text
For($p;2;Count parameters)
  $result:=$result+String(\${$p};$format)+";"
End for`,
  sumNumbers: `#DECLARE(... : Real) : Real
var $number; $total : Real
For each ($number; Copy parameters)
  $total+=$number
End for each
return $total`,
  copyFrom2: `return Copy parameters(2)`,
  defaults: `#DECLARE($t : Text; $i : Integer; $d : Date; $b : Boolean; $o : Object; $c : Collection) -> $r : Text
$r:="["+$t+"]"+String($i)+String($d=!00-00-00!)+String($b)+String($o=Null)+String($c=Null)`,
  changeScalar: `#DECLARE($t : Text)
$t:="changed"`,
  changeObject: `#DECLARE($o : Object)
$o.name:="changed"`,
  replaceObject: `#DECLARE($o : Object)
$o:={name: "new"}`,
  early: `#DECLARE($x : Integer) -> $r : Text
$r:="start"
If($x>0)
  return "positive"
End if
$r:="end"`,
  noReturn: `#DECLARE($x : Integer) -> $r : Integer
$r:=$x*2
return`,
  typed: `#DECLARE($i : Integer) -> $r : Text
$r:=String($i)`,
  recursive: `#DECLARE($n : Integer) -> $r : Integer
If($n<=1)
  $r:=1
Else
  $r:=$n*recursive($n-1)
End if`,
  dollar0: `$0:=Uppercase($1)`,
  setOut: `C_POINTER($1)
$1->:="set"`,
  nothing: `$x:=1`,
}

page('parameters.md and methods.md', [
  withMethods(METHODS, [
    [
      '#DECLARE with named parameters and a result',
      'return getFullName("Ada";"Lovelace")',
      'Ada LOVELACE',
    ],
    ['#DECLARE with : Type and return', 'return square(7)', 49],
    ['$0, $1, $2', 'return addSeq(2;3)', 5],
    ['Count parameters: none', 'return countThem', 0],
    ['Count parameters: three', 'return countThem(1;"a";True)', 3],
    ['${$i}: the largest parameter', 'return maxOf(3;9;2;7)', 9],
    ['variadic parameters after a named one', 'return formatAll("##0.00";1.5;2)', '1.50;2.00;'],
    ['Copy parameters in For each', 'return sumNumbers(1;2;3;4)', 10],
    ['Copy parameters with no parameter', 'return sumNumbers', 0],
    ['Copy parameters(startFrom)', 'return copyFrom2("a";"b";"c")', ['b', 'c']],
    ["parameters not passed get their type's default", 'return defaults', '[]0TrueFalseTrueTrue'],
    ['a scalar is passed by value', '$t:="kept"\nchangeScalar($t)\nreturn $t', 'kept'],
    [
      'an object is passed by reference',
      '$o:={name: "old"}\nchangeObject($o)\nreturn $o.name',
      'changed',
    ],
    [
      "assigning the parameter does not change the caller's object",
      '$o:={name: "old"}\nreplaceObject($o)\nreturn $o.name',
      'old',
    ],
    ['return with a value ends the method', 'return early(1)', 'positive'],
    ['the result when return is not reached', 'return early(-1)', 'end'],
    ['return without a value returns $r', 'return noReturn(21)', 42],
    ['a recursive method', 'return recursive(5)', 120],
    ['$0 from $1', 'return dollar0("abc")', 'ABC'],
    ['a method called without parentheses', 'nothing\nreturn "ok"', 'ok'],
    ['a method called as a function in an expression', 'return square(3)+square(4)', 25],
  ]),
  {
    name: 'a parameter of the wrong type: an error when the method is called',
    code: 'return typed("abc")',
    error: { errCode: 54 },
    options: { methods: METHODS },
  },
  {
    name: 'an unknown method',
    code: 'return noSuchMethod(1)',
    error: { errCode: -10508, contains: 'noSuchMethod' },
  },
  {
    name: "a pointer parameter: the method sets the caller's variable",
    code: '$t:=""\nsetOut(->$t)\nreturn $t',
    expected: 'set',
    options: { methods: METHODS },
  },
])

const rows = (
  table: readonly (readonly [name: string, code: string, expected: unknown])[],
): Check[] => table.map(([name, code, expected]) => ({ name, code, expected }))

page('variables.md: var, types, initializers, default values', [
  rows([
    ['var Text defaults to ""', 'var $t : Text\nreturn $t', ''],
    ['var Integer defaults to 0', 'var $i : Integer\nreturn $i', 0],
    ['var Real defaults to 0', 'var $r : Real\nreturn $r', 0],
    ['var Boolean defaults to False', 'var $b : Boolean\nreturn $b', false],
    ['var Date defaults to the null date', 'var $d : Date\nreturn $d', '0000-00-00'],
    ['var Time defaults to 00:00:00', 'var $h : Time\nreturn $h', '00:00:00'],
    ['var Object defaults to Null', 'var $o : Object\nreturn $o=Null', true],
    ['var Collection defaults to Null', 'var $c : Collection\nreturn $c=Null', true],
    ['var Variant defaults to Undefined', 'var $v : Variant\nreturn Value type($v)', 5],
    ['several variables of one type', 'var $a; $b; $c : Integer\n$a:=1\n$b:=2\nreturn $a+$b+$c', 3],
    ['var with an initializer', 'var $a : Text := "hello"\nreturn $a', 'hello'],
    ['var with an initializer, a date', 'var $d : Date := !2023-09-08!\nreturn $d', '2023-09-08'],
    ['the type inferred from a text', 'var $text:="hello"\nreturn Value type($text)', 2],
    ['the type inferred from a number: Real', 'var $n:=10\nreturn Value type($n)', 1],
    ['the type inferred from a collection literal', 'var $c:=[1;2]\nreturn Value type($c)', 42],
    ['the type inferred from an object literal', 'var $o:={a: 1}\nreturn Value type($o)', 38],
    ['var of a class type', 'var $f : 4D.Function\n$f:=Formula(1+1)\nreturn $f.call()', 2],
    ['an Integer variable rounds a Real', 'var $i : Integer\n$i:=3.7\nreturn $i', 4],
    [
      'an Integer variable takes a Time in seconds',
      'var $i : Integer\n$i:=?01:00:00?\nreturn $i',
      3600,
    ],
    ['C_TEXT then assignment', 'C_TEXT($t)\n$t:="x"\nreturn $t', 'x'],
    ['C_LONGINT of several variables', 'C_LONGINT($a;$b)\nreturn $a+$b', 0],
    ['an interprocess-free process variable', 'vName:="Smith"\nreturn vName', 'Smith'],
    ['a variable assigned by :=', '$MyNumber:=3\nreturn $MyNumber', 3],
    [
      'a date variable assigned by a command',
      '$MyDate:=Add to date(!2023-01-31!;0;1;0)\nreturn Month of($MyDate)',
      3,
    ],
  ]),
  {
    name: 'a Text variable refuses a number',
    code: 'var $t : Text\n$t:=12\nreturn $t',
    error: { errCode: 54 },
  },
  {
    name: 'a Text variable refuses Null',
    code: 'var $t : Text\n$t:=Null\nreturn $t',
    error: { errCode: 54 },
  },
])
