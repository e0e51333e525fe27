// LAUNCH EXTERNAL PROCESS and SET ENVIRONMENT VARIABLE (external-process.ts) against a host that
// records what it is asked.
import { describe, expect, it } from 'vitest'
import type { ExecAsk, ExecHost } from '../context/command-context.js'
import { commandWords } from './external-process.js'
import { errorOf, run } from './run.fixture.js'

const recording = (asked: ExecAsk[], reply: ReturnType<ExecHost['run']>): ExecHost => ({
  run: (ask) => (asked.push(ask), reply),
})
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

describe('LAUNCH EXTERNAL PROCESS', () => {
  it('splits the command line as words, quotes grouping', () => {
    expect(commandWords(`osascript -e 'tell app "4D" to activate'`)).toEqual([
      'osascript',
      '-e',
      'tell app "4D" to activate',
    ])
    expect(commandWords(' "C:\\Program Files\\x.exe"  a "" b ')).toEqual([
      'C:\\Program Files\\x.exe',
      'a',
      '',
      'b',
    ])
  })

  it('gives the input, writes the output and error streams and the pid, OK 1', () => {
    const asked: ExecAsk[] = []
    const exec = recording(asked, {
      pid: 42,
      stdout: bytes('out'),
      stderr: bytes('err'),
      status: 0,
    })
    expect(
      run(
        `var $in; $out; $err : Text
var $pid : Integer
$in:="hello"
SET ENVIRONMENT VARIABLE("GREETING"; "hi")
SET ENVIRONMENT VARIABLE("_4D_OPTION_CURRENT_DIRECTORY"; "Resources")
LAUNCH EXTERNAL PROCESS("cat -n"; $in; $out; $err; $pid)
$first:=OK
LAUNCH EXTERNAL PROCESS("tasklist"; $pid)
return [$first; $out; $err; $pid; OK]`,
        { runtime: { exec } },
      ),
    ).toEqual([1, 'out', 'err', 42, 1])
    expect(asked[0]).toEqual({
      program: 'cat',
      args: ['-n'],
      cwd: 'Resources',
      env: { GREETING: 'hi' },
      input: bytes('hello'),
      blocking: true,
    })
    // The variables were for that call only; `(fileName; pid)` gives no input.
    expect(asked[1]).toMatchObject({ program: 'tasklist', env: {}, input: new Uint8Array(0) })
  })

  it('writes a BLOB stream as bytes, returns no stream when asked not to wait', () => {
    const asked: ExecAsk[] = []
    const exec = recording(asked, { pid: 7, stdout: bytes('x'), stderr: bytes(''), status: null })
    expect(
      run(
        `var $in; $out : Blob
var $text : Text
LAUNCH EXTERNAL PROCESS("gzip"; $in; $out)
$size:=BLOB size($out)
SET ENVIRONMENT VARIABLE("_4D_OPTION_BLOCKING_EXTERNAL_PROCESS"; "false")
LAUNCH EXTERNAL PROCESS("server"; $in; $text)
return [$size; $text]`,
        { runtime: { exec } },
      ),
    ).toEqual([1, ''])
    expect(asked[1]!.blocking).toBe(false)
  })

  it('sets OK 0 for a program that cannot start; refuses one the host does not allow, or with no host', () => {
    const failed = recording([], { failed: 'nope was not found' })
    expect(run('LAUNCH EXTERNAL PROCESS("nope")\nreturn OK', { runtime: { exec: failed } })).toBe(0)
    const refused = recording([], { refused: 'it is not one of --allow-exec' })
    expect(errorOf('LAUNCH EXTERNAL PROCESS("rm -rf x")', { runtime: { exec: refused } })).toEqual({
      errCode: 9437,
      message: 'Running rm is not allowed here: it is not one of --allow-exec',
    })
    expect(errorOf('LAUNCH EXTERNAL PROCESS("ls")').errCode).toBe(9437)
    expect(errorOf('LAUNCH EXTERNAL PROCESS("  ")').errCode).toBe(9415)
  })
})
