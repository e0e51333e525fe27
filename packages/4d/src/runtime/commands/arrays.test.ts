// The Arrays theme (docs/Concepts/arrays.md, docs/commands-legacy/array-*.md and the commands'
// pages), run through the compiler.
import { describe, expect, it } from 'vitest'
import { FourDArray, type ArrayType } from '../arrays/four-d-array.js'
import { Collection } from '../values/collection.js'
import { run4d } from '../../compile/run4d.js'
import {
  budgetTests,
  errorOf,
  numbers,
  run,
  steppingBudget,
  stepsTests,
  texts,
  underBudget,
  type BudgetCase,
} from './run.fixture.js'

describe('ARRAY TEXT, ARRAY LONGINT… and $a{i}', () => {
  it('arrays.md: five names put in, read back in a loop; element 0 exists', () => {
    expect(
      run(`ARRAY TEXT(atNames;5)
atNames{1}:="Richard"
atNames{2}:="Sarah"
atNames{3}:="Sam"
atNames{4}:="Jane"
atNames{5}:="John"
atNames{0}:="Please select an item"
$all:=""
For($vlElem;1;5)
  $all:=$all+atNames{$vlElem}+","
End for
return [$all; atNames{0}; Size of array(atNames)]`),
    ).toEqual(['Richard,Sarah,Sam,Jane,John,', 'Please select an item', 5])
  })
  it('new elements take the type default; resizing keeps the first elements (array-longint.md)', () => {
    expect(
      run(`ARRAY LONGINT($l;3)
$l{1}:=7
$l{2}+=5
ARRAY LONGINT($l;5)
$grown:=[$l{1}; $l{2}; $l{5}; Size of array($l)]
ARRAY LONGINT($l;1)
ARRAY TEXT($t;1)
ARRAY BOOLEAN($b;1)
ARRAY DATE($d;1)
ARRAY OBJECT($o;1)
ARRAY REAL($r;1)
return [$grown; Size of array($l); $l{1}; $t{1}; $b{1}; $d{1}; $o{1}; $r{1}]`),
    ).toEqual([[7, 5, 0, 5], 1, 7, '', false, '0000-00-00', null, 0])
  })
  it('an element takes the array type: a Longint is an Integer, an Integer array keeps 2 bytes', () => {
    expect(
      run(`ARRAY LONGINT($l;2)
ARRAY INTEGER($i;1)
ARRAY REAL($r;1)
$l{1}:=3.2
$l{2}:=100000
$i{1}:=40000
$r{1}:=2.5
return [$l{1}; $l{2}; $i{1}; $r{1}]`),
    ).toEqual([3, 100000, 40000 - 65536, 2.5])
    expect(errorOf(`ARRAY TEXT($t;1)\n$t{1}:=5`).errCode).toBe(54)
  })
  it('an index outside 0 to the size, or an element of what is no array, is an error', () => {
    expect(errorOf(`ARRAY TEXT($t;2)\nreturn $t{3}`).errCode).toBe(9420)
    expect(errorOf(`ARRAY TEXT($t;2)\n$t{-1}:="a"`).errCode).toBe(9420)
    expect(errorOf(`$t:="abc"\nreturn $t{1}`).errCode).toBe(9421)
    expect(errorOf(`return Size of array($nothing)`).errCode).toBe(9421)
  })
  it('two-dimensional arrays (arrays.md): rows of columns, a row is itself an array', () => {
    expect(
      run(`ARRAY TEXT(atTopics;3;2)
atTopics{2}{1}:="b1"
INSERT IN ARRAY(atTopics{3};1;1)
atTopics{3}{1}:="c0"
return [Size of array(atTopics); Size of array(atTopics{1}); atTopics{2}{1}; Size of array(atTopics{3}); atTopics{3}{1}]`),
    ).toEqual([3, 2, 'b1', 3, 'c0'])
    expect(errorOf(`ARRAY TEXT($a;2;2)\n$a{1}:="x"`).errCode).toBe(9414)
  })
  it('in a class function, on a local', () => {
    expect(
      run(`return cs.Bag.new().names()`, {
        classes: {
          Bag: `Function names() : Text
ARRAY TEXT($names;0)
APPEND TO ARRAY($names;"a")
APPEND TO ARRAY($names;"b")
return $names{1}+$names{2}`,
        },
      }),
    ).toBe('ab')
  })
})

