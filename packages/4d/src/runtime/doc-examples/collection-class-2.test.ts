// docs/API/CollectionClass.md, .indexOf() to .unshift(): each documented result a check.
import { page, steps } from './doc.fixture.js'

const CITIES = `$c:=New collection
$c.push(New object("name";"Cleveland";"zc";35049))
$c.push(New object("name";"Blountsville";"zc";35031))
$c.push(New object("name";"Adger";"zc";35006))
$c.push(New object("name";"Clanton";"zc";35046))
$c.push(New object("name";"Clanton";"zc";35045))`

// The page writes its dates day first (!22-05-2002!), which 4D reads so on a system set that way
// only; here literals are month first (compat.md), so the same dates are written ISO.
const PEOPLE = `$c:=New collection
$c.push(New object("name";"Smith";"dateHired";!2002-05-22!;"age";45))
$c.push(New object("name";"Wesson";"dateHired";!2017-11-30!))
$c.push(New object("name";"Winch";"dateHired";!2018-05-16!;"age";36))
$c.push(New object("name";"Sterling";"dateHired";!1999-05-10!;"age";Null))
$c.push(New object("name";"Mark";"dateHired";!2002-01-01!))`

const MULTIPLY = '$1.accumulator:=$1.accumulator*$1.value'

const FLATTEN = `If($1.accumulator=Null)
  $1.accumulator:=New collection
End if
$1.accumulator.combine($1.value)`

const PAIRS = `$c:=New collection
$c.push(New collection(0;1))
$c.push(New collection(2;3))
$c.push(New collection(4;5))
$c.push(New collection(6;7))`

page('CollectionClass: .indexOf() .indices() .insert() .join() .last() .lastIndexOf() .length', [
  steps('.indexOf()', '$col:=New collection(1;2;"Henry";5;3;"Albert";6;4;"Alan";5)', [
    ['', '$col.indexOf(3)', 4],
    ['', '$col.indexOf(5;5)', 9],
    ['', '$col.indexOf("al@")', 5],
    ['', '$col.indexOf("Hello")', -1],
    ['', '$col.indexOf(5;20)', -1],
    ['', '$col.indexOf(5;-2)', 9],
  ]),
  steps('.indices()', CITIES, [
    ['', '$c.indices("name = :1";"Cleveland")', [0]],
    ['', '$c.indices("zc > 35040")', [0, 3, 4]],
  ]),
  steps('.insert()', '$col:=New collection("a";"b";"c";"d")', [
    ['$col.insert(2;"X")', '$col', ['a', 'b', 'X', 'c', 'd']],
    ['$col.insert(-2;"Y")', '$col', ['a', 'b', 'X', 'Y', 'c', 'd']],
    ['$col.insert(-10;"Hi")', '$col', ['Hi', 'a', 'b', 'X', 'Y', 'c', 'd']],
    ['$col.insert(100;"end")', '$col.last()', 'end'],
  ]),
  steps('.join()', '$c:=New collection(1;2;3;"Paris";Null;"";4;5)', [
    ['', '$c.join("|")', '1|2|3|Paris|null||4|5'],
    ['', '$c.join("|";ck ignore null or empty)', '1|2|3|Paris|4|5'],
  ]),
  steps('.last()', '$col:=New collection(10; 20; 30; "hello"; 50)', [
    ['', '$col.last()', 50],
    ['', 'New collection().last()', undefined],
  ]),
  steps('.lastIndexOf()', '$col:=Split string("a,b,c,d,e,f,g,h,i,j,e,k,e";",")', [
    ['', '$col.length', 13],
    ['', '$col.lastIndexOf("e")', 12],
    ['', '$col.lastIndexOf("e";6)', 4],
    ['', '$col.lastIndexOf("e";15)', 12],
    ['', '$col.lastIndexOf("e";-2)', 10],
    ['', '$col.lastIndexOf("x")', -1],
    ['', '$col.lastIndexOf("a";0)', -1],
  ]),
  steps('.length', 'var $col : Collection', [
    ['', '$col.length', 0],
    ['$col:=New collection("one";"two";"three")', '$col.length', 3],
    ['$col[4]:="five"', '$col.length', 5],
    ['', '$col.remove(0;3).length', 2],
  ]),
])

