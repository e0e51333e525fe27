// Examples of docs/API/CollectionClass.md for the functions that make a new collection.
import { describe, expect, it } from 'vitest'
import {
  budgetTests,
  inSteps,
  numbers,
  objects,
  plain,
  run,
  stepsTests,
  underBudget,
  type BudgetCase,
} from '../../commands/run.fixture.js'
import { run4d } from '../../../compile/run4d.js'
import { Collection } from '../../values/collection.js'

describe('.filter() / .map() / .flatMap()', () => {
  it('filter: the texts shorter than 6', () => {
    expect(
      run(`$col:=New collection("hello";"world";"red horse";66;"tim";"san jose";"miami")
return $col.filter(Formula((Value type($1.value)=Is text) && (Length($1.value)<$2)); 6)`),
    ).toEqual(['hello', 'world', 'tim', 'miami'])
  })
  it('filter by value type, with OB Get type', () => {
    expect(
      run(`$f:=Formula(OB Get type($1;"value")=$2)
$c:=New collection(5;3;1;4;6;2)
$c.push(New object("name";"Cleveland";"zc";35049))
$c.push(New object("name";"Blountsville";"zc";35031))
return [$c.filter($f;Is real); $c.filter($f;Is object)]`),
    ).toEqual([
      [5, 3, 1, 4, 6, 2],
      [
        { name: 'Cleveland', zc: 35049 },
        { name: 'Blountsville', zc: 35031 },
      ],
    ])
  })
  it('filter gives a shallow copy, shared when the collection is', () => {
    expect(
      run(`$o:={a: 1}
$c:=New shared collection($o)
$f:=$c.filter(Formula(True))
return [$f[0]=$o; OB Is shared($f); OB Is shared([1].filter(Formula(True)))]`),
    ).toEqual([true, true, false])
  })
  it('map: the percentage of each value in the sum', () => {
    expect(
      run(`$c:=New collection(1; 4; 9; 10; 20)
return $c.map(Formula(Round(($1.value/$2)*100; 2)); $c.sum())`),
    ).toEqual([2.27, 9.09, 20.45, 22.73, 45.45])
  })
  it('map then flatMap: [[2],[4],[6],[8]] and [2,4,6,8]', () => {
    expect(
      run(`$col:=New collection(1; 2; 3; 4)
return [$col.map(Formula(New collection($1.value*2))); $col.flatMap(Formula(New collection($1.value*2)))]`),
    ).toEqual([
      [[2], [4], [6], [8]],
      [2, 4, 6, 8],
    ])
  })
  it('flatMap with Split string', () => {
    expect(
      run(`$col:=New collection("Hello how"; ""; "are you ?")
return [$col.map(Formula(Split string($1.value; " "))); $col.flatMap(Formula(Split string($1.value; " ")))]`),
    ).toEqual([
      [['Hello', 'how'], [], ['are', 'you', '?']],
      ['Hello', 'how', 'are', 'you', '?'],
    ])
  })
  it('flatMap: each value and its percentage', () => {
    expect(
      run(`$c:=New collection(1; 4; 9; 10; 20)
$f:=Formula(New collection($1.value;Round(($1.value/$2)*100; 2)))
return $c.flatMap($f; $c.sum())`),
    ).toEqual([1, 2.27, 4, 9.09, 9, 20.45, 10, 22.73, 20, 45.45])
  })
  it('map stops after $1.stop, keeping the last result', () => {
    expect(
      run(`return [1;2;3;4].map("Half")`, {
        methods: { Half: `$1.result:=$1.value/2\n$1.stop:=$1.value=2` },
      }),
    ).toEqual([0.5, 1])
  })
})

describe('.flat() / .slice() / .concat()', () => {
  it('flat: depth 1 by default, 2, MAXLONG', () => {
    expect(
      run(`$r:=[]
$r.push(New collection(1; 2; New collection(3; 4)).flat())
$r.push(New collection(1; 2; New collection(3; 4; New collection(5; 6))).flat())
$r.push(New collection(1; 2; New collection(3; 4; New collection(5; 6))).flat(2))
$r.push(New collection(1; 2; New collection(3; 4; 5; 6; New collection(7; 8; New collection(9; 10)))).flat(MAXLONG:K35:2))
return $r`),
    ).toEqual([
      [1, 2, 3, 4],
      [1, 2, 3, 4, [5, 6]],
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    ])
  })
  it('slice: (0;3), (3), (1;-1), (-3;-2)', () => {
    expect(
      run(`$c:=New collection(1;2;3;4;5)
return [$c.slice(0;3); $c.slice(3); $c.slice(1;-1); $c.slice(-3;-2); $c.slice(3;1)]`),
    ).toEqual([[1, 2, 3], [4, 5], [2, 3, 4], [3], []])
  })
  it('concat: a collection adds its elements; other values themselves', () => {
    expect(
      run(`$c:=New collection(1;2;3;4;5)
$fruits:=New collection("Orange";"Banana";"Apple";"Grape")
$fruits.push(New object("Intruder";"Tomato"))
return [$c.concat($fruits); $c.concat(6;7;8); $c.length]`),
    ).toEqual([
      [1, 2, 3, 4, 5, 'Orange', 'Banana', 'Apple', 'Grape', { Intruder: 'Tomato' }],
      [1, 2, 3, 4, 5, 6, 7, 8],
      5,
    ])
  })
})

