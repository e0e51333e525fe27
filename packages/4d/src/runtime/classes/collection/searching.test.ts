// Examples of docs/API/CollectionClass.md for the functions that look for elements.
import { describe, expect, it } from 'vitest'
import {
  budgetTests,
  numbers,
  objects,
  run,
  stepsTests,
  texts,
  underBudget,
  type BudgetCase,
} from '../../commands/run.fixture.js'

const CITIES = `$c:=New collection
$c.push(New object("name";"Cleveland";"zc";35049))
$c.push(New object("name";"Blountsville";"zc";35031))
$c.push(New object("name";"Adger";"zc";35006))
$c.push(New object("name";"Clanton";"zc";35046))
$c.push(New object("name";"Clanton";"zc";35045))
`

describe('.at() / .first() / .last()', () => {
  it('at: 0 → 10, 1 → 20, -1 → 50, -2 → 40, 10 → undefined', () => {
    expect(
      run(`$col:=New collection(10; 20; 30; 40; 50)
return [$col.at(0); $col.at(1); $col.at(-1); $col.at(-2); Value type($col.at(10))=Is undefined]`),
    ).toEqual([10, 20, 50, 40, true])
  })
  it('first and last: 10 and 50; Undefined on an empty collection', () => {
    expect(
      run(`$col:=New collection(10; 20; 30; "hello"; 50)
return [$col.first(); $col.last(); Undefined(New collection().first()); Undefined([].last())]`),
    ).toEqual([10, 50, true, true])
  })
})

describe('.indexOf() / .lastIndexOf() / .includes()', () => {
  it('indexOf: 3 → 4, (5;5) → 9, "al@" → 5, "Hello" → -1', () => {
    expect(
      run(`$col:=New collection(1;2;"Henry";5;3;"Albert";6;4;"Alan";5)
return [$col.indexOf(3); $col.indexOf(5;5); $col.indexOf("al@"); $col.indexOf("Hello")]`),
    ).toEqual([4, 9, 5, -1])
  })
  it('lastIndexOf: "e" → 12, ("e";6) → 4, ("e";15) → 12, ("e";-2) → 10, "x" → -1', () => {
    expect(
      run(`$col:=Split string("a,b,c,d,e,f,g,h,i,j,e,k,e";",")
return [$col.length; $col.lastIndexOf("e"); $col.lastIndexOf("e";6); $col.lastIndexOf("e";15); $col.lastIndexOf("e";-2); $col.lastIndexOf("x")]`),
    ).toEqual([13, 12, 4, 12, 10, -1])
  })
  it('includes: 3, (5;6), "al@", $obj True; "Hello" and a copy of $obj False', () => {
    expect(
      run(`$obj:=New object("value"; 10)
$col:=New collection(1;2;"Henry";5;3;"Albert";6;4;"Alan";5;$obj)
return [$col.includes(3); $col.includes(5;6); $col.includes("al@"); $col.includes("Hello"); $col.includes($obj); $col.includes(New object("value"; 10))]`),
    ).toEqual([true, true, true, false, true, false])
  })
  it('Null is found; a value of another type never matches', () => {
    expect(run(`return [[1;Null].indexOf(Null); ["1";1].indexOf(1); [True].indexOf(1)]`)).toEqual([
      1, 1, -1,
    ])
  })
})

describe('.find() / .findIndex()', () => {
  it('find: the first text shorter than 5 is "tim"', () => {
    expect(
      run(`$col:=New collection("hello";"world";4;"red horse";"tim";"san jose")
return $col.find(Formula((Value type($1.value)=Is text) && (Length($1.value)<$2)); 5)`),
    ).toBe('tim')
  })
  it('find: a city by name, {name:Clanton,zc:35046}; Undefined when none', () => {
    expect(
      run(`${CITIES}
return [$c.find(Formula($1.value.name=$2); "Clanton"); Undefined($c.find(Formula($1.value.name=$2); "Paris"))]`),
    ).toEqual([{ name: 'Clanton', zc: 35046 }, true])
  })
  it('findIndex: 3, then from $val2+1: 4', () => {
    expect(
      run(`${CITIES}
$val2:=$c.findIndex(Formula($1.value.name=$2);"Clanton")
$val3:=$c.findIndex($val2+1;Formula($1.value.name=$2);"Clanton")
return [$val2; $val3; $c.findIndex(10;Formula(True))]`),
    ).toEqual([3, 4, -1])
  })
  it('a method name as the callback, which sets $1.result', () => {
    expect(
      run(`return [3;8;12].find("IsBig"; 10)`, {
        methods: { IsBig: `$1.result:=$1.value>$2` },
      }),
    ).toBe(12)
  })
})