describe('APPEND TO ARRAY, INSERT IN ARRAY, DELETE FROM ARRAY, COPY ARRAY', () => {
  it('insert and delete move the elements after them; past the end inserts at the end', () => {
    expect(
      run(`ARRAY LONGINT($a;0)
APPEND TO ARRAY($a;1)
APPEND TO ARRAY($a;2)
APPEND TO ARRAY($a;3)
INSERT IN ARRAY($a;2;2)
$a{2}:=10
INSERT IN ARRAY($a;99)
$after:=[$a{1}; $a{2}; $a{3}; $a{4}; $a{5}; $a{6}]
DELETE FROM ARRAY($a;2;3)
DELETE FROM ARRAY($a;99)
return [$after; Size of array($a); $a{1}; $a{2}; $a{3}]`),
    ).toEqual([[1, 10, 0, 2, 3, 0], 3, 1, 3, 0])
  })
  it('COPY ARRAY makes another array: changing the copy leaves the source', () => {
    expect(
      run(`ARRAY TEXT($a;1)
$a{1}:="x"
COPY ARRAY($a;$b)
$b{1}:="y"
return [$a{1}; $b{1}]`),
    ).toEqual(['x', 'y'])
  })
})

describe('Find in array, Count in array, Find in sorted array, SORT ARRAY', () => {
  it('find by 4D = (the @ wildcard, no case), from a start; -1 when absent', () => {
    expect(
      run(`ARRAY TEXT($a;0)
APPEND TO ARRAY($a;"")
APPEND TO ARRAY($a;"Apple")
APPEND TO ARRAY($a;"banana")
APPEND TO ARRAY($a;"apricot")
return [Find in array($a;"BANANA"); Find in array($a;"ap@"); Find in array($a;"ap@";3); Find in array($a;"kiwi"); Count in array($a;"a@"); Find in array($a;"")]`),
    ).toEqual([3, 2, 4, -1, 2, 1])
  })
  it('find-in-array.md example 3: an object array matches references only', () => {
    expect(
      run(`ARRAY OBJECT($objects;100)
$o1:={a: 10; b: "xyz"}
$o2:={a: 10; b: "xyz"}
$objects{20}:=$o1
return [Find in array($objects;$o1); Find in array($objects;$o2)]`),
    ).toEqual([20, -1])
  })
  it('SORT ARRAY sorts the first array, the others follow its order (sort-array.md)', () => {
    expect(
      run(`ARRAY TEXT($names;3)
ARRAY LONGINT($ids;3)
$names{1}:="carol"
$names{2}:="Alice"
$names{3}:="bob"
$ids{1}:=3
$ids{2}:=1
$ids{3}:=2
SORT ARRAY($names;$ids;>)
$up:=[$names{1}; $names{2}; $names{3}; $ids{1}; $ids{2}; $ids{3}]
SORT ARRAY($ids;<)
return [$up; $ids{1}; $ids{3}]`),
    ).toEqual([['Alice', 'bob', 'carol', 1, 2, 3], 3, 1])
  })
  it('Find in sorted array: positions of the matches, or where to insert (find-in-sorted-array.md)', () => {
    expect(
      run(`ARRAY TEXT($a;0)
APPEND TO ARRAY($a;"a")
APPEND TO ARRAY($a;"test1")
APPEND TO ARRAY($a;"test2")
APPEND TO ARRAY($a;"z")
var $first; $last; $pos : Integer
$found:=Find in sorted array($a;"test@";>;$first;$last)
$missing:=Find in sorted array($a;"m";>;$pos)
INSERT IN ARRAY($a;$pos)
$a{$pos}:="m"
return [$found; $first; $last; $missing; $pos; $a{2}]`),
    ).toEqual([true, 2, 3, false, 2, 'm'])
  })
})