page('CollectionClass: .map() .max() .min() .multiSort()', [
  {
    name: '.map(): percentages of the sum',
    code: `$c:=New collection(1; 4; 9; 10; 20)
return $c.map(Formula(Round(($1.value/$2)*100; 2)); $c.sum())`,
    expected: [2.27, 9.09, 20.45, 22.73, 45.45],
  },
  steps(
    '.max() and .min()',
    `$col:=New collection(200;150;55)
$col.push(New object("name";"Smith";"salary";10000))
$col.push(New object("name";"Wesson";"salary";50000))
$col.push(New object("name";"Alabama";"salary";10500))`,
    [
      ['', '$col.max()', { name: 'Alabama', salary: 10500 }],
      ['', '$col.max("salary")', 50000],
      ['', '$col.max("name")', 'Wesson'],
      ['', '$col.min()', 55],
      ['', '$col.min("salary")', 10000],
      ['', '$col.min("name")', 'Alabama'],
      ['', 'New collection.max()', undefined],
    ],
  ),
  steps(
    '.multiSort() example 1',
    `$col:=["A"; "C"; "B"]
$col2:=[1; 2; 3]
$col3:=[["Jim"; "Philip"; "Maria"]; ["blue"; "green"]; ["11"; 22; "33"]]
$col.multiSort([$col2; $col3])`,
    [
      ['', '$col', ['A', 'B', 'C']],
      ['', '$col2', [1, 3, 2]],
      ['', '$col3[0]', ['Jim', 'Philip', 'Maria']],
      ['', '$col3[1]', ['11', 22, '33']],
      ['', '$col3[2]', ['blue', 'green']],
    ],
  ),
  steps(
    '.multiSort() example 2',
    `$city:=["Paris"; "Lyon"; "Rabat"; "Eching"; "San Diego"]
$country:=["France"; "France"; "Morocco"; "Germany"; "US"]
$continent:=["Europe"; "Europe"; "Africa"; "Europe"; "America"]
$continent.multiSort([$country; {collection: $city; order: ck ascending}])`,
    [
      ['', '$continent', ['Africa', 'America', 'Europe', 'Europe', 'Europe']],
      ['', '$country', ['Morocco', 'US', 'France', 'France', 'Germany']],
      ['', '$city', ['Rabat', 'San Diego', 'Lyon', 'Paris', 'Eching']],
    ],
  ),
  steps(
    '.multiSort() example 3',
    `$name:=[]
$name.push({firstname: "John"; lastname: "Smith"})
$name.push({firstname: "Alain"; lastname: "Martin"})
$name.push({firstname: "Jane"; lastname: "Doe"})
$name.push({firstname: "John"; lastname: "Doe"})
$address:=[]
$address.push({city: "Paris"; country: "France"})
$address.push({city: "Lyon"; country: "France"})
$address.push({city: "Eching"; country: "Germany"})
$address.push({city: "Berlin"; country: "Germany"})
$name.multiSort(Formula($1.value.firstname<$1.value2.firstname); [$address])`,
    [
      [
        '',
        '$name.map(Formula($1.value.firstname+" "+$1.value.lastname))',
        ['Alain Martin', 'Jane Doe', 'John Smith', 'John Doe'],
      ],
      [
        '',
        '$address.map(Formula($1.value.city+" "+$1.value.country))',
        ['Lyon France', 'Eching Germany', 'Paris France', 'Berlin Germany'],
      ],
    ],
  ),
  {
    name: '.multiSort(): collections of different lengths are an error',
    code: 'return [2;1].multiSort([[1]])',
    error: { errCode: 9415 },
  },
])

