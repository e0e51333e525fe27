// docs/API/CollectionClass.md, New collection to .includes(): each documented result a check.
import { page, steps } from './doc.fixture.js'

const CITIES = `$c:=New collection
$c.push(New object("name";"Cleveland";"zc";35049))
$c.push(New object("name";"Blountsville";"zc";35031))
$c.push(New object("name";"Adger";"zc";35006))
$c.push(New object("name";"Clanton";"zc";35046))
$c.push(New object("name";"Clanton";"zc";35045))`

const SALARIES = `$col.push(New object("name";"Smith";"salary";10000))
$col.push(New object("name";"Wesson";"salary";50000))`

page('CollectionClass: New collection, New shared collection', [
  {
    name: 'New collection: []',
    code: 'var $myCol : Collection\n$myCol:=New collection\nreturn $myCol',
    expected: [],
  },
  steps('example 3', `var $coll : Collection\n$coll:=New collection("a";"b";"c")`, [
    ['', '$coll', ['a', 'b', 'c']],
    ['$coll[9]:="z"', '$coll.length', 10],
    ['', '$coll', ['a', 'b', 'c', null, null, null, null, null, null, 'z']],
  ]),
  {
    name: 'New shared collection: Use then assignment',
    code: `$mySharedCol:=New shared collection("alpha";"omega")
Use($mySharedCol)
  $mySharedCol[1]:="beta"
End use
return $mySharedCol`,
    expected: ['alpha', 'beta'],
  },
  {
    // The page: "otherwise an error is generated"; nothing to lock here (compat.md).
    name: 'New shared collection: assignment outside Use is not refused',
    code: `$s:=New shared collection("alpha")\n$s[0]:="beta"\nreturn $s`,
    expected: ['beta'],
  },
  {
    // The page says milliseconds, OB SET's page seconds (compat.md).
    name: 'a time in a collection is stored as a number (seconds)',
    code: 'return New collection(?01:00:00?)[0]',
    expected: 3600,
  },
])

page('CollectionClass: .at() .average() .clear() .combine() .concat()', [
  steps('.at()', '$col:=New collection(10; 20; 30; 40; 50)', [
    ['', '$col.at(0)', 10],
    ['', '$col.at(1)', 20],
    ['', '$col.at(-1)', 50],
    ['', '$col.at(-2)', 40],
    ['', '$col.at(10)', undefined],
  ]),
  steps('.average() example 1', '$col:=New collection(10;20;"Monday";True;6)', [
    ['', '$col.average()', 12],
  ]),
  steps(
    '.average() example 2',
    `$col:=New collection\n${SALARIES}\n$col.push(New object("name";"Gross";"salary";10500))`,
    [
      ['', '$col.average("salary")', 23500],
      ['', 'Value type(New collection.average())', 5],
      ['', 'Value type($col.average("nothing"))', 5],
    ],
  ),
  steps('.clear()', '$col:=New collection(1;2;5)', [['$col.clear()', '$col.length', 0]]),
  steps(
    '.combine()',
    '$c:=New collection(1;2;3;4;5;6)\n$fruits:=New collection("Orange";"Banana";"Apple";"Grape")',
    [
      ['$c.combine($fruits;3)', '$c', [1, 2, 3, 'Orange', 'Banana', 'Apple', 'Grape', 4, 5, 6]],
      ['', 'New collection(1;2).combine(New collection(3))', [1, 2, 3]],
      ['', 'New collection(1;2).combine(New collection(3);-1)', [1, 3, 2]],
      ['', 'New collection(1;2).combine(New collection(3);-10)', [3, 1, 2]],
      ['', 'New collection(1;2).combine(New collection(3);10)', [1, 2, 3]],
    ],
  ),
  steps(
    '.concat()',
    `$c:=New collection(1;2;3;4;5)
$fruits:=New collection("Orange";"Banana";"Apple";"Grape")
$fruits.push(New object("Intruder";"Tomato"))`,
    [
      [
        '',
        '$c.concat($fruits)',
        [1, 2, 3, 4, 5, 'Orange', 'Banana', 'Apple', 'Grape', { Intruder: 'Tomato' }],
      ],
      ['', '$c.concat(6;7;8)', [1, 2, 3, 4, 5, 6, 7, 8]],
      ['$c2:=$c.concat(6)', '$c.length', 5],
    ],
  ),
])

