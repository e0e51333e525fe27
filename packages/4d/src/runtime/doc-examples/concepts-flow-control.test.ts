// docs/Concepts/flow-control.md, cf_branching.md and cf_looping.md: If, Case of, While, Repeat,
// For (its start, end and step evaluated once, a counter changed inside), For each over
// collections and objects with begin/end and Until/While, return, break and continue. The pages'
// ALERTs become a text the check returns.
import { page, type Check } from './doc.fixture.js'

type Row = readonly [name: string, code: string, expected: unknown]
const rows = (table: readonly (Row | Check)[]): Check[] =>
  table.map((r) => (Array.isArray(r) ? { name: r[0], code: r[1], expected: r[2] } : (r as Check)))

/** cf_branching.md's `Case of` on vResult and its nested-`If` twin, for one value. */
const caseOf = (v: number, alert: string): Check[] => [
  {
    name: `Case of, vResult=${v}`,
    code: `vResult:=${v}
Case of
  :(vResult=1)
    $alert:="One."
  :(vResult=2)
    $alert:="Two."
  :(vResult=3)
    $alert:="Three."
  Else
    $alert:="It was not one, two, or three."
End case
return $alert`,
    expected: alert,
  },
  {
    name: `If…Else nested, vResult=${v}`,
    code: `vResult:=${v}
If(vResult=1)
  $alert:="One."
Else
  If(vResult=2)
    $alert:="Two."
  Else
    If(vResult=3)
      $alert:="Three."
    Else
      $alert:="It was not one, two, or three."
    End if
  End if
End if
return $alert`,
    expected: alert,
  },
]

page('cf_branching.md: If…Else…End if, Case of…Else…End case', [
  caseOf(1, 'One.'),
  caseOf(2, 'Two.'),
  caseOf(3, 'Three.'),
  caseOf(7, 'It was not one, two, or three.'),
  rows([
    ['If without Else, False', '$r:="none"\nIf(1=2)\n$r:="then"\nEnd if\nreturn $r', 'none'],
    [
      'If with an empty then branch',
      'var $r : Text\nIf(True)\nElse\n$r:="else"\nEnd if\nreturn $r',
      '',
    ],
    ['If with an empty Else', 'var $r : Text\nIf(False)\n$r:="then"\nElse\nEnd if\nreturn $r', ''],
    {
      name: 'the Boolean expression is fully evaluated: MethodB runs though MethodA is False',
      code: 'calls:=0\nIf(MethodA & MethodB)\nEnd if\nreturn calls',
      expected: 2,
      options: {
        methods: { MethodA: 'calls:=calls+1\n$0:=False', MethodB: 'calls:=calls+1\n$0:=True' },
      },
    },
    [
      'only the first true case runs',
      'vResult:=1\nvCondition:=3\nCase of\n:(vResult=1)\n$r:="first"\n:((vResult=1) & (vCondition#2))\n$r:="never"\nEnd case\nreturn $r',
      'first',
    ],
    [
      'the hierarchical case written first',
      'vResult:=1\nvCondition:=3\nCase of\n:((vResult=1) & (vCondition#2))\n$r:="detected"\n:(vResult=1)\n$r:="second"\nEnd case\nreturn $r',
      'detected',
    ],
    ['Case of with Else alone', 'Case of\nElse\n$r:="else"\nEnd case\nreturn $r', 'else'],
    [
      'Case of, no true case and no Else',
      '$r:="kept"\nCase of\n:(False)\n$r:="a"\n:(1=2)\n$r:="b"\nEnd case\nreturn $r',
      'kept',
    ],
    [
      'an empty case stops the search',
      '$r:="kept"\nCase of\n:(True)\n:(True)\n$r:="second"\nElse\n$r:="else"\nEnd case\nreturn $r',
      'kept',
    ],
  ]),
])