describe('.reverse() / .copy() / .extract()', () => {
  it('reverse: [6,4,2,5,3,1], a deep copy', () => {
    expect(
      run(`$c:=New collection(1;3;5;2;4;6)
$o:={a: 1}
$d:=[$o].reverse()
return [$c.reverse(); $c; $d[0]=$o; $d[0].a]`),
    ).toEqual([[6, 4, 2, 5, 3, 1], [1, 3, 5, 2, 4, 6], false, 1])
  })
  it('copy: a deep copy; ck shared makes a shared one (example 4 without pointers)', () => {
    expect(
      run(`$col:=New collection
$col.push(New object("alpha";"Hello";"num";1))
$col.push(New object("beta";"You"))
$col2:=$col.copy()
$col2[1].beta:="World!"
$s:=$col.copy(ck shared)
return [$col[0].alpha+" "+$col2[1].beta; $col[1].beta; OB Is shared($s); OB Is shared($s[0]); OB Is shared($col2)]`),
    ).toEqual(['Hello World!', 'You', true, true, false])
  })
  it('extract: names, with ck keep null, and into target paths', () => {
    expect(
      run(`$c:=New collection
$c.push(New object("name";"Cleveland"))
$c.push(New object("zip";5321))
$c.push(New object("name";"Blountsville"))
$c.push(42)
return [$c.extract("name"); $c.extract("name";ck keep null:K85:8)]`),
    ).toEqual([
      ['Cleveland', 'Blountsville'],
      ['Cleveland', null, 'Blountsville', null],
    ])
    expect(
      run(`$c:=New collection
$c.push(New object("zc";35060))
$c.push(New object("name";Null;"zc";35049))
$c.push(New object("name";"Cleveland";"zc";35049))
return [$c.extract("name";"City"); $c.extract("name";"City";"zc";"Zip")]`),
    ).toEqual([
      [{}, { City: null }, { City: 'Cleveland' }],
      [{ Zip: 35060 }, { City: null, Zip: 35049 }, { City: 'Cleveland', Zip: 35049 }],
    ])
  })
})

describe('the budget', () => {
  const CASES: BudgetCase[] = [
    [
      '.flat()',
      'return $1.flat()',
      (n) => [new Collection(numbers(n).items.map((v) => new Collection([v])))],
    ],
    ['.extract()', 'return $1.extract("v")', (n) => [objects(n)]],
    ['.extract(paths)', 'return $1.extract("v"; "w"; "t"; "u")', (n) => [objects(n)]],
    ['.copy()', 'return $1.copy()', (n) => [objects(n)]],
    ['.copy(ck shared)', 'return $1.copy(ck shared)', (n) => [numbers(n)]],
    ['.reverse()', 'return $1.reverse()', (n) => [objects(n)]],
    ['.concat()', 'return $1.concat($2; 3)', (n) => [numbers(3), numbers(n)]],
    ['.slice()', 'return $1.slice(1; -1)', (n) => [numbers(n)]],
    ['.slice() from the end', 'return $1.slice(-50000)', (n) => [numbers(n)]],
    // A callback counts its own calls.
    ['.map()', 'return $1.map(Formula($1.value*2))', (n) => [numbers(n)]],
    ['.filter()', 'return $1.filter(Formula($1.value>=50000))', (n) => [numbers(n)]],
    ['.flatMap()', 'return $1.flatMap(Formula(New collection($1.value)))', (n) => [numbers(n)]],
  ]

  it('.concat() of more elements than a call takes arguments', () => {
    // A spread of 200,000 elements into `push` overflows the stack.
    const code = 'return [$1.concat($2).length; $1.concat($2)[200001]]'
    expect(underBudget(code, [numbers(2), numbers(200_000)])).toEqual({
      value: [200_002, (199_999 * 7919) % 100_003],
    })
  })

  budgetTests(CASES)
  // Written as steps (values/work.ts): a call in slices stops inside them.
  stepsTests(CASES)
})

describe('a callback in a call in slices', () => {
  // A project method with a loop of 20,000 passes: about five stops of its own a call.
  const HEAVY =
    '#DECLARE($p : Object) -> $r : Real\nFor ($i; 1; 20000)\n\t$r:=$r+1\nEnd for\n$r:=$r+$p.value'
  it.each([
    ['.map()', 'return $1.map(Formula(heavy($1)))'],
    ['.filter()', 'return $1.filter(Formula(heavy($1)>20003))'],
    ['.map() of a method name', 'return $1.map("heavy")'],
  ])("%s goes into the callback's steps: it stops inside the method", (_, code) => {
    const c = new Collection([1, 2, 3, 4, 5, 6])
    const { value, stops } = inSteps(code, [c], { methods: { heavy: HEAVY } })
    // Six calls of 20,000 passes: a stop each 4,096 (about 29); called at once, the callback
    // would leave the map a stop each 4,096 calls, none here.
    expect(stops).toBeGreaterThanOrEqual(20)
    expect(value).toEqual(plain(run4d(code, [c], { methods: { heavy: HEAVY } })))
  })
})
