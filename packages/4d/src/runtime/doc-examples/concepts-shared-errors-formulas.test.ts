// docs/Concepts/shared.md (New shared object/collection, Use…End use, shared groups),
// error-handling.md with docs/commands/throw.md and last-errors.md (Try…Catch, Try(), throw,
// Last errors), and docs/API/FunctionClass.md with the Formula and Formula from string commands
// (call, apply, source, the locals a formula copies, This).
import type { Check } from './doc.fixture.js'
import { page } from './doc.fixture.js'

type Row = readonly [name: string, code: string, expected: unknown]
const rows = (table: readonly (Row | Check)[]): Check[] =>
  table.map((r) => (Array.isArray(r) ? { name: r[0], code: r[1], expected: r[2] } : (r as Check)))

page('shared.md: shared objects and collections', [
  rows([
    [
      'New shared object is shared',
      '$s_obj:=New shared object("prop1";"alpha")\nreturn OB Is shared($s_obj)',
      true,
    ],
    [
      'New shared collection is shared',
      '$c:=New shared collection(1;2)\nreturn OB Is shared($c)',
      true,
    ],
    ['New object is not shared', 'return OB Is shared(New object)', false],
    [
      'Use…End use: a property written',
      '$s_obj:=New shared object("prop1";"alpha")\nUse($s_obj)\n$s_obj.prop1:="omega"\nEnd use\nreturn $s_obj.prop1',
      'omega',
    ],
    [
      'Use…End use on a collection',
      '$c:=New shared collection()\nUse($c)\n$c.push("a";"b")\nEnd use\nreturn $c',
      ['a', 'b'],
    ],
    ['reading a shared object needs no Use', '$s:=New shared object("a";1)\nreturn $s.a', 1],
    [
      'a shared object put in a shared object stays shared (shared group)',
      '$ob1:=New shared object\n$ob2:=New shared object\nUse($ob1)\n$ob1.a:=$ob2\nEnd use\nreturn OB Is shared($ob1.a)',
      true,
    ],
    [
      'a shared object keeps the reference',
      '$ob1:=New shared object\n$ob2:=New shared object("v";1)\nUse($ob1)\n$ob1.a:=$ob2\nEnd use\nUse($ob2)\n$ob2.v:=2\nEnd use\nreturn $ob1.a.v',
      2,
    ],

    [
      'OB Copy(…;ck shared) makes a shared copy',
      '$o:=OB Copy(New object("a";1);ck shared)\nreturn OB Is shared($o)',
      true,
    ],
    [
      '.copy(ck shared) of a collection',
      '$c:=New collection(1;2).copy(ck shared)\nreturn OB Is shared($c)',
      true,
    ],
    [
      'OB Copy of a shared object is not shared',
      '$s:=New shared object("a";1)\nreturn OB Is shared(OB Copy($s))',
      false,
    ],
    ['Storage is shared', 'return OB Is shared(Storage)', true],
    [
      'Storage keeps what Use puts',
      'Use(Storage)\nStorage.counters:=New shared object("c";1)\nEnd use\nreturn Storage.counters.c',
      1,
    ],
    [
      "a shared collection's filter() is shared",
      '$c:=New shared collection(1;2;3)\nreturn OB Is shared($c.filter(Formula($1.value>1)))',
      true,
    ],
    [
      'a shared collection of objects',
      '$c:=New shared collection(New shared object("a";1))\nreturn $c[0].a',
      1,
    ],
  ]),
])

