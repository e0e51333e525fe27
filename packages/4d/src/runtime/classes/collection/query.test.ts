// Examples of docs/API/CollectionClass.md for `.query()` and `.indices()`, and the subset of the
// query language query.ts runs.
import { describe, expect, it } from 'vitest'
import {
  budgetTests,
  errorOf,
  objects,
  run,
  stepsTests,
  type BudgetCase,
} from '../../commands/run.fixture.js'

const CITIES = `$c:=New collection
$c.push(New object("name";"Cleveland";"zc";35049))
$c.push(New object("name";"Blountsville";"zc";35031))
$c.push(New object("name";"Adger";"zc";35006))
$c.push(New object("name";"Clanton";"zc";35046))
$c.push(New object("name";"Clanton";"zc";35045))
`

const PEOPLE = `$c:=New collection
$c.push(New object("name";"Smith";"dateHired";!2002-05-22!;"age";45))
$c.push(New object("name";"Wesson";"dateHired";!2017-11-30!))
$c.push(New object("name";"Winch";"dateHired";!2018-05-16!;"age";36))
$c.push(New object("name";"Sterling";"dateHired";!1999-05-10!;"age";Null))
$c.push(New object("name";"Mark";"dateHired";!2002-01-01!))
`

describe('.query()', () => {
  it('example 1: a placeholder, and a literal number', () => {
    expect(run(`${CITIES}return $c.query("name = :1";"Cleveland")`)).toEqual([
      { name: 'Cleveland', zc: 35049 },
    ])
    expect(run(`${CITIES}return $c.query("zc > 35040").extract("zc")`)).toEqual([
      35049, 35046, 35045,
    ])
  })
  it('example 2: "@in@", "# W@", "age=null", a date', () => {
    expect(run(`${PEOPLE}return $c.query("name = :1";"@in@").extract("name")`)).toEqual([
      'Winch',
      'Sterling',
    ])
    expect(
      run(`${PEOPLE}$aString:="W"\nreturn $c.query("name # :1";$aString+"@").extract("name")`),
    ).toEqual(['Smith', 'Sterling', 'Mark'])
    expect(run(`${PEOPLE}return $c.query("age=null").extract("name")`)).toEqual([
      'Wesson',
      'Sterling',
      'Mark',
    ])
    expect(
      run(`${PEOPLE}return $c.query("dateHired < :1";!2018-01-10!-90).extract("name")`),
    ).toEqual(['Smith', 'Sterling', 'Mark'])
    expect(run(`${PEOPLE}return $c.query("dateHired < 2002-02-01").extract("name")`)).toEqual([
      'Sterling',
      'Mark',
    ])
  })
  it('a path placeholder: $myCol.query(":1=:2";"city";"Chicago")', () => {
    expect(
      run(`return [{city: "Chicago"}; {city: "Paris"}].query(":1=:2";"city";"Chicago").length`),
    ).toBe(1)
  })
  it('named placeholders in querySettings', () => {
    expect(
      run(`$o:=New object
$o.attributes:={att: "city"}
$o.parameters:={name: "Chicago"}
return [{city: "Chicago"}; {city: "Paris"}].query(":att=:name";$o).length`),
    ).toBe(1)
  })
  it('an object reference as value, through querySettings', () => {
    expect(
      run(`var $o1:={a: 1}
var $o2:={a: 1}
var $o3:=$o1
$col:=[{o: $o1}; {o: $o2}; {o: $o3}]
$r:=$col.query("o = :v"; {parameters: {v: $o3}})
return [$r.length; $r[0].o=$o1; $r[1].o=$o1]`),
    ).toEqual([2, true, true])
  })
  it('AND, OR, NOT, parentheses, quotes, IN, ===', () => {
    const data = `$c:=[{n: "smith"; f: "john"; age: 40}; {n: "Smith"; f: "Jane"; age: 70}; {n: "doe"; f: "john"; age: 20}; {n: "x@y"; age: 1}]\n`
    expect(run(`${data}return $c.query("n = 'smith' AND f = 'john'").length`)).toBe(1)
    expect(run(`${data}return $c.query("(age >= 30 OR age <= 10) & NOT(n = 'doe')").length`)).toBe(
      3,
    )
    expect(run(`${data}return $c.query("n IN :1";["doe";"smith"]).length`)).toBe(3)
    expect(run(`${data}return $c.query("age in [20, 40]").length`)).toBe(2)
    expect(
      run(`${data}return [$c.query("n === 'x@'").length; $c.query("n = 'x@'").length]`),
    ).toEqual([0, 1])
  })
  it('a path through a collection with []', () => {
    expect(
      run(`$c:=[{name: "a"; kids: [{age: 3}; {age: 12}]}; {name: "b"; kids: [{age: 5}]}]
return $c.query("kids[].age > 10").extract("name")`),
    ).toEqual(['a'])
  })
  it('a Null through a placeholder matches nothing (the docs: "will NOT work")', () => {
    expect(run(`return [{s: Null}; {s: 1}].query("s = :1"; Null).length`)).toBe(0)
  })
  it('a shared collection gives a shared result', () => {
    expect(run(`return OB Is shared(New shared collection({a: 1}).query("a = 1"))`)).toBe(true)
  })
  it('a query that does not parse, or a placeholder without value, is an error', () => {
    expect(errorOf(`return [{a: 1}].query("a = ")`).errCode).toBe(9415)
    expect(errorOf(`return [{a: 1}].query("a = :2"; 1)`).errCode).toBe(9415)
  })
})

describe('.indices()', () => {
  it('[0] for Cleveland; [0,3,4] for zc > 35040', () => {
    expect(
      run(`${CITIES}return [$c.indices("name = :1";"Cleveland"); $c.indices("zc > 35040")]`),
    ).toEqual([[0], [0, 3, 4]])
  })
})

describe('the budget', () => {
  const CASES: BudgetCase[] = [
    ['.query()', 'return $1.query("t = :1"; "t5@")', (n) => [objects(n)]],
    [
      '.query() … order by',
      'return $1.query("v > :1 order by v desc"; 50000)',
      (n) => [objects(n)],
    ],
    ['.indices()', 'return $1.indices("v < 100")', (n) => [objects(n)]],
  ]

  budgetTests(CASES)
  // Written as steps (values/work.ts): a call in slices stops inside them.
  stepsTests(CASES)
})
