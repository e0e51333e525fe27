// docs/Concepts/operators.md (compound assignments, short-circuit and ternary operators, truthy
// and falsy) and dt_null_undefined.md: each documented result a check.
import { expr, page, steps, type Check } from './doc.fixture.js'

const rows = (table: readonly (readonly [string, unknown])[]): Check[] =>
  table.map(([e, v]) => expr(e, v))

page('operators: assignment and compound assignment', [
  steps('assignment', '', [
    ['$myNumber:=3', '$myNumber', 3],
    ['$myDate:=!2018/01/21!', '$myDate', '2018-01-21'],
    ['$myLength:=Length("Acme")', '$myLength', 4],
    ['$col:=New collection', '$col', []],
  ]),
  steps('+=', '$a:=1', [['$a+=2', '$a', 3]]),
  steps('examples', '', [
    ['$x:=2\n$x+=5', '$x', 7],
    ['$t:="Hello"\n$t+=" World"', '$t', 'Hello World'],
    ['$d:=!2000-11-10!\n$d+=10', '$d', '2000-11-20'],
    ['$x1:=10\n$x1-=5', '$x1', 5],
    ['$d1:=!2000-11-10!\n$d1-=10', '$d1', '2000-10-31'],
    ['$x3:=10\n$x3/=2', '$x3', 5],
    // The page says 10: a typo for 10*5 (compat.md).
    ['$x2:=10\n$x2*=5', '$x2', 50],
    ['$t2:="Hello"\n$t2*=2', '$t2', 'HelloHello'],
  ]),
  steps('Time += Time, Time += Number', '$t1:=?01:00:00?\n$t2:=?00:30:00?', [
    ['$t1+=$t2', '$t1', '01:30:00'],
    ['$t1-=$t2', '$t1', '01:00:00'],
    ['$t1+=5', '$t1', 3605],
  ]),
  steps('on properties and elements', '$o:={n: 1; c: [1; 2]}', [
    ['$o.n+=10', '$o.n', 11],
    ['$o.c[1]*=3', '$o.c', [1, 6]],
    ['$o["n"]-=1', '$o.n', 10],
  ]),
])

page('operators: short-circuit && and ||', [
  rows([
    ['"Hello" && "World"', 'World'],
    ['False && 0', false],
    ['0 && False', false],
    ['5 && !00-00-00!', '0000-00-00'],
    ['5 && 10 && "hello"', 'hello'],
    ['True || False', true],
    ['"" || "default"', 'default'],
    ['Null || 3', 3],
    ['0 || 3', 0],
    ['[] || "empty"', 'empty'],
    ['{} || "empty"', 'empty'],
    ['[1] && "full"', 'full'],
  ]),
  steps('$tax:=$item.taxRate && ($item.price*$item.taxRate)', '$item:={price: 100}', [
    ['$tax:=$item.taxRate && ($item.price*$item.taxRate)', '$tax', undefined],
    ['$item.taxRate:=0.2\n$tax:=$item.taxRate && ($item.price*$item.taxRate)', '$tax', 20],
  ]),
  steps('If(($myObject#Null) && ($myObject.value>10))', 'var $myObject : Object\n$r:="no"', [
    ['If(($myObject#Null) && ($myObject.value>10))\n$r:="yes"\nEnd if', '$r', 'no'],
    [
      '$myObject:={value: 11}\nIf(($myObject#Null) && ($myObject.value>10))\n$r:="yes"\nEnd if',
      '$r',
      'yes',
    ],
  ]),
  steps('$phone:=$emp.phone || "n/a"', 'var $phone : Text\n$emp:={}', [
    ['$phone:=$emp.phone || "n/a"', '$phone', 'n/a'],
    ['$emp.phone:="555"\n$phone:=$emp.phone || "n/a"', '$phone', '555'],
    ['$emp.phone:=Null\n$phone:=$emp.phone || "n/a"', '$phone', 'n/a'],
  ]),
  steps('$name:=$person.maidenName || $person.name', 'var $name : Text\n$person:={name: "Smith"}', [
    ['$name:=$person.maidenName || $person.name', '$name', 'Smith'],
    ['$person.maidenName:="Jones"\n$name:=$person.maidenName || $person.name', '$name', 'Jones'],
  ]),
  // "a || b && c is evaluated as (a || b) && c"
  expr('True || False && False', false),
  expr('(True || False) && False', false),
])

