// Examples of docs/API/CollectionClass.md for the functions that reduce a collection to a value.
import { describe, expect, it } from 'vitest'
import {
  budgetTests,
  inSteps,
  numbers,
  objects,
  run,
  stepsTests,
  texts,
  type BudgetCase,
} from '../../commands/run.fixture.js'

const SALARIES = `$col:=New collection(200;150;55)
$col.push(New object("name";"Smith";"salary";10000))
$col.push(New object("name";"Wesson";"salary";50000))
$col.push(New object("name";"Alabama";"salary";10500))
`

describe('.sum() / .average()', () => {
  it('sum: 32 (texts and Booleans left out); 70500.5 for "salary"', () => {
    expect(
      run(`$col:=New collection(10;20;"Monday";True;2)
$p:=New collection
$p.push(New object("name";"Smith";"salary";10000))
$p.push(New object("name";"Wesson";"salary";50000))
$p.push(New object("name";"Gross";"salary";10500.5))
return [$col.sum(); $p.sum("salary"); [].sum(); $p.sum("nothing")]`),
    ).toEqual([32, 70500.5, 0, 0])
  })
  it('average: 12; 23500 for "salary"; Undefined without numbers', () => {
    expect(
      run(`$col:=New collection(10;20;"Monday";True;6)
$p:=New collection
$p.push(New object("name";"Smith";"salary";10000))
$p.push(New object("name";"Wesson";"salary";50000))
$p.push(New object("name";"Gross";"salary";10500))
return [$col.average(); $p.average("salary"); Undefined([].average()); Undefined(["a"].average())]`),
    ).toEqual([12, 23500, true, true])
  })
})

describe('.min() / .max()', () => {
  it('max: the last object in the order of types; 50000; "Wesson"', () => {
    expect(run(`${SALARIES}\nreturn [$col.max(); $col.max("salary"); $col.max("name")]`)).toEqual([
      { name: 'Alabama', salary: 10500 },
      50000,
      'Wesson',
    ])
  })
  it('min: 55; 10000; "Alabama"; Undefined for an empty collection', () => {
    expect(
      run(
        `${SALARIES}\nreturn [$col.min(); $col.min("salary"); $col.min("name"); Undefined([].min())]`,
      ),
    ).toEqual([55, 10000, 'Alabama', true])
  })
})

describe('.reduce() / .reduceRight()', () => {
  it('a method accumulating in $1.accumulator: 86400', () => {
    const methods = { Multiply: `$1.accumulator:=$1.accumulator*$1.value` }
    expect(
      run(`return New collection(5;3;5;1;3;4;4;6;2;2).reduce("Multiply"; 1)`, { methods }),
    ).toBe(86400)
    expect(
      run(`return New collection(5;3;5;1;3;4;4;6;2;2).reduceRight("Multiply"; 1)`, { methods }),
    ).toBe(86400)
  })
  // The docs write Formula(Flatten): a formula of one method passes its parameters on to it
  // (FunctionClass.md), which the compiler does not do yet; the method's name is the same callback.
  it('the Flatten method: [0,…,7] and, from the right, [6,7,4,5,2,3,0,1]', () => {
    const methods = {
      Flatten: `If($1.accumulator=Null)
  $1.accumulator:=New collection
End if
$1.accumulator.combine($1.value)`,
    }
    const code = `$c:=New collection
$c.push(New collection(0;1))
$c.push(New collection(2;3))
$c.push(New collection(4;5))
$c.push(New collection(6;7))
return [$c.reduce("Flatten"); $c.reduceRight("Flatten")]`
    expect(run(code, { methods })).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7],
      [6, 7, 4, 5, 2, 3, 0, 1],
    ])
  })
  it("a formula's value is the new accumulator", () => {
    expect(run(`return [1;2;3].reduce(Formula($1.accumulator+$1.value); 10)`)).toBe(16)
  })
})