describe('.every() / .some()', () => {
  it('every: True for [5,3,1,4,6,2], False once -1 is pushed', () => {
    expect(
      run(`$f:=Formula($1.value>0)
$c:=New collection
$c.push(5;3;1;4;6;2)
$b1:=$c.every($f)
$c.push(-1)
return [$b1; $c.every($f)]`),
    ).toEqual([true, false])
  })
  it('every with a parameter: all reals, then not once objects are pushed', () => {
    expect(
      run(`$f:=Formula(Value type($1.value)=$2)
$c:=New collection
$c.push(5;3;1;4;6;2)
$b1:=$c.every($f;Is real)
$c.push(New object("name";"Cleveland";"zc";35049))
return [$b1; $c.every($f;Is real)]`),
    ).toEqual([true, false])
  })
  it('some: false, then true; from 1: false', () => {
    expect(
      run(`$c:=New collection
$c.push(-5;-3;-1;-4;-6;-2)
$b1:=$c.some(Formula($1.value>0))
$c.push(1)
$b2:=$c.some(Formula($1.value>0))
$c:=New collection
$c.push(1;-5;-3;-1;-4;-6;-2)
return [$b1; $b2; $c.some(Formula($1.value>0)); $c.some(1;Formula($1.value>0))]`),
    ).toEqual([false, true, true, false])
  })
  it('$1.stop ends the test: the result is the last computed', () => {
    expect(
      run(
        `$n:=[]
$b:=[1;2;3;4].some("Spy"; $n)
return [$b; $n]`,
        { methods: { Spy: `$2.push($1.value)\n$1.stop:=($1.value=2)\n$1.result:=False` } },
      ),
    ).toEqual([false, [1, 2]])
  })
})

describe('.count() / .countValues()', () => {
  it('count: 7 non-null elements, 3 with a "name"', () => {
    expect(
      run(`$col:=New collection(20;30;Null;40)
$col.push(New object("name";"Smith";"salary";10000))
$col.push(New object("name";"Wesson";"salary";50000))
$col.push(New object("name";"Gross";"salary";10500))
$col.push(New object("lastName";"Henry";"salary";12000))
return [$col.count(); $col.count("name")]`),
    ).toEqual([7, 3])
  })
  it('countValues: 5 three times; age 5 twice; a collection by reference once', () => {
    expect(
      run(`$col:=New collection(1;2;5;5;5;3;6;4)
$p:=New collection
$p.push(New object("name";"Smith";"age";5))
$p.push(New object("name";"Wesson";"age";2))
$p.push(New object("name";"Gross";"age";5))
$letters:=New collection("a";"b";"c")
$numbers:=New collection(1;2;$letters;3;4;5)
return [$col.countValues(5); $p.countValues(5;"age"); $numbers.countValues($letters)]`),
    ).toEqual([3, 2, 1])
  })
})

describe('the budget', () => {
  const CASES: BudgetCase[] = [
    ['.indexOf()', 'return $1.indexOf("nowhere@")', (n) => [texts(n)]],
    ['.includes()', 'return $1.includes(-1)', (n) => [numbers(n)]],
    ['.lastIndexOf()', 'return $1.lastIndexOf("nowhere")', (n) => [texts(n)]],
    ['.count()', 'return $1.count()', (n) => [numbers(n)]],
    ['.count(path)', 'return $1.count("v")', (n) => [objects(n)]],
    ['.countValues()', 'return $1.countValues("élan 5")', (n) => [texts(n)]],
    // A callback counts its own calls.
    ['.find()', 'return $1.find(Formula($1.value<0))', (n) => [numbers(n)]],
    ['.findIndex()', 'return $1.findIndex(Formula($1.value<0))', (n) => [numbers(n)]],
    ['.every()', 'return $1.every(Formula($1.value>=0))', (n) => [numbers(n)]],
    ['.some()', 'return $1.some(1; Formula($1.value<0))', (n) => [numbers(n)]],
  ]

  budgetTests(CASES)
  // Written as steps (values/work.ts): a call in slices stops inside them.
  stepsTests(CASES)
})

// An element of millions of characters is folded whole to be compared: one pass an element would
// let 200 of them run for seconds unseen by the budget. Each comparison of texts past a piece
// counts their length (values/text-compare.ts `countTexts`).
describe('elements that are long texts', () => {
  const long = 'é b '.repeat(75_000)
  const code =
    '$c:=[]\nFor ($i; 1; 200)\n$c.push($1)\nEnd for\nreturn [$c.indexOf($2); $c.count(); $c.distinct().length]'
  it('count their length: past the budget, 9410', () => {
    expect(underBudget(code, [long, `${long}z`], 50)).toEqual({ errCode: 9410 })
  })
  it('give what they give within it', () => {
    expect(underBudget(code, [long, `${long}z`], 1e9)).toEqual({ value: [-1, 200, 1] })
  })
})