page('CollectionClass: .orderBy() .orderByMethod() .pop() .push()', [
  steps('.orderBy() scalars', '$c:=New collection(5;3;Null;"b";True;"A";1)', [
    ['', '$c.orderBy()', [null, true, 'A', 'b', 1, 3, 5]],
    ['', '$c.orderBy(ck descending)', [5, 3, 1, 'b', 'A', true, null]],
    ['', '$c', [5, 3, null, 'b', true, 'A', 1]],
  ]),
  steps(
    '.orderBy() property paths',
    `$c:=New collection
$c.push(New object("name";"Cleveland";"phones";New object("p1";"01";"p2";"02")))
$c.push(New object("name";"Blountsville";"phones";New object("p1";"00";"p2";"03")))`,
    [
      ['', '$c.orderBy("phones.p1 asc").extract("name")', ['Blountsville', 'Cleveland']],
      [
        '$crit:=New collection(New object("propertyPath";"phones.p2";"descending";True))',
        '$c.orderBy($crit).extract("name")',
        ['Blountsville', 'Cleveland'],
      ],
      ['', '$c.orderBy("name desc").extract("name")', ['Cleveland', 'Blountsville']],
    ],
  ),
  steps(
    '.orderBy() criteria strings',
    `$c:=New collection
For($vCounter;1;6)
  $c.push(New object("id";$vCounter;"value";$vCounter%3))
End for`,
    [
      ['', '$c.orderBy("value desc").extract("value")', [2, 2, 1, 1, 0, 0]],
      ['', '$c.orderBy("value desc, id").extract("id")', [2, 5, 1, 4, 3, 6]],
      ['', '$c.orderBy("value desc, id asc").extract("id")', [2, 5, 1, 4, 3, 6]],
      ['', '$c.orderBy("value, id desc").extract("id")', [6, 3, 4, 1, 5, 2]],
    ],
  ),
  steps('.orderByMethod() example 1', '$c:=New collection\n$c.push("33";"4";"1111";"222")', [
    ['', '$c.orderBy()', ['1111', '222', '33', '4']],
    ['', '$c.orderByMethod(Formula(Num($1.value)<Num($1.value2)))', ['4', '33', '222', '1111']],
  ]),
  {
    name: '.orderByMethod() example 2: by length, longest first',
    code: `$fruits:=New collection("Orange";"Apple";"Grape";"pear";"Banana";"fig";"Blackberry";"Passion fruit")
return $fruits.orderByMethod(Formula(Length(String($1.value))>Length(String($1.value2))))`,
    expected: ['Passion fruit', 'Blackberry', 'Orange', 'Banana', 'Apple', 'Grape', 'pear', 'fig'],
  },
  steps(
    '.orderByMethod() example 3 (a method, Compare strings)',
    '$strings1:=New collection("Alpha";"Charlie";"alpha";"bravo";"Bravo";"charlie")',
    [
      [
        '',
        '$strings1.orderByMethod("sortCollection";sk char codes)',
        ['Alpha', 'Bravo', 'Charlie', 'alpha', 'bravo', 'charlie'],
      ],
      [
        '',
        '$strings1.orderByMethod("sortCollection";sk strict)',
        ['alpha', 'Alpha', 'bravo', 'Bravo', 'charlie', 'Charlie'],
      ],
    ],
  ).map((c) => ({
    ...c,
    options: {
      methods: {
        sortCollection:
          'var $1 : Object\nvar $2 : Integer\n$1.result:=(Compare strings($1.value;$1.value2;$2)<0)',
      },
    },
  })),
  steps('.pop()', '$stack:=New collection', [
    ['$stack.push(1;2)', '$stack', [1, 2]],
    ['$r:=$stack.pop()', '[$r; $stack]', [2, [1]]],
    ['$stack.push(New collection(4;5))', '$stack', [1, [4, 5]]],
    ['$r:=$stack.pop()', '[$r; $stack]', [[4, 5], [1]]],
    ['$r:=$stack.pop()', '[$r; $stack]', [1, []]],
    ['', '$stack.pop()', undefined],
  ]),
  steps('.push() example 1', '$col:=New collection(1;2)', [
    ['$col.push(3)', '$col', [1, 2, 3]],
    [
      '$col.push(6;New object("firstname";"John";"lastname";"Smith"))',
      '$col',
      [1, 2, 3, 6, { firstname: 'John', lastname: 'Smith' }],
    ],
  ]),
  steps('.push() example 2', '$col:=New collection(5;3;9)\n$sortedCol:=$col.push(7;50).sort()', [
    ['', '$sortedCol', [3, 5, 7, 9, 50]],
    ['', '$col=$sortedCol', true],
  ]),
])