page('error-handling.md, throw.md, last-errors.md: Try, Catch, throw, Last errors', [
  rows([
    [
      'Try…Catch: the Catch runs on an error',
      '$r:="none"\nTry\n$x:=1/0\n$o:=Null\n$o.a:=1\n$r:="not reached"\nCatch\n$r:="caught"\nEnd try\nreturn $r',
      'caught',
    ],
    [
      'Try…Catch: no error, no Catch',
      '$r:="none"\nTry\n$r:="ok"\nCatch\n$r:="caught"\nEnd try\nreturn $r',
      'ok',
    ],
    [
      'Last errors in the Catch',
      'Try\nthrow({errCode: 1; message: "This is my error"})\nCatch\n$e:=Last errors\nEnd try\nreturn $e[0].message',
      'This is my error',
    ],
    [
      'Last errors: errCode',
      'Try\nthrow({errCode: 50042; message: "bad"})\nCatch\n$e:=Last errors\nEnd try\nreturn $e[0].errCode',
      50042,
    ],
    [
      'throw(code; description)',
      'Try\nthrow(50042;"Some error")\nCatch\n$e:=Last errors\nEnd try\nreturn String($e[0].errCode)+" "+$e[0].message',
      '50042 Some error',
    ],
    [
      'throw with a {placeholder}',
      'Try\nthrow({errCode: 2; message: "The file {name} is missing"; name: "a.txt"})\nCatch\n$m:=Last errors[0].message\nEnd try\nreturn $m',
      'The file a.txt is missing',
    ],
    [
      'throw without message: Error code',
      'Try\nthrow({errCode: 1})\nCatch\n$m:=Last errors[0].message\nEnd try\nreturn $m',
      'Error code: 1 (host)',
    ],
    [
      'the statements after the error are not run',
      '$n:=0\nTry\n$n:=1\nthrow(5;"x")\n$n:=2\nCatch\nEnd try\nreturn $n',
      1,
    ],
    ['Try(): the value when no error', 'return Try(1+1)', 2],
    [
      'Try(): Undefined on an error',
      '$r:=Try(JSON Parse("{\'invalid\':4D}"))\nreturn Value type($r)',
      5,
    ],
    [
      'Try(): Last errors after an error',
      '$r:=Try(JSON Parse("{\'invalid\':4D}"))\nreturn Last errors.length>0',
      true,
    ],
    ['Try(): Last errors is Null when no error', '$r:=Try(1+1)\nreturn Last errors=Null', true],
    [
      'a nested Try: the inner Catch',
      '$r:=""\nTry\nTry\nthrow(1;"in")\nCatch\n$r:="inner"\nEnd try\nCatch\n$r:="outer"\nEnd try\nreturn $r',
      'inner',
    ],
    [
      "an error in a called method is caught by the caller's Try",
      'Try\nfails\nCatch\n$r:=Last errors[0].message\nEnd try\nreturn $r',
      'from the method',
    ],
    [
      'division by zero with \\ is an error',
      'Try\n$x:=5\\0\nCatch\n$r:="caught"\nEnd try\nreturn $r',
      'caught',
    ],
    [
      'a member of Null written is an error',
      'var $o : Object\nTry\n$o.a:=1\nCatch\n$r:="caught"\nEnd try\nreturn $r',
      'caught',
    ],
  ]).map((c) => ({ ...c, options: { methods: { fails: 'throw(3;"from the method")' } } })),
  {
    name: 'throw outside Try: the error stops the method',
    code: 'throw(50042;"Some error")\nreturn 1',
    error: { errCode: 50042, contains: 'Some error' },
  },
  {
    name: 'an unknown member function',
    code: '$o:=New object\nreturn $o.nothing()',
    error: { errCode: -10729 },
  },
])

page('FunctionClass.md, Formula, Formula from string', [
  rows([
    [
      'Formula from string',
      '$f:=Formula from string("Uppercase($1)")\nreturn $f.call(Null;"abc")',
      'ABC',
    ],
    ['Formula from string: .source', '$f:=Formula from string("1+2")\nreturn $f.source', '1+2'],
    ['Formula from string: its value', 'return Formula from string("2*21").call()', 42],
  ]),
  rows([
    [
      'call with Null as This and a parameter',
      'var $f : 4D.Function\n$f:=Formula(Uppercase($1))\nreturn $f.call(Null;"hello")',
      'HELLO',
    ],
    [
      'apply with a collection of parameters',
      '$f:=Formula($1+$2+$3)\n$c:=New collection(10;20;30)\nreturn $f.apply(Null;$c)',
      60,
    ],
    [
      'call with This',
      '$o:=New object("value";50)\n$f:=Formula(This.value*2)\nreturn $f.call($o)',
      100,
    ],
    [
      'apply with This',
      '$o:=New object("value";50)\n$f:=Formula(This.value*2)\nreturn $f.apply($o)',
      100,
    ],
    [
      'a formula in an object: three ways to call it (call)',
      '$f:=Formula(1+2)\n$o:=New object("myFormula";$f)\nreturn $f.call($o)',
      3,
    ],
    [
      'a formula in an object: apply',
      '$f:=Formula(1+2)\n$o:=New object("myFormula";$f)\nreturn $f.apply($o)',
      3,
    ],
    [
      'a formula in an object: as a member function',
      '$f:=Formula(1+2)\n$o:=New object("myFormula";$f)\nreturn $o.myFormula()',
      3,
    ],
    [
      'a formula copies the locals it uses when made',
      '$value:=10\n$o:=New object("f";Formula($value))\n$value:=20\nreturn $o.f()',
      10,
    ],
    [
      'This is the object the formula is called on',
      '$o:=New object("fullName";Formula(This.firstName+" "+This.lastName))\n$o.firstName:="John"\n$o.lastName:="Smith"\nreturn $o.fullName()',
      'John Smith',
    ],
    [
      'a formula with parameters as a member',
      '$o:=New object("add";Formula($1+$2))\nreturn $o.add(3;4)',
      7,
    ],
    [
      '.source',
      '$of:=Formula(String(Current time;HH MM AM PM))\nreturn $of.source',
      'String(Current time;HH MM AM PM)',
    ],

    ['a formula over a method', '$f:=Formula(double)\nreturn $f.call(Null;21)', 42],
    ['Value type of a formula is an object', 'return Value type(Formula(1))', 38],
    ['OB Instance of 4D.Function', 'return OB Instance of(Formula(1);4D.Function)', true],
    [
      'a formula called with too few parameters reads Undefined',
      '$f:=Formula(Value type($2))\nreturn $f.call(Null;1)',
      5,
    ],
    [
      'a formula given to a collection function',
      'return New collection(1;2;3).map(Formula($1.value*10))',
      [10, 20, 30],
    ],
    [
      'a class function as a 4D.Function value',
      '$f:=cs.Calc.new().twice\nreturn $f.call(Null;4)',
      8,
    ],
  ]).map((c) => ({
    ...c,
    options: {
      methods: { double: '$0:=$1*2' },
      classes: { Calc: 'Function twice($x : Integer) : Integer\n  return $x*2' },
    },
  })),
])
