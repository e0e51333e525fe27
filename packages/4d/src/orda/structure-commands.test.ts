/**
 * @module The Structure Access commands that name tables by number (commands/structure.ts), on a
 * datastore: `Table name`, `Is table number valid`, `Get last table number`, as code listing the
 * tables by number (a generic list, a log) runs them.
 */
import { describe, expect, test } from 'vitest'
import { runFor, store } from './orda.fixture.js'

describe('Table name, Is table number valid, Get last table number', () => {
  test("name each table by the structure's number, as getInfo() numbers it", () => {
    const ds = store()
    const code = `
var $names : Collection:=[]
For ($t; 1; Get last table number)
	If (Is table number valid($t))
		$names.push(Table name($t))
	End if
End for
return [$names; Table name(ds.Employee.getInfo().tableNumber); Is table number valid(99); Table name(99)]`
    expect(runFor(ds, code)).toEqual([['Company', 'Employee'], 'Employee', false, ''])
  })

  test('name each field by its number, the fields of a table being its stored attributes', () => {
    const ds = store()
    const code = `
$t:=ds.Employee.getInfo().tableNumber
var $names : Collection:=[]
For ($f; 1; Get last field number($t))
	If (Is field number valid($t; $f))
		$names.push(Field name($t; $f))
	End if
End for
return [$names; Field name($t; ds.Employee.salary.fieldNumber); Is field number valid($t; 99)]`
    // A relation is no field of its own (its key's field is the one a structure file has).
    expect(runFor(ds, code)).toEqual([
      ['ID', 'lastName', 'salary', 'email', 'birthDate', 'extra'],
      'salary',
      false,
    ])
  })
})