page('CollectionClass: .query()', [
  steps('example 1', CITIES, [
    ['', '$c.query("name = :1";"Cleveland")', [{ name: 'Cleveland', zc: 35049 }]],
    [
      '',
      '$c.query("zc > 35040")',
      [
        { name: 'Cleveland', zc: 35049 },
        { name: 'Clanton', zc: 35046 },
        { name: 'Clanton', zc: 35045 },
      ],
    ],
    ['', '$c.query(":1=:2";"name";"Adger").length', 1],
    ['', '$c.query("name = \'clanton\' AND zc < 35046").extract("zc")', [35045]],
    ['', '$c.query("name = Adger OR zc = 35031").extract("name")', ['Blountsville', 'Adger']],
    ['', '$c.query("name IN :1";New collection("Adger";"Clanton")).length', 3],
    ['', '$c.query("NOT(name = :1)";"Clanton").length', 3],
    ['', '$c.query("name = :1";"Paris")', []],
  ]),
  steps('example 2', PEOPLE, [
    ['', '$c.query("name = :1";"@in@").extract("name")', ['Winch', 'Sterling']],
    [
      '$aString:="W"',
      '$c.query("name # :1";$aString+"@").extract("name")',
      ['Smith', 'Sterling', 'Mark'],
    ],
    ['', '$c.query("age=null").extract("name")', ['Wesson', 'Sterling', 'Mark']],
    [
      '',
      // "if today is 01/10/2018": January 10 (the only day that gives the page's answer)
      '$c.query("dateHired < :1";!2018-01-10!-90).extract("name")',
      ['Smith', 'Sterling', 'Mark'],
    ],
  ]),
  {
    name: 'named placeholders: attributes and parameters in querySettings',
    code: `${CITIES}
$o:=New object
$o.attributes:={att:"name"}
$o.parameters:={name:"Adger"}
return $c.query(":att=:name";$o).extract("zc")`,
    expected: [35006],
  },
  steps(
    'an object reference as value',
    `var $o1:={a: 1}
var $o2:={a: 1}
var $o3:=$o1
$col:=[{o: $o1}; {o: $o2}; {o: $o3}]
$colResult:=$col.query("o = :v"; {parameters: {v: $o3}})`,
    [
      ['', '$colResult.length', 2],
      ['', '$colResult[0].o=$o1', true],
      ['', '$colResult[1].o=$o1', true],
    ],
  ),
  steps(
    'a collection reference as value',
    `$c1:=[1; 2; 3]
$c2:=[1; 2; 3]
$c3:=$c1
$col:=[{c: $c1}; {c: $c2}; {c: $c3}]
$col2:=$col.query("c = :v"; {parameters: {v: $c3}})`,
    [
      ['', '$col2.length', 2],
      ['', '$col2[0].c=$c1', true],
    ],
  ),
  {
    name: 'a placeholder that is not passed is an error',
    code: `${CITIES}\nreturn $c.query("name = :2";"x")`,
    error: { errCode: 9415 },
  },
])