page('operators: ternary, truthy and falsy', [
  steps('$beverage', 'var $age : Integer\nvar $beverage : Text', [
    ['$age:=26\n$beverage:=($age>=21) ? "Beer" : "Juice"', '$beverage', 'Beer'],
    ['$age:=18\n$beverage:=($age>=21) ? "Beer" : "Juice"', '$beverage', 'Juice'],
  ]),
  steps('$fullname', 'var $fullname : Text\n$person:={}', [
    [
      '$fullname:=($person.firstname && $person.lastname) ? ($person.firstname+" "+$person.lastname) : ($person.lastname || $person.firstname) || ""',
      '$fullname',
      '',
    ],
    [
      '$person.lastname:="Doe"\n$fullname:=($person.firstname && $person.lastname) ? ($person.firstname+" "+$person.lastname) : ($person.lastname || $person.firstname) || ""',
      '$fullname',
      'Doe',
    ],
    [
      '$person.firstname:="John"\n$fullname:=($person.firstname && $person.lastname) ? ($person.firstname+" "+$person.lastname) : ($person.lastname || $person.firstname) || ""',
      '$fullname',
      'John Doe',
    ],
  ]),
  rows([
    ['False ? 1 : 2', 2],
    ['Null ? 1 : 2', 2],
    ['$undefined.x ? 1 : 2', 2],
    ['!00-00-00! ? 1 : 2', 2],
    ['"" ? 1 : 2', 2],
    ['[] ? 1 : 2', 2],
    ['{} ? 1 : 2', 2],
    ['0 ? 1 : 2', 1],
    ['"0" ? 1 : 2', 1],
    ['[0] ? 1 : 2', 1],
    ['{a: Null} ? 1 : 2', 1],
    ['!2020-01-01! ? 1 : 2', 1],
  ]),
])

const EMP = `var $vEmp : Object
$vEmp:=New object
$vEmp.name:="Smith"
$vEmp.children:=Null`

const VOBJ = `var $vObj : Object
var $vVar : Variant
$vObj:=New object
$vObj.null:=Null`

page('dt_null_undefined', [
  // The page's own form: `var $o : Object` holds Null, and `$o.a` is Undefined, no error.
  steps('assigning undefined clears', 'var $o : Object\nvar $val : Integer', [
    ['$val:=10', '$val', 10],
    ['$val:=$o.a', '$val', 0],
  ]),
  steps(
    'an undefined value to an existing property',
    '$o:=New object("a";2;"t";"x";"b";True;"c";[1];"d";!2020-01-01!)',
    [
      ['$o.a:=$o.z', '$o.a', 0],
      ['$o.t:=$o.z', '$o.t', ''],
      ['$o.b:=$o.z', '$o.b', false],
      ['$o.c:=$o.z', '$o.c', null],
      ['$o.d:=$o.z', '$o.d', '0000-00-00'],
      ['$o.new:=$o.z', 'OB Is defined($o;"new")', false],
    ],
  ),
  {
    name: 'an undefined parameter becomes "" for a Text',
    code: 'var $o : Object\nreturn mymethod($o.a)',
    options: {
      methods: { mymethod: '#DECLARE($myText : Text) -> $r : Text\n$r:="["+$myText+"]"' },
    },
    expected: '[]',
  },
  steps('a condition on undefined is false', 'var $o : Object\n$r:="none"', [
    ['If($o.a)\n$r:="if"\nEnd if', '$r', 'none'],
    ['Case of\n:($o.a)\n$r:="case"\nElse\n$r:="else"\nEnd case', '$r', 'else'],
  ]),
  steps('cast commands on undefined', 'var $o : Object', [
    ['', 'Lowercase(String($o.a.b))', ''],
    ['', 'Num($o.a)', 0],
    ['', 'Bool($o.a)', false],
    ['', 'Date($o.a)', '0000-00-00'],
    ['', 'Time($o.a)', '00:00:00'],
  ]),
  steps('Undefined and Null on properties', EMP, [
    ['', 'Undefined($vEmp.name)', false],
    ['', '$vEmp.name=Null', false],
    ['', 'Undefined($vEmp.children)', false],
    ['', '$vEmp.children=Null', true],
    ['', 'Undefined($vEmp.parent)', true],
    ['', '$vEmp.parent=Null', true],
  ]),
  steps('comparisons', VOBJ, [
    ['', '$vObj.undefined=42', false],
    ['', '$vObj.undefined=$vObj.null', true],
    ['', '$vObj.undefined=$vVar', true],
    ['', '$vObj.undefined#$vObj.null', false],
    ['', '$vObj.undefined#42', true],
    ['', '$vObj.undefined#$vVar', false],
    ['', '$vObj.undefined>"hello"', false],
    ['', '$vVar < 42', false],
    ['', '$vObj.null=$vObj.null', true],
    ['', '$vObj.null=42', false],
    ['', '$vObj.null#42', true],
    ['', '$vObj.null#$vObj.null', false],
    ['', '$vObj.undefined<="abc"', false],
    ['', '$vObj.undefined>=!2020-01-01!', false],
  ]),
  {
    name: 'Undefined > Variant is an error',
    code: `${VOBJ}\nreturn $vObj.undefined>$vVar`,
    error: { errCode: 54 },
  },
  {
    name: 'Undefined > Null is an error',
    code: `${VOBJ}\nreturn $vObj.undefined>$vObj.null`,
    error: { errCode: 54 },
  },
  { name: 'Null > 1 is an error', code: `${VOBJ}\nreturn $vObj.null>1`, error: { errCode: 54 } },
  {
    name: 'reading a property of a null property is Undefined',
    code: '$o:={n: Null}\nreturn Undefined($o.n.a)',
    expected: true,
  },
  {
    name: 'assigning a property of Null is an error',
    code: 'var $o : Object\n$o.a:=1\nreturn $o',
    error: { errCode: 9402 },
  },
  steps('default values', 'var $object : Object\nvar $text : Text\nvar $c : Collection', [
    ['', '$object=Null', true],
    ['', '$text', ''],
    ['', '$c.length', 0],
  ]),
])
