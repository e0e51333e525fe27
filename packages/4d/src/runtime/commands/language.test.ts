// The Language and Boolean themes (docs/commands-legacy/*.md, docs/commands/*.md).
import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'

describe('Value type, Type, Undefined, Bool, Not', () => {
  it('the type of each kind of value', () => {
    expect(
      run(
        `return [Value type(1)=Is real; Value type("a")=Is text; Value type(!2020-01-01!)=Is date; Value type(?01:00:00?)=Is time; Value type(True)=Is Boolean; Value type({})=Is object; Value type([])=Is collection; Value type(Null)=Is null; Value type($u)=Is undefined; Type("a")=Is text]`,
      ),
    ).toEqual(Array(10).fill(true))
  })

  it('finds no modifier key down, as a process of 4D Server has no keyboard', () => {
    expect(
      run(
        'return [Shift down; Caps lock down; Macintosh option down; Macintosh command down; Macintosh control down; Windows Alt down; Windows Ctrl down]',
      ),
    ).toEqual(Array(7).fill(false))
  })

  // set-assert-enabled.md: without `*` every process, with `*` the calling one only; off, the
  // expressions passed to ASSERT are not evaluated. asserted.md: off, Asserted gives the
  // expression's value and raises nothing.
  it('turns the assertions off and on again (SET ASSERT ENABLED), plain and tokenized', () => {
    expect(
      run(
        [
          'var $c : Collection:=[]',
          'var $seen : Collection:=[Get assert enabled]',
          'SET ASSERT ENABLED(False)',
          'ASSERT($c.push(1).length=0; "neither raised nor evaluated")',
          '$seen.push(Get assert enabled; Asserted(False); Asserted(True); $c.length)',
          'SET ASSERT ENABLED:C1131(True; *)',
          '$seen.push(Get assert enabled:C1130)',
          'return $seen',
        ].join('\n'),
      ),
    ).toEqual([true, false, false, true, 0, true])
    expect(errorOf('SET ASSERT ENABLED(True)\nASSERT(1=2; "raised")')).toMatchObject({
      errCode: -10518,
    })
    // The calling process's own choice (`*`) wins over every process's, until a call without `*`.
    expect(
      run('SET ASSERT ENABLED(False; *)\nSET ASSERT ENABLED(True)\nreturn Get assert enabled'),
    ).toBe(true)
    expect(
      run('SET ASSERT ENABLED(False)\nSET ASSERT ENABLED(True; *)\nreturn Get assert enabled'),
    ).toBe(true)
  })

  it("names the arrays' types as type.md numbers them (code keys tables by them)", () => {
    expect(
      run(
        'return [Real array; Integer array; LongInt array; Date array; Text array; Picture array; Pointer array; String array; Boolean array; Blob array; Time array; Object array:K8:28; Array 2D; Is subtable]',
      ),
    ).toEqual([14, 15, 16, 17, 18, 19, 20, 21, 22, 31, 32, 39, 13, 7])
  })
  it('Undefined, Bool, Not', () => {
    expect(
      run(
        `$o:={a: Null}\nreturn [Undefined($o.a); Undefined($o.b); Bool(1); Bool("a"); Not(False)]`,
      ),
    ).toEqual([false, true, true, false, true])
  })
})

describe('Choose', () => {
  it('a Boolean picks one of two values; a number the value at its position (from 0)', () => {
    expect(
      run(
        `return [Choose(True;"Mr";"Ms"); Choose(False;"Mr";"Ms"); Choose(2;"Single";"Married";"Widowed";"Divorced")]`,
      ),
    ).toEqual(['Mr', 'Ms', 'Widowed'])
  })
  it("no value at that position: the empty value of the values' type", () => {
    expect(run(`return [Choose(5;"a";"b"); Choose(-1;1;2); Choose(3;!2020-01-01!)]`)).toEqual([
      '',
      0,
      '0000-00-00',
    ])
  })
  it('a Boolean criterion with other than two values is an error', () => {
    expect(errorOf(`return Choose(True;1;2;3)`).errCode).toBe(9415)
  })
})

describe('ASSERT, Last errors', () => {
  it('ASSERT raises -10518 on False; Last errors after a Try', () => {
    expect(errorOf(`ASSERT(1=2;"one is two")`)).toEqual({
      errCode: -10518,
      message: 'Assert failed: one is two',
    })
    expect(run(`$x:=Try(1/"a")\nreturn Last errors[0].errCode`)).toBe(54)
  })
  it('commands of the user interface name themselves as not runnable', () => {
    expect(errorOf(`ALERT("hello")`)).toEqual({
      errCode: 9409,
      message: 'The command "ALERT" is not implemented',
    })
  })
})

describe('Asserted', () => {
  it('asserted.md: ASSERT that returns the result, usable in a condition', () => {
    expect(
      run(`$locked:=False
If (Asserted(Not($locked)))
  $ran:=True
End if
return [Asserted(1=1;"never"); $ran]`),
    ).toEqual([true, true])
  })
  it('asserted.md: a False raises -10518 "exactly as for the ASSERT command", its message given', () => {
    expect(errorOf(`If (Asserted(1=2;"one is two"))\nEnd if`)).toEqual({
      errCode: -10518,
      message: 'Assert failed: one is two',
    })
    expect(run(`$ok:=Try(Asserted(False))\nreturn [$ok=Null; Last errors[0].errCode]`)).toEqual([
      true,
      -10518,
    ])
  })
})