page('CollectionClass: .copy() .count() .countValues() .distinct() .equal()', [
  steps(
    '.copy() is deep',
    `$col:=New collection
$col.push(New object("alpha";"Hello";"num";1))
$col.push(New object("beta";"You"))
$col2:=$col.copy()
$col2[1].beta:="World!"`,
    [
      ['', '$col[0].alpha+" "+$col2[1].beta', 'Hello World!'],
      ['', '$col[1].beta', 'You'],
    ],
  ),
  {
    name: '.copy(ck shared) is a shared collection a shared object accepts',
    code: `$sharedObject:=New shared object
$lastnames:=JSON Parse("[\\"Smith\\",\\"Brown\\"]")
$sharedLastnames:=$lastnames.copy(ck shared)
Use($sharedObject)
  $sharedObject.lastnames:=$sharedLastnames
End use
return [OB Is shared($sharedLastnames); OB Is shared($lastnames); $sharedObject.lastnames]`,
    expected: [true, false, ['Smith', 'Brown']],
  },
  {
    name: '.copy(ck shared;$sharedColl2): same group, combine under Use',
    code: `$sharedColl1:=New shared collection(New shared object("lastname";"Smith"))
$sharedColl2:=New shared collection(New shared object("lastname";"Brown"))
$copyColl:=$sharedColl1.copy(ck shared;$sharedColl2)
Use($sharedColl2)
  $sharedColl2.combine($copyColl)
End use
return $sharedColl2.extract("lastname")`,
    expected: ['Brown', 'Smith'],
  },
  steps(
    '.count()',
    `$col:=New collection(20;30;Null;40)
$col.push(New object("name";"Smith";"salary";10000))
$col.push(New object("name";"Wesson";"salary";50000))
$col.push(New object("name";"Gross";"salary";10500))
$col.push(New object("lastName";"Henry";"salary";12000))`,
    [
      ['', '$col.count()', 7],
      ['', '$col.count("name")', 3],
    ],
  ),
  steps('.countValues() example 1', '$col:=New collection(1;2;5;5;5;3;6;4)', [
    ['', '$col.countValues(5)', 3],
  ]),
  steps(
    '.countValues() example 2',
    `$col:=New collection
$col.push(New object("name";"Smith";"age";5))
$col.push(New object("name";"Wesson";"age";2))
$col.push(New object("name";"Jones";"age";3))
$col.push(New object("name";"Henry";"age";4))
$col.push(New object("name";"Gross";"age";5))`,
    [['', '$col.countValues(5;"age")', 2]],
  ),
  steps(
    '.countValues() example 3',
    '$letters:=New collection("a";"b";"c")\n$numbers:=New collection(1;2;$letters;3;4;5)',
    [
      ['', '$numbers.countValues($letters)', 1],
      ['', '$numbers.countValues(New collection("a";"b";"c"))', 0],
    ],
  ),
  steps(
    '.distinct()',
    `$c:=New collection
$c.push("a";"b";"c";"A";"B";"c";"b";"b")
$c.push(New object("size";1))
$c.push(New object("size";3))
$c.push(New object("size";1))`,
    [
      ['', '$c.distinct()', ['a', 'b', 'c', { size: 1 }, { size: 3 }, { size: 1 }]],
      [
        '',
        '$c.distinct(ck diacritical)',
        ['a', 'A', 'b', 'B', 'c', { size: 1 }, { size: 3 }, { size: 1 }],
      ],
      ['', '$c.distinct("size")', [1, 3]],
      [
        '',
        '$c.distinct("size";ck count values)',
        [
          { value: 1, count: 2 },
          { value: 3, count: 1 },
        ],
      ],
      ['', 'New collection(3;Null;1;3).distinct()', [1, 3]],
    ],
  ),
  steps('.equal()', '', [
    [
      '$c:=New collection(New object("a";1;"b";"orange");2;3)\n$c2:=New collection(New object("a";1;"b";"orange");2;3;4)',
      '$c.equal($c2)',
      false,
    ],
    [
      '$c:=New collection(New object("1";"a";"b";"orange");2;3)\n$c2:=New collection(New object("a";1;"b";"orange");2;3)',
      '$c.equal($c2)',
      false,
    ],
    [
      '$c:=New collection(New object("a";1;"b";"orange");2;3)\n$c2:=New collection(New object("a";1;"b";"ORange");2;3)',
      '$c.equal($c2)',
      true,
    ],
    ['', '$c.equal($c2;ck diacritical)', false],
    ['', '[{a: Null}].equal([{}])', false],
  ]),
])

