// The Objects (Language) and Collections themes (docs/commands/*.md).
import { describe, expect, it } from 'vitest'
import { objectOf } from '../ops/literals.js'
import { Collection } from '../values/collection.js'
import {
  budgetTests,
  errorOf,
  run,
  stepsTests,
  underBudget,
  type BudgetCase,
} from './run.fixture.js'

describe('New object, New shared object, New collection, New shared collection', () => {
  it('make plain and shared values; a property name must be a text', () => {
    expect(
      run(`$o:=New object("a";1;"b";[1;2])
$s:=New shared object("x";1)
$c:=New shared collection("alpha";"omega")
Use($c)
  $c[1]:="beta"
End use
return [$o; OB Is shared($o); OB Is shared($s); $c; OB Is shared($c); OB Is shared(New collection)]`),
    ).toEqual([{ a: 1, b: [1, 2] }, false, true, ['alpha', 'beta'], true, false])
    expect(errorOf(`return New object(1;2)`).errCode).toBe(9406)
  })
  it('New collection example 3: $coll[9]:="z" grows the collection with nulls', () => {
    expect(
      run(`$coll:=New collection("a";"b";"c")
$coll[9]:="z"
return [$coll.length; $coll]`),
    ).toEqual([10, ['a', 'b', 'c', null, null, null, null, null, null, 'z']])
  })
})

describe('OB Keys, OB Values, OB Entries', () => {
  it('the OB Entries example: average, count, over 25, their names', () => {
    expect(
      run(`$persons:=New object
$persons["John"]:=42
$persons["Andy"]:=24
$persons["Mary"]:=30
$persons["Paul"]:=50
$ages:=OB Entries($persons).query("value>:1";25)
return [OB Values($persons).average(); OB Keys($persons).length; $ages.length; $ages.extract("key").join("-")]`),
    ).toEqual([36.5, 4, 3, 'John-Mary-Paul'])
  })
  it("a class instance's own properties, not its functions; Null gives an empty collection", () => {
    expect(
      run(
        `$p:=cs.Point.new(1;2)
return [OB Keys($p); OB Keys(Null); OB Values({})]`,
        {
          classes: {
            Point: `Class constructor($x : Integer; $y : Integer)
This.x:=$x
This.y:=$y
Function norm() : Real
return Square root(This.x*This.x+This.y*This.y)`,
          },
        },
      ),
    ).toEqual([['x', 'y'], [], []])
  })
})

describe('OB Copy, OB Class, OB Instance of', () => {
  it('a deep copy; ck shared makes the copy and its objects shared', () => {
    expect(
      run(`$o:={a: {b: 1}}
$c:=OB Copy($o)
$c.a.b:=2
$s:=OB Copy($o;ck shared)
return [$o.a.b; $c.a.b; OB Is shared($s); OB Is shared($s.a); OB Is shared(OB Copy($s))]`),
    ).toEqual([1, 2, true, true, false])
  })
  it('OB Instance of: True for the class and a parent class, False for another', () => {
    const classes = {
      Polygon: `Class constructor($a : Integer; $b : Integer)
This.area:=$a*$b`,
      Square: `Class extends Polygon
Class constructor($side : Integer)
Super($side; $side)`,
      Circle: `Class constructor()`,
    }
    expect(
      run(
        `$poly:=cs.Polygon.new(4;3)
$sq:=cs.Square.new(2)
return [OB Instance of($poly;cs.Polygon); OB Instance of($poly;cs.Circle); OB Instance of($sq;cs.Polygon); OB Class($sq)=cs.Square; OB Class({})=Null]`,
        { classes },
      ),
    ).toEqual([true, false, true, true, true])
    expect(errorOf(`return OB Instance of({};{})`).errCode).toBe(-10745)
  })
})

