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
})
