// The Objects, JSON, Math and Language themes (docs/commands/*.md): the examples of OB Keys,
// OB Values, OB Entries, OB Copy, OB Get type, OB Is defined, OB Is empty, Value type,
// JSON Stringify, JSON Parse, Round, Trunc, Int, Dec, Mod, Abs, Num.
import { expr, page, steps, type Check } from './doc.fixture.js'

const rows = (table: readonly (readonly [string, unknown])[]): Check[] =>
  table.map(([e, v]) => expr(e, v))

page('Objects: OB Keys, OB Values, OB Entries, OB Copy, OB Get type, OB Is defined, OB Is empty', [
  steps(
    'OB Keys, OB Values, OB Entries',
    '$obj:=New object("name";"Smith";"age";42;"children";New collection("Harry";"Jane"))',
    [
      ['', 'OB Keys($obj)', ['name', 'age', 'children']],
      ['', 'OB Values($obj)', ['Smith', 42, ['Harry', 'Jane']]],
      [
        '',
        'OB Entries($obj)',
        [
          { key: 'name', value: 'Smith' },
          { key: 'age', value: 42 },
          { key: 'children', value: ['Harry', 'Jane'] },
        ],
      ],
    ],
  ),
  steps(
    'OB Copy is deep',
    '$o:=New object("a";New object("b";1))\n$copy:=OB Copy($o)\n$copy.a.b:=2',
    [
      ['', '$o.a.b', 1],
      ['', '$copy.a.b', 2],
      ['$ref:=$o\n$ref.a.b:=3', '$o.a.b', 3],
    ],
  ),
  steps('OB Get type', '$o:={t: "x"; n: 1; b: True; o: {}; c: []; z: Null}', [
    ['', 'OB Get type($o;"t")', 2],
    ['', 'OB Get type($o;"n")', 1],
    ['', 'OB Get type($o;"b")', 6],
    ['', 'OB Get type($o;"o")', 38],
    ['', 'OB Get type($o;"c")', 42],
    ['', 'OB Get type($o;"z")', 255],
    ['', 'OB Get type($o;"none")', 5],
  ]),
  steps('OB Is defined, OB Is empty, OB Get, OB SET, OB REMOVE', 'var $o : Object', [
    ['', 'OB Is defined($o)', false],
    ['', 'OB Is empty($o)', true],
    [
      'OB SET($o;"FirstName";"John";"LastName";"Smith")',
      '$o',
      { FirstName: 'John', LastName: 'Smith' },
    ],
    ['', 'OB Is defined($o;"FirstName")', true],
    ['', 'OB Is empty($o)', false],
    ['OB SET($o;"FirstName";"Paul")', 'OB Get($o;"FirstName")', 'Paul'],
    ['OB REMOVE($o;"LastName")', '$o', { FirstName: 'Paul' }],
    ['OB SET($o;"t";?01:00:00?)', '$o.t', 3600],
  ]),
  steps(
    'objects are references',
    '$Emp:=New object\n$Emp.city:="London"\n$Emp.city:="Paris"\n$Emp.phone:=New object("office";"123456789";"home";"0011223344")',
    [
      ['', '$Emp.city', 'Paris'],
      ['', '$Emp.phone.home', '0011223344'],
      ['$Emp["city"]:="Berlin"', '$Emp.city', 'Berlin'],
      [
        'For($i;1;4)\n$Emp["address"+String($i)]:=""\nEnd for',
        'OB Keys($Emp)',
        ['city', 'phone', 'address1', 'address2', 'address3', 'address4'],
      ],
    ],
  ),
  steps('object literals', '$toto:=False', [
    [
      '$o2:={a: "foo"; b: 42; c: {}; d: ($toto) ? True : False }',
      '$o2',
      { a: 'foo', b: 42, c: {}, d: false },
    ],
    ['$obFilled:=New object("name";"Smith";"age";42)', '$obFilled.age', 42],
  ]),
])

page('Language: Value type', [
  rows([
    ['Value type(1)', 1],
    ['Value type(1.5)', 1],
    ['Value type("a")', 2],
    ['Value type(!2020-01-01!)', 4],
    ['Value type($o.undefined)', 5],
    ['Value type(True)', 6],
    ['Value type(?01:00:00?)', 11],
    ['Value type({})', 38],
    ['Value type([])', 42],
    ['Value type(Null)', 255],
    ['Value type(New collection(1;"a";Null)[1])', 2],
    ['Value type(JSON Parse("{\\"a\\":1}").a)', 1],
    ['Value type(Formula(1))', 38],
  ]),
  steps(
    'Value type of typed variables',
    'var $i : Integer\nvar $r : Real\nvar $t : Text\nvar $v : Variant',
    [
      // Interpreted mode: every number is a Real (the page's table).
      ['', 'Value type($i)', 1],
      ['', 'Value type($r)', 1],
      ['', 'Value type($t)', 2],
      ['', 'Value type($v)', 5],
    ],
  ),
])

