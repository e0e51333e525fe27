/**
 * @module A project's ORDA classes on the bridge (docs/ORDA/ordaClasses.md): `Class extends
 * Entity`, `DataClass`, `EntitySelection`, `DataStoreImplementation` — `This` is the object of core
 * as 4D code sees it, the class's functions and computed properties are found on it, and
 * `Super.name()` reaches 4D's member.
 */
import { describe, expect, test } from 'vitest'
import { runFor, store } from './orda.fixture.js'

const classes = {
  EmployeeEntity: `
Class extends Entity

Function get label() : Text
  return This.lastName+" ("+This.employer.name+")"

Function giveRaise($percent : Real) : Object
  This.salary:=This.salary*(1+($percent/100))
  return This.save()
`,
  Employee: `
Class extends DataClass

Function paidAtLeast($min : Real) : Object
  return This.query("salary >= :1"; $min).orderBy("salary desc")
`,
  EmployeeSelection: `
Class extends EntitySelection

Function payroll() : Real
  return This.sum("salary")

Function first() : Object
  // Overrides 4D's member, which Super still reaches.
  return Super.last()
`,
  DataStore: `
Class extends DataStoreImplementation

Function companies() : Collection
  return This.Company.all().orderBy("name").toCollection("name")
`,
  Plain: `
Function hello() : Text
  return "hello"
`,
}

describe('ORDA classes of a project', () => {
  test('Entity class: a computed property and a function changing This and saving it', () => {
    const ds = store()
    const code = `
var $e : Object:=ds.Employee.get(1)
var $status : Object:=$e.giveRaise(10)
return [$e.label; $status.success; ds.Employee.get(1).salary]`
    expect(runFor(ds, code, { classes })).toEqual(['Lovelace (Acme)', true, 5500])
  })

  test('DataClass and EntitySelection classes: This is the dataclass, the selection', () => {
    const ds = store()
    const code = `
var $sel : Object:=ds.Employee.paidAtLeast(6000)
return [$sel.length; $sel.payroll(); $sel.first().lastName; $sel.slice(0; 1).payroll()]`
    // `first()` is the class's (the last member); slice() gives a selection of the same class.
    expect(runFor(ds, code, { classes })).toEqual([2, 13000, 'Turing', 7000])
  })

  test('DataStore class: ds has its functions; a relation reaches the other classes', () => {
    const ds = store()
    const code = `return [ds.companies(); ds.Company.get(2).staff.payroll()]`
    expect(runFor(ds, code, { classes })).toEqual([[{ name: 'Acme' }, { name: 'Globex' }], 7000])
  })

  test('a class named like an ORDA class that does not extend it is not used for its objects', () => {
    const ds = store()
    const own = { ...classes, EmployeeEntity: classes.Plain }
    const code = `
Try
  ds.Employee.get(1).hello()
Catch
  return Last errors[0].errCode
End try`
    expect(runFor(ds, code, { classes: own })).toBe(-10729)
  })

  test('4D.Entity, 4D.EntitySelection, 4D.DataClass, 4D.DataStoreImplementation: OB Instance of', () => {
    const ds = store()
    const code = `
var $e : Object:=ds.Employee.get(1)
var $c : Object:=ds.Company.get(1)
return [OB Instance of($e; 4D.Entity); OB Instance of($e; cs.EmployeeEntity); OB Instance of($c; 4D.Entity); \\
  OB Instance of($e; 4D.EntitySelection); OB Instance of(ds.Employee.all(); 4D.EntitySelection); \\
  OB Instance of(ds.Employee; 4D.DataClass); OB Instance of(ds; 4D.DataStoreImplementation); \\
  OB Instance of($e; 4D.Object); OB Instance of(New object; 4D.Entity); \\
  OB Instance of(ds; 4D.DataStore)]`
    expect(runFor(ds, code, { classes })).toEqual([
      true,
      true,
      true,
      false,
      true,
      true,
      true,
      true,
      false,
      true,
    ])
  })

  test('OB Class: the project class when it has one (cs.EmployeeEntity), else 4D.Entity', () => {
    const ds = store()
    const code = `
return [OB Class(ds.Employee.get(1)).name; OB Class(ds.Company.get(1)).name; \\
  OB Class(ds.Employee.all()).name; OB Class(ds.Company.all()).name; \\
  OB Class(ds.Employee).name; OB Class(ds).name; OB Class(ds.Employee.get(1))=cs.EmployeeEntity; \\
  OB Class(ds.Company.get(1))=4D.Entity; cs.EmployeeEntity.superclass=4D.Entity]`
    expect(runFor(ds, code, { classes })).toEqual([
      'EmployeeEntity',
      'Entity',
      'EmployeeSelection',
      'EntitySelection',
      'Employee',
      'DataStore',
      true,
      true,
      true,
    ])
  })
})