page('CollectionClass: .every() .extract() .fill() .filter()', [
  steps('.every() example 1', '$f:=Formula($1.value>0)\n$c:=New collection\n$c.push(5;3;1;4;6;2)', [
    ['', '$c.every($f)', true],
    ['$c.push(-1)', '$c.every($f)', false],
    ['', '$c.every(10;$f)', false],
    ['', '$c.every(-1;$f)', false],
  ]),
  steps(
    '.every() example 2',
    '$f:=Formula(Value type($1.value)=$2)\n$c:=New collection\n$c.push(5;3;1;4;6;2)',
    [
      ['', '$c.every($f;Is real)', true],
      ['$c:=$c.push(New object("name";"Cleveland";"zc";35049))', '$c.every($f;Is real)', false],
    ],
  ),
  steps(
    '.extract() example 1',
    `$c:=New collection
$c.push(New object("name";"Cleveland"))
$c.push(New object("zip";5321))
$c.push(New object("name";"Blountsville"))
$c.push(42)`,
    [
      ['', '$c.extract("name")', ['Cleveland', 'Blountsville']],
      ['', '$c.extract("name";ck keep null)', ['Cleveland', null, 'Blountsville', null]],
    ],
  ),
  steps(
    '.extract() example 2',
    `$c:=New collection
$c.push(New object("zc";35060))
$c.push(New object("name";Null;"zc";35049))
$c.push(New object("name";"Cleveland";"zc";35049))
$c.push(New object("name";"Blountsville";"zc";35031))
$c.push(New object("name";"Adger";"zc";35006))
$c.push(New object("name";"Clanton";"zc";35046))
$c.push(New object("name";"Clanton";"zc";35045))`,
    [
      [
        '',
        '$c.extract("name";"City")',
        [
          {},
          { City: null },
          { City: 'Cleveland' },
          { City: 'Blountsville' },
          { City: 'Adger' },
          { City: 'Clanton' },
          { City: 'Clanton' },
        ],
      ],
      [
        '',
        '$c.extract("name";"City";"zc";"Zip")',
        [
          { Zip: 35060 },
          { City: null, Zip: 35049 },
          { City: 'Cleveland', Zip: 35049 },
          { City: 'Blountsville', Zip: 35031 },
          { City: 'Adger', Zip: 35006 },
          { City: 'Clanton', Zip: 35046 },
          { City: 'Clanton', Zip: 35045 },
        ],
      ],
    ],
  ),
  steps('.fill()', '$c:=New collection(1;2;3;"Lemon";Null;"";4;5)', [
    ['$c.fill("2")', '$c', ['2', '2', '2', '2', '2', '2', '2', '2']],
    ['$c.fill("Hello";5)', '$c', ['2', '2', '2', '2', '2', 'Hello', 'Hello', 'Hello']],
    ['$c.fill(0;1;5)', '$c', ['2', 0, 0, 0, 0, 'Hello', 'Hello', 'Hello']],
    ['$c.fill("world";1;-5)', '$c', ['2', 'world', 'world', 0, 0, 'Hello', 'Hello', 'Hello']],
    ['$c.fill("x";5;2)', '$c[5]', 'Hello'],
  ]),
  {
    name: '.filter() example 1: texts shorter than 6',
    code: `$col:=New collection("hello";"world";"red horse";66;"tim";"san jose";"miami")
return $col.filter(Formula((Value type($1.value)=Is text) && (Length($1.value)<$2)); 6)`,
    expected: ['hello', 'world', 'tim', 'miami'],
  },
  steps(
    '.filter() example 2',
    `$f:=Formula(OB Get type($1;"value")=$2)
$c:=New collection(5;3;1;4;6;2)
$c.push(New object("name";"Cleveland";"zc";35049))
$c.push(New object("name";"Blountsville";"zc";35031))`,
    [
      ['', '$c.filter($f;Is real)', [5, 3, 1, 4, 6, 2]],
      [
        '',
        '$c.filter($f;Is object)',
        [
          { name: 'Cleveland', zc: 35049 },
          { name: 'Blountsville', zc: 35031 },
        ],
      ],
      ['$c3:=$c.filter($f;Is object)\n$c3[0].zc:=1', '$c[6].zc', 1],
    ],
  ),
  {
    name: '.filter() with a method name that sets $1.result',
    code: `return New collection(1;5;10).filter("Big";4)`,
    options: {
      methods: { Big: '#DECLARE($o : Object; $min : Integer)\n$o.result:=$o.value>$min' },
    },
    expected: [5, 10],
  },
])