describe('COLLECTION TO ARRAY, ARRAY TO COLLECTION', () => {
  it('collection-to-array.md examples 1 and 2: values, and property values by pairs', () => {
    expect(
      run(`$fruits:=New collection("Orange";"Banana";"Apple";"Grape")
ARRAY TEXT($artFruits;0)
COLLECTION TO ARRAY($fruits;$artFruits)
$col:=New collection
ARRAY TEXT($city;0)
ARRAY LONGINT($zipCode;0)
$col.push(New object("name";"Cleveland";"zc";35049))
$col.push(New object("name";"Blountsville";"zc";35031))
$col.push(New object("name";"Adger"))
COLLECTION TO ARRAY($col;$city;"name";$zipCode;"zc")
return [Size of array($artFruits); $artFruits{1}; $artFruits{4}; $city{2}; $zipCode{1}; $zipCode{3}]`),
    ).toEqual([4, 'Orange', 'Grape', 'Blountsville', 35049, 0])
  })
  it('array-to-collection.md examples 1 and 2: replaces the elements, objects by property', () => {
    expect(
      run(`$colFruits:=New collection("old";"old";"old";"old";"old")
ARRAY TEXT($artFruits;2)
$artFruits{1}:="Orange"
$artFruits{2}:="Banana"
ARRAY TO COLLECTION($colFruits;$artFruits)
$col:=New collection
ARRAY TEXT($artCity;2)
ARRAY LONGINT($arLZipCode;1)
$artCity{1}:="Cleveland"
$artCity{2}:="Adger"
$arLZipCode{1}:=35049
ARRAY TO COLLECTION($col;$artCity;"cityName";$arLZipCode;"Zip")
return [$colFruits; $col]`),
    ).toEqual([
      ['Orange', 'Banana'],
      [{ cityName: 'Cleveland', Zip: 35049 }, { cityName: 'Adger' }],
    ])
  })
})

