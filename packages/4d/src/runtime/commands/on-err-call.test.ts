// ON ERR CALL (docs/commands-legacy/on-err-call.md, docs/Concepts/error-handling.md): the
// error-handling method runs on an error, and the code goes on after the failing line.
import { describe, expect, it } from 'vitest'
import { errorOf, run } from './run.fixture.js'

const HANDLER = { IO_ERRORS: `gError:=Error\ngMethod:=Error method\ngLine:=Error line` }

describe('ON ERR CALL', () => {
  it('on-err-call.md example 2: the handler copies Error, the method goes on and reads it', () => {
    expect(
      run(
        `gError:=0
ON ERR CALL("IO_ERRORS")
$x:=1\\0
$after:="went on"
ON ERR CALL("")
return [gError; $after; $x; gMethod; gLine]`,
        { methods: HANDLER },
      ),
    ).toEqual([9400, 'went on', null, 'run4d', 3])
  })
  it('Last errors in the handler; Method called on error names it; "" stops trapping', () => {
    expect(
      run(
        `ON ERR CALL("keep")
$m:=Method called on error
throw(-1; "first")
ON ERR CALL("")
Try
  throw(-2; "second")
End try
return [$m; Method called on error; gErrors[0].errCode; gErrors[0].message]`,
        { methods: { keep: `gErrors:=Last errors` } },
      ),
    ).toEqual(['keep', '', -1, 'first'])
    expect(
      errorOf(`ON ERR CALL("keep")\nON ERR CALL("")\n$x:=1\\0`, { methods: { keep: '' } }).errCode,
    ).toBe(9400)
  })
  it('an error in a called method: the handler runs, the caller goes on after its call', () => {
    expect(
      run(
        `ON ERR CALL("IO_ERRORS")
$r:=fails
$n:=2
return [gError; gMethod; gLine; $n; $r]`,
        { methods: { ...HANDLER, fails: `$0:=1\n$y:=1\\0\n$0:=2` } },
      ),
    ).toEqual([9400, 'fails', 2, 2, null])
  })
  it('a Try block of the method catches first; its Catch runs, the handler does not', () => {
    expect(
      run(
        `gError:=0
ON ERR CALL("IO_ERRORS")
Try
  $x:=1\\0
Catch
  $caught:=Last errors[0].errCode
End try
return [gError; $caught]`,
        { methods: HANDLER },
      ),
    ).toEqual([0, 9400])
  })
  it('an error in the handler itself goes on as an error of the code', () => {
    expect(
      errorOf(`ON ERR CALL("bad")\n$x:=1\\0\nreturn 1`, { methods: { bad: `$y:=1\\0` } }).errCode,
    ).toBe(9400)
  })
  it('in a class function: the loop goes on past the failing element', () => {
    expect(
      run(`return cs.Parser.new().parseAll(["1"; "{bad"; "[2]"])`, {
        classes: {
          Parser: `Function parseAll($texts : Collection) : Collection
var $out : Collection
$out:=[]
ON ERR CALL("skip")
For each ($t; $texts)
  $out.push(JSON Parse($t))
End for each
ON ERR CALL("")
return $out`,
        },
        methods: { skip: '' },
      }),
    ).toEqual([1, [2]])
  })
})