page('CollectionClass: .find() .findIndex() .first() .flat() .flatMap() .includes()', [
  {
    name: '.find() example 1: "tim"',
    code: `$col:=New collection("hello";"world";4;"red horse";"tim";"san jose")
return $col.find(Formula((Value type($1.value)=Is text) && (Length($1.value)<$2)); 5)`,
    expected: 'tim',
  },
  steps('.find() example 2', CITIES, [
    ['', '$c.find(Formula($1.value.name=$2); "Clanton")', { name: 'Clanton', zc: 35046 }],
    ['', '$c.find(Formula($1.value.name=$2); "Paris")', undefined],
    ['', '$c.find(4;Formula($1.value.name=$2); "Clanton")', { name: 'Clanton', zc: 35045 }],
  ]),
  steps('.findIndex()', CITIES, [
    ['$val2:=$c.findIndex(Formula($1.value.name=$2);"Clanton")', '$val2', 3],
    ['', '$c.findIndex($val2+1;Formula($1.value.name=$2);"Clanton")', 4],
    ['', '$c.findIndex(Formula($1.value.name=$2);"Paris")', -1],
    ['', '$c.findIndex(9;Formula($1.value.name=$2);"Clanton")', -1],
    ['', '$c.findIndex(-2;Formula($1.value.name=$2);"Clanton")', 3],
  ]),
  steps('.first()', '$col:=New collection(10; 20; 30; "hello"; 50)', [
    ['', '$col.first()', 10],
    ['', 'New collection().first()', undefined],
  ]),
  steps('.flat()', '', [
    ['$col:=New collection(1; 2; New collection(3; 4))', '$col.flat()', [1, 2, 3, 4]],
    [
      '$col:=New collection(1; 2; New collection(3; 4; New collection(5; 6)))',
      '$col.flat()',
      [1, 2, 3, 4, [5, 6]],
    ],
    ['', '$col.flat(2)', [1, 2, 3, 4, 5, 6]],
    [
      '$col:=New collection(1; 2; New collection(3; 4; 5; 6; New collection(7; 8; New collection(9; 10))))',
      '$col.flat(MAXLONG)',
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ],
  ]),
  steps('.flatMap() example 1', '$col:=New collection(1; 2; 3; 4)', [
    ['', '$col.map(Formula(New collection($1.value*2)))', [[2], [4], [6], [8]]],
    ['', '$col.flatMap(Formula(New collection($1.value*2)))', [2, 4, 6, 8]],
  ]),
  steps('.flatMap() example 2', '$col:=New collection("Hello how"; ""; "are you ?")', [
    [
      '',
      '$col.map(Formula(Split string($1.value; " ")))',
      [['Hello', 'how'], [], ['are', 'you', '?']],
    ],
    ['', '$col.flatMap(Formula(Split string($1.value; " ")))', ['Hello', 'how', 'are', 'you', '?']],
  ]),
  {
    name: '.flatMap() example 3: value and percentage',
    code: `$c:=New collection(1; 4; 9; 10; 20)
$f:=Formula(New collection($1.value;Round(($1.value/$2)*100; 2)))
return $c.flatMap($f; $c.sum())`,
    expected: [1, 2.27, 4, 9.09, 9, 20.45, 10, 22.73, 20, 45.45],
  },
  steps(
    '.includes()',
    '$obj:=New object("value"; 10)\n$col:=New collection(1;2;"Henry";5;3;"Albert";6;4;"Alan";5;$obj)',
    [
      ['', '$col.includes(3)', true],
      ['', '$col.includes(5;6)', true],
      ['', '$col.includes("al@")', true],
      ['', '$col.includes("Hello")', false],
      ['', '$col.includes($obj)', true],
      ['', '$col.includes(New object("value"; 10))', false],
      ['', '$col.includes(1;20)', false],
    ],
  ),
])
