/**
 * @module Sandbox by construction (research §8.9), each attack by name: whatever a 4D text holds
 * (quotes, `*\/`, U+2028, JavaScript code, the names `constructor`, `__proto__`, `globalThis`,
 * `process`), the generated function names nothing but its parameters, and the text keeps its 4D
 * meaning: a string stays a string, a member read never reaches what JavaScript inherits.
 */
import { describe, expect, test } from 'vitest'
import { FourDError, raise } from '../runtime/errors/fourd-error.js'
import { GET_MEMBER } from '../runtime/values/host.js'
import { generatedSources } from './generated.fixture.js'
import { problemsOf } from './identifiers.fixture.js'
import { run4d } from './run4d.js'

/** Runs `text` after checking every generated form of it. */
function safeRun(text: string, options: Parameters<typeof run4d>[2] = {}): unknown {
  for (const source of generatedSources(text)) expect(problemsOf(source), source).toEqual([])
  return run4d(text, [], options)
}

const errorOf = (fn: () => unknown): FourDError => {
  try {
    fn()
  } catch (e) {
    if (FourDError.is(e)) return e
    throw e
  }
  throw new Error('no error')
}

describe('texts of the 4D source stay texts', () => {
  test('quotes and JavaScript code in a string', () => {
    const text = 'x"); process.exit(1); ("'
    expect(safeRun(`return "x\\"); process.exit(1); (\\""`)).toBe(text)
  })

  test('U+2028 and U+2029, which end a line in JavaScript source, are escaped', () => {
    const text = '$t:="a\u2028b\u2029c"\nvar $o : Object\n$o.a:=1'
    for (const source of generatedSources(text)) expect(source).not.toMatch(/[\u2028\u2029]/)
    expect(safeRun('return "a\u2028b\u2029c"')).toBe('a\u2028b\u2029c')
    // Raw, they would move the lines below them: the error names line 3.
    expect(errorOf(() => run4d(text)).line).toBe(3)
  })

  test('a comment end and a backslash', () => {
    expect(safeRun('return "*/ \\\\ /*" // */ process.exit(1)')).toBe('*/ \\ /*')
  })

  test('a property name with code in it, through [""]', () => {
    const key = '"]; globalThis.pwned = 1; ["'
    expect(
      safeRun(`$o:={}\n$o["\\"]; globalThis.pwned = 1; [\\""]:=1\nreturn JSON Stringify($o)`),
    ).toBe(JSON.stringify({ [key]: 1 }))
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
  })

  test('a line that does not parse, holding code, is only the text of its error', () => {
    const err = errorOf(() => safeRun('$x:=1 +* "); process.exit(1); //'))
    expect(err.errCode).toBe(9408)
    expect(err.message).toContain('process.exit(1)')
  })

  test("a formula's source text", () => {
    expect(safeRun('$f:=Formula("*/\\"" + $1)\nreturn $f.source')).toBe('"*/\\"" + $1')
  })
})

describe('names of the 4D source are never JavaScript names', () => {
  test('locals named like JavaScript globals and the generated names', () => {
    expect(
      safeRun(
        '$process:=1\n$globalThis:=2\n$rt:=3\n$v0:=4\n$constructor:=5\n$__proto__:=6\n$eval:=7\n' +
          'return $process+$globalThis+$rt+$v0+$constructor+$__proto__+$eval',
      ),
    ).toBe(28)
  })

  test('process variables named process and globalThis are 4D variables', () => {
    expect(safeRun('process:="p"\nglobalThis:="g"\nreturn process+globalThis')).toBe('pg')
    expect(safeRun('return Value type(require)=Is undefined')).toBe(true)
  })

  test('a project method named eval does not exist unless the project has it', () => {
    expect(errorOf(() => safeRun('eval("1")')).errCode).toBe(-10508)
  })
})

describe('members never reach what JavaScript inherits', () => {
  const inherited = [
    'constructor',
    '__proto__',
    'prototype',
    'hasOwnProperty',
    'toString',
    'valueOf',
  ]

  test.each(inherited)('%s of an object, a collection, a formula, cs and a class', (name) => {
    const read = (target: string): string => `Value type(${target}.${name})=Is undefined`
    const text =
      `$o:={}\n$c:=[]\n$f:=Formula(1)\n$i:=cs.Empty.new()\n` +
      `return [${[read('$o'), read('$c'), read('$f'), read('cs'), read('cs.Empty'), read('$i')].join('; ')}]`
    const result = safeRun(text, { classes: { Empty: '' } }) as { items: unknown[] }
    expect(result.items).toEqual([true, true, true, true, true, true])
  })

  test('calling an inherited name is an unknown member function', () => {
    expect(errorOf(() => safeRun('$o:={}\n$o.constructor("return process")')).errCode).toBe(-10729)
    expect(errorOf(() => safeRun('$o:={}\n$o.toString()')).errCode).toBe(-10729)
    expect(
      errorOf(() => safeRun('$i:=cs.Empty.new()\n$i.constructor()', { classes: { Empty: '' } }))
        .errCode,
    ).toBe(-10729)
  })

  test('assigning __proto__ makes a property, never a prototype', () => {
    const result = safeRun(
      '$o:={}\n$o.__proto__:={polluted: True}\nreturn [$o.polluted; JSON Stringify($o)]',
    ) as {
      items: unknown[]
    }
    expect(result.items).toEqual([null, '{"__proto__":{"polluted":true}}'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  test('a class may name its functions constructor or toString: they are 4D functions', () => {
    const classes = {
      Odd: 'Function constructor() : Text\n\treturn "mine"\nFunction toString() : Text\n\treturn "also mine"',
    }
    expect(
      safeRun('$i:=cs.Odd.new()\nreturn $i.constructor()+", "+$i.toString()', { classes }),
    ).toBe('mine, also mine')
  })
})

describe('the checker of generated code', () => {
  test('finds a free name, a name not the compiler’s, and a syntax error', () => {
    expect(problemsOf('let v0 = 1; return v0 + rt.add(th, ag);')).toEqual([])
    expect(problemsOf('return process.exit()')).toEqual([
      "a name that is not the compiler's: process",
      'a free name: process',
    ])
    expect(problemsOf('let v0; return v1')).toEqual(['a free name: v1'])
    expect(problemsOf('return "a" "b"').length).toBeGreaterThan(0)
  })
})

describe('errors raised deep in the host', () => {
  test('are placed at the 4D line that reached them, below many frames', () => {
    const deep = (n: number): unknown =>
      n === 0 ? raise('DivisionByZero', { left: '1', operator: '\\', right: '0' }) : deep(n - 1)
    const host = { [GET_MEMBER]: (name: string) => (name === 'deep' ? deep(40) : undefined) }
    const err = errorOf(() => run4d('$a:=1\n$b:=$1.deep', [host]))
    expect([err.errCode, err.method, err.line]).toEqual([9400, 'run4d', 2])
  })
})