page('cf_looping.md: While, Repeat, For', [
  rows([
    [
      'While: 100 iterations',
      'var $n : Integer\n$i:=1\nWhile($i<=100)\n$n:=$n+1\n$i:=$i+1\nEnd while\nreturn $n',
      100,
    ],
    ['While False at once: no pass', '$n:=0\nWhile(False)\n$n:=$n+1\nEnd while\nreturn $n', 0],
    ['Repeat runs once before its test', '$n:=0\nRepeat\n$n:=$n+1\nUntil(True)\nreturn $n', 1],
    [
      'Repeat…Until($i=100) from 1: 99 passes',
      'var $n : Integer\n$i:=1\nRepeat\n$n:=$n+1\n$i:=$i+1\nUntil($i=100)\nreturn $n',
      99,
    ],
    [
      'For: 100 iterations',
      'var $n : Integer\nFor(vCounter;1;100)\n$n:=$n+1\nEnd for\nreturn $n',
      100,
    ],
    ['For: the counter after the loop', 'For($i;1;100)\nEnd for\nreturn $i', 101],
    [
      'For: start equals end, one pass',
      'var $n : Integer\nFor($i;5;5)\n$n:=$n+1\nEnd for\nreturn $n',
      1,
    ],
    [
      'For: start above end, no pass',
      'var $n : Integer\nFor($i;6;5)\n$n:=$n+1\nEnd for\nreturn $n',
      0,
    ],
    [
      'For decrementing: 100 iterations',
      'var $n : Integer\nFor(vCounter;100;1;-1)\n$n:=$n+1\nEnd for\nreturn $n',
      100,
    ],
    [
      'For decrementing: the order',
      '$c:=[]\nFor($i;3;1;-1)\n$c.push($i)\nEnd for\nreturn $c',
      [3, 2, 1],
    ],
    [
      'For by 2: the even elements',
      '$c:=[]\nFor($vlElem;2;10;2)\n$c.push($vlElem)\nEnd for\nreturn $c',
      [2, 4, 6, 8, 10],
    ],
    [
      'For: the characters of a text, a Tab found',
      'var $n : Integer\nvtSomeText:="a"+Char(Tab)+"b"+Char(Tab)\nFor($vlChar;1;Length(vtSomeText))\nIf(Character code(vtSomeText[[$vlChar]])=Tab)\n$n:=$n+1\nEnd if\nEnd for\nreturn $n',
      2,
    ],
    [
      'For backwards through a text',
      'var $r : Text\nvtSomeText:="abc"\nFor($vlChar;Length(vtSomeText);1;-1)\n$r:=$r+vtSomeText[[$vlChar]]\nEnd for\nreturn $r',
      'cba',
    ],
    [
      'For: the end expression is evaluated once',
      'var $n : Integer\n$end:=3\nFor($i;1;$end)\n$end:=10\n$n:=$n+1\nEnd for\nreturn $n',
      3,
    ],
    [
      'For: changing the counter inside affects the loop',
      'var $n : Integer\nFor($i;1;10)\n$n:=$n+1\n$i:=$i+1\nEnd for\nreturn $n',
      5,
    ],
    [
      'nested For loops',
      'var $n : Integer\nFor($i;1;3)\nFor($j;1;4)\n$n:=$n+1\nEnd for\nEnd for\nreturn $n',
      12,
    ],
    [
      'For with a C_LONGINT counter',
      'var $n : Integer\nC_LONGINT($vlCounter)\nFor($vlCounter;1;10000)\n$n:=$n+1\nEnd for\nreturn $n',
      10000,
    ],
  ]),
])

const NUMS = '$nums:=New collection(10;5001;6665;33;1;42;7850)'
const STATS = `C_LONGINT($item;$vEven;$vOdd;$vUnder;$vOver)
For each($item;$nums)
  If($item%2=0)
    $vEven:=$vEven+1
  Else
    $vOdd:=$vOdd+1
  End if
  Case of
    :($item<5000)
      $vUnder:=$vUnder+1
    :($item>6000)
      $vOver:=$vOver+1
  End case
End for each`
const BOUNDS = `$col:=New collection("a";"b";"c";"d";"e")
$col2:=New collection(1;2;3)
C_TEXT($item)
For each($item;$col;0;3)
  $col2.push($item)
End for each`