describe('OB Is defined, OB Is empty, OB Get, OB Get type, OB SET, OB REMOVE', () => {
  it('OB Is empty / OB Is defined example (the object made by {} here)', () => {
    expect(
      run(`var $ref : Object
$r:=[OB Is empty($ref); OB Is defined($ref)]
$ref:={}
OB SET($ref;"name";"Susie";"age";4)
$r.push(OB Is empty($ref); OB Is defined($ref); OB Is defined($ref;"age"); OB Is defined($ref;"Age"))
OB REMOVE($ref;"name")
OB REMOVE($ref;"age")
$r.push(OB Is empty($ref); OB Is defined($ref))
return $r`),
    ).toEqual([true, false, false, true, true, false, true, true])
  })
  it('OB Get: a text, a number as a long, an object, a time stored in seconds', () => {
    expect(
      run(`$ref:={}
OB SET($ref;"FirstName";"Harry";"age";42.4)
$obj_o:={}
OB SET($obj_o;"myHour";?01:00:00?+1)
return [OB Get($ref;"FirstName"); OB Get($ref;"age";Is longint); OB Get($obj_o;"myHour"); String(OB Get($obj_o;"myHour";Is time)); OB Get($ref;"FirstName";Is text)]`),
    ).toEqual(['Harry', 42, 3601, '01:00:01', 'Harry'])
  })
  it('OB Get type; OB SET NULL', () => {
    expect(
      run(`$o:={a: 1; b: "x"}
OB SET NULL($o;"b")
return [OB Get type($o;"a")=Is real; OB Get type($o;"b")=Is null; OB Get type($o;"c")=Is undefined]`),
    ).toEqual([true, true, true])
  })
  it('OB SET and OB SET NULL on a variable that holds no object create it (ob-is-defined.md)', () => {
    expect(
      run(`var $o : Object
OB SET($o;"Name";"Martin";"age";42)
OB SET NULL($n;"b")
return [$o; $n]`),
    ).toEqual([{ Name: 'Martin', age: 42 }, { b: null }])
  })
  it('OB SET on an expression that holds no object: 9402, nothing to put the object in', () => {
    expect(errorOf(`$o:={}\nOB SET($o.child;"a";1)`).errCode).toBe(9402)
  })
  it('Storage is a shared object, written inside Use (storage.md example)', () => {
    expect(
      run(`Use(Storage)
  Storage.counters:=New shared object("customers";0;"invoices";0)
End use
Use(Storage.counters)
  Storage.counters.customers+=1
End use
return [Storage.counters; OB Is shared(Storage); OB Is shared(Storage.counters)]`),
    ).toEqual([{ customers: 1, invoices: 0 }, true, true])
  })
  it('OB GET ARRAY and the commands between objects and arrays do not run', () => {
    expect(errorOf(`OB GET ARRAY($o;"a";$arr)`).errCode).toBe(9409)
  })
})