page('CollectionClass: .reduce() .reduceRight() .remove() .resize() .reverse() .shift()', [
  steps('.reduce()', '$c:=New collection(5;3;5;1;3;4;4;6;2;2)', [
    ['', '$c.reduce(Formula($1.accumulator*=$1.value); 1)', 86400],
  ]),
  {
    name: '.reduce() with a method that multiplies',
    code: 'return New collection(5;3;5;1;3;4;4;6;2;2).reduce(Formula(Multiply); 1)',
    options: { methods: { Multiply: MULTIPLY } },
    expected: 86400,
  },
  {
    name: '.reduce() with the Flatten method',
    code: `${PAIRS}\nreturn $c.reduce(Formula(Flatten))`,
    options: { methods: { Flatten: FLATTEN } },
    expected: [0, 1, 2, 3, 4, 5, 6, 7],
  },
  steps('.reduceRight()', '$c:=New collection(5;3;5;1;3;4;4;6;2;2)', [
    ['', '$c.reduceRight(Formula($1.accumulator*=$1.value); 1)', 86400],
  ]),
  {
    name: '.reduceRight() with a method that multiplies',
    code: 'return New collection(5;3;5;1;3;4;4;6;2;2).reduceRight(Formula(Multiply); 1)',
    options: { methods: { Multiply: MULTIPLY } },
    expected: 86400,
  },
  {
    name: '.reduceRight() with the Flatten method',
    code: `${PAIRS}\nreturn $c.reduceRight(Formula(Flatten))`,
    options: { methods: { Flatten: FLATTEN } },
    expected: [6, 7, 4, 5, 2, 3, 0, 1],
  },
  steps('.remove()', '$col:=New collection("a";"b";"c";"d";"e";"f";"g";"h")', [
    ['$col.remove(3)', '$col', ['a', 'b', 'c', 'e', 'f', 'g', 'h']],
    ['$col.remove(3;2)', '$col', ['a', 'b', 'c', 'g', 'h']],
    ['$col.remove(-8;1)', '$col', ['b', 'c', 'g', 'h']],
    ['$col.remove(-3;1)', '$col', ['b', 'g', 'h']],
    ['$col.remove(10)', '$col', ['b', 'g', 'h']],
    ['', 'New collection.remove(0)', []],
  ]),
  steps('.resize()', '', [
    [
      '$c:=New collection\n$c.resize(10)',
      '$c',
      [null, null, null, null, null, null, null, null, null, null],
    ],
    ['$c:=New collection\n$c.resize(10;0)', '$c', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
    [
      '$c:=New collection(1;2;3;4;5)\n$c.resize(10;New object("name";"X"))',
      '$c',
      [1, 2, 3, 4, 5, { name: 'X' }, { name: 'X' }, { name: 'X' }, { name: 'X' }, { name: 'X' }],
    ],
    ['$c:=New collection(1;2;3;4;5)\n$c.resize(2)', '$c', [1, 2]],
  ]),
  steps('.reverse()', '$c:=New collection(1;3;5;2;4;6)\n$c2:=$c.reverse()', [
    ['', '$c2', [6, 4, 2, 5, 3, 1]],
    ['', '$c', [1, 3, 5, 2, 4, 6]],
  ]),
  steps('.shift()', '$c:=New collection(1;2;4;5;6;7;8)\n$val:=$c.shift()', [
    ['', '$val', 1],
    ['', '$c', [2, 4, 5, 6, 7, 8]],
    ['', 'New collection.shift()', undefined],
  ]),
])

page('CollectionClass: .slice() .some() .sort() .sum() .unshift()', [
  steps('.slice()', '$c:=New collection(1;2;3;4;5)', [
    ['', '$c.slice(0;3)', [1, 2, 3]],
    ['', '$c.slice(3)', [4, 5]],
    ['', '$c.slice(1;-1)', [2, 3, 4]],
    ['', '$c.slice(-3;-2)', [3]],
    ['', '$c.slice(3;1)', []],
  ]),
  steps('.some()', '$c:=New collection\n$c.push(-5;-3;-1;-4;-6;-2)', [
    ['', '$c.some(Formula($1.value>0))', false],
    ['$c.push(1)', '$c.some(Formula($1.value>0))', true],
    ['$c:=New collection\n$c.push(1;-5;-3;-1;-4;-6;-2)', '$c.some(Formula($1.value>0))', true],
    ['', '$c.some(1;Formula($1.value>0))', false],
    ['', '$c.some(-7;Formula($1.value>0))', true],
  ]),
  steps(
    '.sort() example 1',
    '$col:=New collection("Tom";5;"Mary";3;"Henry";1;"Jane";4;"Artie";6;"Chip";2)\n$col2:=$col.sort()',
    [
      ['', '$col2', ['Artie', 'Chip', 'Henry', 'Jane', 'Mary', 'Tom', 1, 2, 3, 4, 5, 6]],
      ['', '$col', ['Artie', 'Chip', 'Henry', 'Jane', 'Mary', 'Tom', 1, 2, 3, 4, 5, 6]],
    ],
  ),
  steps('.sort() example 2', '$col:=New collection(10;20)', [
    ['', '$col.push(5;3;1;4;6;2).sort()', [1, 2, 3, 4, 5, 6, 10, 20]],
  ]),
  steps('.sort() example 3', '$col:=New collection(33;4;66;1111;222)', [
    ['', '$col.sort()', [4, 33, 66, 222, 1111]],
    ['', '$col.sort(Formula(String($1.value)<String($1.value2)))', [1111, 222, 33, 4, 66]],
  ]),
  steps('.sum() example 1', '$col:=New collection(10;20;"Monday";True;2)', [
    ['', '$col.sum()', 32],
    ['', 'New collection.sum()', 0],
  ]),
  steps(
    '.sum() example 2',
    `$col:=New collection
$col.push(New object("name";"Smith";"salary";10000))
$col.push(New object("name";"Wesson";"salary";50000))
$col.push(New object("name";"Gross";"salary";10500.5))`,
    [
      ['', '$col.sum("salary")', 70500.5],
      ['', '$col.sum("nothing")', 0],
    ],
  ),
  steps('.unshift()', '$c:=New collection(1;2)', [
    ['$c.unshift(4)', '$c', [4, 1, 2]],
    ['$c.unshift(5)', '$c', [5, 4, 1, 2]],
    ['$c.unshift(6;7)', '$c', [6, 7, 5, 4, 1, 2]],
  ]),
])
