// The contract between the command table and the compiler for the variables commands write:
// the entries' `writes`, and a command given an OutParameter or a value there. The commands run
// from 4D code are tested with their themes (strings.test.ts, objects.test.ts) and the kinds
// of variables the compiler passes in compile/emit/variables.test.ts.
import { describe, expect, it } from 'vitest'
import { Runtime } from '../index.js'
import { FourDError } from '../errors/fourd-error.js'
import { COMMANDS } from '../commands/index.js'
import { isOutParameter, outArg, outParameter } from './out-parameter.js'

const rt = new Runtime()
const call = (name: string, ...args: unknown[]): unknown =>
  COMMANDS.byName(name)!.impl!(rt, ...args)

describe('out-parameters', () => {
  it('the entries list the positions they write, from 0', () => {
    const writing = COMMANDS.entries
      .filter((e) => e.writes !== undefined)
      .map((e) => [e.name, e.writes])
    expect(writing).toEqual([
      ['CLEAR VARIABLE', [0]],
      ['EXECUTE METHOD', [1]],
      ['Position', [3]],
      ['Match regex', [3, 4]],
      ['OB SET', [0]],
      ['OB SET NULL', [0]],
      ['OB GET PROPERTY NAMES', [1, 2]],
      ...[
        'ARRAY TEXT',
        'ARRAY LONGINT',
        'ARRAY INTEGER',
        'ARRAY REAL',
        'ARRAY BOOLEAN',
        'ARRAY DATE',
        'ARRAY TIME',
        'ARRAY OBJECT',
      ].map((name) => [name, [0]]),
      ['Find in sorted array', [3, 4]],
      ['COPY ARRAY', [1]],
      ['BASE64 ENCODE', [0, 1]],
      ['BASE64 DECODE', [0, 1]],
      ['Application version', [0]],
      ['GET SYSTEM FORMAT', [1]],
      ['SET BLOB SIZE', [0]],
      ['INSERT IN BLOB', [0]],
      ['DELETE FROM BLOB', [0]],
      ['COPY BLOB', [1]],
      ['TEXT TO BLOB', [1, 3]],
      ['BLOB to text', [2]],
      ...['INTEGER', 'LONGINT', 'REAL'].flatMap((n) => [
        [`${n} TO BLOB`, [1, 3]],
        [`BLOB to ${n.toLowerCase()}`, [2]],
      ]),
      ['CONVERT FROM TEXT', [2]],
      ['Get database parameter', [1]],
      ['READ PICTURE FILE', [1]],
      ['BLOB TO PICTURE', [1]],
      ['PICTURE TO BLOB', [1]],
      ['CONVERT PICTURE', [0]],
      ['CREATE THUMBNAIL', [1]],
      ['PICTURE PROPERTIES', [1, 2, 3, 4, 5]],
      ['HTTP Request', [3]],
      ['HTTP Get', [1]],
      ['HTTP GET OPTION', [1]],
      ['RESOLVE POINTER', [1, 2, 3]],
      ['DOCUMENT TO BLOB', [1]],
      ['LAUNCH EXTERNAL PROCESS', [1, 2, 3, 4]],
      ['PROCESS 4D TAGS', [1]],
    ])
  })
  it('a command reads and assigns the variable through it', () => {
    let held: unknown = 'before'
    const length = outParameter(
      () => held,
      (v) => (held = v),
    )
    expect(isOutParameter(length)).toBe(true)
    expect(call('Position', 'œ', 'Bœuf', 1, length)).toBe(2)
    expect(held).toBe(1)
  })
  it('outArg refuses a value with 9415 naming the parameter and the command', () => {
    let error: unknown
    try {
      outArg('Position', 'lengthFound', 3)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(FourDError)
    expect((error as FourDError).errCode).toBe(9415)
    expect((error as FourDError).message).toContain('"lengthFound" parameter of Position')
  })
})
