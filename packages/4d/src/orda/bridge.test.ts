/**
 * @module The ORDA bridge from 4D code: queries with placeholders, the save and drop status
 * objects, `For each` over a selection, orders, collections and sums, relations, dates, and the
 * errors of core seen as 4D's, each written from 4D's class pages (EntityClass.md,
 * EntitySelectionClass.md, DataClassClass.md) and run by the compiler on a small datastore.
 */
import { describe, expect, test } from 'vitest'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { DateValue } from '../runtime/values/date-value.js'
import { runFor, runOn, store } from './orda.fixture.js'

describe('DataClass and EntitySelection members', () => {
  test('query with placeholders separated by ";", length, first, last', () => {
    const ds = store()
    const code = `
var $sel : Object:=ds.Employee.query("salary > :1 and employer.name = :2"; 5500; "Acme")
return [$sel.length; $sel.first().lastName; ds.Employee.query("salary >= :1"; 5000).last().lastName]`
    expect(runFor(ds, code)).toEqual([1, 'Turing', 'Hopper'])
  })

  test('query settings as the last parameter: named parameters', () => {
    const ds = store()
    const code = `return ds.Employee.query("salary > :min"; {parameters: {min: 5500}}).length`
    expect(runFor(ds, code)).toBe(2)
  })

  test('query(Formula) on a dataclass and a selection: This is the entity', () => {
    const ds = store()
    const code = `
var $rich : Object:=ds.Employee.query(Formula(This.salary > 5500))
return [$rich.length; ds.Employee.all().query(Formula(This.lastName = "L@")).length]`
    expect(runFor(ds, code)).toEqual([2, 1])
  })

  test('For each over a selection ordered by orderBy("… desc"); $sel[i]', () => {
    const ds = store()
    const code = `
var $names : Collection:=[]
var $e : Object
var $sel : Object:=ds.Employee.all().orderBy("lastName desc")
For each ($e; $sel)
  $names.push($e.lastName)
End for each
$names.push($sel[0].next().lastName)
return $names`
    expect(runFor(ds, code)).toEqual(['Turing', 'Lovelace', 'Hopper', 'Lovelace'])
  })

  test('an entity of For each remembers its selection and place; saved, it is its own', () => {
    const ds = store()
    const code = `
var $out : Collection:=[]
var $e : Object
For each ($e; ds.Employee.all().orderBy("salary desc"))
  $out.push($e.indexOf())
End for each
$e.salary:=1
$e.save()
$out.push($e.getSelection()=Null; $e.salary)
return $out`
    expect(runFor(ds, code)).toEqual([0, 1, 2, true, 1])
  })

  test('sum, average, min, max, count, distinct; Undefined where 4D answers it', () => {
    const ds = store()
    const code = `
var $all : Object:=ds.Employee.all()
var $none : Object:=ds.Employee.query("salary > :1"; 99999)
return [$all.sum("salary"); $all.average("salary"); $all.min("salary"); $all.max("lastName"); \\
  $all.count("extra.rank"); $all.employer.distinct("name"); $none.average("salary")=Null; $none.sum("salary")]`
    expect(runFor(ds, code)).toEqual([18000, 6000, 5000, 'Turing', 1, ['Acme', 'Globex'], true, 0])
  })

  test('toCollection with a filter, slice, and/or/minus', () => {
    const ds = store()
    const code = `
var $all : Object:=ds.Employee.all()
var $acme : Object:=ds.Company.get(1).staff
var $c : Collection:=$all.slice(1; 3).toCollection("lastName, employer.name")
return [$c; $acme.or($all).length; $all.minus($acme).first().lastName; $acme.and($all.last()).length]`
    expect(runFor(ds, code)).toEqual([
      [
        { lastName: 'Turing', employer: { name: 'Acme' } },
        { lastName: 'Hopper', employer: { name: 'Globex' } },
      ],
      3,
      'Hopper',
      0,
    ])
  })

  test('out of range $sel[i] is an error, not Undefined', () => {
    const ds = store()
    expect(() => runOn(ds, 'return ds.Employee.all()[3]')).toThrow(FourDError)
  })
})

