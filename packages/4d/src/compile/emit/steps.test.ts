import { describe, expect, it } from 'vitest'
import type { MethodFileNode } from '../../ast/files.js'
import { parse4d } from '../../grammar/parse.js'
import { analyze } from '../analyze.js'
import { Session } from '../session.js'
import { methodUnit } from '../units.js'
import { emitUnit } from './function.js'

// The generator a call in slices runs, for the method `text`.
function steps(text: string): string {
  const file = 'Project/Sources/Methods/m.4dm'
  const ast = parse4d(text, { file, kind: 'method' }).file as MethodFileNode
  const analysis = analyze(methodUnit(ast), new Session(file), text)
  return emitUnit(analysis, { budget: true, lines: false, steps: true }).source
}

const lineOf = (source: string, marker: string): string =>
  source.split('\n').find((l) => l.includes(marker)) ?? ''

describe('a unit generated as steps', () => {
  it('stops at its loops and goes into the 4D functions it calls', () => {
    const source = steps('While (True)\n$n:=This.f($n)\nEnd while')
    expect(source).toContain('return function* (rt, th, ag, cx)')
    expect(lineOf(source, 'while')).toContain('yield;')
    expect(lineOf(source, '"f"')).toContain('rt.callSteps(th, "f"')
    expect(lineOf(source, '"f"')).toContain('yield*')
  })

  it('runs a Use block, a formula and Try(…) in one piece', () => {
    const source = steps(`Use (Storage)
  For ($i; 1; 10)
    Storage.n:=This.f($i)
  End for
End use
$g:=Formula(This.f($1))
$x:=Try(This.f(1))`)
    const use = source.slice(source.indexOf('rt.useBegin()'), source.indexOf('rt.useEnd()'))
    expect(use).not.toContain('yield')
    expect(use).toContain('rt.call(th, "f"')
    expect(lineOf(source, 'rt.formula(')).not.toContain('yield')
    expect(lineOf(source, 'rt.tryStart()')).not.toContain('yield')
  })
})