page('Language: Value type examples', [
  {
    name: 'numerical object properties are real',
    code: '$o:=New object("value";42)\nreturn Value type($o.value)=Is real',
    expected: true,
  },
  {
    name: 'example 2: sum of the numeric values',
    code: `var $sum : Real
$col:=New collection("Hello";20;"World2";15;50;Current date;True;10)
For($i;0;$col.length-1)
  If(Value type($col[$i])=Is real)
    $sum:=$sum+$col[$i]
  End if
End for
return String($sum)`,
    expected: '95',
  },
])

page('JSON: JSON Stringify, JSON Parse', [
  rows([
    ['JSON Stringify("Eureka!")', '"Eureka!"'],
    ['JSON Stringify(120)', '120'],
    ['JSON Stringify(1.5)', '1.5'],
    ['JSON Stringify(True)', 'true'],
    ['JSON Stringify(Null)', 'null'],
    [
      'JSON Stringify(New object("name";"Monroe";"firstname";"Alan"))',
      '{"name":"Monroe","firstname":"Alan"}',
    ],
    ['JSON Stringify(New collection(1;"a";True;Null))', '[1,"a",true,null]'],
    ['JSON Stringify({d: !2016-12-25!})', '{"d":"2016-12-25"}'],
    ['JSON Stringify("a\\"b\\\\c")', '"a\\"b\\\\c"'],
    ['JSON Parse("{\\"name\\":\\"Smith\\",\\"age\\":42}").age', 42],
    ['JSON Parse("[1,2,3]")', [1, 2, 3]],
    ['JSON Parse("42")', 42],
    ['JSON Parse("true")', true],
    ['JSON Parse("null")', null],
    ['JSON Parse("\\"text\\"")', 'text'],
    ['JSON Parse("\\"2016-12-25\\"";Is date)', '2016-12-25'],
    ['JSON Parse("12";Is text)', '12'],
    ['JSON Parse("{\\"a\\":{\\"b\\":[1,{\\"c\\":2}]}}").a.b[1].c', 2],
  ]),
  steps('round trip', '$o:={name: "Smith"; children: [{name: "Jane"; age: 5}]; ok: True}', [
    [
      '',
      'JSON Parse(JSON Stringify($o))',
      { name: 'Smith', children: [{ name: 'Jane', age: 5 }], ok: true },
    ],
    ['', 'JSON Stringify(JSON Parse(JSON Stringify($o)))=JSON Stringify($o)', true],
  ]),
  {
    name: 'JSON Parse of invalid JSON is an error',
    code: 'return JSON Parse("{a:")',
    error: { errCode: 9415 },
  },
])

page('Math: Round, Trunc, Int, Dec, Mod, Abs; Num', [
  rows([
    ['Round(16.857;2)', 16.86],
    ['Round(32345.67;-3)', 32000],
    ['Round(29.8725;3)', 29.873],
    ['Round(-1.5;0)', -2],
    ['Round(1.5;0)', 2],
    ['Trunc(216.897;1)', 216.8],
    ['Trunc(216.897;-1)', 210],
    ['Trunc(-216.897;1)', -216.9],
    ['Trunc(-216.897;-1)', -220],
    ['Int(123.4)', 123],
    ['Int(-123.4)', -124],
    ['Mod(3;2)', 1],
    ['Mod(4;2)', 0],
    ['Mod(3.5;2)', 0],
    ['Mod(-7;3)', -1],
    ['Abs(-10.3)', 10.3],
    ['Abs(10.3)', 10.3],
    ['Num("ABCD")', 0],
    ['Num("A1B2C3")', 123],
    ['Num("123")', 123],
    ['Num("123.4")', 123.4],
    ['Num("-123")', -123],
    ['Num("-123e2")', -12300],
    ['Num(True)', 1],
    ['Num(False)', 0],
    ['Num("1,5";",")', 1.5],
    ['Num("ff";16)', 255],
    ['Num("0x1F";0)', 31],
    ['Num("1010";2)', 10],
    ['7 \\ 2', 3],
    ['-7 \\ 2', -4],
    ['Square root(16)', 4],
    ['2^0.5=Square root(2)', true],
  ]),
  { name: 'Dec(7.31) is 0.31', code: 'return Dec(7.31)', expected: 0.31, digits: 10 },
])