describe('OB GET PROPERTY NAMES', () => {
  it('ob-get-property-names.md example 1: the names and the types (Is text 2, Is real 1), in process arrays', () => {
    expect(
      run(`ARRAY TEXT(arrNames;0)
ARRAY LONGINT(arrTypes;0)
var $ref_richard : Object
OB SET($ref_richard;"name";"Richard";"age";7)
OB GET PROPERTY NAMES($ref_richard;arrNames;arrTypes)
return [Size of array(arrNames); arrNames{1}; arrNames{2}; arrTypes{1}; arrTypes{2}]`),
    ).toEqual([2, 'name', 'age', 2, 1])
  })
  it('ob-get-property-names.md example 2: object array elements; the arrays are made, then resized; null is 255', () => {
    expect(
      run(`var $ref_richard;$ref_susan;$ref_james : Object
ARRAY OBJECT($arrayChildren;0)
OB SET($ref_richard;"name";"Richard";"age";7)
APPEND TO ARRAY($arrayChildren;$ref_richard)
OB SET($ref_susan;"name";"Susan";"age";4;"girl";True)
APPEND TO ARRAY($arrayChildren;$ref_susan)
OB SET($ref_james;"name";"James")
OB SET NULL($ref_james;"age")
APPEND TO ARRAY($arrayChildren;$ref_james)
OB GET PROPERTY NAMES($arrayChildren{2};$arrNames;$arrTypes)
$susan:=[Size of array($arrNames); $arrNames{3}; $arrTypes{3}]
OB GET PROPERTY NAMES($arrayChildren{3};$arrNames;$arrTypes)
return [$susan; [Size of array($arrNames); $arrNames{1}; $arrNames{2}; $arrTypes{1}; $arrTypes{2}]]`),
    ).toEqual([
      [3, 'girl', 6],
      [2, 'name', 'age', 2, 255],
    ])
  })
  it('the page\'s note: a collection ("array attribute") is Is collection, an object Is object; no object, no name', () => {
    expect(
      run(`OB GET PROPERTY NAMES({list: [1; 2]; child: {}};$names;$types)
$kinds:=[$types{1}=Is collection; $types{2}=Is object; Size of array($names)]
OB GET PROPERTY NAMES(Null;$names)
return [$kinds; Size of array($names)]`),
    ).toEqual([[true, true, 2], 0])
  })
  it('writes variables: an expression in arrProperties is 9415, a text as object 9406', () => {
    expect(errorOf(`OB GET PROPERTY NAMES({a: 1};"names")`).errCode).toBe(9415)
    expect(errorOf(`OB GET PROPERTY NAMES("a";$names)`).errCode).toBe(9406)
  })
})

describe('the budget', () => {
  const holding = (n: number): Record<string, unknown> =>
    objectOf('c', new Collection(Array.from({ length: n }, (_, i) => objectOf('v', i))))

  it('OB Copy of 100,000 values ends at the budget with 9410', () => {
    // A budget of 5 ms on a clock that moves 1 ms a reading: about 24,000 passes.
    expect(underBudget('return OB Copy($1)', [holding(100_000)], 5)).toEqual({ errCode: 9410 })
  })

  it.each(['OB Keys', 'OB Values', 'OB Entries'])(
    '%s of 100,000 properties ends at the budget with 9410',
    (command) => {
      const o = objectOf()
      for (let i = 0; i < 100_000; i++) o[`k${i}`] = i
      expect(underBudget(`return ${command}($1)`, [o], 5)).toEqual({ errCode: 9410 })
      expect(underBudget(`return ${command}($1).length`, [o], 1e9)).toEqual({ value: 100_000 })
    },
  )

  const properties = (n: number): Record<string, unknown> => {
    const o = objectOf()
    for (let i = 0; i < n; i++) o[`k${i}`] = i
    return o
  }
  const CASES: BudgetCase[] = [
    ['OB Copy', 'return OB Copy($1).c.length', (n) => [holding(n)]],
    ['OB Copy ck shared', 'return OB Copy($1; ck shared).c.length', (n) => [holding(n)]],
    ['OB Keys', 'return OB Keys($1).length', (n) => [properties(n)]],
    ['OB Values', 'return OB Values($1).length', (n) => [properties(n)]],
    ['OB Entries', 'return OB Entries($1).length', (n) => [properties(n)]],
    [
      'OB GET PROPERTY NAMES',
      'ARRAY TEXT($names; 0)\nOB GET PROPERTY NAMES($1; $names)\nreturn Size of array($names)',
      (n) => [properties(n)],
    ],
  ]
  budgetTests(CASES)
  // Written as steps (values/work.ts): a call in slices stops between two values or properties.
  stepsTests(CASES)

  it('OB Copy gives what it gives without a budget', () => {
    const code = 'return OB Copy($1; ck shared)'
    const unbounded = underBudget(code, [holding(10_000)])
    expect(underBudget(code, [holding(10_000)], 1e9)).toEqual(unbounded)
    expect(unbounded).toHaveProperty('value')
  })
})