describe('Entity members', () => {
  test('new(), attributes assigned, save() answers the status object; the entity is stored', () => {
    const ds = store()
    const code = `
var $e : Object:=ds.Employee.new()
$e.lastName:="Knuth"
$e.salary:=9000
$e.email:="don@acme"
$e.employer:=ds.Company.get(2)
var $status : Object:=$e.save()
return [$status; $e.isNew(); $e.getKey(); $e.employer.name]`
    expect(runFor(ds, code)).toEqual([{ success: true }, false, 4, 'Globex'])
    expect(ds.dataClass('Employee').get(4)?.get('lastName')).toBe('Knuth')
  })

  test('save() refused by the data: status 4 and the errors, never a 4D error', () => {
    const ds = store()
    const code = `
var $e : Object:=ds.Employee.get(2)
$e.email:="ada@acme"
var $status : Object:=$e.save()
return [$status.success; $status.status; $status.statusText; $e.touched()]`
    expect(runFor(ds, code)).toEqual([false, 4, 'Other error', true])
  })

  test('save() after someone else saved: status 2; drop() then get() is Null', () => {
    const ds = store()
    const code = `
var $e : Object:=ds.Employee.get(1)
var $other : Object:=ds.Employee.get(1)
$other.salary:=1
$other.save()
$e.salary:=2
var $stale : Object:=$e.save()
var $drop : Object:=$other.drop()
return [$stale.status; $drop.success; ds.Employee.get(1)=Null]`
    expect(runFor(ds, code)).toEqual([2, true, true])
  })

  test('a Date attribute is a 4D Date, written back as core stores it', () => {
    const ds = store()
    const code = `
var $e : Object:=ds.Employee.get(2)
var $d : Date:=$e.birthDate
$e.birthDate:=$d+1
$e.save()
return $d`
    const d = runOn(ds, code)
    expect(d).toBeInstanceOf(DateValue)
    expect((d as DateValue).toISO()).toBe('1912-06-23')
    expect(ds.dataClass('Employee').get(2)?.get('birthDate')).toBe('1912-06-24')
  })

  test('toObject, an object attribute as a 4D object, getStamp, touchedAttributes', () => {
    const ds = store()
    const code = `
var $e : Object:=ds.Employee.get(3)
$e.salary:=$e.salary+1
return [$e.extra.rank; $e.toObject("lastName, employer"); $e.getStamp(); $e.touchedAttributes()]`
    expect(runFor(ds, code)).toEqual([
      'admiral',
      { lastName: 'Hopper', employer: { __KEY: 2 } },
      1,
      ['salary'],
    ])
  })
})

describe('DataStore members', () => {
  test("OB Keys(ds) lists the dataclasses; getInfo() says what the datastore is, as 4D's", () => {
    const code = 'return [OB Keys(ds); ds.getInfo()]'
    expect(runFor(store(), code)).toEqual([
      ['Company', 'Employee'],
      { type: '4D', networked: false, localID: '' },
    ])
  })
})

describe('errors of core as 4D errors', () => {
  test('a query that does not parse: core’s code, caught by Try', () => {
    const ds = store()
    const code = `
Try
  ds.Employee.query("salary >>> :1"; 1)
Catch
  return Last errors[0].errCode
End try`
    expect(runFor(ds, code)).toBe(9001)
  })

  test('an attribute that does not exist: 1500 when assigned; an unknown function: -10729', () => {
    const ds = store()
    expect(() => runOn(ds, '$e:=ds.Employee.get(1)\n$e.nope:=1')).toThrow(
      expect.objectContaining({ errCode: 1500 }),
    )
    expect(() => runOn(ds, 'ds.Employee.get(1).nope()')).toThrow(
      expect.objectContaining({ errCode: -10729 }),
    )
  })

  test('get() of a key that does not exist is Null, as 4D', () => {
    expect(runFor(store(), 'return ds.Employee.get(99)=Null')).toBe(true)
  })
})
