// Get database parameter and SET DATABASE PARAMETER (set-database-parameter.md).
import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'

describe('Get database parameter, SET DATABASE PARAMETER', () => {
  it('read the documented defaults, tokenized or not', () => {
    expect(
      run(`return [Get database parameter(Tips enabled); Get database parameter(Tips delay:K37:80); \\
Get database parameter(Debug log recording:K37:34); Get database parameter(Circular log limitation); \\
Get database parameter(Is current database a project); Get database parameter(Dates inside objects)]`),
    ).toEqual([1, 45, 0, 50, 1, 2])
  })

  it('keep what is set, as real code saves and restores the debug log around its work', () => {
    expect(
      run(`$saved:=Get database parameter(Debug log recording)
SET DATABASE PARAMETER(Debug log recording; 1)
$during:=Get database parameter(Debug log recording)
SET DATABASE PARAMETER(Debug log recording; $saved)
return [$saved; $during; Get database parameter(Debug log recording)]`),
    ).toEqual([0, 1, 0])
  })

  it('write a text value to the stringValue variable, the result 0', () => {
    expect(
      run(`SET DATABASE PARAMETER(User param value; "nightly")
var $text : Text
$n:=Get database parameter(User param value; $text)
return [$n; $text]`),
    ).toEqual([0, 'nightly'])
  })

  it('refuse a read-only selector, an unknown one, and a value that would change what code computes', () => {
    expect(errorOf('SET DATABASE PARAMETER(Is host database writable; 0)').message).toMatch(
      /can only be read/,
    )
    expect(errorOf('$x:=Get database parameter(9999)').message).toMatch(/no selector/)
    expect(errorOf('SET DATABASE PARAMETER(Dates inside objects; 0)').message).toMatch(
      /SET DATABASE PARAMETER\(Dates inside objects\)/,
    )
    // The value Entistore runs with is accepted.
    expect(run('SET DATABASE PARAMETER(Dates inside objects; 2)\nreturn 1')).toBe(1)
  })
})