describe('the budget', () => {
  // Arrays with the values of `numbers` and `texts`, so that they hold what the collections of the
  // other budget tests hold.
  const arrayOf = (type: ArrayType, values: readonly unknown[]): FourDArray => {
    const a = new FourDArray(type, undefined, 0)
    for (const v of values) a.items.push(v)
    return a
  }
  const longints = (n: number): FourDArray => arrayOf('Longint', numbers(n).items)
  const textArray = (n: number): FourDArray => arrayOf('Text', texts(n).items)
  const CASES: BudgetCase[] = [
    [
      'SORT ARRAY',
      'SORT ARRAY($1; $2; >)\nreturn [$1{1}; $2{1}; $1{Size of array($1)}]',
      (n) => [longints(n), textArray(n)],
    ],
    ['Find in array', 'return Find in array($1; "nowhere")', (n) => [textArray(n)]],
    ['ARRAY TEXT', 'ARRAY TEXT($b; $1)\nreturn Size of array($b)', (n) => [n]],
    [
      'ARRAY LONGINT, resized',
      'ARRAY LONGINT($b; 1)\nARRAY LONGINT($b; $1)\nreturn Size of array($b)',
      (n) => [n],
    ],
    ['ARRAY REAL of rows', 'ARRAY REAL($b; $1/100; 100)\nreturn Size of array($b{1})', (n) => [n]],
    ['Count in array', 'return Count in array($1; "élan 5")', (n) => [textArray(n)]],
    ['Find in sorted array', 'return Find in sorted array($1; 100003; >)', (n) => [longints(n)]],
    ['COPY ARRAY', 'COPY ARRAY($1; $b)\nreturn Size of array($b)', (n) => [longints(n)]],
    [
      'COLLECTION TO ARRAY',
      'ARRAY LONGINT($b; 0)\nCOLLECTION TO ARRAY($1; $b)\nreturn $b{Size of array($b)}',
      (n) => [new Collection(longints(n).items.slice(1))],
    ],
    [
      'ARRAY TO COLLECTION',
      '$c:=[]\nARRAY TO COLLECTION($c; $1)\nreturn $c.length',
      (n) => [longints(n)],
    ],
    [
      'DELETE FROM ARRAY',
      'DELETE FROM ARRAY($1; 2; 3)\nreturn [Size of array($1); $1{2}; $1{Size of array($1)}]',
      (n) => [longints(n)],
    ],
    [
      'ARRAY LONGINT of rows, resized',
      'ARRAY LONGINT($b; 2; 1)\n$b{1}{1}:=7\nARRAY LONGINT($b; $1/100; 100)\n' +
        'return [Size of array($b); Size of array($b{1}); $b{1}{1}; Size of array($b{$1/100})]',
      (n) => [n],
    ],
    [
      // A new array each run: the inserted elements, with 10 of its own.
      'INSERT IN ARRAY',
      'ARRAY LONGINT($b; 10)\n$b{10}:=7\nINSERT IN ARRAY($b; 2; $1)\n' +
        'return [Size of array($b); $b{Size of array($b)}]',
      (n) => [n],
    ],
  ]

  budgetTests(CASES)
  // Written as steps (values/work.ts): a call in slices stops inside them.
  stepsTests(CASES)

  it('a two-dimensional array is bounded by the elements of all its rows', () => {
    expect(errorOf('ARRAY LONGINT($a; 5000; 5000)').errCode).toBe(9439)
  })

  it('INSERT IN ARRAY of 100,000 elements ends at the budget, the array as it was', () => {
    const a = longints(10)
    expect(underBudget('INSERT IN ARRAY($1; 2; 100000)', [a], 5)).toEqual({ errCode: 9410 })
    expect(a.items).toEqual(longints(10).items)
    const code =
      'INSERT IN ARRAY($1; 2; 10000)\nreturn [Size of array($1); $1{1}; $1{2}; $1{10002}]'
    expect(underBudget(code, [longints(10)], 1e9)).toEqual(underBudget(code, [longints(10)]))
  })

  // The rows of a two-dimensional array, each with its elements.
  const rowsOf = (a: FourDArray): unknown[][] =>
    a.items.map((row) => [...(row as FourDArray).items])

  it('a declaration or DELETE FROM ARRAY the budget ends leaves the array as it was', () => {
    const a = longints(10)
    expect(underBudget('ARRAY LONGINT($1; 100000)', [a], 5)).toEqual({ errCode: 9410 })
    expect(a.items).toEqual(longints(10).items)
    const b = longints(100_000)
    expect(underBudget('DELETE FROM ARRAY($1; 2; 10)', [b], 5)).toEqual({ errCode: 9410 })
    expect(b.items).toEqual(longints(100_000).items)
    // Rows kept, one of them shorter than the others, and new rows of their columns.
    const table = new FourDArray('Longint', 3, 2)
    ;(table.items[1] as FourDArray).items.length = 2
    const before = rowsOf(table)
    expect(underBudget('ARRAY LONGINT($1; 100000; 3)', [table], 5)).toEqual({ errCode: 9410 })
    expect(rowsOf(table)).toEqual(before)
    expect(underBudget('ARRAY LONGINT($1; 100000; 3)', [table], 1e9)).toEqual({ value: undefined })
    expect([table.size, (table.items[1] as FourDArray).size]).toEqual([100_000, 3])
  })

  // A table of 2 rows of 3, its second row shortened to 2.
  const table = (): FourDArray => {
    const t = new FourDArray('Longint', 3, 2)
    ;(t.items[2] as FourDArray).items.length = 3
    return t
  }
  // What another request would see of an array: its size, and each row's.
  const sizes = (a: FourDArray): number[] => [
    a.size,
    ...(a.columns === undefined ? [] : a.items.map((row) => (row as FourDArray).size)),
  ]

  it.each([
    ['ARRAY LONGINT', 'ARRAY LONGINT($1; 100000)', () => longints(10), [100_000]],
    ['DELETE FROM ARRAY', 'DELETE FROM ARRAY($1; 2; 10)', () => longints(100_000), [99_990]],
    ['INSERT IN ARRAY', 'INSERT IN ARRAY($1; 2; 100000)', () => longints(10), [100_010]],
    [
      'ARRAY LONGINT of rows',
      'ARRAY LONGINT($1; 30000; 3)',
      table,
      [30_000, ...Array<number>(30_001).fill(3)],
    ],
  ])(
    '%s in a call in slices: the array as it was at each stop, changed at the end',
    (_, code, make, after) => {
      const a = make()
      const before = JSON.stringify(sizes(a))
      const seen = new Set<string>()
      let stops = 0
      run4d(code, [a], {
        emit: { steps: true, budget: true, lines: false },
        runtime: { budget: steppingBudget(1e9) },
        stopped: () => {
          stops++
          seen.add(JSON.stringify(sizes(a)))
        },
      })
      expect(stops).toBeGreaterThanOrEqual(5)
      expect([...seen]).toEqual([before])
      expect(sizes(a)).toEqual(after)
    },
  )

  it('INSERT IN ARRAY and ARRAY TO COLLECTION of more elements than a call takes arguments', () => {
    // A spread of 200,000 elements into `splice` or `push` overflows the stack.
    expect(
      underBudget(
        'INSERT IN ARRAY($1; 2; 200000)\n$c:=[]\nARRAY TO COLLECTION($c; $1)\nreturn [Size of array($1); $c.length; $1{200002}]',
        [longints(3)],
      ),
    ).toEqual({ value: [200_003, 200_003, 7919] })
  })
})