page('cf_looping.md: For each…End for each', [
  rows([
    ['statistics: $vEven', `${NUMS}\n${STATS}\nreturn $vEven`, 3],
    ['statistics: $vOdd', `${NUMS}\n${STATS}\nreturn $vOdd`, 4],
    ['statistics: $vUnder', `${NUMS}\n${STATS}\nreturn $vUnder`, 4],
    ['statistics: $vOver', `${NUMS}\n${STATS}\nreturn $vOver`, 2],
    [
      'object properties to uppercase',
      'vObject:={firstname: "gregory"; lastname: "badikora"; age: 20}\nFor each(property;vObject)\nIf(Value type(vObject[property])=Is text)\nvObject[property]:=Uppercase(vObject[property])\nEnd if\nEnd for each\nreturn vObject',
      { firstname: 'GREGORY', lastname: 'BADIKORA', age: 20 },
    ],
    [
      'object properties in their order of creation',
      '$o:=New object("z";1;"a";2;"m";3)\n$k:=""\nFor each($p;$o)\n$k:=$k+$p\nEnd for each\nreturn $k',
      'zam',
    ],
    [
      'properties added during the loop do not add passes',
      'var $n : Integer\n$o:=New object("a";1;"b";2)\nFor each($p;$o)\n$o[$p+"x"]:=0\n$n:=$n+1\nEnd for each\nreturn $n',
      2,
    ],
    ['begin 0, end 3', `${BOUNDS}\nreturn $col2`, [1, 2, 3, 'a', 'b', 'c']],
    [
      'begin -2, end -1',
      `${BOUNDS}\nFor each($item;$col;-2;-1)\n$col2.push($item)\nEnd for each\nreturn $col2`,
      [1, 2, 3, 'a', 'b', 'c', 'd'],
    ],
    [
      'begin -4, end -2 of ten elements: #6 and #7',
      '$c:=[0;1;2;3;4;5;6;7;8;9]\n$r:=[]\nFor each($v;$c;-4;-2)\n$r.push($v)\nEnd for each\nreturn $r',
      [6, 7],
    ],
    [
      'a negative begin past the start counts from 0',
      '$r:=[]\nFor each($v;[1;2;3];-10)\n$r.push($v)\nEnd for each\nreturn $r',
      [1, 2, 3],
    ],
    [
      'an end past the size stops at the last',
      '$r:=[]\nFor each($v;[1;2;3];1;50)\n$r.push($v)\nEnd for each\nreturn $r',
      [2, 3],
    ],
    [
      'begin and end are ignored on objects',
      '$k:=""\nFor each($p;{a: 1; b: 2; c: 3};1;2)\n$k:=$k+$p\nEnd for each\nreturn $k',
      'abc',
    ],
    [
      'While, tested at the beginning: 36',
      '$colNum:=New collection(1;2;3;4;5;6;7;8;9;10)\n$total:=0\nFor each($num;$colNum)While($total<30)\n$total:=$total+$num\nEnd for each\nreturn $total',
      36,
    ],
    [
      'Until, tested at the end: 1001',
      '$colNum:=New collection(1;2;3;4;5;6;7;8;9;10)\n$total:=1000\nFor each($num;$colNum)Until($total>30)\n$total:=$total+$num\nEnd for each\nreturn $total',
      1001,
    ],
    [
      'an object item modifies the collection element',
      '$c:=[{v: 1}; {v: 2}]\nFor each($o;$c)\n$o.v:=$o.v*10\nEnd for each\nreturn $c',
      [{ v: 10 }, { v: 20 }],
    ],
    [
      'a scalar item does not modify the collection',
      '$c:=[1;2]\nFor each($v;$c)\n$v:=$v*10\nEnd for each\nreturn $c',
      [1, 2],
    ],
    [
      'the number of loops is fixed at startup',
      'var $n : Integer\n$c:=[1;2;3]\nFor each($v;$c)\n$n:=$n+1\nIf($n=1)\n$c.push(4)\nEnd if\nEnd for each\nreturn $n',
      3,
    ],
    [
      'an empty collection: no pass',
      '$n:=0\nFor each($v;[])\n$n:=$n+1\nEnd for each\nreturn $n',
      0,
    ],
  ]),
])

page('flow-control.md: return, break, continue', [
  rows([
    [
      'return stops the loop and the method',
      'var $message : Text\nvar $i : Integer\nWhile(True)\n$i:=$i+1\n$message+=String($i)+"A\\r"\nIf($i=5)\nreturn $message\nEnd if\n$message+=String($i)+"B\\r"\nEnd while\n$message+=String($i)+"C\\r"\nreturn $message',
      '1A\r1B\r2A\r2B\r3A\r3B\r4A\r4B\r5A\r',
    ],
    [
      'return without a value ends a method',
      'var $r : Text\n$r:="before"\nreturn\n$r:="after"',
      undefined,
    ],
    [
      'continue skips the rest of the pass',
      'var $text : Text\nFor($i;0;9)\nIf($i=3)\ncontinue\nEnd if\n$text:=$text+String($i)\nEnd for\nreturn $text',
      '012456789',
    ],
    [
      'break leaves a For',
      'var $n : Integer\nFor($i;1;100)\nIf($i=4)\nbreak\nEnd if\n$n:=$n+1\nEnd for\nreturn String($n)+"/"+String($i)',
      '3/4',
    ],
    [
      'break leaves a While',
      '$i:=0\nWhile(True)\n$i:=$i+1\nIf($i>=7)\nbreak\nEnd if\nEnd while\nreturn $i',
      7,
    ],
    [
      'break leaves a Repeat',
      '$i:=0\nRepeat\n$i:=$i+1\nIf($i=2)\nbreak\nEnd if\nUntil($i=10)\nreturn $i',
      2,
    ],
    [
      'break in For each',
      '$t:=""\nFor each($w;["a";"b";"stop";"c"])\nIf($w="stop")\nbreak\nEnd if\n$t:=$t+$w\nEnd for each\nreturn $t',
      'ab',
    ],
    [
      'continue in For each',
      '$t:=""\nFor each($w;["a";"";"b"])\nIf($w="")\ncontinue\nEnd if\n$t:=$t+$w\nEnd for each\nreturn $t',
      'ab',
    ],
    [
      'continue in a While',
      'var $t : Text\n$i:=0\nWhile($i<6)\n$i:=$i+1\nIf($i%2=0)\ncontinue\nEnd if\n$t:=$t+String($i)\nEnd while\nreturn $t',
      '135',
    ],
    [
      'break leaves the inner loop only',
      'var $n : Integer\nFor($i;1;3)\nFor($j;1;10)\nIf($j=2)\nbreak\nEnd if\n$n:=$n+1\nEnd for\nEnd for\nreturn $n',
      3,
    ],
    [
      'return inside a For each returns its value',
      'For each($v;[3;8;12])\nIf($v>5)\nreturn $v\nEnd if\nEnd for each\nreturn -1',
      8,
    ],
  ]),
])