describe('.join() / .distinct() / .equal()', () => {
  it('join: 1|2|3|Paris|null||4|5, and 1|2|3|Paris|4|5 ignoring null or empty', () => {
    expect(
      run(`$c:=New collection(1;2;3;"Paris";Null;"";4;5)
return [$c.join("|"); $c.join("|";ck ignore null or empty:K85:5)]`),
    ).toEqual(['1|2|3|Paris|null||4|5', '1|2|3|Paris|4|5'])
  })
  it('distinct: default, ck diacritical, a path, ck count values', () => {
    expect(
      run(`$c:=New collection
$c.push("a";"b";"c";"A";"B";"c";"b";"b")
$c.push(New object("size";1))
$c.push(New object("size";3))
$c.push(New object("size";1))
return [$c.distinct(); $c.distinct(ck diacritical); $c.distinct("size"); $c.distinct("size";ck count values)]`),
    ).toEqual([
      ['a', 'b', 'c', { size: 1 }, { size: 3 }, { size: 1 }],
      ['a', 'A', 'b', 'B', 'c', { size: 1 }, { size: 3 }, { size: 1 }],
      [1, 3],
      [
        { value: 1, count: 2 },
        { value: 3, count: 1 },
      ],
    ])
  })
  it('equal: deep, case ignored unless ck diacritical', () => {
    expect(
      run(`$r:=[]
$c:=New collection(New object("a";1;"b";"orange");2;3)
$r.push($c.equal(New collection(New object("a";1;"b";"orange");2;3;4)))
$r.push(New collection(New object("1";"a";"b";"orange");2;3).equal(New collection(New object("a";1;"b";"orange");2;3)))
$r.push($c.equal(New collection(New object("a";1;"b";"ORange");2;3)))
$r.push($c.equal(New collection(New object("a";1;"b";"ORange");2;3);ck diacritical))
$r.push([{a: Null}].equal([{}]))
return $r`),
    ).toEqual([false, false, true, false, false])
  })
})

describe('the budget', () => {
  const CASES: BudgetCase[] = [
    ['.sum()', 'return $1.sum()', (n) => [numbers(n)]],
    ['.sum(path)', 'return $1.sum("v")', (n) => [objects(n)]],
    ['.average()', 'return $1.average()', (n) => [numbers(n)]],
    ['.min()', 'return $1.min()', (n) => [texts(n)]],
    ['.max(path)', 'return $1.max("t")', (n) => [objects(n)]],
    ['.join()', 'return Length($1.join(","))', (n) => [numbers(n)]],
    ['.join() of objects', 'return Length($1.join(","))', (n) => [objects(n)]],
    ['.distinct()', 'return $1.distinct()', (n) => [texts(n)]],
    [
      '.distinct(path; ck count values)',
      'return $1.distinct("v"; ck count values)',
      (n) => [objects(n)],
    ],
    ['.equal()', 'return $1.equal($2)', (n) => [objects(n), objects(n)]],
    ['.reduce()', 'return $1.reduce(Formula($1.accumulator+$1.value); 0)', (n) => [numbers(n)]],
    [
      '.reduceRight()',
      'return $1.reduceRight(Formula($1.accumulator+$1.value); 0)',
      (n) => [numbers(n)],
    ],
  ]

  budgetTests(CASES)
  // Written as steps (values/work.ts): a call in slices stops inside them.
  stepsTests(CASES)

  it('.reduce() goes into a method that is 4D code: it stops inside, its result the same', () => {
    // A loop of 10,000 passes an element: more than the 4,096 between two stops.
    const Multiply = 'For ($i; 1; 10000)\nEnd for\n$1.accumulator:=$1.accumulator*$1.value'
    const Add = 'For ($i; 1; 10000)\nEnd for\nreturn $1.accumulator+$1.value'
    const code = `$c:=[5;3;5;1;3;4;4;6;2;2]
return [$c.reduce("Multiply"; 1); $c.reduceRight("Multiply"; 1); $c.reduce("Add"; 0)]`
    const methods = { Multiply, Add }
    const { value, stops } = inSteps(code, [], { methods })
    expect(value).toEqual([86400, 86400, 35])
    expect(value).toEqual(run(code, { methods }))
    expect(stops).toBeGreaterThanOrEqual(60)
  })

  it('.reduce() in steps takes what a method returns, even the value it sets in $1.result', () => {
    // What it returns is the new accumulator, as in the plain call: a value that is also its
    // `$1.result` is no sign that it returned nothing.
    const Both = 'For ($i; 1; 10000)\nEnd for\n$1.result:=$1.accumulator+$1.value\nreturn $1.result'
    const code = 'return [[1;2;3].reduce("Both"; 10); [1;2;3].reduceRight("Both"; 0)]'
    const methods = { Both }
    const { value, stops } = inSteps(code, [], { methods })
    expect(value).toEqual([16, 6])
    expect(value).toEqual(run(code, { methods }))
    expect(stops).toBeGreaterThanOrEqual(6)
  })
})
